"""Rule choices the DATC cases do not cover under any preset, each shown to change a result."""

from __future__ import annotations

from realpolitik import Phase, Position, adjudicate, load_map, parse_order
from realpolitik.adjudicator.adjustments import net_upkeep
from realpolitik.adjudicator.results import Resolution
from realpolitik.position import Dislodged
from realpolitik.rules import (
    CivilDisorderRemoval,
    ConvoyedAttackOrigin,
    ConvoyParadox,
    DislodgedOrigin,
    DoubleBuild,
    DuplicateOrders,
    FleetBuildInland,
    MissingNationality,
    MissingUnitType,
    OmittedCoast,
    Rules,
    SupportCoast,
    TooManyBuilds,
    UnknownCoast,
    Waiving,
    WrongNationality,
    WrongUnitType,
)
from realpolitik.vocab import ARMY, FLEET, Unit

M = load_map("standard")


def play(phase: str, units, orders, rules: Rules, centers=None) -> Resolution:
    position = Position.from_json({"units": units, "centers": centers or {}}, M)
    parsed = {p: [parse_order(o, game_map=M) for o in os] for p, os in orders.items()}
    return adjudicate(M, position, parsed, rules, Phase.parse(phase))


def results(res: Resolution) -> list[str]:
    return [o.result.value for o in res.outcomes if not o.implied]


def test_duplicate_orders_4d3() -> None:
    units = {"FRANCE": ["A PAR"]}
    orders = {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]}
    first = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.FIRST))
    last = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.LAST))
    neither = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.NONE))
    assert first.position.units["BUR"].power == "FRANCE"
    assert last.position.units["PIC"].power == "FRANCE"
    assert "PAR" in neither.position.units and results(neither) == ["illegal", "illegal"]


def test_duplicate_orders_keep_the_other_units_orders_consistent() -> None:
    """The order a rule keeps is the only one the board knows: the move dropped neither
    bounces another army nor takes the support of the move kept."""
    units = {"FRANCE": ["A PAR", "A BRE"], "GERMANY": ["A MUN"]}
    orders = {
        "FRANCE": ["A PAR - BUR", "A BRE S A PAR - PIC", "A PAR - PIC"],
        "GERMANY": ["A MUN - BUR"],
    }
    first = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.FIRST))
    assert results(first) == ["fails", "invalid", "illegal", "fails"]
    assert sorted(first.position.units) == ["BRE", "MUN", "PAR"]
    last = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.LAST))
    assert results(last) == ["illegal", "given", "succeeds", "succeeds"]
    assert sorted(last.position.units) == ["BRE", "BUR", "PIC"]
    neither = play("S1901M", units, orders, Rules(duplicate_orders=DuplicateOrders.NONE))
    assert results(neither) == ["illegal", "invalid", "illegal", "succeeds"]
    assert neither.position.units["BUR"].power == "GERMANY"


def test_missing_and_wrong_unit_type_4c1_4c2() -> None:
    units = {"FRANCE": ["A PAR"]}
    assert results(play("S1901M", units, {"FRANCE": ["PAR - BUR"]}, Rules())) == ["succeeds"]
    strict = Rules(missing_unit_type=MissingUnitType.ILLEGAL, wrong_unit_type=WrongUnitType.ILLEGAL)
    assert results(play("S1901M", units, {"FRANCE": ["PAR - BUR"]}, strict)) == ["illegal"]
    assert results(play("S1901M", units, {"FRANCE": ["F PAR - BUR"]}, strict)) == ["illegal"]
    assert results(play("S1901M", units, {"FRANCE": ["F PAR - BUR"]}, Rules())) == ["succeeds"]


def test_a_supported_move_is_judged_for_the_unit_there_not_as_named() -> None:
    """A support naming the wrong type (or none) is judged by what the unit there can
    reach: a fleet in Marseilles cannot go to Gascony, an army there can."""
    fleet = {"FRANCE": ["F MAR", "A BUR"]}
    for named in ("A MAR", "MAR"):
        res = play("S1901M", fleet, {"FRANCE": [f"A BUR S {named} - GAS"]}, Rules())
        assert results(res) == ["illegal"]
        assert str(res.outcomes[0].reason) == "F MAR cannot move to GAS"
    army = {"FRANCE": ["A MAR", "A BUR"]}
    orders = {"FRANCE": ["A BUR S F MAR - GAS", "A MAR - GAS"]}
    assert results(play("S1901M", army, orders, Rules())) == ["given", "succeeds"]


def test_omitted_coast_with_one_possible_4b2() -> None:
    units = {"FRANCE": ["F GAS"]}
    orders = {"FRANCE": ["F GAS - SPA"]}
    assert play("S1901M", units, orders, Rules()).position.units["SPA"].location == "SPA/NC"
    assert results(play("S1901M", units, orders, Rules(omitted_coast=OmittedCoast.FAILS))) == [
        "illegal"
    ]


