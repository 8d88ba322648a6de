"""The server's order check (engine.judge_orders): every legal order of random games in every
edition passes, in every language; the illegal orders players meet are refused, each named,
with the reason in the player's language."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from realpolitik.adjudicator import Reason
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.server import engine
from tests.gamekit import play_random


def classic() -> Game:
    return Game.new(
        variant="standard", edition="classic", players=[f"p{k}" for k in range(7)], seed=1
    )


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_legal_order_of_random_games_passes(edition: str) -> None:
    rng = random.Random(edition)
    game = engine.new_game(variant="standard", edition=edition, seats=7, seed=3)
    checked = 0
    for _ in range(14):
        if game.is_over:
            break
        for power in engine.powers_to_act(game):
            options = engine.legal(game, power)
            chosen = [rng.choice(opts) for key, opts in options.items() if key != "WAIVE"]
            # one unit's every option alone, in one language; then a whole set of orders
            key = rng.choice(sorted(options))
            language = rng.choice(["en", "es", "fr", "pt"])
            for option in options[key]:
                text = engine.format_order(option, language, game)
                canonical, refused = engine.judge_orders(game, power, [text], language)
                assert not refused, (str(game.phase), power, text, refused)
                checked += 1
            if game.phase.kind.name == "ADJUSTMENTS":  # as many as are due
                chosen = chosen[: abs(game.builds_due().get(power, 0))]
            texts = [str(o) for o in chosen]
            canonical, refused = engine.judge_orders(game, power, texts, "en")
            assert not refused, (str(game.phase), power, refused)
            game.submit(power, canonical)
        game.process()
    assert checked > 100


@pytest.mark.parametrize(
    ("text", "language", "reason"),
    [
        ("A MOS - PAR", "en", "the army in Moscow cannot reach Paris"),
        ("F STP - NWY", "en", "the fleet in St Petersburg (south coast) cannot reach Norway"),
        ("F MOS - STP", "en", "the unit in Moscow is an army, not a fleet"),
        ("E Mos - Par", "es", "el ejército de Moscú no puede llegar a París"),
        ("A Mos - Par", "fr", "ne peut pas atteindre Paris"),
        ("A PAR - BUR", "en", "Paris"),
        ("A PRU - BER", "en", "there is no unit in Prussia"),
    ],
)
def test_illegal_orders_are_refused_with_the_reason(text: str, language: str, reason: str) -> None:
    canonical, refused = engine.judge_orders(classic(), "RUSSIA", [text], language, ["A WAR - PRU"])
    assert canonical == [] and [r["order"] for r in refused] == [text]
    assert reason in refused[0]["reason"], refused


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "illegal: "),
        ("es", "ilegal: Alemania no tiene disoluciones pendientes"),
        ("fr", "illégal : l'Allemagne n'a aucun retrait dû"),
        ("pt", "ilegal: a Alemanha não tem remoções pendentes"),
    ],
)
def test_an_order_the_rules_refuse_is_said_with_the_language_s_colon(
    language: str, said: str
) -> None:
    """French sets a space before its colon ("illégal : ...", as the lexicon's own reasons
    and the moderator's words do); the server joined the word and the reason with the
    English colon in every language ("illégal: ...")."""
    game = classic()
    game.phase, game.position = (
        Phase.parse("W1901A"),
        Position.from_json(
            {"units": {"GERMANY": ["A MUN"]}, "centers": {"GERMANY": ["BER", "KIE", "MUN", "HOL"]}},
            game.game_map,
        ),
    )
    text = engine.format_order("A MUN D", language, game)
    _, refused = engine.judge_orders(game, "GERMANY", [text], language)
    assert [(r["order"], r["reason"][: len(said)]) for r in refused] == [(text, said)]


@pytest.mark.parametrize(
    ("power", "texts", "language", "orders"),
    [
        ("FRANCE", ["E Par - Bor; E Mar - Esp"], "es", ["A PAR - BUR", "A MAR - SPA"]),
        ("FRANCE", ["E Par-Bor, F Bre-AtC", "E Mar M"], "es",
         ["A PAR - BUR", "F BRE - MAO", "A MAR H"]),
        ("ENGLAND",
         ["E de Liv. para Yor.; A de Lon. para Mar do Norte; A de Edi. para Mar da Nor."],
         "pt", ["A LVP - YOR", "F LON - NTH", "F EDI - NWG"]),
        ("FRANCE", ["A Par - Bou ; A Mar (S) A Par - Bou"], "fr",
         ["A PAR - BUR", "A MAR S A PAR - BUR"]),
        ("FRANCE", ["E Par - Bor, apoyado por E Mar"], "es", ["A PAR - BUR"]),  # one order
    ],
)  # fmt: skip
def test_a_line_of_orders_as_the_books_print_them_is_read_order_by_order(
    power: str, texts: list[str], language: str, orders: list[str]
) -> None:
    """The books print a power's orders on one line, ';' or ',' between them ('E de Liv.
    para Yor.; A de Lon. para Mar do Norte; ...', 'E Pru—Var; E Sil A E Pru—Var'): such a
    line typed or pasted was refused as one order ('se esperaba ... y aparece "e"'). A
    line that reads whole stays one order (a comma before 'apoyado por')."""
    canonical, refused = engine.judge_orders(classic(), power, texts, language)
    assert (canonical, refused) == (orders, [])


def test_each_refused_order_is_named() -> None:
    texts = ["A MOS - PAR", "A WAR - PRU", "F STP - NWY", "F SEV - BLA"]
    _, refused = engine.judge_orders(classic(), "RUSSIA", texts, "en")
    assert [r["order"] for r in refused] == ["A MOS - PAR", "F STP - NWY"]


def test_a_good_order_is_completed_and_merged() -> None:
    canonical, refused = engine.judge_orders(
        classic(), "RUSSIA", ["F STP - BOT", "A MOS - UKR"], "en", ["A MOS H", "A WAR - PRU"]
    )
    assert not refused and canonical == ["A WAR - PRU", "F STP/SC - BOT", "A MOS - UKR"]


def test_a_build_is_checked_against_the_homes_and_the_count() -> None:
    game = classic()
    game.submit("GERMANY", ["F KIE - DEN", "A MUN - RUH", "A BER - KIE"])
    game.process()
    game.submit("GERMANY", ["A RUH - HOL", "F DEN H", "A KIE H"])
    game.process()
    assert str(game.phase) == "W1901A" and game.builds_due()["GERMANY"] == 2
    _, refused = engine.judge_orders(game, "GERMANY", ["A WAR B", "A SIL B"], "en")
    assert [r["order"] for r in refused] == ["A WAR B", "A SIL B"]
    assert "home" in refused[1]["reason"], refused
    _, refused = engine.judge_orders(game, "GERMANY", ["A BER B", "A MUN B", "WAIVE"], "en")
    assert [r["order"] for r in refused] == ["WAIVE"], refused
    canonical, refused = engine.judge_orders(game, "GERMANY", ["A BER B", "A MUN B"], "en")
    assert not refused and canonical == ["A BER B", "A MUN B"]


def test_conquista_supports_across_the_shore_are_judged_by_its_rule() -> None:
    """La Conquista: "Una flota en un mar puede apoyar a un ejército que ocupa un territorio
    adyacente a ese mar, y viceversa": the server's check reads supports by the game's rules.
    The preset supports only where the supporter could move (RULES.md §1): A BRE S F MAO
    refused; a table that chose the book's reach (support_reach=borders) has it given, and
    A WAL S F ENG - MAO refused: Wales does not border the Atlantic."""
    from tests.gamekit import at

    units = {"FRANCE": ["A BRE", "F MAO"], "ENGLAND": ["F ENG", "A WAL"]}
    preset = at(Game.new(edition="conquista", seed=1), "S1914M", {"units": units})
    given, refused = engine.judge_orders(preset, "FRANCE", ["A BRE S F MAO"], "en")
    assert not given and len(refused) == 1
    book = Game.new(edition="conquista", seed=1, rules={"support_reach": "borders"})
    game = at(book, "S1914M", {"units": units})
    given, refused = engine.judge_orders(game, "FRANCE", ["A BRE S F MAO"], "en")
    assert given == ["A BRE S F MAO"] and not refused
    given, refused = engine.judge_orders(game, "ENGLAND", ["A WAL S F ENG - MAO"], "es")
    assert not given and len(refused) == 1
    assert "limítrofe" in refused[0]["reason"], refused


def _adjudicated_illegal(game: Game, power: str, orders: list[object]) -> dict[int, Reason]:
    """What adjudicating a copy of the game says is illegal of ``power``'s orders (how the
    server checked orders before: the reference the cheap check must agree with)."""
    fork = game.copy()
    submitted = fork.submit(power, orders)  # type: ignore[arg-type]
    at = {order: k for k, order in enumerate(submitted)}
    return {
        at[o.order]: o.reason
        for o in fork.process().outcomes
        if o.power == power and o.result.value == "illegal" and o.order in at and o.reason
    }


def _odd_orders(game: Game, power: str, rng: random.Random) -> list[object]:
    """Orders of ``power``'s units that the notation reads but the rules may refuse: moves,
    supports and convoys to and of random places, retreats and builds anywhere."""
    from realpolitik import orders as o

    board = game.game_map
    places = sorted(board.provinces)
    units = [u for u in game.position.units.values()]
    mine = [u for u in units if u.power == power]
    kind = game.phase.kind.name
    out: list[object] = []
    if kind == "MOVEMENT":
        for unit in mine:
            ref = o.UnitRef(unit.type, unit.location)
            other = rng.choice(units)
            oref = o.UnitRef(other.type, other.location)
            out.append(
                rng.choice(
                    [
                        o.Move(ref, rng.choice(places)),
                        o.Move(ref, rng.choice(places), via_convoy=True),
                        o.SupportMove(ref, oref, rng.choice(places)),
                        o.SupportHold(ref, oref),
                        o.Convoy(ref, oref, rng.choice(places)),
                    ]
                )
            )
    elif kind == "RETREATS":
        for d in game.position.dislodged.values():
            if d.unit.power == power:
                out.append(o.Retreat(o.UnitRef(d.unit.type, d.unit.location), rng.choice(places)))
    else:
        for prov in rng.sample(places, 3):
            if prov not in game.position.units:
                out.append(o.Build(o.UnitRef(rng.choice([None, *{u.type for u in units}]), prov)))
    return out


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_check_agrees_with_adjudicating_a_copy(edition: str) -> None:
    """Without adjudicating anything, the server calls illegal exactly the orders (and
    with the reasons) that processing a copy of the game would, over random games with
    odd orders in every kind of phase."""
    rng = random.Random(f"judge {edition}")
    game = engine.new_game(variant="standard", edition=edition, seats=7, seed=5)
    compared = refused = 0
    for _ in range(24):
        if game.is_over:
            break
        for power in engine.powers_to_act(game):
            for _ in range(3):
                orders = _odd_orders(game, power, rng)
                try:
                    submitted = game.copy().submit(power, orders)  # type: ignore[arg-type]
                except ValueError:  # the game's own refusal (the same in both checks)
                    continue
                cheap = game.illegal_orders(power, submitted)
                assert cheap == _adjudicated_illegal(game, power, orders), (game.phase, power)
                compared += 1
                refused += len(cheap)
        for power in engine.powers_to_act(game):
            options = engine.legal(game, power)
            chosen = [rng.choice(opts) for key, opts in options.items() if key != "WAIVE"]
            if game.phase.kind.name == "ADJUSTMENTS":
                chosen = chosen[: abs(game.builds_due().get(power, 0))]
            game.submit(power, chosen)
        game.process()
    assert compared > 50 and refused > 50, (compared, refused)


def test_checking_orders_adjudicates_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A submission is checked on the position: neither the game nor the adjudicator
    processes a phase (which cost most of a PUT of orders)."""
    from realpolitik import adjudicator
    from realpolitik.adjudicator import movement

    game = classic()

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("adjudicated")

    monkeypatch.setattr(Game, "process", boom)
    monkeypatch.setattr(movement, "adjudicate_movement", boom)
    monkeypatch.setattr(adjudicator, "adjudicate_movement", boom)
    given, refused = engine.judge_orders(
        game, "FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR"], "en"
    )
    assert given == ["A PAR - BUR", "A MAR S A PAR - BUR"] and not refused
    # a stored order the rules refuse (as after a rule change) is judged on the board too
    given, refused = engine.judge_orders(
        game, "FRANCE", ["A PAR - BUR"], "en", ["A MAR S A PAR - PIE"]
    )
    assert not given
    assert refused == [
        {"order": "A MAR S A PAR - PIE", "reason": "the army in Paris cannot move to Piedmont"}
    ]
    given, refused = engine.judge_orders(  # in the player's language
        game, "FRANCE", ["E Par-Bor"], "es", ["A MAR S A PAR - PIE"]
    )
    reason = "el ejército de París no puede moverse al Piamonte"
    assert refused == [{"order": "A MAR S A PAR - PIE", "reason": reason}]


