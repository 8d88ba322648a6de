"""The adjudicator's reasons in each language: every key has a message in every lexicon,
filled with what the reason names in the language's words (English too: ``str(reason)``
is the ``adjudicate`` contract's wording, in the notation's terms)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from realpolitik.adjudicator.reasons import ENGLISH, Reason
from realpolitik.maps import GameMap, load_map
from realpolitik.notation import (
    explain,
    format_order,
    language_data,
    province_entries,
    unit_phrase,
)
from realpolitik.notation.reasons import SAME, message, say
from realpolitik.orders import Hold, UnitRef
from realpolitik.vocab import ARMY

SAMPLE = {
    "province": "SPA",
    "location": "MAO",
    "coast": "NC",
    "coasts": ("NC", "SC"),
    "unit": "A VEN",
    "name": "Spain",
    "power": "FRANCE",
    "units": ("A PAR", "F MAO"),
    "strength": 1,
    "against": 2,
    "number": 2,
}
"""What a sample reason names, by field."""
NAMED = {
    "wrong_unit_type": {"unit": "A", "name": "F"},  # unit types
    "dislodged_type": {"unit": "A", "name": "F"},
    "wrong_unit_coast": {"location": "SPA/SC", "name": "SPA/NC"},  # locations
    "fleet_elsewhere": {"name": "a fleet at SPA/SC cannot move to GAS"},  # another reason
    "not_movement": {"name": "retreat"},  # a kind of order
}
"""Fields whose sample is not :data:`SAMPLE`'s."""


def sample(key: str) -> Reason:
    """A reason of ``key`` naming every field its English names."""
    fields = {f: SAMPLE[f] for f in re.findall(r"\{(\w+)\}", ENGLISH[key])}
    return Reason(key, **(fields | NAMED.get(key, {})))  # type: ignore[arg-type]


KEYS = sorted(key for key in ENGLISH if key != "said")


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
@pytest.mark.parametrize("key", KEYS)
def test_every_reason_is_said_in_every_language(key: str, language: str) -> None:
    messages = language_data(language)["messages"]
    assert SAME.get(key, key) in messages, f"no {language} message for {key}"
    reason = sample(key)
    said = explain(reason, language)
    assert "{" not in said and "}" not in said, said
    assert said, key
    if language != "en":
        assert said != str(reason), said  # not the English fallback
    # in words, not the notation's codes ("the army in Venice", not "A VEN")
    for code in ("SPA", "MAO", "VEN", "FRANCE", "A PAR", "F MAO"):
        assert code not in said, said


def test_english_says_powers_places_and_units_in_words() -> None:
    """The English page and printout say a reason as the other languages do; its
    ``adjudicate`` wording (``str``) stays in the notation's terms."""
    removal = Reason("no_removal_due", power="GERMANY")
    assert str(removal) == "GERMANY has no removal due"
    assert explain(removal, "en") == "Germany has no removal due"
    bounce = Reason("bounced_off", unit="F NTH", strength=1, against=2)
    assert explain(bounce, "en") == "bounced off the fleet in the North Sea (1 against 2)"
    assert explain(Reason("said", name="as it was given"), "en") == "as it was given"


@pytest.mark.parametrize("language", ["es", "fr", "pt"])
def test_a_unit_without_an_order_is_not_told_its_hold_again(language: str) -> None:
    """Its reason is said after its hold's words, in the results ("O exército de Paris
    permanece. | não deslocada | sem ordem: permanece"): it says why, not the verb again."""
    hold = format_order(Hold(UnitRef(ARMY, "PAR")), language, "long").lower().rstrip(".")
    said = explain(Reason("no_order"), language)
    verbs = set(hold.split()) - set(unit_phrase(UnitRef(ARMY, "PAR"), language).split())
    words = [w for w in said.split() if len(w) > 2]
    assert said and not any(v in said or w in v for v in verbs for w in words), (hold, said)


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_a_count_is_written_in_the_singular_or_the_plural_not_both(language: str) -> None:
    """No message writes "ajuste(s) pendiente(s)": a count has a message for its singular
    (``key_one``), with the same placeholders as the plural's."""
    messages = language_data(language)["messages"]
    assert not [m for m in messages.values() if re.search(r"\w\((s|es|x)\)", str(m))]
    assert not [k for k in ENGLISH.values() if "(s)" in k]
    for key in [k for k in messages if k.endswith("_one")]:
        plural = messages[key.removesuffix("_one")]
        assert re.findall(r"\{\w+", messages[key]) == re.findall(r"\{\w+", plural), key


