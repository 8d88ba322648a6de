"""How long processing one phase of a sandbox takes as its history grows: a sandbox made
through the server's Python layer (SQLite in a temporary folder, or ``--database``), its
every power given random legal orders (the server's random bot) and ready, phase after
phase; at each size of ``--at`` (phases processed), ``--repeat`` phases are processed
under the clock alone (the orders stored before it starts) and their median is told,
with the stored state's size. ``--profile``: the last size's phases under cProfile too.

    python tools/sandbox_timing.py --at 50 100 200
    python tools/sandbox_timing.py --database postgresql+psycopg://... --profile
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import func, select

from realpolitik.server import engine, games
from realpolitik.server import tables as t
from realpolitik.server.accounts import User, create_account
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.gamesettings import SANDBOX, GameSettings
from realpolitik.server.play import process_if_due, store_orders
from realpolitik.server.rows import game_row
from realpolitik.server.settings import Settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--at", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--repeat", type=int, default=5, help="phases timed at each size")
    parser.add_argument("--database", help="a database URL (default: SQLite, made anew)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the last size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'timing.sqlite3'}"
        settings = Settings(
            database_url=url, scheduler=False, password_time_cost=1, password_memory_kib=1024
        )
        b = Backend.open(settings)
        try:
            run(b, sorted(args.at), args.repeat, random.Random(args.seed), profile=args.profile)
        finally:
            b.close()
    return 0


def run(b: Backend, sizes: list[int], repeat: int, rng: random.Random, *, profile: bool) -> None:
    name = f"timer{rng.randrange(10**6)}"
    user: User = create_account(b, name, "correct horse battery")
    box = dataclasses.replace(GameSettings(), sandbox=True, **SANDBOX)
    game_id = games.create_game(b, user, "timing", box)
    print(f"{'phases':>7} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'state kB':>9}")
    for size in sizes:
        while played(b, game_id) < size:
            if not give_orders(b, game_id, rng):
                print(f"the game ended after {played(b, game_id)} phases")
                return
            process_if_due(b, game_id)
        profiler = cProfile.Profile() if profile and size == sizes[-1] else None
        took = []
        for _ in range(repeat):
            if not give_orders(b, game_id, rng):
                break
            start = time.perf_counter()
            if profiler is not None:
                profiler.enable()
            done = process_if_due(b, game_id)
            if profiler is not None:
                profiler.disable()
            took.append(time.perf_counter() - start)
            assert done, "the phase was not processed"
        kib = state_bytes(b, game_id) / 1000
        ms = [s * 1000 for s in took]
        print(
            f"{size:>7} {statistics.median(ms):>10.1f} {min(ms):>8.1f} {max(ms):>8.1f} {kib:>9.1f}",
            flush=True,
        )
        if profiler is not None:
            stats = pstats.Stats(profiler, stream=sys.stdout)
            stats.sort_stats("cumulative").print_stats(30)


def played(b: Backend, game_id: int) -> int:
    """The phases the game has processed (its rows of history)."""
    with reading(b.db) as conn:
        count = select(func.count()).select_from(t.phases).where(t.phases.c.game_id == game_id)
        return int(conn.execute(count).scalar_one())


def state_bytes(b: Backend, game_id: int) -> int:
    with reading(b.db) as conn:
        return len(json.dumps(game_row(conn, game_id).state))


def give_orders(b: Backend, game_id: int, rng: random.Random) -> bool:
    """Every power to act given random legal orders, ready; false if the game is over."""
    with reading(b.db) as conn:
        row = game_row(conn, game_id)
    game = engine.fresh(row.state)
    if game.is_over:
        return False
    orders = {
        power: engine.seat_orders(game, power, "random", rng.randrange(2**31))
        for power in engine.powers_to_act(game)
    }
    with transaction(b.db) as conn:
        for power, given in orders.items():
            store_orders(conn, game_id, row.phase, power, given, b.now(), ready=True)
    return True


if __name__ == "__main__":
    sys.exit(main())
