"""``realpolitik selfplay``: many games of bots written as training data (see
:mod:`realpolitik.bots.training`)::

    realpolitik selfplay --games 1000 --out data --bot heuristic --max-years 10
    realpolitik selfplay --games 100000 --out data --ray auto     # on a Ray cluster
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from realpolitik.bots.training import FORMATS, Plan, run
from realpolitik.commands.botarg import HELP, bot_kind
from realpolitik.commands.counts import count
from realpolitik.commands.powerarg import power_name
from realpolitik.game.editions import EDITIONS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("selfplay", help="play many games of bots and write them as data")
    cmd.add_argument("--games", type=count, required=True, help="how many games")
    cmd.add_argument("--out", required=True, help="the directory to write to")
    cmd.add_argument(
        "--seed", type=int, default=0, help="game k is played with seed SEED+k (default 0)"
    )
    cmd.add_argument(
        "--edition", type=str.lower, choices=EDITIONS, default="classic", help="default classic"
    )
    cmd.add_argument("--players", type=int, help="the table's player count (default: 7)")
    cmd.add_argument("--setup", help="a table option: 3b (1971, conquista), 2-extra (grow)")
    cmd.add_argument(
        "--bot",
        type=bot_kind,
        default="random",
        help=f"the bot of every power (default random): {HELP}",
    )
    cmd.add_argument(
        "--power-bot", action="append", default=[], metavar="POWER=BOT",
        help="another bot for one power, named in any of the four languages (repeatable)",
    )  # fmt: skip
    cmd.add_argument(
        "--max-years", type=count, default=20, help="stop a game after this many years (default 20)"
    )
    cmd.add_argument("--format", choices=FORMATS, default="jsonl",
                     help="jsonl (the default): one phase a line; saved: a saved game "
                     "per game")  # fmt: skip
    cmd.add_argument("--workers", type=count, help="processes (default: one per core)")
    cmd.add_argument("--ray", metavar="ADDRESS",
                     help="run on the Ray cluster at ADDRESS ('auto': the local one)")  # fmt: skip
    cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    cmd.set_defaults(func=_selfplay)


def _selfplay(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    bots: dict[str, str] = {}
    for item in args.power_bot:
        power, sep, kind = item.partition("=")
        if not sep or not power.strip():
            raise ValueError(f"--power-bot {item!r}: expected POWER=BOT, e.g. FRANCE=heuristic")
        try:
            bots[power_name(power)] = bot_kind(kind)
        except argparse.ArgumentTypeError as exc:
            raise ValueError(f"--power-bot {item!r}: {exc}") from None
    plan = Plan(
        games=args.games, seed=args.seed, edition=args.edition, players=args.players,
        setup=args.setup, bot=args.bot, bots=bots, max_years=args.max_years, format=args.format,
    )  # fmt: skip
    out = Path(args.out)
    if out.exists() and not out.is_dir():  # (mkdir said "File exists")
        raise ValueError(f"--out {out} is a file, not a folder")
    figures = run(
        plan,
        out,
        workers=args.workers,
        ray_address=args.ray,
        progress=None if args.quiet else sys.stderr,
    )
    print(json.dumps(figures), file=stdout)
    return 0
