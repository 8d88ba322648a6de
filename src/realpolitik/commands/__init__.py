"""Subcommands of the ``realpolitik`` CLI: one module per family, each with a
``register(subparsers)``; add a module here with the subcommands it registers."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from importlib import import_module
from typing import TextIO

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

MODULES: dict[str, tuple[str, ...]] = {
    "adjudicate": ("adjudicate",),
    "demo": ("demo",),
    "serve": ("serve", "copy-database"),
    "game": ("new", "orders", "process", "show", "history", "draw", "concede", "disorder",
             "legal", "rollback", "mila-export", "mila-import"),
    "render": ("render",),
    "tournament": ("tournament",),
    "selfplay": ("selfplay",),
}  # fmt: skip
"""Each module of :mod:`realpolitik.commands` and the subcommands it registers."""


def registers(command: str | None = None) -> list[Register]:
    """The ``register`` of the module of ``command``, or of every module (``None``, or a
    command no module has): a command loads only its own module and what that imports (the
    JSON-lines path starts without the renderer, the bots or the server)."""
    names = [m for m, commands in MODULES.items() if command in commands] or list(MODULES)
    found: list[Register] = [
        import_module(f"realpolitik.commands.{name}").register for name in names
    ]
    return found


def tell_reading(command: str, what: str, stdin: TextIO) -> None:
    """At a terminal, say that ``command`` waits for ``what`` on the standard input (typed
    without ``< file.json``, nothing would seem to happen)."""
    if stdin.isatty():
        print(
            f"realpolitik {command}: reading {what} (JSON) from the standard input; Ctrl-D ends it",
            file=sys.stderr,
        )
