"""The bot arguments of ``tournament`` and ``selfplay``: a shipped bot's name, or one's own
as ``module:name`` (:func:`realpolitik.bots.make_bot`), found from the current folder too,
as ``python -m`` and ``uvicorn module:app`` find theirs."""

from __future__ import annotations

import argparse
import os
import sys

from realpolitik.bots import make_bot

HELP = "search, heuristic, random, or your own as module:name (a Bot class or function)"


def bot_kind(text: str) -> str:
    """``text`` if it names a bot (one is made to check it), else argparse's error."""
    kind = text.strip()
    if ":" in kind and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # the worker processes are forked with it
    try:
        make_bot(kind)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return kind
