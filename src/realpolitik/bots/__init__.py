"""Bots: a power's view and its legal orders in, orders out.

>>> from realpolitik import Game
>>> from realpolitik.bots import PowerView, make_bot
>>> game = Game.new(seed=1)
>>> bot = make_bot("heuristic", seed=1)
>>> view = PowerView.of(game, "FRANCE")
>>> orders = bot.orders(view, game.legal_orders("FRANCE")["FRANCE"])
>>> sorted(str(o) for o in game.submit("FRANCE", orders))
['A MAR - SPA', 'A PAR - PIC', 'F BRE - GAS']

:class:`Bot` is the protocol; :class:`RandomBot` picks uniformly among the legal orders,
:class:`HeuristicBot` holds its centres, takes neutral centres and supports its attacks,
:class:`SearchBot` (the strongest, the server's default) searches over its order sets
against predicted orders of the other powers.
"""

from realpolitik.bots.base import Bot, PowerView
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.random_bot import RandomBot
from realpolitik.bots.search import DEFAULT_STRENGTH, SearchBot

BOTS = ("search", "heuristic", "random")
DEFAULT_BOT = "search"


def make_bot(kind: str, *, seed: int | None = None, strength: int | None = None) -> Bot:
    """A bot by name: ``"search"``, ``"heuristic"`` or ``"random"``. ``strength``: the
    search bot's budget (adjudications per movement phase; others have none)."""
    if kind == "search":
        return SearchBot(seed, strength=DEFAULT_STRENGTH if strength is None else strength)
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    raise ValueError(f"unknown bot {kind!r} (expected 'search', 'heuristic' or 'random')")


__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "Bot",
    "HeuristicBot",
    "PowerView",
    "RandomBot",
    "SearchBot",
    "make_bot",
]
