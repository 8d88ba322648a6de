"""The registry of editions and boards: declared as data, validated, complete."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal, cast, get_args, get_origin, get_type_hints

import pytest

from realpolitik import ARMY, FLEET, Phase
from realpolitik.data import read_json
from realpolitik.errors import MapDataError, VariantError
from realpolitik.game.editions import (
    EDITIONS,
    VARIANTS,
    AdjustmentTime,
    CentersChange,
    Clock,
    Edition,
    Leaving,
    MissedOrders,
    Victory,
    VictoryCount,
    VictoryPer,
    _declarations,
    _edition,
    edition,
    variant_title,
    with_overrides,
)
from realpolitik.maps import load_map
from realpolitik.maps.loader import _derive, map_from_dict
from realpolitik.maps.model import ProvinceType

ALL = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_every_edition_is_declared_with_its_rules() -> None:
    assert EDITIONS == ("classic", "1971", "grow", "conquista")
    # the names the CLI and server offer are those declared in data/variants.json
    declared = read_json("data", "variants.json")
    assert tuple(declared["editions"]) == EDITIONS and tuple(declared["variants"]) == VARIANTS
    assert variant_title("standard").startswith("Europe")
    for name in EDITIONS:
        ed = edition(name)
        assert ed.name == name and ed.variant == "standard"
        assert ed.rules.name == name
    conquista = edition("conquista").rules
    assert (conquista.dislodged, conquista.foreign_support, conquista.adjustments) == (
        "destroyed", "acknowledged", "reinforcements",
    )  # fmt: skip
    for name in ("classic", "1971", "grow"):
        rules = edition(name).rules
        assert (rules.dislodged, rules.foreign_support, rules.adjustments) == (
            "retreat", "free", "upkeep",
        )  # fmt: skip
    with pytest.raises(VariantError, match="unknown edition"):
        edition("diplomacy2000")
    with pytest.raises(VariantError, match="unknown variant"):
        variant_title("colonial")


@pytest.mark.parametrize("name", EDITIONS)
def test_setups_cover_the_books_player_counts(name: str) -> None:
    ed = edition(name)
    low = 3 if name == "grow" else 2  # Grow's book: 3 to 7 (its 2-player table is an extra)
    assert ed.tables() == list(range(low, 8))
    for setup in ed.setups:
        board = load_map(ed.map_name(setup))
        named = [p for g in setup.groups for p in g] + list(setup.out)
        if setup.neutral:
            named.append(setup.neutral.power)
        assert sorted(named) == sorted(board.powers)
        assert len(setup.groups) == setup.players
    assert ed.setup().players == 7
    with pytest.raises(VariantError, match=f"played by {low} to 7 players"):
        ed.setup(8)
    with pytest.raises(VariantError, match="no setup"):
        ed.setup(None, "9z")


def test_the_tables_of_the_rulebooks() -> None:
    classic = edition("classic")
    assert classic.setup(6).out == ("ITALY",)
    assert set(classic.setup(5).out) == {"ITALY", "GERMANY"}
    four = {frozenset(g) for g in classic.setup(4).groups}
    assert four == {frozenset({"ENGLAND"}), frozenset({"AUSTRIA", "FRANCE"}),
                    frozenset({"GERMANY", "TURKEY"}), frozenset({"RUSSIA", "ITALY"})}  # fmt: skip
    three = {frozenset(g) for g in classic.setup(3).groups}
    assert three == {frozenset({"ENGLAND", "GERMANY", "AUSTRIA"}), frozenset({"RUSSIA", "ITALY"}),
                     frozenset({"FRANCE", "TURKEY"})}  # fmt: skip
    two = classic.setup(2)
    assert classic.first_year(two) == 1914 and two.neutral is not None
    assert two.neutral.power == "ITALY" and two.neutral.until == 1915
    assert classic.victory_for(two).threshold == 24 and classic.victory_for(two).per == "player"
    assert classic.victory_for(two).count == "centers"
    old = edition("1971")
    assert [s.id for s in old.setups if s.players == 3] == ["3a", "3b"]
    assert old.setup(3).groups[0] == ("RUSSIA",)
    assert old.setup(3, "3b").groups[0] == ("ENGLAND", "GERMANY", "AUSTRIA")
    assert old.victory_for(old.setup(2)).count == "units"
    assert set(old.setup(5).out) == {"GERMANY", "ITALY"}
    conquista = edition("conquista")
    assert set(conquista.setup(5).out) == {"ITALY", "TURKEY"}
    assert conquista.setup(3, "3b").out == ("ITALY",)
    assert conquista.victory_for(conquista.setup(2)).count == "units"
    assert conquista.victory.alliance_years == 2
    with pytest.raises(VariantError, match="for 3 players"):
        conquista.setup(4, "3b")


def test_phase_names_and_clocks() -> None:
    classic, grow, conquista = edition("classic"), edition("grow"), edition("conquista")
    assert classic.phase_name(Phase.parse("F1901R")) == "Fall 1901 retreats"
    assert classic.phase_name(Phase.parse("W1901A")) == "Winter 1901 adjustments"
    assert grow.phase_name(Phase.parse("S1901M")) == "Winter 1901"
    assert grow.phase_name(Phase.parse("F1901M")) == "Summer 1901"
    assert grow.phase_name(Phase.parse("W1901A")) == "Summer 1901 adjustments"
    assert conquista.phase_name(Phase.parse("S1915A")) == "Spring 1915 reinforcements"
    assert classic.clock == Clock(30, 15, 5)
    assert grow.clock == Clock(5, 5, 5)
    assert conquista.clock.diplomacy == 15
    spring = Phase.parse("S1901M")
    assert classic.clock.for_phase(spring, True) == {"diplomacy": 30, "writing": 5}
    assert classic.clock.for_phase(spring, False) == {"diplomacy": 15, "writing": 5}
    assert classic.clock.for_phase(Phase.parse("F1901R"), False)["diplomacy"] is None


def test_grow_reduced_boards() -> None:
    full = load_map("grow")
    assert ("FLEET", "ROM") in {(t.name, loc) for t, loc in full.starts["ITALY"]}
    assert dict((loc, t) for t, loc in full.starts["ITALY"]) == {
        "VEN": ARMY, "ROM": FLEET, "NAP": FLEET,
    }  # fmt: skip
    expect = {"grow_6": (30, ALL[:6]), "grow_5": (25, ALL[:5]),
              "grow_4": (22, ("ENGLAND", "FRANCE", "GERMANY", "ITALY")),
              "grow_3": (16, ("ENGLAND", "FRANCE", "GERMANY"))}  # fmt: skip
    for name, (centers, powers) in expect.items():
        board = load_map(name)
        assert len(board.centers) == centers and board.powers == powers, name
    six = load_map("grow_6")
    for prov in ("ANK", "CON", "SMY", "ARM", "SYR", "BUL"):
        assert six.provinces[prov].type is ProvinceType.IMPASSABLE
        assert prov not in six.centers
    assert six.can_move(FLEET, "BLA", "AEG") and six.can_move(FLEET, "AEG", "BLA")
    assert not load_map("standard").can_move(FLEET, "BLA", "AEG")
    assert not six.can_move(ARMY, "GRE", "BUL")
    four = load_map("grow_4")
    assert "VIE" in four.centers and four.provinces["VIE"].home is None
    assert four.provinces["TRI"].home is None and "AUSTRIA" not in four.homes
    assert four.can_move(ARMY, "VIE", "BOH") and not four.can_move(ARMY, "VIE", "BUD")
    three = load_map("grow_3")
    assert not three.provinces["NAF"].passable and three.can_move(FLEET, "MAO", "WES")
    assert len(edition("grow").victory.describe(three).split()) > 2
    assert edition("grow").victory.needed(three) == 18  # whatever the table (seed 003)
    assert edition("grow").victory.needed(full) == 18


def test_conquista_and_neutral_boards() -> None:
    board = load_map("conquista")
    assert len(board.centers) == 36
    assert board.provinces["SIL"].home == "GERMANY" and board.provinces["SYR"].home == "TURKEY"
    assert (ARMY, "SIL") in board.starts["GERMANY"] and (ARMY, "SYR") in board.starts["TURKEY"]
    assert sum(len(u) for u in board.starts.values()) == 24
    neutral = load_map("standard_neutral_italy")
    for outside, inside in (("TYR", "VEN"), ("MAR", "PIE"), ("TRI", "VEN")):
        assert not neutral.can_move(ARMY, outside, inside)
        assert not neutral.can_move(ARMY, inside, outside)
    assert neutral.can_move(ARMY, "ROM", "VEN")  # inside Italy, nothing changes
    assert not neutral.can_reach(FLEET, "TYS", "NAP") and not neutral.can_reach(FLEET, "ION", "APU")
    assert neutral.can_move(FLEET, "NAP", "ROM")
    assert len(load_map("conquista_neutral_italy").centers) == 36
    with pytest.raises(MapDataError, match="unknown map 'atlantis'"):
        load_map("atlantis")


def test_rule_overrides() -> None:
    rules = edition("classic").rules
    assert with_overrides(rules, {"4.D.8": "c"}).choice("4.D.8") == "c"
    assert with_overrides(rules, {"dislodged": "destroyed"}).dislodged == "destroyed"
    with pytest.raises(ValueError, match="unknown rule option"):
        with_overrides(rules, {"gravity": "off"})
    with pytest.raises(ValueError, match="is not one of"):
        with_overrides(rules, {"dislodged": "teleported"})


def test_dealing_powers() -> None:
    setup = edition("classic").setup(3)
    names = ["ann", "bob", "cy"]
    dealt = setup.deal(names, {}, 11)
    assert dealt == setup.deal(names, {}, 11)  # the seed decides
    assert sorted(map(sorted, dealt.values())) == sorted(map(sorted, setup.groups))
    assert len({tuple(sorted(setup.deal(names, {}, s)["ann"])) for s in range(20)}) == 3
    chosen = setup.deal(names, {"bob": ["france", "turkey"]}, 11)
    assert set(chosen["bob"]) == {"FRANCE", "TURKEY"}
    with pytest.raises(VariantError, match="not a group"):
        setup.deal(names, {"bob": "FRANCE"}, 1)
    with pytest.raises(VariantError, match="unknown player"):
        setup.deal(names, {"dan": ["RUSSIA", "ITALY"]}, 1)
    with pytest.raises(VariantError, match="assigned twice"):
        setup.deal(names, {"ann": ["RUSSIA", "ITALY"], "bob": ["ITALY", "RUSSIA"]}, 1)


@pytest.mark.parametrize("name", EDITIONS)
def test_every_setup_fits_its_boards(name: str) -> None:
    """Setups are checked when chosen (a new game loads only its own boards): choose each."""
    ed = edition(name)
    for setup in ed.setups:
        assert ed.setup(setup.players, setup.id) is setup


def test_what_missed_orders_and_leaving_mean_is_declared_per_edition() -> None:
    """Civil disorder per book: classic and 1971 for missed orders and for a player who
    leaves; grow only when the player leaves (003); conquista never (004). A declaration
    that makes missed orders civil disorder but not leaving is refused."""
    declared = {n: (edition(n).missed_orders, edition(n).leaving) for n in EDITIONS}
    assert declared == {"classic": ("disorder", "disorder"), "1971": ("disorder", "disorder"),
                        "grow": ("hold", "disorder"), "conquista": ("hold", "hold")}  # fmt: skip
    raw = dict(_declarations()["editions"]["classic"])
    with pytest.raises(VariantError, match="missed orders are civil disorder, so is leaving"):
        _edition("odd", raw | {"leaving": "hold"})
    with pytest.raises(VariantError, match="leaving 'go'"):
        _edition("odd", raw | {"leaving": "go"})


_EDITION_CHOICES: list[tuple[str, Any]] = [
    ("centers", CentersChange),
    ("adjustment_time", AdjustmentTime),
    ("missed_orders", MissedOrders),
    ("leaving", Leaving),
]


def test_an_editions_choices_are_types_named_for_what_they_decide() -> None:
    """When centres change owner, when adjustments come, what missed orders and leaving
    mean, what a victory counts and per whom: each is a ``Literal`` named for what it
    decides (not a ``str``: mypy checks every comparison with it), every edition's value
    is one of its values, and a declaration with another is refused, naming them."""
    hints, victory_hints = get_type_hints(Edition), get_type_hints(Victory)
    raw = dict(_declarations()["editions"]["classic"])
    for field, choice in _EDITION_CHOICES:
        assert hints[field] == choice and get_origin(choice) is Literal
        assert all(getattr(edition(name), field) in get_args(choice) for name in EDITIONS)
        with pytest.raises(VariantError, match=f"{field} 'never'.*expected '"):
            _edition("odd", raw | {field: "never"})
    for field, choice in [("count", VictoryCount), ("per", VictoryPer)]:
        assert victory_hints[field] == choice and get_origin(choice) is Literal
        assert all(getattr(edition(n).victory, field) in get_args(choice) for n in EDITIONS)
        with pytest.raises(VariantError, match="bad victory declaration"):
            _edition("odd", raw | {"victory": {**raw["victory"], field: "never"}})


def test_a_setup_that_does_not_fit_its_board_is_refused() -> None:
    ed = edition("classic")
    seven = ed.setup(7)
    broken = replace(ed, setups=(replace(seven, groups=seven.groups[:-1], players=6),))
    with pytest.raises(VariantError, match="must name each power"):
        broken.setup(6)


def test_a_reading_order_names_every_power_of_the_board() -> None:
    """Grow reads the orders from England clockwise to France; an edition without a
    reading order reads alphabetically; one that leaves a power out is refused."""
    grow = edition("grow")
    assert grow.reading(ALL) == ["ENGLAND", "GERMANY", "RUSSIA", "TURKEY", "AUSTRIA",
                                 "ITALY", "FRANCE"]  # fmt: skip
    assert grow.reading(["FRANCE", "ENGLAND", "GERMANY"]) == ["ENGLAND", "GERMANY", "FRANCE"]
    assert edition("classic").reading(reversed(ALL)) == list(ALL)
    broken = replace(grow, reading_order=grow.reading_order[:-1])
    with pytest.raises(VariantError, match="FRANCE not in the reading order"):
        broken.setup(7)


def test_a_derived_board_adds_provinces_names_coasts_and_removes_edges() -> None:
    """The declarations conquista's board is made of, and their checks: an edge to remove
    must be there, a province to add must be new, and a province given coasts keeps no
    fleet edge without a coast (the map loader says so)."""
    base = {"name": "test", "base": "standard"}
    board = map_from_dict(
        _derive(
            {
                **base,
                "add_provinces": [{"id": "XXX", "name": "Nowhere", "type": "inland"}],
                "add_army": [["XXX", "BOH"]],
                "remove_army": [["GAL", "BOH"]],
            }
        )
    )
    assert board.army_adjacency["XXX"] == {"BOH"} and "GAL" not in board.army_adjacency["BOH"]
    with pytest.raises(MapDataError, match="no edge BOH-PAR to remove"):
        _derive({**base, "remove_army": [["PAR", "BOH"]]})
    with pytest.raises(MapDataError, match="PAR is already on the board"):
        _derive({**base, "add_provinces": [{"id": "PAR", "name": "Paris", "type": "inland"}]})
    with pytest.raises(MapDataError, match="LON needs one of its coasts"):
        map_from_dict(_derive({**base, "coasts": {"LON": ["EC", "SC"]}}))


@pytest.mark.parametrize("name", EDITIONS)
def test_an_edition_cannot_be_changed(name: str) -> None:
    """``edition`` hands every game the same edition: its names of seasons and phase kinds
    cannot change, so no game can rename another's phases."""
    ed = edition(name)
    for mapping in (ed.seasons, ed.kinds):
        mapping = cast(dict[str, str], mapping)  # as a caller who ignores the type would
        key = next(iter(mapping))
        with pytest.raises(TypeError, match="cannot be changed"):
            mapping[key] = "Doomsday"
        with pytest.raises(TypeError, match="cannot be changed"):
            mapping.update({key: "Doomsday"})
    assert edition(name) is ed and "Doomsday" not in (*ed.seasons.values(), *ed.kinds.values())


def test_the_years_a_shortened_game_may_end_with() -> None:
    """1971 III and grow: the players agree a last year in advance (from the table's first,
    a game of one year, to a hundred years on); classic and conquista have no such rule.
    ``Game.new``, saved games and the server all ask the edition."""
    assert edition("grow").last_years(edition("grow").setup(5)) == range(1901, 2002)
    two = edition("1971").setup(2)  # its two players start in 1914
    assert edition("1971").last_years(two) == range(1914, 2015)
    edition("1971").check_last_year(1914, two)
    with pytest.raises(ValueError, match="must be from 1914 to 2014, not 1913"):
        edition("1971").check_last_year(1913, two)
    for name in ("classic", "conquista"):
        spec = edition(name)
        assert not spec.last_years(spec.setup())
        with pytest.raises(ValueError, match=f"the {name} edition has no shortened game"):
            spec.check_last_year(1905, spec.setup())
