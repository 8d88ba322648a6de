"""The peer's side of the benchmark: the PyPI ``diplomacy`` package (1.1.2, AGPL), run in its
own venv (``bench/.peer-venv``) as a measured peer only: realpolitik never imports it, and
this script never imports realpolitik.

    bench/.peer-venv/bin/python bench/peer.py TASK [--corpus bench/corpus.jsonl]

The tasks are those of ``ours.py``, done the peer's way: a corpus phase is loaded with
``Game.set_state`` (units, dislodged units and their retreats, centres, phase), orders are
given with ``set_orders`` (which checks them); ``adjudicate`` times ``set_orders`` and
``process()`` (and, as ``resolve_seconds``, ``process()`` alone), ``enumerate`` times
``get_all_possible_orders()`` (both each phase once, in corpus order, as ``ours.py``
does), ``play`` plays random games with the same random player; ``count`` does one of
these (random games too), untimed, for ``instructions.py`` to count; ``jsonl`` is the JSON
contract of ``realpolitik adjudicate --jsonl`` (situations on stdin, results on stdout),
timed as a whole process by ``run.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable
from functools import reduce
from pathlib import Path
from typing import Any, TextIO

import diplomacy  # type: ignore[import-untyped,import-not-found,unused-ignore]
from diplomacy import Game

from common import (
    CORPUS,
    LAST_YEAR,
    WARM_UP_SEED,
    WARM_UP_YEAR,
    add_count_options,
    collect_garbage,
    count_play,
    load_corpus,
    pick,
    task_memory,
    task_play,
    warm_up_phases,
)

GAMES = 10


def settle() -> None:
    """A short game before timing (as ours.py does), then collect garbage and keep what
    exists out of later collections (the corpus held in memory)."""
    play_game(WARM_UP_SEED, WARM_UP_YEAR)
    collect_garbage()


def state_of(entry: dict[str, Any], powers: list[str]) -> dict[str, Any]:
    """A corpus phase as the peer's saved state."""
    units: dict[str, list[str]] = {p: list(entry["units"].get(p, [])) for p in powers}
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for power, items in entry["dislodged"].items():
        for d in items:
            units[power].append("*" + d["unit"])
            retreats[power][d["unit"]] = list(d["retreats"])
    centers = {p: list(entry["centers"].get(p, [])) for p in powers}
    return {"name": entry["phase"], "units": units, "retreats": retreats, "centers": centers}


def load(game: Any, entry: dict[str, Any], with_orders: bool = True) -> None:
    game.set_state(state_of(entry, list(game.powers)))
    if with_orders:
        give_orders(game, entry)


def give_orders(game: Any, entry: dict[str, Any]) -> None:
    for power, orders in entry["orders"].items():
        game.set_orders(power, orders)


def task_adjudicate(path: Path) -> dict[str, Any]:
    _, phases = load_corpus(path)
    game = Game()
    settle()
    clock = time.process_time
    times = []
    for entry in phases:
        load(game, entry, with_orders=False)
        start = clock()
        give_orders(game, entry)
        given = clock()
        game.process()
        end = clock()
        times.append(
            {"kind": entry["phase"][-1], "seconds": end - start, "resolve_seconds": end - given}
        )
    return {"phases": times}


def task_enumerate(path: Path) -> dict[str, Any]:
    _, phases = load_corpus(path)
    game = Game()
    settle()
    clock = time.process_time
    times = []
    for entry in phases:
        load(game, entry, with_orders=False)
        start = clock()
        possible = game.get_all_possible_orders()
        seconds = clock() - start
        locs = game.get_orderable_locations()
        count = sum(len(possible[loc]) for ls in locs.values() for loc in ls)
        times.append({"kind": entry["phase"][-1], "seconds": seconds, "orders": count})
    return {"phases": times}


def play_game(seed: int, last_year: int = LAST_YEAR) -> int:
    """One random game to the end of ``last_year``; returns the number of phases played."""
    rng = random.Random(seed)
    game = Game()
    phases = 0
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= last_year:
        possible = game.get_all_possible_orders()
        adjusting = game.get_current_phase().endswith("A")
        for power, locs in sorted(game.get_orderable_locations().items()):
            keyed = {loc: possible[loc] for loc in locs}
            due = None
            if adjusting:
                p = game.get_power(power)
                due = len(p.centers) - len(p.units)
            game.set_orders(power, pick(rng, keyed, due))
        game.process()
        phases += 1
    return phases


# --- the agreement check's shape (see ours.neutral) --------------------------------------
_FAILED = {"bounce", "void", "no convoy", "disrupted", "dislodged", "cut"}


def neutral(game: Any, entry: dict[str, Any]) -> dict[str, Any]:
    load(game, entry)
    given = {p: list(game.get_orders(p)) for p in game.powers}
    phase = game.get_current_phase()
    game.process()
    state = game.get_state()
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[str]] = {}
    for power, items in state["units"].items():
        for unit in items:
            if unit.startswith("*"):
                retreats = state["retreats"][power][unit[1:]]
                where = " ".join(sorted(retreats)) or "(destroyed)"
                dislodged.setdefault(power, []).append(f"{unit[1:]} -> {where}")
            else:
                units.setdefault(power, []).append(unit)
    centers = {p: sorted(v) for p, v in state["centers"].items() if v}
    results: dict[str, str] = {}
    if phase.endswith("M"):
        outcome = game.result_history.last_value()
        for orders in given.values():
            for order in orders:
                words = order.split()
                unit = " ".join(words[:2])
                got = {str(r) for r in outcome.get(unit, [])}
                if len(words) > 3 and words[2] == "-":
                    results[order] = "fails" if got & _FAILED else "moves"
                elif len(words) > 3 and words[2] == "S":
                    results[order] = "not given" if got & _FAILED else "given"
    next_phase = game.get_current_phase()
    return {
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "dislodged": {p: sorted(v) for p, v in sorted(dislodged.items())},
        "centers": dict(sorted(centers.items())),
        "next": next_phase,
        "results": results,
        "given": {p: v for p, v in sorted(given.items()) if v},
    }


