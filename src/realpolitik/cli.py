"""The ``realpolitik`` command: a thin layer from argv to library calls.

realpolitik adjudicate [--rules classic|datc|1971|grow|conquista] [--jsonl] < situation.json
realpolitik demo
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from realpolitik.errors import SituationError
from realpolitik.rules import PRESETS, rules_for
from realpolitik.situation import adjudicate_situation


def _adjudicate(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = rules_for(args.rules)
    if not args.jsonl:
        try:
            data = json.loads(stdin.read())
        except json.JSONDecodeError as exc:
            raise SituationError(f"bad JSON: {exc}") from None
        json.dump(adjudicate_situation(data, rules), stdout, indent=2)
        stdout.write("\n")
        return 0
    status = 0
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        result: dict[str, Any]
        try:
            result = adjudicate_situation(json.loads(line), rules)
        except (json.JSONDecodeError, SituationError) as exc:
            result = {"error": f"line {number}: {exc}"}
            status = 2
        stdout.write(json.dumps(result) + "\n")
    return status


def _demo(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from realpolitik.demo import run_demo

    run_demo(stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="realpolitik", description="The game of Diplomacy.")
    sub = parser.add_subparsers(dest="command", required=True)
    adj = sub.add_parser("adjudicate", help="adjudicate a situation (JSON on stdin)")
    adj.add_argument("--rules", choices=PRESETS, default="classic", help="rule edition")
    adj.add_argument("--jsonl", action="store_true", help="one situation per line")
    adj.set_defaults(func=_adjudicate)
    demo = sub.add_parser("demo", help="replay the rulebook's example game")
    demo.set_defaults(func=_demo)
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args, stdin or sys.stdin, stdout or sys.stdout)
        return code
    except SituationError as exc:
        print(f"realpolitik: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