def test_only_reasons_are_said_with_another_message() -> None:
    assert set(SAME) <= set(ENGLISH)
    assert not set(SAME) & set(SAME.values())  # one step: a message, not another alias


@pytest.mark.parametrize(
    ("english", "language", "said"),
    [
        (
            "bounced off A VEN (1 against 2)",
            "es",
            "enfrentamiento perdido contra el ejército de Venecia (1 contra 2)",
        ),
        (
            "standoff in BUR with A PAR, A MUN",
            "es",
            "enfrentamiento en Borgoña con el ejército de París y el ejército de Munich",
        ),
        ("cut by an attack", "es", "apoyo anulado por un ataque"),
        (
            "FRANCE did not accept the support of A PAR",
            "es",
            "Francia no aceptó el apoyo del ejército de París",
        ),
        (
            "A VEN is not ordered to move to NTH",
            "es",
            "el ejército de Venecia no tiene orden de moverse al Mar del Norte",
        ),
        ("the unit has another order", "es", "la unidad tiene otra orden"),
        (
            "bounced off A VEN (1 against 2)",
            "fr",
            "conflit perdu contre l'armée de Venise (1 contre 2)",
        ),
        (
            "standoff in BUR with A PAR, A MUN, F MAR",
            "fr",
            "conflit sans vainqueur pour la Bourgogne avec l'armée de Paris, "
            "l'armée de Munich et la flotte de Marseille",
        ),
        ("cut by an attack", "fr", "soutien coupé par une attaque"),
        (
            "A VEN is ordered to another coast of SPA",
            "fr",
            "l'armée de Venise a l'ordre d'aller vers une autre côte de l'Espagne",
        ),
        (
            "the fleet is at SPA/SC, not SPA/NC",
            "fr",
            "la flotte est sur la côte sud de l'Espagne, pas sur la côte nord",
        ),
        ("bounced off A VEN (1 against 2)", "pt", "impasse com o exército de Veneza (1 contra 2)"),
        (
            "standoff in BUR with A PAR, A MUN",
            "pt",
            "impasse na Borgonha com o exército de Paris e o exército de Munique",
        ),
        ("cut by an attack", "pt", "apoio anulado por um ataque"),
        (
            "beaten head-to-head by F NTH (1 against 2)",
            "pt",
            "perdeu o confronto direto com a armada do Mar do Norte (1 contra 2)",
        ),
        ("only 1 adjustment due", "pt", "só 1 ajuste pendente"),
        ("only 2 adjustments due", "pt", "só 2 ajustes pendentes"),
        ("only 1 adjustment due", "es", "solo hay 1 ajuste pendiente"),
        ("only 3 adjustments due", "es", "solo hay 3 ajustes pendientes"),
        ("only 1 adjustment due", "fr", "seulement 1 ajustement dû"),
        ("only 2 adjustments due", "fr", "seulement 2 ajustements dus"),
        ("only 2 adjustment(s) due", "pt", "só 2 ajustes pendentes"),  # stored before
        (  # the English both once shared (records saved before): said as not adjacent
            "a fleet at MAO cannot move to BUR",
            "pt",
            "a armada do Atlântico Médio não pode chegar à Borgonha: não é adjacente pelo mar "
            "nem ao longo da costa",
        ),
        (
            "the fleet at MAO cannot reach STP/NC",
            "pt",
            "a armada do Atlântico Médio não pode chegar a São Petersburgo (costa norte)",
        ),
        (
            "the coast of STP must be given",
            "es",
            "hay que indicar la costa de San Petersburgo: costa norte o costa sur",
        ),
        (
            "A PAR cannot retreat to BUR",
            "fr",
            "l'armée de Paris ne peut pas faire retraite vers la Bourgogne",
        ),
        ("the unit in PAR is A, not F", "pt", "a unidade em Paris é um exército, não uma armada"),
        (
            "standoff in NTH with F LON, F EDI",
            "es",
            "enfrentamiento en el Mar del Norte con la flota de Londres y la flota de Edimburgo",
        ),
    ],
)
def test_sentences(english: str, language: str, said: str) -> None:
    reason = Reason.parse(english)
    assert reason is not None and reason.key != "said", english
    assert explain(reason, language) == said