def test_derived_answers_are_worked_out_once_per_version_and_the_old_dropped() -> None:
    engine.clear_cache()
    made: list[int] = []

    def make(n: int) -> object:
        made.append(n)
        return {"n": n}

    first = engine.derived(7, 1, ("legal", "FRANCE"), lambda: make(1))
    assert engine.derived(7, 1, ("legal", "FRANCE"), lambda: make(2)) is first
    assert engine.derived(7, 2, ("legal", "FRANCE"), lambda: make(3)) == {"n": 3}
    # a request still on the old version is answered, but the old answer is not kept
    assert engine.derived(7, 1, ("legal", "FRANCE"), lambda: make(4)) == {"n": 4}
    assert engine.derived(7, 2, ("legal", "FRANCE"), lambda: make(5)) == {"n": 3}
    assert made == [1, 3, 4]
    engine.clear_cache()


def test_readers_asking_at_once_wait_for_one_answer() -> None:
    """The burst of fetches after a phase: the answer is made once, not once a reader."""
    engine.clear_cache()
    made: list[int] = []
    start = threading.Barrier(8)

    def make() -> object:
        made.append(1)
        time.sleep(0.2)  # long enough for every other reader to arrive meanwhile
        return {"built": True}

    def read() -> object:
        start.wait()
        return engine.derived(9, 3, ("view", "en"), make)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: read(), range(8)))
    assert len(made) == 1
    assert all(a is answers[0] for a in answers)
    engine.clear_cache()


