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

import importlib

from realpolitik.bots.base import Bot, PowerView, bot_orders, is_bot, submit_bot_orders
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.random_bot import RandomBot
from realpolitik.bots.search import DEFAULT_STRENGTH, DEFAULT_TIME_LIMIT, SearchBot
from realpolitik.errors import whole_number

BOTS = ("search", "heuristic", "random")
DEFAULT_BOT = "search"


def make_bot(
    kind: str,
    *,
    seed: int | None = None,
    strength: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> Bot:
    """A bot by name: ``"search"``, ``"heuristic"`` or ``"random"``, or one of your own
    as ``"module:name"`` (``"mybots:GreedyBot"``): ``name`` in that importable module, a
    class or function called with ``seed=`` that returns a :class:`Bot`. ``strength``
    and ``time_limit``: the search bot's budget (adjudications per movement phase) and
    clock (``None``: none, the same orders on any machine); others have neither. A
    ``seed`` is a whole number, as a game's (:meth:`Game.new`).

    >>> make_bot("realpolitik.bots.random_bot:RandomBot", seed=1).name
    'random'
    """
    if seed is not None:
        seed = whole_number(seed, "seed")
    if kind == "search":
        strength = DEFAULT_STRENGTH if strength is None else strength
        return SearchBot(seed, strength=strength, time_limit=time_limit)
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if isinstance(kind, str) and ":" in kind:
        return _imported(kind, seed)
    raise ValueError(
        f"unknown bot {kind!r} (expected 'search', 'heuristic', 'random' or 'module:name')"
    )


def _imported(spec: str, seed: int | None) -> Bot:
    """The bot ``spec`` (``"module:name"``) names, made with ``seed``; a ValueError
    naming what is wrong (no such module or name, not a bot)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute.isidentifier():
        raise ValueError(f"bot {spec!r}: expected 'module:name', e.g. 'mybots:GreedyBot'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ValueError(
            f"bot {spec!r}: no module {exc.name!r} (is its folder on PYTHONPATH?)"
        ) from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(
            f"bot {spec!r}: module {module_name!r} has no class or function {attribute!r}"
        )
    try:
        bot = factory(seed=seed)
    except TypeError as exc:  # not made with seed= ("json:loads"): argparse said only "invalid"
        raise ValueError(
            f"bot {spec!r}: {attribute}(seed=...) cannot be called so ({exc}): a Bot class "
            "or function taking seed= is expected"
        ) from exc
    if not is_bot(bot):
        raise ValueError(
            f"bot {spec!r}: {attribute}(seed=...) made no bot (it has no orders method)"
        )
    return bot  # type: ignore[no-any-return]


__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "Bot",
    "HeuristicBot",
    "PowerView",
    "RandomBot",
    "SearchBot",
    "bot_orders",
    "make_bot",
    "submit_bot_orders",
]
