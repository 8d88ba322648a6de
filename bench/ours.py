"""realpolitik's side of the benchmark: run in the project's venv, never imports the peer.

    .venv/bin/python bench/ours.py TASK [--corpus bench/corpus.jsonl]

Tasks (each prints one JSON object on stdout):

* ``adjudicate``: for every corpus phase, the time from its orders as text to the next phase
  (``read_orders``, ``adjudicate``, ``next_phase``: the peer's ``set_orders`` and
  ``process``); and, as ``resolve_seconds``, the part after the orders are read
  (``adjudicate``, ``next_phase``: the peer's ``process`` alone);
* ``enumerate``: for every corpus phase, the time to list every power's legal orders (both
  time each phase once, the phases in corpus order: the engine's caches hold what the
  phases before left in them, never the phase's own results, which a second call on the
  same phase would find remembered: the orders' texts read, the convoys worked out);
* ``play``: random games (enumerate, pick at random, submit, process), the first
  ``--games`` of the process and the next ``--games``, each game's phases and seconds;
* ``env``: the same random games through the PettingZoo environment
  (:class:`realpolitik.env.DiplomacyEnv`: observations and action masks as arrays, one
  order index per province drawn among the mask's orders, decoded back to orders), timed
  as ``play`` (no peer: it has no such environment);
* ``memory``: the peak resident memory of a process that plays one random game;
* ``legal``: every corpus phase's legal orders, as text (compared with the peer's);
* ``resolve``: every corpus phase's resolution in the engine-neutral shape the agreement
  check compares (see :func:`neutral`);
* ``count``: the work of ``adjudicate``, of its resolution alone (``resolve``) or of
  ``enumerate`` (``--what``), untimed, on the first ``--limit`` phases of one kind
  (``--kind``), or ``--games`` random games (``play``; ``env``: through the environment),
  for ``instructions.py`` to count.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from functools import reduce
from pathlib import Path
from typing import Any

import realpolitik
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
from realpolitik import Phase, Position, adjudicate, load_map, rules_for
from realpolitik.adjudicator import OrderResult, Resolution
from realpolitik.formats.situation import read_orders, read_situation
from realpolitik.game import Game
from realpolitik.game.calendar import settle
from realpolitik.game.editions import edition
from realpolitik.legal import legal_orders
from realpolitik.phase import PhaseKind

MAP = load_map("standard")
CALENDAR = edition("classic")


def next_phase(phase: Phase, resolution: Resolution) -> tuple[Phase, Position]:
    """The phase after ``phase`` and its position, as the JSON contract has it."""
    return settle(CALENDAR, MAP, phase, resolution.position, skip_idle=True)


GAMES = 10


def situations(path: Path, read: bool = True) -> tuple[str, list[tuple[str, Any, Any, Any, Any]]]:
    """(rules, [(phase kind letter, phase, position, orders, orders as text)]) for every
    corpus phase; with ``read`` false, the orders are left unread (``None``): a timed
    reading would find them remembered."""
    meta, phases = load_corpus(path)
    out = []
    for entry in phases:
        phase, position = read_situation({k: v for k, v in entry.items() if k != "game"}, MAP)
        orders = None
        if read:
            orders, failed = read_orders(entry["orders"], "en", MAP)
            assert not failed, failed
        out.append((str(phase)[-1], phase, position, orders, entry["orders"]))
    play_game(WARM_UP_SEED, WARM_UP_YEAR)  # as the peer does: a short game before timing
    collect_garbage()
    return meta["rules"], out


def task_adjudicate(path: Path) -> dict[str, Any]:
    rules_name, work = situations(path, read=False)
    rules = rules_for(rules_name)
    clock = time.process_time
    times = []
    for kind, phase, position, _, text in work:
        start = clock()
        orders, _ = read_orders(text, "en", MAP)
        read = clock()
        next_phase(phase, adjudicate(MAP, position, orders, rules, phase))
        end = clock()
        times.append({"kind": kind, "seconds": end - start, "resolve_seconds": end - read})
    return {"phases": times}


def task_enumerate(path: Path) -> dict[str, Any]:
    rules_name, work = situations(path, read=False)
    rules = rules_for(rules_name)
    clock = time.process_time
    times = []
    for kind, phase, position, _, _ in work:
        start = clock()
        legal = legal_orders(MAP, position, phase, rules)
        seconds = clock() - start
        count = sum(len(v) for keyed in legal.values() for v in keyed.values())
        times.append({"kind": kind, "seconds": seconds, "orders": count})
    return {"phases": times}


def play_game(seed: int, last_year: int = LAST_YEAR) -> int:
    """One random game to the end of ``last_year`` through :class:`realpolitik.game.Game`
    (enumerate, pick at random, submit, process); returns the number of phases played."""
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    phases = 0
    while game.phase.year <= last_year and not game.is_over:
        legal = game.legal_orders()
        adjusting = game.phase.kind is PhaseKind.ADJUSTMENTS
        counts = game.builds_due()
        for power, keyed in legal.items():
            game.submit(power, pick(rng, keyed, counts.get(power, 0) if adjusting else None))
        game.process()
        phases += 1
    return phases


def play_env(seed: int, last_year: int = LAST_YEAR) -> int:
    """One random game to the end of ``last_year`` through the PettingZoo environment: each
    agent picks, for each province with orders, one of them at random (from the
    observation's count of orders per province; one draw for all agents, as batched
    policies do); returns the number of steps (phases) played."""
    import numpy as np

    from realpolitik.env import DiplomacyEnv

    env = DiplomacyEnv("classic", max_years=last_year - 1900)
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    steps = 0
    while env.agents:
        # one batched draw for all agents: for each province, 1..n of its n orders
        orders = np.stack([observations[p]["orders"] for p in env.agents])
        drawn = np.ceil(rng.random(orders.shape) * orders).astype(np.int64)
        observations = env.step(dict(zip(env.agents, drawn, strict=True)))[0]
        steps += 1
    return steps


# --- the agreement check's shape ------------------------------------------------------------
def neutral(phase: Phase, position: Position, orders: Any, rules: Any) -> dict[str, Any]:
    """The resolution as both engines can state it: the dislodged units (with their
    retreats), the units, centres and next phase after the phase (after the retreat phase
    too when nobody can retreat), and per ordered unit whether its move succeeded or its
    support was given."""
    resolution = adjudicate(MAP, position, orders, rules, phase)
    following, after = next_phase(phase, resolution)
    dislodged: dict[str, list[str]] = {}
    for d in after.dislodged.values():
        dislodged.setdefault(d.unit.power, []).append(
            f"{d.unit} -> {' '.join(sorted(d.retreats)) or '(destroyed)'}"
        )
    if following.kind is PhaseKind.RETREATS and not any(
        d.retreats for d in after.dislodged.values()
    ):
        # nobody can retreat: the phase is played at once, as ``Game`` does
        empty = adjudicate(MAP, after, {}, rules, following)
        following, after = next_phase(following, empty)
    units: dict[str, list[str]] = {}
    for unit in after.units.values():
        units.setdefault(unit.power, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for prov, power in after.centers.items():
        centers.setdefault(power, []).append(prov)
    results: dict[str, str] = {}
    reasons: dict[str, str] = {}
    if phase.kind is PhaseKind.MOVEMENT:
        for outcome in resolution.outcomes:
            if outcome.implied or outcome.result is OrderResult.ILLEGAL:
                continue
            reasons[str(outcome.order)] = f"{outcome.result.value}: {outcome.reason}".rstrip(": ")
            kind = type(outcome.order).__name__
            word = outcome.result
            if kind == "Move":
                results[str(outcome.order)] = "moves" if word is OrderResult.SUCCEEDS else "fails"
            elif kind in ("SupportHold", "SupportMove"):
                results[str(outcome.order)] = "given" if word is OrderResult.GIVEN else "not given"
    illegal = sorted(str(o.order) for o in resolution.outcomes if o.result is OrderResult.ILLEGAL)
    return {
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "dislodged": {p: sorted(v) for p, v in sorted(dislodged.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
        "next": str(following),
        "results": results,
        "reasons": reasons,
        "illegal": illegal,
    }


def task_legal(path: Path) -> dict[str, Any]:
    """Every corpus phase's legal orders (all powers), as sorted order strings."""
    rules_name, work = situations(path)
    rules = rules_for(rules_name)
    out = []
    for _, phase, position, _, _ in work:
        legal = legal_orders(MAP, position, phase, rules)
        out.append(sorted({str(o) for keyed in legal.values() for v in keyed.values() for o in v}))
    return {"phases": out}


