"""Order legality in one place: the rules' verdicts, their English, and the keys every
language's messages must cover."""

from __future__ import annotations

import pytest

from realpolitik import Phase, Position, adjudicate, load_map, parse_order, rules_for
from realpolitik.adjudicator.legality import ORDERS_OF, convoy_rule, move_rule, support_rule
from realpolitik.adjudicator.reasons import ENGLISH, Reason
from realpolitik.errors import IllegalOrderError
from realpolitik.legal import legal_orders
from realpolitik.notation.lexicon import LANGUAGES, language_data
from realpolitik.orders import Move
from realpolitik.phase import PhaseKind
from realpolitik.vocab import ARMY, FLEET, Unit

STANDARD = load_map("standard")


def test_every_move_by_land_the_rule_allows_is_listed_and_back() -> None:
    """For every unit type, location and province: the move rule allows a move without a
    convoy exactly where legal_orders lists one."""
    rules = rules_for("classic")
    places = [(ARMY, loc) for loc in STANDARD.army_adjacency]
    places += [(FLEET, loc) for loc in STANDARD.fleet_adjacency]
    for utype, loc in places:
        position = Position({loc.split("/")[0]: Unit("X", utype, loc)}, {})
        listed = {
            o.destination
            for o in legal_orders(STANDARD, position, Phase.parse("S1901M"), rules)["X"][loc]
            if isinstance(o, Move) and not o.via_convoy
        }
        allowed = set()
        for prov in STANDARD.provinces:
            rule = move_rule(STANDARD, rules, utype, loc, prov, False)
            if rule.reason is None:
                allowed.add(rule.exact)
            for coast in STANDARD.provinces[prov].coasts:
                rule = move_rule(STANDARD, rules, utype, loc, f"{prov}/{coast}", False)
                if rule.reason is None:
                    allowed.add(rule.exact)
        assert listed == allowed, (utype, loc)


def test_reasons_in_english() -> None:
    rules = rules_for("datc")
    assert str(move_rule(STANDARD, rules, ARMY, "PAR", "NTH", False).reason) == (
        "an army cannot move to NTH (North Sea)"
    )
    assert str(move_rule(STANDARD, rules, FLEET, "KIE", "MUN", False).reason) == (
        "a fleet at KIE cannot move to MUN, an inland province"
    )
    assert str(move_rule(STANDARD, rules, FLEET, "ROM", "VEN", False).reason) == (
        "a fleet at ROM cannot move to VEN: not adjacent by sea or along a coast"
    )
    assert str(move_rule(STANDARD, rules, FLEET, "GAS", "SPA/SC", False).reason) == (
        "the fleet at GAS cannot reach SPA/SC"
    )
    reason = support_rule(STANDARD, rules, ARMY, "PAR", ARMY, "MAR", "SPA").reason
    assert str(reason) == "A PAR cannot move to SPA, so cannot support into it"
    conquista = rules_for("conquista", support_reach="borders")  # the book's reach, an option
    reason = support_rule(STANDARD, conquista, ARMY, "WAL", FLEET, "ENG", "MAO").reason
    assert str(reason) == "A WAL does not border MAO, so cannot support into it"
    assert support_rule(STANDARD, conquista, ARMY, "BRE", FLEET, "MAO", None).reason is None
    assert str(convoy_rule(STANDARD, FLEET, "BRE", "PIC", "GAS")) == (
        "only a fleet at sea can convoy"
    )
    assert str(Reason("missing_coast", "SPA", coasts=("NC", "SC"))) == (
        "the coast of SPA must be given (NC, SC)"
    )


def test_an_army_needs_a_convoy_only_between_coasts() -> None:
    rules = rules_for("classic")
    rule = move_rule(STANDARD, rules, ARMY, "LON", "NWY", False)
    assert rule.reason is not None and rule.overseas and rule.by_convoy
    rule = move_rule(STANDARD, rules, ARMY, "PAR", "MOS", False)
    assert rule.reason is not None and not rule.overseas
    support = support_rule(STANDARD, rules, FLEET, "NTH", ARMY, "LON", "NWY")
    assert support.reason is None and not support.near and support.overseas


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reader_says_every_reason_in_every_language(language: str) -> None:
    """Every reason the reader can meet becomes a message of the language (the reader
    translates keys; it decides nothing itself)."""
    messages = language_data(language)["messages"]
    translated = {"unreachable_coast", "support_into_own"}
    translated |= {"target_stays", "unknown_province"}  # said as another message
    never = {"army_coast", "omitted_coast", "convoy_off_route"}  # not under the reader's rules
    never |= {"missing_unit_type", "wrong_unit_type", "wrong_unit_coast"}  # it checks units itself
    for key in LEGALITY_KEYS:
        assert key in ENGLISH, key
        assert key in messages or key in translated | never, key