def test_a_failed_answer_is_not_kept_and_the_next_reader_tries_again() -> None:
    engine.clear_cache()

    def fail() -> object:
        raise ValueError("no")

    with pytest.raises(ValueError):
        engine.derived(9, 3, ("view", "en"), fail)
    assert engine.derived(9, 3, ("view", "en"), lambda: {"n": 1}) == {"n": 1}
    engine.clear_cache()


def test_only_the_newest_version_of_a_game_is_kept_loaded() -> None:
    """A game moving on does not fill the cache with its old versions (memory stays flat
    while the same games are played)."""
    engine.clear_cache()
    game = engine.new_game(variant="standard", edition="classic", seats=7, seed=1)
    state = engine.to_state(game)
    for version in range(1, 11):
        newest = engine.load(5, version, state)
    assert engine.load(5, 10, state) is newest
    assert engine.load(5, 3, state) is not engine.load(5, 3, state)  # an old one: not kept
    assert engine.load(5, 10, state) is newest
    with engine._cache_lock:
        assert list(engine._cache) == [5]
    engine.clear_cache()


def test_a_stored_reason_is_said_in_the_players_language() -> None:
    game = classic()
    standoff = "standoff in BUR with A PAR, A MUN"
    assert engine.say_reason(standoff, "pt", game) == (
        "impasse na Borgonha com o exército de Paris e o exército de Munique"
    )
    assert engine.say_reason(standoff, "en", game) == (
        "standoff in Burgundy with the army in Paris and the army in Munich"
    )
    assert engine.say_reason("", "es", game) == engine.say_reason(None, "es", game) == ""
    # what the map does not know stays as stored (no province XYZ to list the coasts of)
    assert engine.say_reason("the coast of XYZ must be given", "fr", game) == (
        "the coast of XYZ must be given"
    )


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_history_rebuilt_from_its_rows_is_the_game_s_own(edition: str) -> None:
    """What a sandbox keeps of each processed phase (its record and replay) gives the saved
    game's history back, record for record; its outcomes grouped by power, as the record
    keeps them (their order across powers is not kept: nothing reads it back)."""
    game = engine.new_game(variant="standard", edition=edition, seats=7, seed=5)
    play_random(game, random.Random(edition), 16, skip=0.15)  # some civil disorder too
    assert len(game.history) >= 8
    rows = [(engine.record_json(r), engine.replay_json(r)) for r in game.history]
    rebuilt = engine.fresh(engine.with_history(engine.to_state(game), rows))
    assert rebuilt.history == [
        replace(r, outcomes=tuple(sorted(r.outcomes, key=lambda o: o.power))) for r in game.history
    ]
    assert engine.to_state(rebuilt) == engine.to_state(game)


def test_a_stored_order_s_unit_is_said_as_a_sentence_s_subject() -> None:
    """The summary tells a hold that stood by its unit ("O exército de Paris manteve a
    posição"), not by the hold's words and a result word that say the verb twice."""
    game = classic()
    said = {lang: engine.order_subject("A PAR H", lang, game) for lang in ("en", "es", "fr", "pt")}
    assert said == {
        "en": "The army in Paris",
        "es": "El ejército de París",
        "fr": "L'armée de Paris",
        "pt": "O exército de Paris",
    }
    assert engine.order_subject("F STP/SC - BOT", "pt", game) == (
        "A armada de São Petersburgo (costa sul)"
    )
    assert engine.order_subject("WAIVE", "es", game) == ""
    assert engine.order_subject("not an order", "fr", game) == ""