def task_count(
    path: Path, what: str, kind: str, limit: int, warm_up: int, games: int
) -> dict[str, Any]:
    """The work to count (see ``instructions.py``): the first ``warm_up`` uncounted corpus
    phases, to warm up, then each chosen phase once, its work run inside
    ``functools.reduce``, which callgrind counts; for ``play``, ``games`` random games
    (:func:`common.count_play`)."""
    if what in ("play", "env"):
        return count_play(play_game if what == "play" else play_env, games)
    rules_name, work = situations(path, read=what == "resolve")
    rules = rules_for(rules_name)
    chosen = [w for w in work if w[0] == kind][:limit]

    def step(phase: Phase, position: Position, orders: Any, text: Any) -> object:
        if what == "adjudicate":
            orders, _ = read_orders(text, "en", MAP)
        if what in ("adjudicate", "resolve"):
            return next_phase(phase, adjudicate(MAP, position, orders, rules, phase))
        return legal_orders(MAP, position, phase, rules)

    for w in warm_up_phases(work, chosen, warm_up):
        step(*w[1:])
    # the counted phases start from the same collector state on both sides (a full
    # collection falling among a few counted phases would count as most of their work)
    collect_garbage()
    for _, phase, position, orders, text in chosen:
        reduce(lambda _, __: step(phase, position, orders, text), [0], None)
    return {"phases": len(chosen)}


