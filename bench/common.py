"""What both sides of the benchmark share, engine-neutral (each side imports only its own
engine and this file): the corpus file and the random player.

The random player picks one order at random for every key (a unit) in a movement or
retreat phase; in an adjustment phase it picks as many keys as builds or removals are due,
then one order for each. Keys are visited in sorted order, so a seed gives the same game
every time.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from functools import reduce
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

HERE = Path(__file__).parent
CORPUS = HERE / "corpus.jsonl"
JSONL_PHASES = 2000
"""The movement phases of the JSON-lines path (``adjudicate --jsonl``), a whole process."""


def jsonl_run(
    ours: str, peer: str, situations: Path
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The JSON-lines path's two processes, ``realpolitik adjudicate --jsonl`` (of the
    venv of ``ours``, a python) and ``peer.py jsonl``, ready to time or count: their
    commands and environment, once :data:`JSONL_PHASES` movement situations of random
    games (``corpus.py --movement``) are written to ``situations`` and each side's
    bytecode caches are (else ``PYTHONDONTWRITEBYTECODE`` has ours compiled from source
    in every process, where pip compiled the peer's at install)."""
    subprocess.run(
        [ours, str(HERE / "corpus.py"), "--movement", str(JSONL_PHASES), "--out", str(situations)],
        check=True,
        capture_output=True,
    )
    commands = {
        "ours": [
            str(Path(ours).parent / "realpolitik"),
            "adjudicate",
            "--jsonl",
            "--rules",
            "datc",
        ],
        "peer": [peer, str(HERE / "peer.py"), "jsonl"],
    }
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for command in commands.values():  # writes the bytecode caches
        subprocess.run(command, stdin=subprocess.DEVNULL, check=True, env=env)
    return commands, env


def pick(rng: random.Random, keyed: Mapping[str, Sequence[T]], due: int | None = None) -> list[T]:
    """Random orders for one power: ``keyed`` maps a key (a unit's location, a build site) to
    its legal orders; ``due`` is the number of builds (or removals, negative) of an
    adjustment phase, ``None`` in other phases."""
    keys = sorted(k for k, orders in keyed.items() if orders)
    if due is not None:
        keys = sorted(rng.sample(keys, min(abs(due), len(keys))))
    return [rng.choice(keyed[k]) for k in keys]


def load_corpus(path: Path = CORPUS) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The corpus's metadata and phases (see ``corpus.py``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0])["meta"], [json.loads(line) for line in lines[1:]]


WARM_UP_PHASES = 200
"""How many uncounted corpus phases the ``count`` task runs before those it counts."""


# --- the random games both engines play ---------------------------------------------------
LAST_YEAR = 1915
PLAY_SEED = 7
WARM_UP_SEED, WARM_UP_YEAR = 999, 1902


def task_play(play_game: Callable[..., int], games: int) -> dict[str, Any]:
    """Time ``games`` random games (CPU seconds each), then ``games`` more in the same process
    (``later``: what the engine keeps from game to game is made by then, as in a long run of
    games); one short game warms up first."""
    play_game(WARM_UP_SEED, WARM_UP_YEAR)  # the first game's start-up is measured apart
    collect_garbage()
    out: dict[str, Any] = {"driver": "Game"}
    for batch, first_seed in (("games", PLAY_SEED), ("later", PLAY_SEED + games)):
        timed = []
        for g in range(games):
            start = time.process_time()
            phases = play_game(first_seed + g)
            timed.append({"phases": phases, "seconds": time.process_time() - start})
        out[batch] = timed
    return out


def count_play(play_game: Callable[..., int], games: int) -> dict[str, Any]:
    """The ``count`` task's random games (see ``instructions.py``): one short game warms up,
    then ``games`` games are played inside ``functools.reduce``, which callgrind counts."""
    play_game(WARM_UP_SEED, WARM_UP_YEAR)
    collect_garbage()
    seeds = range(PLAY_SEED, PLAY_SEED + games)
    return {"phases": reduce(lambda total, seed: total + play_game(seed), seeds, 0)}


def task_memory(play_game: Callable[..., int]) -> dict[str, Any]:
    """Peak resident memory of a process that plays one game."""
    phases = play_game(PLAY_SEED)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"phases": phases, "peak_rss_mb": peak_kib / 1024}


def add_count_options(parser: argparse.ArgumentParser) -> None:
    """The ``count`` task's options (the same on both sides)."""
    parser.add_argument(
        "--what",
        choices=["adjudicate", "resolve", "enumerate", "play", "env"],
        default="adjudicate",
        help="env: random games through realpolitik.env (ours alone)",
    )
    parser.add_argument("--kind", choices=["M", "R", "A"], default="M")
    parser.add_argument("--limit", type=int, default=50, help="count: phases of the kind")
    parser.add_argument(
        "--warm-up", type=int, default=WARM_UP_PHASES, help="count: phases run first, uncounted"
    )


def collect_garbage() -> None:
    """Collect garbage, then keep what exists out of later collections: what is held in
    memory (the corpus, what the warm-up made) should not slow the engine's own collections
    down. Both sides call it at the same points."""
    gc.collect()
    gc.freeze()


def warm_up_phases(phases: list[Any], chosen: list[Any], count: int) -> list[Any]:
    """The ``count`` task's warm-up: the first ``count`` corpus phases that are not counted,
    in corpus order (the counted phases are each seen once, after them)."""
    counted = {id(entry) for entry in chosen}
    return [entry for entry in phases if id(entry) not in counted][:count]
