"""One power learns, bots play the others: a Gymnasium ``Env`` over :class:`DiplomacyEnv`.

    >>> from realpolitik.env import SoloEnv
    >>> env = SoloEnv("FRANCE", opponents="random", max_years=2)
    >>> observation, info = env.reset(seed=3)
    >>> observation, reward, terminated, truncated, info = env.step(env.action_space.sample())

Observations and actions are the learner's in :class:`DiplomacyEnv` (see
:mod:`realpolitik.env`). Phases in which the learner has no choice are played at once (its
reward over them is added to the next step's). By default an order index that the mask
does not allow is read as *no order* (``invalid="ignore"``), so that any sample of the
action space is an action, as Gymnasium's checker and unmasked algorithms expect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from realpolitik.bots import make_bot
from realpolitik.bots.base import Bot, submit_bot_orders
from realpolitik.env.parallel import MAX_ORDERS, DiplomacyEnv, Observation
from realpolitik.orders import Order
from realpolitik.vocab import Power


class SoloEnv(gymnasium.Env[Observation, NDArray[np.int64]]):
    """``power`` learns; every other power is played by a bot: ``opponents`` names one kind
    for all (``"random"``, ``"heuristic"``, ``"search"``, or one's own as ``"module:name"``:
    :func:`realpolitik.bots.make_bot`) or a kind per power. The other arguments are
    :class:`DiplomacyEnv`'s."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium declares it so)

    def __init__(
        self,
        power: Power = "FRANCE",
        opponents: str | Mapping[Power, str] = "heuristic",
        edition: str = "classic",
        players: int | None = None,
        *,
        setup: str | None = None,
        reward: str = "centres",
        max_years: int = 20,
        last_year: int | None = None,
        max_orders: int = MAX_ORDERS,
        invalid: str = "ignore",
        render_mode: str | None = None,
    ) -> None:
        self.env = DiplomacyEnv(
            edition, players, setup=setup, reward=reward, max_years=max_years,
            last_year=last_year, max_orders=max_orders, invalid=invalid, render_mode=render_mode,
        )  # fmt: skip
        power = str(power).upper()
        if power not in self.env.possible_agents:
            powers = ", ".join(self.env.possible_agents)
            raise ValueError(f"{power} is not played at this table; powers: {powers}")
        others = [p for p in self.env.possible_agents if p != power]
        kinds = dict.fromkeys(others, opponents) if isinstance(opponents, str) else opponents
        unknown = sorted(set(kinds) - set(others))
        if unknown or set(others) - set(kinds):
            raise ValueError(
                f"opponents: one bot kind per power of {', '.join(others)} (got {sorted(kinds)})"
            )
        for kind in set(kinds.values()):
            make_bot(kind)  # a ValueError now for an unknown kind
        self.power, self.kinds = power, dict(kinds)
        self.bots: dict[Power, Bot] = {}
        self.observation_space = self.env.observation_space(power)
        self.action_space = self.env.action_space(power)
        self.render_mode = render_mode
        self._observation: Observation | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game (``seed``: the game's and the bots', as :meth:`DiplomacyEnv.reset`)."""
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        base = int(self.np_random.integers(2**31))
        observations, infos = self.env.reset(seed=base)
        self.bots = {  # a search bot without its clock: the same episode on any machine
            p: make_bot(kind, seed=base + k, time_limit=None)
            for k, (p, kind) in enumerate(self.kinds.items())
        }
        self._observation = observations.get(self.power)
        if self.power in observations and self._has_choice():
            return observations[self.power], infos[self.power]
        observation, _, terminated, truncated, info = self._advance(None)
        if terminated or truncated:
            raise ValueError(
                f"{self.power} gets no choice before the episode ends: raise max_years"
            )
        return observation, info

    def step(
        self, action: NDArray[np.int64]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if not self.env.agents or self.power not in self.env.agents:
            raise self.env.no_episode()
        return self._advance(action)

    def _has_choice(self) -> bool:
        return bool(self.env.legal_slots(self.power))

    def _advance(
        self, action: NDArray[np.int64] | None
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play this phase with ``action``, then the phases in which the learner has no
        choice, until it has one or the episode ends for it."""
        env, me = self.env, self.power
        total = 0.0
        info: dict[str, Any] = {}
        while True:
            actions = {} if action is None else {me: action}
            action = None
            observations, rewards, terminated, truncated, infos = env.play(
                actions, self._bot_orders()
            )
            total += rewards.get(me, 0.0)
            info = infos.get(me, info)
            if me in observations:
                self._observation = observations[me]
            done = terminated.get(me, False) or truncated.get(me, False)
            if done or not env.agents:
                if self._observation is None:
                    raise ValueError(
                        f"{me} gets no choice before the episode ends: raise max_years"
                    )
                ended = terminated.get(me, env.game.is_over)
                return self._observation, total, ended, not ended, info
            if me in env.agents and self._has_choice():
                return observations[me], total, False, False, info

    def _bot_orders(self) -> dict[Power, list[Order]]:
        """The bots' orders, read by the game (an order it refuses: a :class:`BotError`
        naming the bot, as self-play's)."""
        env = self.env
        out: dict[Power, list[Order]] = {}
        for power, bot in self.bots.items():
            legal = env.legal_orders(power)
            if legal:
                out[power] = submit_bot_orders(bot, env.game, power, legal)
        return out

    def render(self) -> str:
        return self.env.render()
