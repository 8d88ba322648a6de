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

from realpolitik.commands import registers


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of those of ``command``'s module only."""
    parser = argparse.ArgumentParser(prog="realpolitik", description="The game of Diplomacy.")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in registers(command):
        register(sub)
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv[0] if argv else None).parse_args(argv)
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
