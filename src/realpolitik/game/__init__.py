"""The game layer: a whole game of one edition, played phase by phase.

* :mod:`~realpolitik.game.game`: :class:`Game`, the players, orders, phases, history and end;
* :mod:`~realpolitik.game.calendar`: which phase follows, when centres change owner, when an
  adjustment phase is skipped, and one phase played through it;
* :mod:`~realpolitik.game.editions`: the declared editions and their boards, as data;
* :mod:`~realpolitik.game.victory`: how a game ends;
* :mod:`~realpolitik.game.records`: the values a game is made of besides the board;
* :mod:`~realpolitik.game.views`: what one power (or an observer) may see of a game.

The file formats that read and write games live in :mod:`realpolitik.formats`.
"""

from realpolitik.game.game import Game

__all__ = ["Game"]