def task_resolve(path: Path, choices: list[str]) -> dict[str, Any]:
    """Resolve the corpus under its rules, or with some DATC issues decided otherwise
    (``choices`` such as ``["4.A.3=c"]``)."""
    rules_name, work = situations(path)
    rules = rules_for(rules_name)
    for choice in choices:
        issue, letter = choice.split("=")
        rules = rules.with_choice(issue, letter)
    return {"phases": [neutral(phase, pos, orders, rules) for _, phase, pos, orders, _ in work]}


def main() -> None:
    parser = argparse.ArgumentParser(description="realpolitik's side of the benchmark")
    parser.add_argument(
        "task",
        choices=["adjudicate", "enumerate", "play", "env", "memory", "resolve", "legal", "count"],
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--choice", action="append", default=[], help="resolve: e.g. 4.A.3=c")
    add_count_options(parser)
    args = parser.parse_args()
    if args.task == "adjudicate":
        out = task_adjudicate(args.corpus)
    elif args.task == "enumerate":
        out = task_enumerate(args.corpus)
    elif args.task == "play":
        out = task_play(play_game, args.games)
    elif args.task == "env":
        out = task_play(play_env, args.games)
    elif args.task == "memory":
        out = task_memory(play_game)
    elif args.task == "legal":
        out = task_legal(args.corpus)
    elif args.task == "count":
        out = task_count(args.corpus, args.what, args.kind, args.limit, args.warm_up, args.games)
    else:
        out = task_resolve(args.corpus, args.choice)
    out["engine"] = f"realpolitik {realpolitik.__version__}"
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
