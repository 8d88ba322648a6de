"""``realpolitik adjudicate``: the JSON contract (see the README)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from realpolitik.commands import tell_reading
from realpolitik.errors import SituationError
from realpolitik.formats import jsontext
from realpolitik.formats.situation import AUTO, adjudicate_situation, adjudicate_text
from realpolitik.notation import LANGUAGES
from realpolitik.rules import PRESETS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("adjudicate", help="adjudicate a situation (JSON on stdin)")
    cmd.add_argument(
        "--rules",
        type=str.lower,
        choices=PRESETS,
        default=None,
        help="the edition (its board, rules and calendar; datc: the DATC's preferred rules), "
        "over the one the situation names; default: the situation's, else classic",
    )
    cmd.add_argument("--jsonl", action="store_true", help="one situation per line")
    cmd.add_argument(
        "--lang",
        type=str.lower,
        choices=(*LANGUAGES, AUTO),
        default=None,
        help="language of the orders (unless the situation says) and of the result's order "
        "texts; auto: guess each order's",
    )
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    rules = args.rules  # None: each situation's edition, else classic
    tell_reading("adjudicate", "situations, one a line" if args.jsonl else "a situation", stdin)
    if not args.jsonl:
        text = stdin.read()
        if not text.strip():
            raise SituationError("no situation: the input is empty (a JSON object on stdin)")
        json.dump(adjudicate_situation(_read(text), rules, args.lang), stdout, indent=2)
        stdout.write("\n")
        return 0
    status = 0
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            text = adjudicate_text(_read(line), rules, args.lang)
        except SituationError as exc:
            text = json.dumps({"error": f"line {number}: {exc}"})
            status = 2
        stdout.write(text + "\n")
    return status


def _read(text: str) -> object:
    """A situation's JSON, or a :class:`SituationError` that says it is not JSON (the
    whole input's and a line's alike)."""
    try:
        return jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise SituationError(f"bad JSON: {exc}") from None
