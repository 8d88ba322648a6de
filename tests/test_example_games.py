"""The rulebooks' example games replay exactly: every stated result, position and owner."""

from __future__ import annotations

import io

import pytest

from realpolitik.cli import main
from realpolitik.formats.replay import load_game_record, replay

GAMES = ["classic_1901_1902", "grow_1901_1902"]


def _units(shape: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(p, u) for p, us in shape.items() for u in us}


@pytest.mark.parametrize("name", GAMES)
def test_example_game_replays(name: str) -> None:
    record = load_game_record(name)
    phases = [p["phase"] for p in record["phases"]]
    checked = 0
    for k, (phase, result) in enumerate(replay(record)):
        expect = phase["expect"]
        got = {
            (power, e["order"]): e["result"]
            for power, entries in result["orders"].items()
            for e in entries
        }
        for power, results in expect.get("results", {}).items():
            for order, want in results.items():
                assert got.get((power, order)) == want, (phase["phase"], power, order)
                checked += 1
        if "units" in expect:
            assert _units(result["units"]) == _units(expect["units"]), phase["phase"]
        if "dislodged" in expect:
            want_d = {
                (p, d["unit"], d["attacker_from"])
                for p, ds in expect["dislodged"].items()
                for d in ds
            }
            got_d = {
                (p, d["unit"], d["attacker_from"])
                for p, ds in result["dislodged"].items()
                for d in ds
            }
            assert got_d == want_d, phase["phase"]
        if "centers" in expect:
            assert _units(result["centers"]) == _units(expect["centers"]), phase["phase"]
        if k + 1 < len(phases):
            assert result["next_phase"] == phases[k + 1]
    assert checked > 50


def test_demo_prints_every_turn() -> None:
    out = io.StringIO()
    assert main(["demo"], stdout=out) == 0
    text = out.getvalue()
    for phase in ("S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R", "W1902A"):
        assert f"=== {phase} ===" in text
    # the mark of an order that failed was never explained
    assert "A BUD - GAL              fails * (standoff in GAL with A WAR)" in text
    legend = "(* an order that did not work: failed, cut, disrupted, illegal, invalid or dislodged)"
    assert text.splitlines()[1] == legend
