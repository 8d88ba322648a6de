"""Bots: a power's view and its legal orders in, orders out.

>>> from realpolitik.bots import make_bot
>>> bot = make_bot("heuristic", seed=1)
>>> # orders = bot.orders(PowerView(...), legal_orders_of_that_power)

:class:`Bot` is the protocol; :class:`RandomBot` picks uniformly among the legal orders,
:class:`HeuristicBot` holds its centres, takes neutral centres and supports its attacks.
"""

from realpolitik.bots.base import Bot, PowerView, make_bot
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.random_bot import RandomBot

BOTS = ("random", "heuristic")

__all__ = ["BOTS", "Bot", "HeuristicBot", "PowerView", "RandomBot", "make_bot"]
