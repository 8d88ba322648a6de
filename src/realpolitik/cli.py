"""The ``realpolitik`` command: a thin layer from argv to library calls.

Each subcommand lives in a module of :mod:`realpolitik.commands` that defines
``register(subparsers)``; its handler takes ``(args, stdin, stdout)`` and returns the exit
status. :class:`~realpolitik.errors.SituationError` and other ``ValueError`` s raised by a
handler are printed as one line on stderr with exit status 2, never as a traceback; Ctrl-C
is 'interrupted', exit status 130 (as a shell reports a process ended by it).
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from typing import Any, TextIO, cast

from realpolitik.commands import registers
from realpolitik.errors import BotError


class _Intermixed(argparse.ArgumentParser):
    """A subcommand's parser that takes options between its positional arguments:
    ``orders game.json FRANCE --language es "E Par - Bor"`` (Python 3.11's plain parsing
    gives the orders, a ``*`` argument, nothing once an option follows the power)."""

    _inside = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._inside:  # the intermixed parse calls this method for each of its passes
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


class _Version(argparse.Action):
    """``--version``: the release installed, read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, help="show the version")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import version  # 60 ms to import: not at every start

        print(f"realpolitik {version('realpolitik')}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of those of ``command``'s module only."""
    parser = argparse.ArgumentParser(prog="realpolitik", description="The game of Diplomacy.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Intermixed)
    for register in registers(command):
        register(cast("argparse._SubParsersAction[argparse.ArgumentParser]", sub))
    for subparser in sub.choices.values():  # (for an error said with its own usage)
        subparser.set_defaults(parser=subparser)
    for listed in sub._choices_actions:  # `X --help` says what X does, as the list does
        described = sub.choices[listed.dest]
        if described.description is None and listed.help:
            described.description = f"{listed.help[0].upper()}{listed.help[1:]}."
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:  # Ctrl-C as the command's modules load too: no traceback
        args, extra = build_parser(argv[0] if argv else None).parse_known_args(argv)
    except KeyboardInterrupt:
        return _interrupted()
    if extra:  # said with the command's usage, not the top parser's
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        code: int = args.func(args, stdin or sys.stdin, stdout or sys.stdout)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C: files are written whole or not at all
        return _interrupted()
    except BotError as exc:  # one's own bot's code: its traceback, then what it was doing
        if exc.__cause__ is not None:
            traceback.print_exception(exc.__cause__, file=sys.stderr)
        print(f"realpolitik: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"realpolitik: error: {_said(exc)}", file=sys.stderr)
        return 2
    except MemoryError:  # (an endless input read whole: < /dev/zero)
        print("realpolitik: error: out of memory (is the input too large?)", file=sys.stderr)
        return 2
    return code


def _interrupted() -> int:
    """Ctrl-C: said in a word, with the status a shell gives a process it ended."""
    print("\nrealpolitik: interrupted", file=sys.stderr)
    return 130


def _said(exc: Exception) -> str:
    """An error's line: a file's as ``PATH: what went wrong``, the way other commands say
    it (not Python's "[Errno 2] No such file or directory: 'PATH'")."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        paths = [exc.filename] if exc.filename2 is None else [exc.filename, exc.filename2]
        return f"{' -> '.join(map(str, paths))}: {exc.strerror}"
    return str(exc)


if __name__ == "__main__":
    sys.exit(main())