def test_unknown_coast_4b6() -> None:
    units = {"FRANCE": ["A GAS"]}
    orders = {"FRANCE": ["A GAS - SPA/NC"]}
    assert results(play("S1901M", units, orders, Rules())) == ["succeeds"]
    assert results(play("S1901M", units, orders, Rules(unknown_coast=UnknownCoast.ILLEGAL))) == [
        "illegal"
    ]


def test_nationality_in_support_4c5_4c6() -> None:
    units = {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"], "ITALY": ["A PIE"]}
    orders = {"GERMANY": ["A MUN S FRENCH A MAR - BUR"], "FRANCE": ["A MAR - BUR"]}
    assert results(play("S1901M", units, orders, Rules()))[0] == "given"
    wrong = {"GERMANY": ["A MUN S ITALIAN A MAR - BUR"], "FRANCE": ["A MAR - BUR"]}
    assert results(play("S1901M", units, wrong, Rules()))[0] == "given"
    assert (
        results(play("S1901M", units, wrong, Rules(wrong_nationality=WrongNationality.ILLEGAL)))[0]
        == "illegal"
    )
    bare = {"GERMANY": ["A MUN S A MAR - BUR"], "FRANCE": ["A MAR - BUR"]}
    assert (
        results(play("S1901M", units, bare, Rules(missing_nationality=MissingNationality.ILLEGAL)))[
            0
        ]
        == "illegal"
    )


def test_convoyed_attack_on_own_target_4a4() -> None:
    # A BEL, supported from HOL into... the supporter in HOL is attacked by a convoy from
    # the province its support goes into: cut only under 4.A.4 b.
    units = {"ENGLAND": ["A BEL", "F NTH"], "FRANCE": ["A HOL", "A PIC"], "GERMANY": ["A RUH"]}
    orders = {
        "ENGLAND": ["A BEL - HOL VIA", "F NTH C A BEL - HOL"],
        "FRANCE": ["A HOL S A PIC - BEL", "A PIC - BEL"],
    }
    kept = play("S1901M", units, orders, Rules())
    cut = play("S1901M", units, orders, Rules(convoyed_attack_origin=ConvoyedAttackOrigin.CUT))
    assert results(kept)[2] == "given" and results(cut)[2] == "cut"


def test_paradox_all_hold_4a2d() -> None:
    # Pandin's paradox (DATC 6.F.16): Szykman stops the convoy; 'all hold' stops every move.
    units = {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"],
             "GERMANY": ["F BEL", "F NTH"]}  # fmt: skip
    orders = {
        "ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"],
        "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
        "GERMANY": ["F NTH S F BEL - ENG", "F BEL - ENG"],
    }
    res = play("S1901M", units, orders, Rules(convoy_paradox=ConvoyParadox.ALL_HOLD))
    assert all(o.result.value != "succeeds" for o in res.outcomes)
    assert "ENG" in res.position.units and res.position.units["ENG"].power == "FRANCE"


def test_dislodged_unit_never_affects_origin_4a7() -> None:
    # A BEL is dislodged by a convoyed army from HOL (no head-to-head battle). Under 4.A.7 b
    # it still bounces the German army moving into HOL; under a it has no effect there.
    units = {"ENGLAND": ["A HOL", "F NTH", "A PIC"], "FRANCE": ["A BEL"], "GERMANY": ["A RUH"]}
    orders = {
        "ENGLAND": ["A HOL - BEL VIA", "F NTH C A HOL - BEL", "A PIC S A HOL - BEL"],
        "FRANCE": ["A BEL - HOL"],
        "GERMANY": ["A RUH - HOL"],
    }
    b = play("S1901M", units, orders, Rules())
    a = play("S1901M", units, orders, Rules(dislodged_origin=DislodgedOrigin.NEVER))
    assert "HOL" in b.position.contested
    assert a.position.units["HOL"].power == "GERMANY"


def test_adjustment_choices_4d4_4d5_4d6_4d7() -> None:
    centers = {"RUSSIA": ["MOS", "WAR", "STP", "SEV"]}
    two = {"RUSSIA": ["A WAR B", "A MOS B", "A SEV B"]}
    units = {"RUSSIA": ["A UKR", "A LVN"]}
    first = play("W1901A", units, two, Rules(), centers)
    assert results(first) == ["succeeds", "succeeds", "illegal"]
    last = play("W1901A", units, two, Rules(too_many_builds=TooManyBuilds.LAST), centers)
    assert results(last) == ["illegal", "succeeds", "succeeds"]
    none = play("W1901A", units, two, Rules(too_many_builds=TooManyBuilds.ALL_FAIL), centers)
    assert results(none) == ["illegal"] * 3
    same = {"RUSSIA": ["A STP B", "F STP/NC B"]}
    both_fail = Rules(double_build=DoubleBuild.BOTH_FAIL)
    assert results(play("W1901A", units, same, both_fail, centers)) == ["illegal", "illegal"]
    assert results(play("W1901A", units, same, Rules(double_build=DoubleBuild.LAST), centers)) == [
        "illegal", "succeeds"
    ]  # fmt: skip
    waive = {"RUSSIA": ["WAIVE", "A MOS B"]}
    assert results(play("W1901A", units, waive, Rules(), centers)) == ["succeeds", "succeeds"]
    assert (
        results(play("W1901A", units, waive, Rules(waive=Waiving.NOT_ALLOWED), centers))[0]
        == "illegal"
    )
    # fleets cannot be built inland (4.C.4 a), or an army is built instead (b)
    fleet = {"RUSSIA": ["F MOS B"]}
    assert results(play("W1901A", units, fleet, Rules(), centers)) == ["illegal"]
    built = play(
        "W1901A", units, fleet, Rules(fleet_build_inland=FleetBuildInland.ARMY_BUILT), centers
    )
    assert built.position.units["MOS"].type.value == "A"


