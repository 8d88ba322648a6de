"""The worker processes of ``selfplay`` and ``tournament`` (realpolitik.bots.workers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize("command", ["selfplay", "tournament"])
def test_ctrl_c_stops_the_workers_in_one_line(command: str, tmp_path: Path) -> None:
    """Ctrl-C at a terminal reaches every process of the command: each worker printed its
    own KeyboardInterrupt traceback (a screenful for two workers) before the parent's line."""
    args = {
        "selfplay": ["--games", "2000", "--out", str(tmp_path), "--quiet"],
        "tournament": ["--bot", "random", "--baseline", "random", "--seeds", "500"],
    }[command]
    proc = subprocess.Popen(
        [sys.executable, "-m", "realpolitik.cli", command, *args, "--jobs" if command ==
         "tournament" else "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stderr is not None
    if command == "tournament":
        assert proc.stderr.readline().startswith("[1/")  # a game played: the workers work
    else:
        for _ in range(600):  # a game written: the workers work
            if (tmp_path / "games.jsonl").exists() and (tmp_path / "games.jsonl").stat().st_size:
                break
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the whole group
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err and err.endswith("\nrealpolitik: interrupted\n")
    assert proc.returncode == 130