LEGALITY_KEYS = (
    "impassable", "own_province", "army_coast", "army_to_sea", "not_adjacent", "fleet_via",
    "fleet_inland", "fleet_not_adjacent", "unreachable_coast", "no_such_coast", "missing_coast",
    "omitted_coast", "support_self", "unknown_province", "target_stays", "support_into_own",
    "cannot_support", "not_bordering", "target_cannot_move", "convoy_at_sea", "convoy_coastal",
    "convoy_army", "convoy_off_route", "missing_unit_type", "wrong_unit_type",
    "wrong_unit_coast",
)  # fmt: skip
"""The keys of the reasons the legality rules give (the notation reader meets them)."""


def test_the_reader_rejects_what_the_rules_reject() -> None:
    position = Position.initial(STANDARD)
    for text, message in [
        ("F KIE - MUN", "the fleet in Kiel cannot go to Munich: a fleet cannot enter an inland"),
        ("F TRI - PRU/SC", "the fleet in Trieste cannot reach Prussia: not adjacent by sea"),
        ("A PAR S A MAR - SPA", "the army in Paris cannot reach Spain, so it cannot support"),
    ]:
        with pytest.raises(IllegalOrderError, match=message):
            parse_order(text, game_map=STANDARD, position=position)


def test_the_phases_take_their_orders() -> None:
    assert set(ORDERS_OF) == set(PhaseKind)


def _retreat(text: str, unit: str, retreats: list[str], **choices: str) -> tuple[str, str]:
    """The result and reason of ``text``, the order of Austria's dislodged ``unit``."""
    position = Position.from_json(
        {"dislodged": {"AUSTRIA": [{"unit": unit, "attacker_from": None, "retreats": retreats}]}},
        STANDARD,
    )
    orders = {"AUSTRIA": [parse_order(text, game_map=STANDARD)]}
    result = adjudicate(
        STANDARD, position, orders, rules_for("classic", **choices), Phase.parse("F1901R")
    )
    outcome = result.outcomes[0]
    return outcome.result.value, str(outcome.reason or "")


def test_a_retreat_names_a_coast_as_a_move_does() -> None:
    """A coast in a retreat is read by the move rule (DATC 4.B.6, 4.B.3), not by a second
    copy of it: an army's coast is ignored (the classic choice: ``A RUM - BUL/SC`` moves to
    Bulgaria, and so retreats there), or illegal where the rules make it so; a fleet's
    unknown coast likewise; a coast a fleet cannot reach is illegal, or under the other
    choice of 4.B.3 the fleet goes to the coast it can reach."""
    assert _retreat("A RUM R BUL/SC", "A RUM", ["BUL", "BUD"]) == ("succeeds", "")
    assert _retreat("A RUM R BUL/EC", "A RUM", ["BUL"]) == ("succeeds", "")
    assert _retreat("A RUM R BUL/SC", "A RUM", ["BUL"], unknown_coast="a") == (
        "illegal",
        "an army move names a coast",
    )
    assert _retreat("F MAO R POR/NC", "F MAO", ["POR"]) == ("succeeds", "")
    assert _retreat("F MAO R POR/NC", "F MAO", ["POR"], unknown_coast="a") == (
        "illegal",
        "POR has no coast NC",
    )
    # the Western Mediterranean reaches Spain's south coast only
    assert _retreat("F WES R SPA/NC", "F WES", ["SPA/SC"]) == (
        "illegal",
        "F WES cannot retreat to SPA/NC",
    )
    assert _retreat("F WES R SPA/NC", "F WES", ["SPA/SC"], impossible_coast="a") == (
        "succeeds",
        "",
    )
    # unchanged: a province not among the retreats, a coast left out where two are open
    assert _retreat("A RUM R SER", "A RUM", ["BUL"]) == ("illegal", "A RUM cannot retreat to SER")
    assert _retreat("F MAO R SPA", "F MAO", ["SPA/NC", "SPA/SC"]) == (
        "illegal",
        "the coast of SPA must be given",
    )
    assert _retreat("F MAO R SPA", "F MAO", ["SPA/NC"]) == ("succeeds", "")
