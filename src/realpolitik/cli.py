"""The ``realpolitik`` command: a thin layer from argv to library calls.

Each subcommand lives in a module of :mod:`realpolitik.commands` that defines
``register(subparsers)``; its handler takes ``(args, stdin, stdout)`` and returns the exit
status. :class:`~realpolitik.errors.SituationError` and other ``ValueError`` s raised by a
handler are printed as one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from realpolitik.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="realpolitik", description="The game of Diplomacy.")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(sub)
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args, stdin or sys.stdin, stdout or sys.stdout)
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        print(f"realpolitik: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
