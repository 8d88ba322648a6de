"""Bots: a power's view and its legal orders in, orders out.

>>> from realpolitik.bots import make_bot
>>> bot = make_bot("heuristic", seed=1)
>>> # orders = bot.orders(PowerView(...), legal_orders_of_that_power)

:class:`Bot` is the protocol; :class:`RandomBot` picks uniformly among the legal orders,
:class:`HeuristicBot` holds its centres, takes neutral centres and supports its attacks,
:class:`SearchBot` (the strongest, the server's default) searches over its order sets
against predicted orders of the other powers.
"""

from realpolitik.bots.base import Bot, PowerView, make_bot
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.random_bot import RandomBot
from realpolitik.bots.search import SearchBot

BOTS = ("search", "heuristic", "random")
DEFAULT_BOT = "search"

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