def test_a_fleet_ordered_from_another_coast_is_told_why_and_where_it_is() -> None:
    inner = Reason("fleet_not_adjacent", "GAS", location="SPA/SC")
    reason = Reason("fleet_elsewhere", location="SPA/NC", name=str(inner))
    assert Reason.parse(str(reason)) == reason
    assert explain(reason, "pt") == (
        "a armada da Espanha (costa sul) não pode chegar à Gasconha: não é adjacente pelo mar "
        "nem ao longo da costa; a armada está na Espanha (costa norte)"
    )


def test_english_no_key_writes_stays_as_it_was_given() -> None:
    reason = Reason.parse("the moon is in the way")
    assert reason == Reason("said", name="the moon is in the way")
    for language in ("en", "es", "fr", "pt"):
        assert explain(reason, language) == "the moon is in the way"


# --- places with their article ------------------------------------------------------------
BOARDS = (load_map("standard"), load_map("conquista"))  # conquista adds SDN and SLO
PLACE = re.compile(r"\{(?:province|location)(?::[^}]*)?\}")
PLACEHOLDER = re.compile(r"\{\w+:([^}|]+)\}")


def place_messages(language: str) -> list[str]:
    """The keys of ``language``'s messages that name a province or a location."""
    messages = language_data(language)["messages"]
    return sorted(key for key, text in messages.items() if PLACE.search(str(text)))


def naming(key: str, province: str) -> Reason | None:
    """A reason said by the message ``key`` whose places are all ``province`` (its units
    stand there), or ``None`` if no reason is said by that message."""
    keys = [k for k in KEYS if SAME.get(k, k) == key]
    if not keys:
        return None
    reason = sample(keys[0])
    there: dict[str, Any] = {
        "province": province,
        "location": province,
        "unit": f"A {province}",
        "units": (f"A {province}", f"F {province}"),
    }
    if reason.key in ("wrong_unit_type", "dislodged_type"):
        del there["unit"]  # unit types
    if reason.key == "wrong_unit_coast":  # its coasts, whether the province has them or not
        there |= {"location": f"{province}/SC", "name": f"{province}/NC"}
    if reason.key == "fleet_elsewhere":
        there["name"] = f"a fleet at {province} cannot move to {province}"
    return reason._replace(**{f: v for f, v in there.items() if getattr(reason, f)})


def said_of(key: str, language: str, province: str, board: GameMap) -> str:
    """The message ``key`` in ``language`` naming ``province`` wherever it names a place:
    through its reason (:func:`message`), or through :func:`say` for the reader's own."""
    reason = naming(key, province)
    if reason is None:
        return say(key, language, game_map=board, province=province, text="A PAR H")
    return message(reason, language, game_map=board)


def misplaced(
    text: str,
    name: str,
    article: str,
    language: str,
    unit_article: str | None = None,
    *,
    elides: bool = True,
) -> list[str]:
    """Where ``text`` writes the province ``name`` (whose article is ``article``;
    ``unit_article`` where it names a unit: French "l'armée de Bohême") otherwise
    than the lexicon's articles, contractions and elisions say: an article-bearing name
    after a bare preposition, or first with no article; a name without article after a
    contracted article; a preposition the language elides, not elided."""
    data = language_data(language)
    units = {str(e["long"]) for e in [*data["units"].values(), data["unit"]]}
    of_unit = article if unit_article is None else unit_article
    contractions: dict[str, str] = data["contractions"]
    prepositions = {pair.split()[0] for pair in contractions}
    for template in [*data["messages"].values(), *data["long"].values()]:
        prepositions |= set(PLACEHOLDER.findall(str(template)))
    articles = {str(e.get("article", "")) for e in data["provinces"].values()} - {""}
    contracted = (articles | set(contractions.values())) - prepositions
    elide = set(data["elide"]) if elides else set()  # "de Hollande": its h is aspirated
    wrong = [f"uncontracted {pair!r}" for pair in contractions if re.search(rf"\b{pair}\b", text)]
    said_article = article
    for found in re.finditer(re.escape(name), text):
        before = text[: found.start()].split()
        last = before[-1] if before else ""
        after_unit = len(before) > 1 and any(before[-2].endswith(u) for u in units)
        article = of_unit if after_unit else said_article
        if article:
            if not last or (last in prepositions and last != article):  # pt "a": either
                wrong.append(f"{last!r} before {name!r}")
            if last.endswith("'") and last != article:
                wrong.append(f"{last!r} elided before {name!r}")
        elif last in contracted or (last in elide and name[0].lower() in "aeiouyhéèêîôâ"):
            wrong.append(f"{last!r} before {name!r}")
    return wrong


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_every_message_names_every_province_with_its_article(language: str) -> None:
    keys = place_messages(language)
    assert {"no_unit", "second_order", "dislodged_only", "wrong_coast"} <= set(keys)
    said = 0
    for board in BOARDS:
        provinces = province_entries(language, board)  # conquista's own names in Spanish
        for province in board.provinces:
            name = str(provinces[province]["long"])
            article = str(provinces[province].get("article", ""))
            unit_article = str(provinces[province].get("unit_article", article))
            for key in keys:
                text = said_of(key, language, province, board)
                assert name in text, (key, text)
                elides = bool(provinces[province].get("elide", True))
                wrong = misplaced(text, name, article, language, unit_article, elides=elides)
                assert not wrong, (key, text)
                said += 1
    assert said == len(keys) * sum(len(b.provinces) for b in BOARDS)


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_no_message_writes_a_preposition_before_a_place(language: str) -> None:
    # a place's preposition is its placeholder's, to contract with the place's article
    data = language_data(language)
    prepositions = {pair.split()[0] for pair in data["contractions"]}
    for text in data["messages"].values():
        prepositions |= set(PLACEHOLDER.findall(str(text)))
    written = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, prepositions))}) {PLACE.pattern}")
    for key, text in data["messages"].items():
        assert not written.search(str(text)), (key, text)


