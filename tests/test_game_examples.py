"""The rulebooks' example games replay exactly through :class:`Game` (seed 000 under classic,
seed 003 under grow): every result the commentary states, every position, every owner."""

from __future__ import annotations

import pytest

from realpolitik.formats.replay import load_game_record
from realpolitik.game import Game


def _pairs(shape: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, item) for power, items in shape.items() for item in items}


@pytest.mark.parametrize(
    ("name", "edition", "names"),
    [
        (
            "classic_1901_1902",
            "classic",
            ["Spring 1901", "Fall 1901", "Winter 1901 adjustments", "Spring 1902",
             "Fall 1902", "Fall 1902 retreats", "Winter 1902 adjustments"],
        ),
        (
            "grow_1901_1902",
            "grow",
            ["Winter 1901", "Summer 1901", "Summer 1901 adjustments", "Winter 1902"],
        ),
    ],
)  # fmt: skip
def test_example_game_replays_through_game(name: str, edition: str, names: list[str]) -> None:
    record = load_game_record(name)
    game = Game.new(edition=edition, seed=1)
    start = record["start"]
    assert _pairs(game.position.to_json()["units"]) == _pairs(start["units"])
    assert _pairs(game.position.to_json()["centers"]) == _pairs(start["centers"])
    checked = 0
    for step, phase in enumerate(record["phases"]):
        assert str(game.phase) == phase["phase"]
        assert game.phase_name() == names[step]
        for power, orders in phase["orders"].items():
            game.submit(power, orders)
        assert game.waiting_for() == [] or phase["phase"].endswith("A")
        resolution = game.process()
        got = {(o.power, str(o.order)): o.result.value for o in resolution.outcomes}
        expect = phase["expect"]
        for power, results in expect.get("results", {}).items():
            for order, want in results.items():
                assert got[(power, order)] == want, (phase["phase"], power, order)
                checked += 1
        after = resolution.position.to_json()
        if "units" in expect:
            assert _pairs(after["units"]) == _pairs(expect["units"]), phase["phase"]
        if "dislodged" in expect:
            want_d = {(p, d["unit"], d["attacker_from"]) for p, ds in expect["dislodged"].items()
                      for d in ds}  # fmt: skip
            got_d = {(p, d["unit"], d["attacker_from"]) for p, ds in after["dislodged"].items()
                     for d in ds}  # fmt: skip
            assert got_d == want_d, phase["phase"]
        if "centers" in expect:
            assert _pairs(game.position.to_json()["centers"]) == _pairs(expect["centers"])
        record_ = game.history[-1] if not game.history[-1].skipped else None
        assert record_ is None or str(record_.phase) == phase["phase"]
    assert checked > 50
    assert [str(r.phase) for r in game.history if not r.skipped] == [
        p["phase"] for p in record["phases"]
    ]
    assert not game.is_over
