"""The standard map as data: counts, symmetry and the special geography of RULES.md §1."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from realpolitik import ARMY, FLEET, load_map
from realpolitik.errors import MapDataError
from realpolitik.maps import BOARDS, ProvinceType, map_from_dict

M = load_map("standard")


def test_counts() -> None:
    passable = [p for p in M.provinces.values() if p.passable]
    assert len(passable) == 75
    kinds = [p.type for p in passable]
    assert kinds.count(ProvinceType.SEA) == 19
    assert kinds.count(ProvinceType.INLAND) + kinds.count(ProvinceType.COASTAL) == 56
    assert len(M.centers) == 34
    assert sum(len(h) for h in M.homes.values()) == 22
    assert {p: len(h) for p, h in M.homes.items()} == {
        "AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3, "ITALY": 3, "RUSSIA": 4,
        "TURKEY": 3,
    }  # fmt: skip
    assert sum(len(units) for units in M.starts.values()) == 22


def test_names_and_abbreviations() -> None:
    assert M.name_of("NTH") == "North Sea"
    assert M.name_of("STP") == "St Petersburg"
    assert all(len(pid) == 3 and pid.isupper() for pid in M.provinces)


def test_adjacency_is_symmetric() -> None:
    for p, near in M.army_adjacency.items():
        for q in near:
            assert p in M.army_adjacency[q], (p, q)
    for a, near in M.fleet_adjacency.items():
        for b in near:
            assert a in M.fleet_adjacency[b], (a, b)


def test_two_coast_provinces() -> None:
    assert M.coasts("SPA") == ("NC", "SC")
    assert M.coasts("STP") == ("NC", "SC")
    assert M.coasts("BUL") == ("EC", "SC")
    assert M.fleet_destinations("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert M.fleet_destinations("GAS", "SPA") == ("SPA/NC",)
    assert M.fleet_destinations("BLA", "BUL") == ("BUL/EC",)
    assert M.fleet_destinations("BAR", "STP") == ("STP/NC",)
    assert M.can_move(FLEET, "STP/SC", "BOT") and not M.can_move(FLEET, "STP/NC", "BOT")


@pytest.mark.parametrize(
    ("unit", "src", "dst", "ok"),
    [
        (FLEET, "KIE", "BAL", True),  # Kiel canal
        (FLEET, "KIE", "HOL", True),
        (FLEET, "CON", "BLA", True),  # Bosphorus
        (FLEET, "CON", "AEG", True),
        (FLEET, "CON", "BUL/SC", True),
        (FLEET, "CON", "BUL/EC", True),
        (ARMY, "SWE", "DEN", True),
        (FLEET, "SWE", "DEN", True),
        (ARMY, "DEN", "BER", False),  # Denmark does not border Berlin
        (FLEET, "BAL", "SKA", False),  # needs a stop in Sweden or Denmark
        (FLEET, "ROM", "TUS", True),
        (FLEET, "ROM", "VEN", False),  # no shared coast
        (ARMY, "ROM", "VEN", True),
        (FLEET, "ROM", "APU", False),
        (ARMY, "MUN", "SWI", False),  # Switzerland is impassable
        (FLEET, "NTH", "PIC", False),
    ],
)
def test_special_geography(unit, src, dst, ok) -> None:
    assert M.can_move(unit, src, dst) is ok


def test_switzerland_and_islands() -> None:
    assert M.provinces["SWI"].type is ProvinceType.IMPASSABLE
    assert not M.any_adjacency["SWI"]
    assert "SWI" not in M.army_locations and "SWI" not in M.fleet_locations


def test_bad_map_data_is_rejected() -> None:
    base: dict[str, Any] = {
        "name": "tiny",
        "provinces": [
            {"id": "AAA", "name": "A", "type": "inland"},
            {"id": "BBB", "name": "B", "type": "sea"},
        ],
        "army": [],
        "fleet": [],
        "starts": {"X": []},
    }
    map_from_dict(base)
    with pytest.raises(MapDataError, match="not a land province"):
        map_from_dict({**base, "army": [["AAA", "BBB"]]})
    with pytest.raises(MapDataError, match="no coast"):
        map_from_dict({**base, "fleet": [["AAA", "BBB"]]})
    with pytest.raises(MapDataError, match="duplicate"):
        map_from_dict({**base, "provinces": base["provinces"] * 2})
    with pytest.raises(MapDataError, match="unknown map"):
        load_map("atlantis")
    with pytest.raises(MapDataError, match="removed province AAA"):
        map_from_dict({**base, "removed": ["AAA"]})  # (a province in play)
    with pytest.raises(MapDataError, match="removed province ZZZ"):
        map_from_dict({**base, "removed": ["ZZZ"]})


def test_smaller_boards_name_the_provinces_they_take_away() -> None:
    """Grow's tables for fewer players take provinces away, each board those of the one it
    is derived from and its own (RULES.md §4); Switzerland is the board's, impassable."""
    assert not M.removed and not load_map("grow").removed
    six, five = load_map("grow_6"), load_map("grow_5")
    assert six.removed == {"ANK", "CON", "SMY", "ARM", "SYR", "BUL"}
    assert five.removed == six.removed | {"MOS", "STP", "LVN", "WAR", "UKR", "SEV", "RUM"}
    assert all(not five.provinces[p].passable for p in five.removed) and "SWI" not in five.removed


def test_every_shipped_board_loads() -> None:
    data = resources.files("realpolitik.maps").joinpath("data")
    files = {p.name[: -len(".json")] for p in data.iterdir() if p.name.endswith(".json")}
    files |= {p.name[: -len(".json")] for p in data.joinpath("derived").iterdir()}
    assert set(BOARDS) == files
    for name in BOARDS:
        board = load_map(name)
        assert board.name == name and board.centers


@pytest.mark.parametrize("name", ["", "../standard", "derived/grow", ".hidden", "STANDARD", 5])
def test_unknown_boards_are_named_in_the_error(name: str) -> None:
    with pytest.raises(MapDataError, match="unknown map"):
        load_map(name)


@pytest.mark.parametrize("name", BOARDS)
def test_a_shipped_board_cannot_be_changed(name: str) -> None:
    """``load_map`` hands every caller the same board: none of its mappings can change, so
    no game can alter another's map."""
    board = load_map(name)
    mappings = {
        field: getattr(board, field)
        for field in (
            "provinces",
            "army_adjacency",
            "fleet_adjacency",
            "fleet_reach",
            "starts",
            "homes",
            "any_adjacency",
        )
    }
    for field, mapping in mappings.items():
        key = next(iter(mapping))
        before = mapping[key]
        with pytest.raises(TypeError, match="cannot be changed"):
            mapping[key] = before
        with pytest.raises(TypeError, match="cannot be changed"):
            mapping.pop(key)
        with pytest.raises(TypeError, match="cannot be changed"):
            mapping.clear()
        assert load_map(name) is board and getattr(board, field)[key] == before, field