def _removed(
    units: dict[str, list[str]], centers: dict[str, list[str]], rule: CivilDisorderRemoval
) -> tuple[Unit, ...]:
    return play("W1901A", units, {}, Rules(civil_disorder_removal=rule), centers).civil_disorder


def test_civil_disorder_removal_4d8() -> None:
    # Russia owns only MOS; A LVN and F NAO must go in the order the edition says.
    units = {"RUSSIA": ["A MOS", "F BOT", "A BOH"]}
    centers = {"RUSSIA": ["MOS", "WAR"]}  # three units, two centres: one removal
    removed = {
        choice: [str(u) for u in _removed(units, centers, CivilDisorderRemoval(choice))]
        for choice in "abc"
    }
    # 2023 (c): A MOS stands on a centre; BOT and BOH are both two steps from an owned centre
    # (via LVN / GAL to WAR), so the fleet goes first. 1971 (a) and 2000 (b): the fleet is one
    # move from St Petersburg (a home centre; Russian country), Bohemia two: the army goes.
    assert removed == {"a": ["A BOH"], "b": ["A BOH"], "c": ["F BOT"]}


def test_removal_2000_counts_the_home_country() -> None:
    # Austria: three units, two centres. Galicia and Serbia are both one move from a home
    # centre, so 1971 (a) removes alphabetically: Galicia. Galicia is part of the Austrian
    # country, Serbia is not, so the 2000 rule (b) removes Serbia.
    units = {"AUSTRIA": ["A VIE", "A GAL", "A SER"]}
    centers = {"AUSTRIA": ["VIE", "BUD"]}
    by = {c: [str(u) for u in _removed(units, centers, CivilDisorderRemoval(c))] for c in "ab"}
    assert by == {"a": ["A GAL"], "b": ["A SER"]}


def test_coast_in_support_4b4() -> None:
    # Turkey F CON - BUL/EC; Russia supports it without naming the coast.
    units = {"TURKEY": ["F CON"], "RUSSIA": ["A RUM"], "AUSTRIA": ["A BUL"]}
    orders = {"TURKEY": ["F CON - BUL/EC"], "RUSSIA": ["A RUM S F CON - BUL"]}
    assert results(play("S1901M", units, orders, Rules()))[1] == "given"
    assert (
        results(play("S1901M", units, orders, Rules(support_coast=SupportCoast.ALLY_NAMES_IT)))[1]
        == "invalid"
    )
    wrong = {"TURKEY": ["F CON - BUL/EC"], "RUSSIA": ["A RUM S F CON - BUL/SC"]}
    assert results(play("S1901M", units, wrong, Rules()))[1] == "invalid"
    assert (
        results(play("S1901M", units, wrong, Rules(support_coast=SupportCoast.IGNORED)))[1]
        == "given"
    )


def test_net_upkeep_counts_every_power_even_one_the_map_does_not_declare() -> None:
    game_map = load_map("standard")
    units = {
        "PAR": Unit("FRANCE", ARMY, "PAR"),
        "BRE": Unit("FRANCE", FLEET, "BRE"),
        "MUN": Unit("ATLANTIS", ARMY, "MUN"),
    }
    centers = {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE", "BER": "ATLANTIS"}
    position = Position(units, centers)
    dues = net_upkeep(game_map, position)
    assert dues["FRANCE"] == 1 and dues["ATLANTIS"] == 0 and dues["ENGLAND"] == 0
    assert list(dues)[: len(game_map.powers)] == list(game_map.powers)  # the map's powers first
    declared = Position({"PAR": units["PAR"]}, {"PAR": "FRANCE", "BER": "GERMANY"})
    assert net_upkeep(game_map, declared) == {**dict.fromkeys(game_map.powers, 0), "GERMANY": 1}
    # a power with only a dislodged unit still has an entry
    lone = Dislodged(Unit("ATLANTIS", ARMY, "KIE"), "BER", ())
    assert net_upkeep(game_map, Position({}, {}, {"KIE": lone}))["ATLANTIS"] == 0
