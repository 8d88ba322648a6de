"""The PettingZoo environment: every power an agent, every phase with a choice a step."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from realpolitik.env.encoding import Encoding, Slots
from realpolitik.env.rewards import REWARDS, scores, shares
from realpolitik.env.spaces import OrderSpace
from realpolitik.errors import whole_number
from realpolitik.game import Game
from realpolitik.legal.listing import as_listed
from realpolitik.maps import load_map
from realpolitik.orders import Build, Disband, Order, Waive
from realpolitik.phase import PhaseKind
from realpolitik.rules import ForeignSupport
from realpolitik.vocab import Power

MAX_ORDERS = 256
"""Orders listed per province by default: more than any unit had in 78 random games of 15
years over every edition and table (the most: 149, a fleet in the North Sea in conquista,
where it may support foreign units; 72 in the other editions), and in 10 random classic
games of 40 years (140). Longer conquista games list more, as the board fills with units
a fleet may support or convoy: in 10 random games of 40 years (1,100 steps), a unit's
list passed 256 orders 593 times (the most: 452, a fleet in the Mid-Atlantic in 1950); past
``max_orders`` a list is cut (its last orders, a fleet's convoys first, cannot be chosen:
``DiplomacyEnv(max_orders=512)`` lists all of those)."""

Observation = dict[str, Any]


class DiplomacyEnv(ParallelEnv):  # type: ignore[misc]  # (pettingzoo is untyped)
    """Diplomacy as a PettingZoo ``ParallelEnv`` (see :mod:`realpolitik.env`).

    ``edition``, ``players`` and ``setup`` choose the table as :meth:`Game.new` does;
    ``reward`` is ``"centres"``, ``"sum_of_squares"`` or ``"win"``
    (:mod:`realpolitik.env.rewards`); an episode is cut off (truncated) after
    ``max_years`` game years; ``last_year``: the shortened game's agreed end (1971, grow:
    the game ends then, the most units win); ``max_orders``: legal orders listed per
    province (the rest cannot be chosen); ``accept_supports`` (conquista): each power
    accepts every foreign support offered to it; ``invalid``: an order index that the
    action mask does not allow raises a ``ValueError`` (``"raise"``) or is read as *no
    order* (``"ignore"``)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "realpolitik_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        edition: str = "classic",
        players: int | None = None,
        *,
        setup: str | None = None,
        reward: str = "centres",
        max_years: int = 20,
        last_year: int | None = None,
        max_orders: int = MAX_ORDERS,
        accept_supports: bool = True,
        invalid: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards: {', '.join(REWARDS)}")
        whole_number(max_years, "max_years", least=1)
        if invalid not in ("raise", "ignore"):
            raise ValueError(f"invalid must be 'raise' or 'ignore', not {invalid!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"unknown render mode {render_mode!r} (only 'ansi')")
        self.edition, self.players, self.setup = edition, players, setup
        self.reward, self.max_years, self.last_year = reward, max_years, last_year
        self.accept_supports, self.render_mode = accept_supports, render_mode
        self.strict = invalid == "raise"
        self.game = self._new_game(0)
        game_map = load_map(self.game.edition.map_name(self.game.setup))
        played = self.game.setup.played()
        self.possible_agents: list[Power] = [p for p in game_map.powers if p in played]
        self.agents: list[Power] = []
        self.encoding = Encoding(game_map, self.possible_agents, max_orders)
        self.observation_spaces = dict.fromkeys(
            self.possible_agents, self.encoding.observation_space
        )
        self.action_spaces = {
            p: OrderSpace(len(self.encoding.provinces), self.encoding.choices)
            for p in self.possible_agents
        }
        self._seeds = random.Random()
        self._finished: set[Power] = set()
        self._scores: dict[Power, float] = {}
        self._slots: dict[Power, Slots] = {}
        self._legal: dict[Power, dict[str, list[Order]]] = {}
        self._last_year = 0
        self._begun = False  # an episode was reset

    def _new_game(self, seed: int) -> Game:
        return Game.new(
            edition=self.edition, players=self.players, setup=self.setup, seed=seed,
            last_year=self.last_year,
        )  # fmt: skip

    def observation_space(self, agent: Power) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: Power) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ---------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[Power, Observation], dict[Power, dict[str, Any]]]:
        """A new game: ``seed`` deals the powers to the players (and tosses the two-player
        game's coin); without one, the next seed of the environment's own sequence. A seed
        is a whole number from 0 (numpy's too), as gymnasium's."""
        if seed is not None:
            seed = whole_number(seed, "seed", least=0)
            self._seeds.seed(seed)
            for k, space in enumerate(self.action_spaces.values()):
                space.seed(seed + k)
        self.game = self._new_game(self._seeds.randrange(2**31))
        self._begun = True
        self._last_year = self.game.phase.year + self.max_years - 1
        self._finished = set()
        self._scores = scores(self.reward, self.game.position, self.possible_agents)
        self.agents = self._live()
        observations = self._observe(self.agents)
        phase = str(self.game.phase)
        return observations, {p: {"phase": phase} for p in self.agents}

    def step(
        self, actions: Mapping[Power, Any]
    ) -> tuple[
        dict[Power, Observation],
        dict[Power, float],
        dict[Power, bool],
        dict[Power, bool],
        dict[Power, dict[str, Any]],
    ]:
        """Play one phase: each agent's action (a missing agent gives no orders)."""
        return self.play(actions)

    def play(
        self,
        actions: Mapping[Power, Any],
        orders: Mapping[Power, Sequence[Order | str]] | None = None,
    ) -> tuple[
        dict[Power, Observation],
        dict[Power, float],
        dict[Power, bool],
        dict[Power, bool],
        dict[Power, dict[str, Any]],
    ]:
        """:meth:`step`, where the powers in ``orders`` (bots) give those orders instead
        (values or text, as :meth:`Game.submit` takes them)."""
        if not self.agents:
            raise self.no_episode()
        orders = orders or {}
        for power in (*actions, *orders):
            self._known(power)
        game = self.game
        adjusting = game.phase.kind is PhaseKind.ADJUSTMENTS
        due = game.builds_due() if adjusting else {}
        decode, slots = self.encoding.decode, self._slots
        picks = {  # every action read, an agent's without a choice too (it may give only 0s)
            power: decode(power, slots.get(power, {}), action, self.strict)
            for power, action in actions.items()
            if action is not None and power not in orders
        }
        chosen: dict[Power, Sequence[Order | str]] = {}
        for power in slots:
            if power in orders:
                chosen[power] = orders[power]
                continue
            picked = picks.get(power, [])
            chosen[power] = _adjustments(picked, due.get(power, 0)) if adjusting else picked
        acknowledged = (
            game.rules.foreign_support is ForeignSupport.ACKNOWLEDGED and game.phase.is_movement
        )
        for power, given in chosen.items():
            game.submit(power, given)
            if acknowledged and self.accept_supports:
                foreign = [prov for prov, u in game.position.units.items() if u.power != power]
                game.accept_support(power, foreign)
        game.process()
        return self._after()

    def _after(
        self,
    ) -> tuple[
        dict[Power, Observation],
        dict[Power, float],
        dict[Power, bool],
        dict[Power, bool],
        dict[Power, dict[str, Any]],
    ]:
        game = self.game
        before = self.agents
        now = self._live()
        over = game.is_over
        cut = not over and game.phase.year > self._last_year
        new = scores(self.reward, game.position, self.possible_agents)
        if self.reward == "win" and (over or cut):
            if over and game.result is not None:
                new.update(shares(game.players, game.result.players))
            else:
                survivors = set(game.survivors())
                players = game.players
                alive = [n for n, powers in players.items() if survivors.intersection(powers)]
                new.update(shares(players, alive))
        keyed = list(dict.fromkeys([*before, *now]))
        rewards = {p: new[p] - self._scores[p] for p in keyed}
        self._scores = new
        terminated = {p: over or p not in now for p in keyed}
        truncated = dict.fromkeys(keyed, cut)
        self._finished.update(p for p in keyed if terminated[p] or cut)
        self.agents = [] if over or cut else now
        observations = self._observe(keyed)
        phase = str(game.phase)
        infos = {p: {"phase": phase} for p in keyed}
        return observations, rewards, terminated, truncated, infos

    def _live(self) -> list[Power]:
        """The agents now: powers someone plays that have a unit or a centre (an agent
        once finished never comes back)."""
        game = self.game
        position = game.position
        alive = {u.power for u in position.units.values()} | set(position.centers.values())
        alive |= {d.unit.power for d in position.dislodged.values()}
        played = {p for powers in game.players.values() for p in powers}
        return [
            p
            for p in self.possible_agents
            if p in alive and p in played and p not in self._finished
        ]

    def _observe(self, agents: Sequence[Power]) -> dict[Power, Observation]:
        game = self.game
        legal = self._legal = {} if game.is_over else game.legal_orders()
        encoding = self.encoding
        self._slots = {p: encoding.slots(keyed) for p, keyed in legal.items() if p in self.agents}
        due = game.builds_due() if game.phase.kind is PhaseKind.ADJUSTMENTS else {}
        shared = encoding.shared_arrays(game.phase, game.position, due)
        code, slots, mask = encoding.code, self._slots, encoding.mask
        observations = {}
        for p in agents:
            allowed, counts = mask(slots.get(p, {}))
            observations[p] = {**shared, "power": code[p], "action_mask": allowed, "orders": counts}
        return observations

    # --- for agents and wrappers ---------------------------------------------------------------
    def _known(self, agent: Power) -> Power:
        """``agent`` if it is one of the environment's, else a ``ValueError`` naming it."""
        if agent not in self.possible_agents:
            agents = ", ".join(self.possible_agents)
            raise ValueError(f"unknown agent {agent!r}; agents: {agents}")
        return agent

    def no_episode(self) -> ValueError:
        """The error of a step without an episode going on: before the first reset, or
        after the end."""
        if self._begun:
            return ValueError("the episode is over: call reset()")
        return ValueError("no episode yet: call reset() first")

    def legal_orders(self, agent: Power) -> dict[str, list[Order]]:
        """``agent``'s legal orders this step as ``Game.legal_orders`` gives them (empty:
        no choice), uncut; the caller's own lists: changing them changes no action's
        meaning."""
        legal = self._legal.get(self._known(agent), {})
        return {key: list(orders) for key, orders in legal.items()}

    def legal_slots(self, agent: Power) -> Slots:
        """``agent``'s orders this step by province index (:meth:`Encoding.slots`), the
        caller's own lists as :meth:`legal_orders`."""
        return {k: list(orders) for k, orders in self._slots.get(self._known(agent), {}).items()}

    def orders_of(self, agent: Power, action: Any) -> list[Order]:
        """The orders ``action`` gives ``agent`` this step."""
        return self.encoding.decode(agent, self._slots.get(self._known(agent), {}), action)

    def action_of(
        self, agent: Power, orders: Sequence[Order | str], *, language: str = "en"
    ) -> NDArray[np.int64]:
        """The action that gives ``agent`` these of its legal orders this step: order values
        or text, as :meth:`Game.submit` reads them (``"A PAR - BUR"``; ``language``: ``es``,
        ``fr``, ``pt``, as ``submit`` takes it), in the listing's spelling or in another
        that the adjudicator takes as the same order
        (:func:`~realpolitik.legal.listing.as_listed`: ``"A LON - BEL"`` for the listed
        ``"A LON - BEL VIA"``, ``"F BOT - STP"`` for ``"F BOT - STP/SC"``, a unit named
        with the other type or a nationality); a waived build is *no order* (0). An order
        no index gives is a ``ValueError`` naming it and why (illegal, with the reason; past
        ``max_orders``; legal only in its own spelling, as a support naming a coast that
        must match): left out, its unit would have had no order."""
        slots = self._slots.get(self._known(agent), {})
        game = self.game
        read = game.copy().submit(agent, orders, language=language)  # read as the game would
        listed = {order for options in slots.values() for order in options}
        if self._legal.get(agent, {}).get("WAIVE"):  # builds due: a waive gives no index
            read = [o for o in read if not isinstance(o, Waive)]
        found: list[Order] = []
        missing: list[str] = []
        for order in read:
            if order not in listed:
                refused = game.illegal_orders(agent, [order])
                if refused:
                    missing.append(f"{order} ({refused[0]})")
                    continue
                same = as_listed(order, game.game_map, game.position, game.rules)
                if same not in listed:
                    uncut = {o for options in self._legal.get(agent, {}).values() for o in options}
                    why = (
                        f"past the first {self.encoding.max_orders} of its unit (max_orders)"
                        if same in uncut
                        else "legal, but no listed order means the same"
                    )
                    missing.append(f"{order} ({why})")
                    continue
                order = same
            found.append(order)
        if missing:
            raise ValueError(
                f"{agent}: no action gives {', '.join(missing)}: not among its legal orders "
                "this step (legal_orders)"
            )
        return self.encoding.encode(slots, found)

    def render(self) -> str:
        """The phase, and each power's centres and units (``render_mode="ansi"``)."""
        game = self.game
        lines = [f"{game.phase_name()} ({game.phase})"]
        position = game.position
        for power in self.encoding.powers:
            units = " ".join(sorted(str(u) for u in position.units.values() if u.power == power))
            if units or power in position.centers.values():
                lines.append(f"{power}: {len(position.centers_of(power))} centres; {units}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def _adjustments(orders: list[Order], due: int) -> list[Order]:
    """At most ``due`` builds (``due`` > 0) or removals (< 0), the first by province."""
    kind = Build if due > 0 else Disband
    kept: list[Order] = [o for o in orders if isinstance(o, kind)]
    return kept[: abs(due)]
