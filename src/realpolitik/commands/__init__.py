"""Subcommands of the ``realpolitik`` CLI; add a module and list its ``register`` here."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from realpolitik.commands import adjudicate, demo, game, render, selfplay, serve, tournament

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

COMMANDS: list[Register] = [
    adjudicate.register,
    demo.register,
    serve.register,
    game.register,
    render.register,
    tournament.register,
    selfplay.register,
]
