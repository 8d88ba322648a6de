"""Count machine instructions instead of seconds: the benchmark's ratios, unmoved by load.

    .venv/bin/python bench/instructions.py --peer bench/.peer-venv/bin/python
    (``make bench-instructions``; needs valgrind, takes several minutes)

Timings on a shared machine move with whatever else runs; ``valgrind --tool=callgrind``
counts the instructions a process executes, the same every run. For each engine, phase
kind and task (``adjudicate``: from the phase's orders as text to the next phase;
``resolve``: the same from orders already given; ``enumerate``: list the legal orders),
the ``count`` task of ``ours.py`` / ``peer.py`` runs under callgrind
on the first ``--limit`` corpus phases of the kind: the first ``--warm-up`` other corpus
phases run first, uncounted, then each counted phase's work (not its loading) runs once
inside ``functools.reduce``, and only what runs inside that function is counted (a phase
is never counted warm from its own earlier run: some of its work would be remembered).
Random games are counted too: ``--games`` games through each engine's game object, after
one short game (as ``make bench`` times the first games of a process), per phase played;
and the same games through realpolitik's PettingZoo environment (``realpolitik.env``).
The JSON-lines path (``realpolitik adjudicate --jsonl`` against ``peer.py jsonl``) is
counted whole, start-up included, on the 2,000 movement situations ``make bench`` times
(the peer's from fewer: see :func:`jsonl_counts`).
Prints a table and writes ``instructions.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from common import JSONL_PHASES, WARM_UP_PHASES, jsonl_run

HERE = Path(__file__).parent
OURS = sys.executable
RESULTS = HERE / "instructions.json"
KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}
_COLLECTED = re.compile(r"Collected : (\d+)")
_CALLGRIND = (
    "valgrind",
    "--tool=callgrind",
    "--callgrind-out-file=/dev/null",
    "--collect-atstart=no",
    "--toggle-collect=functools_reduce",  # the C function of functools.reduce
)
# the same string hashes in every run: dictionaries lay out alike, the counts repeat exactly
_ENV = {**os.environ, "PYTHONHASHSEED": "0"}


def instructions(python: str, script: str, *args: str) -> int:
    """The instructions the process ``python script args`` executes, as callgrind counts."""
    return counted([*_CALLGRIND, python, str(HERE / script), "count", *args], _ENV)


def counted(command: list[str], env: dict[str, str], stdin: Path | None = None) -> int:
    """The instructions callgrind counts of ``command`` (``valgrind`` and its options
    first), run with ``env`` and ``stdin``."""
    with open(stdin or os.devnull, "rb") as given:
        done = subprocess.run(
            command, stdin=given, capture_output=True, text=True, check=False, env=env
        )
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_phase(python: str, script: str, what: str, kind: str, limit: int, warm_up: int) -> float:
    """Instructions per phase of the work alone."""
    args = ["--what", what, "--kind", kind, "--limit", str(limit), "--warm-up", str(warm_up)]
    return per_game(python, script, args)


def per_game(python: str, script: str, args: list[str]) -> float:
    """Instructions per phase of the ``count`` task with ``args``."""
    phases = json.loads(
        subprocess.run(
            [python, str(HERE / script), "count", *args],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["phases"]
    return instructions(python, script, *args) / max(phases, 1)


def jsonl_counts(peer: str, phases: int) -> dict[str, dict[str, float]]:
    """Each side's JSON-lines process on :data:`JSONL_PHASES` movement situations, as
    ``make bench`` times it, start-up included: its start-up (given no situation), its
    instructions per situation and the whole. Ours is counted whole; the peer's (ten
    times as many instructions: an hour under callgrind) from its processes on
    ``phases // 3`` and ``phases`` situations: the difference is the cost of each next
    situation, what the first ones cost besides (memos filled) is counted once, as in a
    whole run."""
    with tempfile.TemporaryDirectory() as tmp:
        every = Path(tmp) / "movement.jsonl"
        commands, env = jsonl_run(OURS, peer, every)
        env["PYTHONHASHSEED"] = "0"
        lines = every.read_text().splitlines(keepends=True)
        first: dict[int, Path] = {}
        for n in (0, phases // 3, phases):
            first[n] = Path(tmp) / f"first-{n}.jsonl"
            first[n].write_text("".join(lines[:n]))

        def count(side: str, situations: Path) -> int:
            whole = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
            return counted([*whole, *commands[side]], env, situations)

        start, whole = count("ours", first[0]), count("ours", every)
        ours = {"start": start, "each": (whole - start) / JSONL_PHASES, "whole": whole}
        few, more = count("peer", first[phases // 3]), count("peer", first[phases])
        each = (more - few) / (phases - phases // 3)
        whole = few + (JSONL_PHASES - phases // 3) * each
        return {
            "ours": ours,
            "peer": {"start": count("peer", first[0]), "each": each, "whole": whole},
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="the peer venv's python")
    parser.add_argument("--limit", type=int, default=50, help="phases of each kind")
    parser.add_argument(
        "--warm-up", type=int, default=WARM_UP_PHASES, help="uncounted corpus phases run first"
    )
    parser.add_argument("--games", type=int, default=3, help="random games counted")
    parser.add_argument(
        "--jsonl", type=int, default=150, help="the peer's situations in the JSON-lines count"
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (e.g. apt-get install valgrind)")
    rows = [
        "| work per phase (instructions) | realpolitik | diplomacy 1.1.2 | ratio |",
        "|---|---:|---:|---:|",
    ]
    results: dict[str, Any] = {"limit": args.limit, "warm_up": args.warm_up, "counts": {}}
    labels = {
        "adjudicate": "adjudication",
        "resolve": "(of which) resolution alone",
        "enumerate": "legal orders",
    }
    for what, label in labels.items():
        for kind, name in KINDS.items():
            print(f"counting {what} {name}...", file=sys.stderr, flush=True)
            ours = per_phase(OURS, "ours.py", what, kind, args.limit, args.warm_up)
            peer = per_phase(args.peer, "peer.py", what, kind, args.limit, args.warm_up)
            results["counts"][f"{what} {kind}"] = {"ours": ours, "peer": peer}
            ratio = f"{peer / ours:.1f}×" if ours > 0 else "—"
            rows.append(
                f"| {label}, {name} | {ours / 1e3:,.0f} k | {peer / 1e3:,.0f} k | {ratio} |"
            )
    print("counting random games...", file=sys.stderr, flush=True)
    games = ["--what", "play", "--games", str(args.games)]
    ours = per_game(OURS, "ours.py", games)
    peer = per_game(args.peer, "peer.py", games)
    results["counts"]["play"] = {"ours": ours, "peer": peer, "games": args.games}
    rows.append(
        f"| random games ({args.games}), per phase | {ours / 1e3:,.0f} k | {peer / 1e3:,.0f} k "
        f"| {peer / ours:.1f}× |"
    )
    print("counting random games through realpolitik.env...", file=sys.stderr, flush=True)
    env = per_game(OURS, "ours.py", ["--what", "env", "--games", str(args.games)])
    results["counts"]["env"] = {"ours": env, "games": args.games}
    rows.append(
        f"| random games ({args.games}) through `realpolitik.env`, per phase (ratio: the "
        f"engine's own over this) | {env / 1e3:,.0f} k | | {ours / env:.2f}× |"
    )
    print("counting the JSON-lines path...", file=sys.stderr, flush=True)
    lines = jsonl_counts(args.peer, args.jsonl)
    results["counts"]["jsonl"] = {**lines, "situations": args.jsonl}
    ours_lines, peer_lines = lines["ours"], lines["peer"]
    for key, label in (
        ("start", "`adjudicate --jsonl`: start-up (a process given no situation)"),
        ("each", "`adjudicate --jsonl`: per movement situation"),
        ("whole", f"`adjudicate --jsonl`: {JSONL_PHASES:,} situations, whole process"),
    ):
        ours, peer = ours_lines[key], peer_lines[key]
        rows.append(f"| {label} | {ours / 1e3:,.0f} k | {peer / 1e3:,.0f} k | {peer / ours:.1f}× |")
    print("\n".join(rows))
    results["table"] = rows
    RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"\nresults: {RESULTS.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
