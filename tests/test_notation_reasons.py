"""The adjudicator's reasons in each language: every key has a message in every lexicon,
filled with what the reason names in the language's words; English is the ``adjudicate``
wording."""

from __future__ import annotations

import re

import pytest

from realpolitik.adjudicator.reasons import ENGLISH, Reason
from realpolitik.notation import explain, language_data
from realpolitik.notation.reasons import SAME

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


@pytest.mark.parametrize("language", ["es", "fr", "pt"])
@pytest.mark.parametrize("key", KEYS)
def test_every_reason_is_said_in_every_language(key: str, language: str) -> None:
    messages = language_data(language)["messages"]
    assert SAME.get(key, key) in messages, f"no {language} message for {key}"
    reason = sample(key)
    said = explain(reason, language)
    assert "{" not in said and "}" not in said, said
    assert said and said != str(reason), said  # not the English fallback


@pytest.mark.parametrize("key", sorted(ENGLISH))
def test_english_is_the_adjudicate_wording(key: str) -> None:
    reason = sample(key)
    assert explain(reason, "en") == str(reason)


def test_only_reasons_are_said_with_another_message() -> None:
    assert set(SAME) <= set(ENGLISH)
    assert not set(SAME) & set(SAME.values())  # one step: a message, not another alias


@pytest.mark.parametrize(
    ("english", "language", "said"),
    [
        (
            "bounced off A VEN (1 against 2)",
            "es",
            "rebote contra el ejército de Venecia (1 contra 2)",
        ),
        (
            "standoff in BUR with A PAR, A MUN",
            "es",
            "rebote en Borgoña con el ejército de París y el ejército de Múnich",
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
        ("cut by an attack", "fr", "support coupé par une attaque"),
        (
            "A VEN is ordered to another coast of SPA",
            "fr",
            "l'armée de Venise a l'ordre d'aller vers une autre côte de l'Espagne",
        ),
        (
            "the fleet is at SPA/SC, not SPA/NC",
            "fr",
            "la flotte est sur la côte sud de Espagne, pas sur la côte nord",
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
        ("only 1 adjustment(s) due", "pt", "só 1 ajuste(s) devido(s)"),
        ("a fleet at MAO cannot move to BUR", "pt", "uma armada não pode ir para Borgonha"),
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
            "l'armée de Paris ne peut pas faire retraite vers Bourgogne",
        ),
        ("the unit in PAR is A, not F", "pt", "a unidade em Paris é um exército, não uma armada"),
        (
            "standoff in NTH with F LON, F EDI",
            "es",
            "rebote en el Mar del Norte con la flota de Londres y la flota de Edimburgo",
        ),
    ],
)
def test_sentences(english: str, language: str, said: str) -> None:
    reason = Reason.parse(english)
    assert reason is not None and reason.key != "said", english
    assert explain(reason, language) == said


def test_a_fleet_ordered_from_another_coast_is_told_why_and_where_it_is() -> None:
    # (built, not read back: Reason.parse reads this English as a fleet_inland)
    reason = Reason(
        "fleet_elsewhere", location="SPA/SC", name="a fleet at SPA/SC cannot move to GAS"
    )
    assert explain(reason, "pt") == (
        "uma armada não pode ir para Gasconha; a armada está na Espanha (costa sul)"
    )


def test_english_no_key_writes_stays_as_it_was_given() -> None:
    reason = Reason.parse("the moon is in the way")
    assert reason == Reason("said", name="the moon is in the way")
    for language in ("en", "es", "fr", "pt"):
        assert explain(reason, language) == "the moon is in the way"
