"""Reasons: every key's English, read back from its English, and what random games give."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from realpolitik import Reason
from realpolitik.adjudicator.reasons import ENGLISH
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS
from realpolitik.orders import Move
from realpolitik.vocab import province_of
from tests.gamekit import play_random

SAMPLE = {
    "province": "BUR", "location": "SPA/NC", "coast": "NC", "coasts": ("NC", "SC"),
    "unit": "A PAR", "name": "Burgundy", "power": "FRANCE", "units": ("A PAR", "F BRE"),
    "strength": 1, "against": 2, "number": 3,
}  # fmt: skip
"""A value for each field a template names."""


def sample(key: str) -> Reason:
    """A reason of ``key`` naming a sample value in each field its English uses."""
    fields = re.findall(r"\{(\w+)\}", ENGLISH[key])
    return Reason(key, **{field: SAMPLE[field] for field in fields})  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [k for k in ENGLISH if k != "said"])
def test_every_key_reads_back_from_its_english(key: str) -> None:
    reason = sample(key)
    english = str(reason)
    assert "{" not in english and english
    read = Reason.parse(english)
    assert read is not None and str(read) == english
    twins = [k for k in ENGLISH if ENGLISH[k] == ENGLISH[key]]
    assert read == reason or (len(twins) > 1 and read.key in twins), (read, reason)


def test_the_english_of_a_few_reasons() -> None:
    assert str(Reason("bounced_off", unit="A VEN", strength=1, against=2)) == (
        "bounced off A VEN (1 against 2)"
    )
    assert str(Reason("standoff", "BUR", units=("A PAR", "A MUN"))) == (
        "standoff in BUR with A PAR, A MUN"
    )
    assert str(Reason("too_many", number=1)) == "only 1 adjustment due"
    assert str(Reason("too_many", number=2)) == "only 2 adjustments due"
    assert str(Reason("missing_coast", "SPA", coasts=("NC", "SC"))) == (
        "the coast of SPA must be given (NC, SC)"
    )


def test_a_dislodged_unit_with_nowhere_to_go_is_not_told_it_had_no_order() -> None:
    """RULES.md: "No retreat order: disbanded. ... No legal retreat: disbanded
    automatically." A unit with nowhere to go was said "no retreat order", as if its player
    had forgotten one (the printout, the history, the contract's reason)."""
    from realpolitik.adjudicator import adjudicate
    from realpolitik.maps import load_map
    from realpolitik.phase import Phase
    from realpolitik.position import Position
    from realpolitik.rules import rules_for

    board = load_map("standard")
    position = Position.from_json({
        "units": {"FRANCE": ["A PAR", "A GAS", "A BRE"]},
        "dislodged": {"GERMANY": [{"unit": "A PIC", "attacker_from": "BEL", "retreats": ["BUR"]},
                                  {"unit": "A BUR", "attacker_from": "MUN", "retreats": []}]},
    }, board)  # fmt: skip
    result = adjudicate(board, position, {}, rules_for("classic"), Phase.parse("F1901R"))
    said = {str(o.order): (o.result.value, str(o.reason), o.implied) for o in result.outcomes}
    assert said == {
        "A BUR D": ("succeeds", "nowhere to retreat: disbanded", True),
        "A PIC D": ("succeeds", "no retreat order", True),  # it could have gone to BUR
    }


def test_a_reason_within_a_reason_reads_back() -> None:
    """A fleet ordered from another coast of its province: the move rule's reason, then
    where the fleet is (DATC 6.B.10's kind)."""
    inner = Reason("unreachable_coast", "BUL", location="SPA/NC", coast="EC")
    outer = Reason("fleet_elsewhere", location="SPA/SC", name=str(inner))
    assert str(outer) == "the fleet at SPA/NC cannot reach BUL/EC; the fleet is at SPA/SC"
    assert Reason.parse(str(outer)) == outer


def test_a_fleet_inland_and_a_fleet_not_adjacent_are_told_apart() -> None:
    """Each its own English, read back as itself; the English both once shared (records
    saved before) still reads back as it did, as not adjacent."""
    inland = Reason("fleet_inland", "MUN", location="KIE")
    apart = Reason("fleet_not_adjacent", "VEN", location="ROM")
    assert str(inland) == "a fleet at KIE cannot move to MUN, an inland province"
    assert str(apart) == "a fleet at ROM cannot move to VEN: not adjacent by sea or along a coast"
    assert Reason.parse(str(inland)) == inland and Reason.parse(str(apart)) == apart
    assert Reason.parse("a fleet at KIE cannot move to MUN") == inland._replace(
        key="fleet_not_adjacent"
    )


def test_a_count_s_singular_and_its_former_english_read_back() -> None:
    """1 adjustment, 2 adjustments: each reads back as the reason it says; so does the
    English stored before, with both in one ("only 2 adjustment(s) due")."""
    for number in (1, 2):
        reason = Reason("too_many", number=number)
        assert Reason.parse(str(reason)) == reason
    assert Reason.parse("only 2 adjustment(s) due") == Reason("too_many", number=2)


def test_english_no_key_writes_is_kept_as_it_is() -> None:
    assert Reason.parse("") is None
    kept = Reason.parse("the moon is in the way")
    assert kept == Reason("said", name="the moon is in the way")
    assert kept is not None and str(kept) == "the moon is in the way"
    long = "A PAR does not border " + "BUR" * 400 + ", so cannot support into it"
    assert Reason.parse(long) == Reason("said", name=long)  # longer than any reason
    # near misses of a template are not taken for it
    assert Reason.parse("bounced off A VEN (one against 2)") == Reason(
        "said", name="bounced off A VEN (one against 2)"
    )


def test_repr_names_only_what_the_reason_names() -> None:
    assert repr(Reason("no_unit", "PAR")) == "Reason('no_unit', province='PAR')"
    assert repr(Reason("head_to_head", unit="A MUN", strength=1, against=2)) == (
        "Reason('head_to_head', unit='A MUN', strength=1, against=2)"
    )
    assert repr(Reason("bounced")) == "Reason('bounced')"


@pytest.mark.parametrize("name", EDITIONS)
def test_every_reason_of_random_games_reads_back(name: str) -> None:
    """Whatever the adjudicator says in a random game, its English reads back to the same
    reason (saved games and stored records keep the English)."""
    seen: Counter[str] = Counter()
    for seed in range(3):
        game = Game.new(edition=name, seed=seed)
        play_random(game, random.Random(seed), 40, skip=0.1)
        for record in game.history:
            for outcome in record.outcomes:
                if outcome.reason is not None:
                    seen[outcome.reason.key] += 1
                    assert Reason.parse(str(outcome.reason)) == outcome.reason
    assert seen["bounced_off"] and seen["standoff"] and seen["no_order"], seen


def test_a_move_beaten_to_a_province_another_took_is_not_a_standoff() -> None:
    """F NWY - STP (1) against F BOT - STP supported (2): F BOT moves in, F NWY fails.
    There was no standoff in STP (it is not left empty); F NWY was said "standoff in STP
    with F BOT". It is beaten to STP by F BOT, 1 against 2."""
    from realpolitik.formats.situation import adjudicate_situation

    result = adjudicate_situation(
        {
            "phase": "S1901M",
            "units": {"RUSSIA": ["F BOT", "A FIN"], "ENGLAND": ["F NWY"]},
            "orders": {
                "RUSSIA": ["F BOT - STP/SC", "A FIN S F BOT - STP"],
                "ENGLAND": ["F NWY - STP/NC"],
            },
        },
        "datc",
    )
    [nwy] = result["orders"]["ENGLAND"]
    assert (nwy["result"], nwy["reason"]) == ("fails", "beaten to STP by F BOT (1 against 2)")
    assert result["contested"] == [] and "F STP/SC" in result["units"]["RUSSIA"]


@pytest.mark.parametrize("name", EDITIONS)
def test_a_standoff_is_said_only_where_no_move_in_succeeded(name: str) -> None:
    """Of random games: a move said to fail in a standoff in a province, no unit moved into
    that province; one said beaten to it, the unit named moved in, stronger."""
    seen: Counter[str] = Counter()
    for seed in range(3):
        game = Game.new(edition=name, seed=seed)
        play_random(game, random.Random(seed), 40, skip=0.1)
        for record in game.history:
            into: dict[str, str] = {}  # province: the unit that moved in
            for o in record.outcomes:
                if o.result.value == "succeeds" and isinstance(o.order, Move):
                    into[province_of(o.order.destination)] = str(o.order.unit)
            for o in record.outcomes:
                key = o.reason.key if o.reason is not None else None
                if key == "standoff":
                    assert o.reason is not None and o.reason.province not in into, o
                elif key == "beaten_to":
                    assert o.reason is not None and into[o.reason.province] == o.reason.unit
                    assert o.reason.strength < o.reason.against
                seen[str(key)] += 1
    assert seen["standoff"] and seen["beaten_to"], seen
