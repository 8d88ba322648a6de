"""The saved-game file under concurrent commands and crashes: a read-change-write holds the
file's lock (a waiting command says so), data reach the disk before the rename, the file
keeps its mode, and temporary files of a killed command do not stay behind."""

from __future__ import annotations

import os
import select
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from realpolitik.formats.savegame import editing, load_game, save_game
from realpolitik.game import Game

CLI = [sys.executable, "-m", "realpolitik.cli"]


def _holds(game: Game) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for _, unit in sorted(game.position.units.items()):
        out.setdefault(unit.power, []).append(f"{unit} H")
    return out


def test_concurrent_orders_are_all_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    game = Game.new(edition="classic", players=7, seed=1)
    save_game(game, path)
    holds = _holds(game)
    procs = [
        subprocess.Popen(
            [*CLI, "orders", str(path), power, *orders],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for power, orders in holds.items()
    ]
    for proc in procs:
        proc.wait(timeout=120)
        assert proc.returncode == 0, proc.stderr.read()  # type: ignore[union-attr]
    saved = load_game(path)
    for power, orders in holds.items():
        assert [str(o) for o in saved.orders(power)] == orders, power
    assert saved.waiting_for() == []


def test_orders_racing_process_are_applied_or_kept(tmp_path: Path) -> None:
    """``orders`` and ``process`` at once: an acknowledged submission is in the processed
    phase's record or waits in the next phase, never neither (10 of 20 were lost before
    the lock)."""
    moves = ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO"]
    for seed in range(4):
        path = tmp_path / f"race{seed}.json"
        game = Game.new(edition="classic", players=7, seed=seed)
        for power, orders in _holds(game).items():
            if power != "FRANCE":
                game.submit(power, orders)
        save_game(game, path)
        given = subprocess.Popen(
            [*CLI, "orders", str(path), "FRANCE", *moves],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        processed = subprocess.run([*CLI, "process", str(path)], capture_output=True)
        given.wait(timeout=120)
        assert processed.returncode == 0 and given.returncode == 0
        saved = load_game(path)
        assert len(saved.history) == 1
        in_record = [str(o) for o in saved.history[0].orders.get("FRANCE", ())]
        waiting = [str(o) for o in saved.orders("FRANCE")]
        # which command comes first is up to the machine; either way nothing is lost
        assert sorted(moves) in (sorted(in_record), sorted(waiting)), (in_record, waiting)


def test_a_command_waits_for_the_lock_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    game = Game.new(edition="classic", players=7, seed=1)
    save_game(game, path)
    holds = _holds(game)
    with editing(path):
        proc = subprocess.Popen(
            [*CLI, "orders", str(path), "FRANCE", *holds["FRANCE"]],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr is not None
        # the command says it waits (however long it takes to start on a busy machine)
        told, _, _ = select.select([proc.stderr], [], [], 120)
        said = proc.stderr.readline() if told else ""
        assert "waiting" in said and str(path) in said, said
        assert proc.poll() is None, "the command must wait while the file is held"
        mine = load_game(path)  # a change made while holding the lock is not lost
        mine.submit("ENGLAND", holds["ENGLAND"])
        save_game(mine, path)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    saved = load_game(path)
    assert saved.orders("ENGLAND") and saved.orders("FRANCE")


def test_a_game_written_over_waits_for_the_command_changing_it(tmp_path: Path) -> None:
    """``new --force`` over a game another command is changing waits for it: written at
    once, the other command's save put the old game back over the new one."""
    path = tmp_path / "over.json"
    old = Game.new(edition="classic", players=7, seed=1)
    save_game(old, path)
    with editing(path):  # another command, between reading the game and saving it
        proc = subprocess.Popen(
            [*CLI, "new", str(path), "--force", "--seed", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr is not None
        told, _, _ = select.select([proc.stderr], [], [], 120)  # (a slow machine: not a sleep)
        said = proc.stderr.readline() if told else ""
        assert "waiting" in said and str(path) in said, said
        assert proc.poll() is None, "the new game must wait while the file is held"
        old.submit("FRANCE", _holds(old)["FRANCE"])
        save_game(old, path)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert load_game(path).seed == 2 and not load_game(path).orders("FRANCE")


def test_the_lock_is_exclusive_between_threads(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    save_game(Game.new(edition="classic", players=7, seed=1), path)
    inside = 0
    most = 0
    guard = threading.Lock()

    def work() -> None:
        nonlocal inside, most
        with editing(path):
            with guard:
                inside += 1
                most = max(most, inside)
            time.sleep(0.05)
            with guard:
                inside -= 1

    threads = [threading.Thread(target=work) for _ in range(5)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert most == 1


def test_a_save_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    game = Game.new(edition="classic", players=7, seed=1)
    save_game(game, path)
    os.chmod(path, 0o644)
    subprocess.run([*CLI, "process", str(path)], check=True, capture_output=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    os.chmod(path, 0o640)
    save_game(game, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_data_reach_the_disk_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync")
        real_fsync(fd)

    def replace(a: str, b: str) -> None:
        calls.append("replace")
        real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    save_game(Game.new(edition="classic", players=7, seed=1), tmp_path / "f.json")
    assert "fsync" in calls and calls.index("fsync") < calls.index("replace")


def test_temporary_files_of_a_killed_command_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    save_game(Game.new(edition="classic", players=7, seed=1), path)
    stale = tmp_path / ".k.json.0a1b2c3d.tmp"  # what a kill -9 in the middle of a save leaves
    stale.write_text("{half a game")
    other = tmp_path / ".other.json.abc.tmp"
    other.write_text("not ours")
    subprocess.run([*CLI, "process", str(path)], check=True, capture_output=True)
    assert not stale.exists()
    assert other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.abc.tmp", "k.json"]
