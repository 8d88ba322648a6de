"""``realpolitik demo``: replay the rulebook's example game (the ``make run`` job for now)."""

from __future__ import annotations

import argparse
from typing import TextIO

from realpolitik.demo import run_demo


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("demo", help="replay the rulebook's example game")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    run_demo(stdout)
    return 0
