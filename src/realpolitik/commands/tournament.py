"""``realpolitik tournament``: a bot in every seat against copies of a baseline bot
(:mod:`realpolitik.bots.tournament`); prints centres per bot and seat with 95% intervals."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from realpolitik.bots.tournament import Config
from realpolitik.bots.tournament import run as run_tournament
from realpolitik.commands.botarg import HELP, bot_kind
from realpolitik.commands.counts import count
from realpolitik.commands.powerarg import power_name
from realpolitik.game.editions import EDITIONS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "tournament",
        help="a bot in each seat against baseline bots: centres per seat with intervals",
        description="Play the bot in each seat against copies of the baseline bot and "
        "compare with the baseline bot in the same seat against the same opponents. Exit "
        "status 1 if a bot gave an illegal order (counted and dropped).",
    )
    cmd.add_argument(
        "--bot", type=bot_kind, default="search", help=f"the bot tested (default search): {HELP}"
    )
    cmd.add_argument(
        "--baseline",
        type=bot_kind,
        default="heuristic",
        help="the bot it is compared with (default heuristic)",
    )
    cmd.add_argument("--seeds", type=count, default=10, help="games per seat (default 10)")
    cmd.add_argument(
        "--years", type=count, default=10, help="years per game (default 10: classic to 1910)"
    )
    cmd.add_argument(
        "--seats",
        default="",
        help="powers, comma-separated, in any of the four languages (default: all played at "
        "the table)",
    )
    cmd.add_argument(
        "--edition", type=str.lower, choices=EDITIONS, default="classic", help="default classic"
    )
    cmd.add_argument("--players", type=int, default=None, help="table size (default 7)")
    cmd.add_argument("--setup", help="a table option: 3b (1971, conquista), 2-extra (grow)")
    cmd.add_argument("--strength", type=int, default=None, help="search bot budget")
    cmd.add_argument(
        "--jobs", type=count, default=os.cpu_count() or 1, help="processes (default: cores)"
    )
    cmd.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    seats = tuple(power_name(s) for s in args.seats.split(",") if s.strip())
    config = Config(
        bot=args.bot,
        baseline=args.baseline,
        seeds=args.seeds,
        years=args.years,
        seats=seats,
        edition=args.edition,
        players=args.players,
        setup=args.setup,
        strength=args.strength,
        jobs=args.jobs,
    )
    progress = None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True)
    table = run_tournament(config, progress)
    print(table.render(), file=stdout)
    return 1 if table.illegal else 0