@pytest.mark.parametrize(
    ("reason", "language", "said"),
    [
        (Reason("no_unit", "SPA"), "pt", "não há nenhuma unidade na Espanha"),
        (Reason("no_unit", "POR"), "pt", "não há nenhuma unidade em Portugal"),
        (Reason("wrong_nationality", "TYR", power="GERMANY"), "pt",
         "a unidade no Tirol não pertence à potência Alemanha"),
        (Reason("army_to_sea", "NTH", name="North Sea"), "pt",
         "um exército não pode ir para o Mar do Norte"),
        (Reason("cannot_support", "BUR", unit="A MAR"), "pt",
         "o exército de Marselha não pode chegar à Borgonha, portanto não pode apoiar ali"),
        (Reason("missing_coast", "SPA", coasts=("NC", "SC")), "pt",
         "é preciso indicar a costa da Espanha: costa norte ou costa sul"),
        (Reason("fleet_build_inland", "BOH"), "pt", "não se pode construir uma armada na Boêmia"),
        (Reason("occupied", "HOL"), "pt", "a Holanda está ocupada"),
        (Reason("no_unit", "NTH"), "es", "no hay ninguna unidad en el Mar del Norte"),
        (Reason("no_unit", "PAR"), "es", "no hay ninguna unidad en París"),
        (Reason("not_adjacent", "TYR", location="MUN"), "es",
         "la unidad de Munich no puede llegar al Tirol"),
        (Reason("not_bordering", "PIE", unit="A MAR"), "es",
         "el ejército de Marsella no es limítrofe con el Piamonte, así que no puede apoyar allí"),
        (Reason("missing_coast", "ENG", coasts=("NC", "SC")), "es",
         "hay que indicar la costa del Canal de la Mancha: costa norte o costa sur"),
        (Reason("impassable", "HEL"), "es", "no se puede entrar en la Ensenada de Heligoland"),
        (Reason("target_cannot_move", "BUR", unit="A PAR"), "fr",
         "l'armée de Paris ne peut pas se mouvoir vers la Bourgogne"),
        (Reason("not_bordering", "TYR", unit="A VEN"), "fr",
         "l'armée de Venise n'est pas limitrophe du Tyrol, donc ne peut pas y apporter de soutien"),
        (Reason("not_bordering", "ANK", unit="A VEN"), "fr",
         "l'armée de Venise n'est pas limitrophe d'Ankara, donc ne peut pas y apporter de soutien"),
        (Reason("not_adjacent", "POR", location="PAR"), "fr",
         "l'unité de Paris ne peut pas atteindre le Portugal"),
        (Reason("cannot_retreat", location="PAR", unit="A BUR"), "fr",
         "l'armée de Bourgogne ne peut pas faire retraite vers Paris"),
        # a unit is named as the French book names it ("l'armée de Silésie"); its h
        # aspirated, Hollande is not elided; a coast keeps the article
        (Reason("cannot_retreat", location="PAR", unit="A HOL"), "fr",
         "l'armée de Hollande ne peut pas faire retraite vers Paris"),
        (Reason("cannot_retreat", location="POR", unit="F SPA/NC"), "fr",
         "la flotte d'Espagne (côte nord) ne peut pas faire retraite vers le Portugal"),
        (Reason("missing_coast", "BUL", coasts=("EC", "SC")), "fr",
         "il faut préciser la côte de la Bulgarie : côte est ou côte sud"),
        (Reason("no_unit", "NTH"), "en", "there is no unit in the North Sea"),
        (Reason("army_to_sea", "ENG", name="English Channel"), "en",
         "an army cannot go to the English Channel"),
        (Reason("missing_coast", "SPA", coasts=("NC", "SC")), "en",
         "the coast of Spain must be given: north coast or south coast"),
        (Reason("impassable", "SWI"), "en", "Switzerland cannot be entered"),
    ],
)  # fmt: skip
def test_places_take_their_article(reason: Reason, language: str, said: str) -> None:
    assert message(reason, language) == said


