"""``make loadtest``'s tool runs, plays, checks and reports (a few players, a few seconds)."""

from __future__ import annotations

import subprocess
import sys

from tests.server.conftest import ROOT


def test_the_load_test_runs_and_reports() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "loadtest.py"), "--players", "3", "--seconds", "4"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "| requests | throughput |" in proc.stdout
    assert "no acknowledged order lost: held" in proc.stdout
