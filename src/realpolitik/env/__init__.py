"""Diplomacy for reinforcement learning: a PettingZoo ``ParallelEnv`` and a Gymnasium
single-agent wrapper, registered as ``realpolitik/Solo-v0`` (``pip install
'realpolitik[env]'``: numpy, gymnasium, pettingzoo).

    >>> from realpolitik.env import DiplomacyEnv
    >>> env = DiplomacyEnv("classic", reward="sum_of_squares", max_years=10)
    >>> observations, infos = env.reset(seed=1)
    >>> actions = {p: env.action_space(p).sample(mask=observations[p]["action_mask"])
    ...            for p in env.agents}
    >>> observations, rewards, terminated, truncated, infos = env.step(actions)
    >>> infos["FRANCE"]["phase"]
    'F1901M'

**Agents** are the powers that some player plays (``possible_agents``; a two-player
game's neutral power joins when the coin toss gives it to a player). The powers move
simultaneously; every phase in which some power has a choice is a step (movement,
retreats, adjustments), and every live agent gets an observation at every step. An agent
is terminated when its power has no unit and no centre left, or when the game ends (a
win, a draw, the end of a shortened game); every agent is truncated after ``max_years``
years.

**Observations** are dicts of arrays. ``P`` is the board's number of provinces (76 on
the standard boards, impassable Switzerland included), sorted by id
(``env.encoding.provinces``); powers are numbered from 1 in the board's order
(``env.encoding.powers``), 0 is nobody:

* ``units`` ``int8 (P, 3)``: per province, the unit there: its power, its type (1 army,
  2 fleet; 0 no unit), its coast (1-based in the province's coasts, 0 none);
* ``dislodged`` ``int8 (P, 3)``: the dislodged unit there, the same way (retreat phases);
* ``centres`` ``int8 (P,)``: the owner of the supply centre (0 unowned), -1 if the
  province is no supply centre;
* ``phase`` ``int16 (3,)``: year, season (0 spring, 1 fall, 2 winter; Grow's Winter and
  Summer are 0 and 1), kind (0 movement, 1 retreats, 2 adjustments);
* ``adjustments`` ``int8 (powers,)``: builds (positive) or removals (negative) due;
* ``power`` (an int): the observing power's number;
* ``action_mask`` ``int8 (P, max_orders + 1)``: the indices the power may choose;
* ``orders`` ``int16 (P,)``: how many legal orders the power has per province (the
  mask's allowed indices past 0: a random agent draws in ``0..orders``).

The arrays but ``action_mask`` and ``orders`` are shared by the agents' observations and
read-only.

**Actions** are one integer per province (``OrderSpace``, a ``MultiDiscrete``): 0 is
*no order* (a unit holds, a dislodged unit is disbanded, nothing is built or removed
there), ``i`` the ``i``-th of the province's legal orders in ``Game.legal_orders``'
order (``env.legal_slots(agent)``, decoded by ``env.orders_of``). Builds beyond those due
and removals beyond those due are dropped, the first by province kept; removals not given
are made by the edition's civil-disorder rule. ``OrderSpace.sample`` takes the mask as
it is.

**Rewards**: see :mod:`realpolitik.env.rewards` (``"centres"``, ``"sum_of_squares"``,
``"win"``).
"""

import gymnasium

from realpolitik.env.parallel import MAX_ORDERS, DiplomacyEnv
from realpolitik.env.solo import SoloEnv
from realpolitik.env.spaces import OrderSpace

SOLO_ID = "realpolitik/Solo-v0"
"""Gymnasium's id of :class:`SoloEnv`, registered when this module is imported:
``gymnasium.make("realpolitik/Solo-v0", power="FRANCE", opponents="heuristic")`` (its
arguments are :class:`SoloEnv`'s); ``gymnasium.make("realpolitik.env:realpolitik/Solo-v0")``
imports the module itself."""

if SOLO_ID not in gymnasium.registry:  # (imported again: registered already)
    gymnasium.register(SOLO_ID, entry_point="realpolitik.env.solo:SoloEnv")


def parallel_env(**kwargs: object) -> DiplomacyEnv:
    """PettingZoo's constructor convention: ``DiplomacyEnv(**kwargs)``."""
    return DiplomacyEnv(**kwargs)  # type: ignore[arg-type]


__all__ = ["MAX_ORDERS", "SOLO_ID", "DiplomacyEnv", "OrderSpace", "SoloEnv", "parallel_env"]