def test_messages_no_reason_says_name_places_with_their_article() -> None:
    assert say("dislodged_only", "pt", province="BUR") == (
        "a unidade na Borgonha foi deslocada: só pode retroceder ou ser dissolvida"
    )
    assert say("second_order", "es", province="NTH", text="F MNt M") == (
        'una segunda orden para el Mar del Norte (después de "F MNt M")'
    )
    assert say("second_order", "fr", province="SPA", text="A Esp H") == (
        "un second ordre pour l'espace Espagne (après « A Esp H »)"
    )


@pytest.mark.parametrize("language", ["es", "fr", "pt"])
def test_every_message_names_every_power_with_its_article(language: str) -> None:
    data = language_data(language)
    keys = [k for k in KEYS if re.search(r"\{(?:power|of)\b", data["messages"][SAME.get(k, k)])]
    assert {"not_accepted", "not_home_centre", "in_disorder"} <= set(keys)
    for power, entry in data["powers"].items():
        name, article = str(entry["name"]), str(entry.get("article", ""))
        for key in keys:
            text = message(sample(key)._replace(power=power), language)
            assert name in text, (key, text)
            assert not misplaced(text, name, article, language), (key, text)


@pytest.mark.parametrize(
    ("reason", "language", "said"),
    [
        (Reason("not_home_centre", "HOL", power="GERMANY"), "pt",
         "a Holanda não é um centro de abastecimento de origem da Alemanha"),
        (Reason("not_accepted", unit="A PAR", power="ENGLAND"), "pt",
         "a Inglaterra não aceitou o apoio do exército de Paris"),
        (Reason("not_owned", "SPA", power="AUSTRIA"), "pt", "a Áustria não possui a Espanha"),
        (Reason("in_disorder", power="FRANCE"), "fr", "la France est en désordre civil"),
        (Reason("no_build_due", power="ENGLAND"), "fr", "l'Angleterre n'a aucune construction due"),
        (Reason("not_accepted", unit="A PAR", power="ENGLAND"), "es",
         "Inglaterra no aceptó el apoyo del ejército de París"),
    ],
)  # fmt: skip
def test_powers_take_their_article(reason: Reason, language: str, said: str) -> None:
    assert message(reason, language) == said


FLEET_REASONS = {
    "en": ("the fleet in Kiel cannot go to Munich: a fleet cannot enter an inland province",
           "the fleet in Rome cannot reach Venice: not adjacent by sea or along a coast"),
    "es": ("la flota de Kiel no puede ir a Munich: una flota no entra en una región interior",
           "la flota de Roma no puede llegar a Venecia: no es adyacente por mar ni a lo largo "
           "de la costa"),
    "fr": ("la flotte de Kiel ne peut pas se mouvoir vers Munich : une flotte n'entre pas dans "
           "une province intérieure",
           "la flotte de Rome ne peut pas atteindre Venise : ni par la mer ni le long d'une côte"),
    "pt": ("a armada de Kiel não pode ir para Munique: uma armada não entra numa província "
           "interior",
           "a armada de Roma não pode chegar a Veneza: não é adjacente pelo mar nem ao longo da "
           "costa"),
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_a_fleet_inland_and_a_fleet_not_adjacent_each_say_why(language: str) -> None:
    """Two reasons, two wordings in every language: Munich is inland (no fleet goes
    there); Venice is coastal, but Rome's coast and sea do not reach it."""
    inland = Reason("fleet_inland", "MUN", location="KIE")
    apart = Reason("fleet_not_adjacent", "VEN", location="ROM")
    assert (message(inland, language), message(apart, language)) == FLEET_REASONS[language]
    if language != "en":
        assert explain(inland, language) == FLEET_REASONS[language][0]
        assert explain(apart, language) == FLEET_REASONS[language][1]
