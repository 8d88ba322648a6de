"""``realpolitik selfplay --ray``: on a local Ray instance that the test starts, the games a
local run with the same seeds writes. Skipped where Ray is not installed (it is in the
``dev`` extra; ``realpolitik[ray]`` for users)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from realpolitik.bots.training import Plan, run

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A one-node Ray instance on the loopback address; yields its address."""
    ray.init(
        num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", logging_level="ERROR"
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def test_a_ray_run_writes_the_games_of_a_local_run(cluster: str, tmp_path: Path) -> None:
    args = ["--games", "6", "--seed", "70", "--bot", "random", "--power-bot", "TURKEY=heuristic",
            "--max-years", "3", "--quiet"]  # fmt: skip
    command = [sys.executable, "-m", "realpolitik.cli", "selfplay", *args]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "ray"), "--ray", cluster],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 6
    plan = Plan(games=6, seed=70, bot="random", bots={"TURKEY": "heuristic"}, max_years=3)
    run(plan, tmp_path / "local", workers=1)
    for name in ("phases.jsonl", "games.jsonl"):
        ours = (tmp_path / "ray" / name).read_bytes()
        assert ours == (tmp_path / "local" / name).read_bytes()
    assert len((tmp_path / "ray" / "games.jsonl").read_text().splitlines()) == 6


def test_a_ray_run_in_a_driver_that_has_ray_running(cluster: str, tmp_path: Path) -> None:
    plan = Plan(games=3, seed=5, edition="grow", players=4, max_years=2, format="saved")
    figures = run(plan, tmp_path / "ray", ray_address=cluster)
    assert ray.is_initialized()  # the instance this test started is left running
    run(plan, tmp_path / "local", workers=1)
    assert figures["games"] == 3
    for seed in (5, 6, 7):
        name = f"game-{seed}.json"
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()