def task_legal(path: Path) -> dict[str, Any]:
    """Every corpus phase's possible orders (of the orderable locations), sorted."""
    _, phases = load_corpus(path)
    game = Game()
    out = []
    for entry in phases:
        load(game, entry, with_orders=False)
        possible = game.get_all_possible_orders()
        locs = game.get_orderable_locations()
        out.append(sorted({o for ls in locs.values() for loc in ls for o in possible[loc]}))
    return {"phases": out}


def task_count(
    path: Path, what: str, kind: str, limit: int, warm_up: int, games: int
) -> dict[str, Any]:
    """The work to count (see ``instructions.py``): the first ``warm_up`` uncounted corpus
    phases, to warm up, then each chosen phase once, its work (not its loading) run inside
    ``functools.reduce``, which callgrind counts; for ``play``, ``games`` random games
    (:func:`common.count_play`)."""
    if what == "play":
        return count_play(play_game, games)
    _, phases = load_corpus(path)
    game = Game()
    settle()
    chosen = [entry for entry in phases if entry["phase"].endswith(kind)][:limit]

    def step(entry: dict[str, Any]) -> object:
        if what == "adjudicate":
            give_orders(game, entry)
        if what in ("adjudicate", "resolve"):
            return game.process()
        return game.get_all_possible_orders()

    for entry in warm_up_phases(phases, chosen, warm_up):
        load(game, entry, with_orders=what == "resolve")
        step(entry)
    collect_garbage()  # as ours.py does
    for entry in chosen:
        load(game, entry, with_orders=what == "resolve")
        reduce(lambda _, __: step(entry), [0], None)
    return {"phases": len(chosen)}


def _result(outcome: dict[str, Any], order: str) -> str:
    """The peer's results of the unit ``order`` is for, as one word list (``ok``: none)."""
    return " ".join(str(r) for r in outcome.get(" ".join(order.split()[:2]), [])) or "ok"


def task_jsonl(lines: Iterable[str], out: TextIO) -> None:
    """The JSON contract of ``realpolitik adjudicate --jsonl``, done the peer's way: each
    line a situation (loaded with ``set_state``, orders given with ``set_orders``), each
    result a line: per power the orders with their results, the units, the dislodged units
    with their retreats, the centres and the next phase."""
    game = Game()
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        entry.setdefault("dislodged", {})
        load(game, entry)
        phase = game.get_current_phase()
        given = {p: list(game.get_orders(p)) for p in game.powers}
        game.process()
        outcome = game.result_history.last_value() if phase.endswith("M") else {}
        orders = {
            power: [{"order": o, "result": _result(outcome, o)} for o in texts]
            for power, texts in sorted(given.items())
            if texts
        }
        state = game.get_state()
        units: dict[str, list[str]] = {}
        dislodged: dict[str, list[dict[str, Any]]] = {}
        for power, items in state["units"].items():
            for unit in items:
                if unit.startswith("*"):
                    retreats = state["retreats"][power][unit[1:]]
                    dislodged.setdefault(power, []).append({"unit": unit[1:], "retreats": retreats})
                elif unit:
                    units.setdefault(power, []).append(unit)
        result = {
            "phase": phase,
            "orders": orders,
            "units": units,
            "dislodged": dislodged,
            "contested": [],
            "centers": {p: v for p, v in state["centers"].items() if v},
            "next_phase": game.get_current_phase(),
        }
        out.write(json.dumps(result) + "\n")


def task_resolve(path: Path) -> dict[str, Any]:
    _, phases = load_corpus(path)
    game = Game()
    return {"phases": [neutral(game, entry) for entry in phases]}


def main() -> None:
    parser = argparse.ArgumentParser(description="the peer's side of the benchmark")
    parser.add_argument(
        "task",
        choices=["adjudicate", "enumerate", "play", "memory", "resolve", "legal", "count", "jsonl"],
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--games", type=int, default=GAMES)
    add_count_options(parser)
    args = parser.parse_args()
    if args.task == "jsonl":  # a whole process, as realpolitik adjudicate --jsonl is timed
        task_jsonl(sys.stdin, sys.stdout)
        return
    if args.task == "adjudicate":
        out = task_adjudicate(args.corpus)
    elif args.task == "enumerate":
        out = task_enumerate(args.corpus)
    elif args.task == "play":
        out = task_play(play_game, args.games)
    elif args.task == "memory":
        out = task_memory(play_game)
    elif args.task == "legal":
        out = task_legal(args.corpus)
    elif args.task == "count":
        out = task_count(args.corpus, args.what, args.kind, args.limit, args.warm_up, args.games)
    else:
        out = task_resolve(args.corpus)
    out["engine"] = f"diplomacy {getattr(diplomacy, '__version__', '1.1.2')}"
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
