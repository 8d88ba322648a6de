"""The search bot: plans with province values, then searches over its own order sets
against predicted orders of every other power.

Movement, in three steps:

1. **Values** (:mod:`realpolitik.bots.values`): what each power wants where: centres to
   take, own centres as threatened, spread over the board by distance.
2. **Predictions**: two order sets for the other powers that somebody plays (a power nobody
   plays only holds: :meth:`PowerView.unplayed`): the heuristic bot's orders,
   and orders sampled from each power's own values (as the bot samples its own). Both
   count: searching against the heuristic bot's orders alone played worse, even against
   heuristic bots.
3. **Search**: candidate order sets for the power (the heuristic bot's, a greedy one from
   the values, sampled ones with noise), each adjudicated against every prediction and
   scored by the mean worth of the positions it leaves (centres held after the turn,
   units, the values of the places they stand on, dislodged units that can retreat); the
   best is then improved one change at a time (a unit's move or hold, a support of
   another unit's order, a move with the supports it could get, a move by convoy with a
   convoying fleet), then the next candidates, for as long as the budget lasts.

``strength`` is the budget: the number of adjudications per movement phase (each takes a
fraction of a millisecond); ``time_limit`` stops the search early whatever the strength
(``None``: no clock, the strength alone, so that a seed gives the same orders on any
machine, as self-play and the environment's opponents need).
Retreats go to the most valuable place, builds to the most valuable home centre and unit
type, removals take the least valuable units. Every order given is one of the legal
orders the bot is shown.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from realpolitik.adjudicator import adjudicate
from realpolitik.bots.base import LegalOrders, PowerView, edition_of
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.values import Values, values
from realpolitik.errors import whole_number
from realpolitik.game.calendar import turn_changes_owners
from realpolitik.legal import legal_orders
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, Power, Province, province_of

DEFAULT_STRENGTH = 600
"""Adjudications per movement phase by default (about 0.1-0.3 s on one core)."""
DEFAULT_TIME_LIMIT = 0.4
"""Seconds after which the search stops and gives its best so far (the slowest decision
takes a little longer: the predictions come before the first check, and a busy machine
may pause the process at any time)."""

CENTRE = 1.0
"""A centre held after the turn (in a turn after which centres change owner)."""
CENTRE_SOON = 0.6
"""A centre occupied after a turn after which centres do not change owner yet."""
UNIT = 0.7
"""A unit kept."""
PLACE = 0.35
"""Per unit of place value (:mod:`realpolitik.bots.values`) of where a unit stands."""
RETREATING = 0.4
"""A dislodged unit with somewhere to retreat (kept, but out of place)."""
CANDIDATES = 12
"""Sampled order sets tried before improving the best one unit at a time."""
NOISE = 0.6
"""How far a sample's values are shaken (a factor in 1 ± NOISE)."""
SUPPORT_CHANCE = 0.5
"""How often a sampled unit supports another's move or hold when it can."""


class SearchBot:
    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        strength: int = DEFAULT_STRENGTH,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> None:
        whole_number(strength, "strength", least=0)
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, int | float)
            or not 0 < time_limit < math.inf  # (NaN is neither)
        ):
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        self._seed = seed
        self._rng = random.Random(seed)
        self.strength = strength
        self.time_limit = time_limit

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        limit = self.time_limit
        deadline = math.inf if limit is None else time.perf_counter() + limit
        if view.phase.is_adjustments:
            return self._adjust(view, legal)
        mine = values(view.game_map, view.position, view.power)
        if view.phase.is_retreats:
            return _retreat(view, legal, mine)
        return _Search(self, view, legal, mine, deadline).run()

    # --- adjustments ---------------------------------------------------------------
    def _adjust(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        pos, gm = view.position, view.game_map
        due = view.due()
        if due > 0:
            vals = values(gm, pos, view.power)
            options: list[tuple[float, str, Order]] = []
            for orders in legal.values():
                for o in orders:
                    if isinstance(o, Build):
                        utype = o.unit.type or ARMY
                        options.append((vals.of(utype, o.unit.location), str(o), o))
            options.sort(key=lambda x: (-x[0], x[1]))
            picked: list[Order] = []
            used: set[Province] = set()
            for _, _, o in options:
                assert isinstance(o, Build)
                if len(picked) < due and o.unit.province not in used:
                    picked.append(o)
                    used.add(o.unit.province)
            waives = [o for o in legal.get("WAIVE", ()) if isinstance(o, Waive)]
            picked.extend(waives[:1] * (due - len(picked)))
            return picked
        if due < 0:
            vals = values(gm, pos, view.power)
            removals: list[tuple[float, str, Order]] = []
            for orders in legal.values():
                for o in orders:
                    unit = pos.units.get(o.unit.province) if isinstance(o, Disband) else None
                    if unit is not None:
                        worth = vals.of(unit.type, unit.location)
                        removals.append((worth, str(o), o))
            removals.sort(key=lambda x: (x[0], x[1]))
            return [o for _, _, o in removals[:-due]]
        return []


def _rules(view: PowerView) -> Rules:
    """The rules the game is played by (as shown, else guessed from the calendar: only
    conquista adjusts in the Spring)."""
    if view.rules is not None:
        return view.rules
    return edition_of(view).rules


def _retreat(view: PowerView, legal: LegalOrders, vals: Values) -> list[Order]:
    out: list[Order] = []
    taken: set[Province] = set()
    for key, options in legal.items():
        dislodged = view.position.dislodged.get(province_of(key))
        utype = dislodged.unit.type if dislodged else ARMY
        best: tuple[float, Order] | None = None
        for o in options:
            if isinstance(o, Retreat) and province_of(o.destination) not in taken:
                worth = vals.of(utype, o.destination)
                if best is None or worth > best[0]:
                    best = (worth, o)
        if best is not None:
            out.append(best[1])
            taken.add(province_of(best[1].destination))  # type: ignore[union-attr]
        else:
            out.extend(o for o in options[:1] if isinstance(o, Disband))
    return out


OrderSet = dict[str, Order]
"""A power's movement orders by the key of its unit."""


class _Search:
    """One movement phase's search for one power."""

    def __init__(
        self, bot: SearchBot, view: PowerView, legal: LegalOrders, mine: Values, deadline: float
    ) -> None:
        self.bot, self.view, self.legal, self.mine = bot, view, legal, mine
        self.rng = bot._rng
        self.rules = _rules(view)
        self.deadline = deadline
        self.budget = bot.strength
        self.me = view.power
        phase = view.phase
        self.turn_changes_owners = turn_changes_owners(edition_of(view), phase)
        self.keys = [k for k, opts in legal.items() if opts]
        # own supports of moves and convoys, by the province of the unit they help and the
        # province it goes to
        self.helpers: dict[tuple[Province, Province], list[tuple[str, Order]]] = {}
        for key, options in legal.items():
            for o in options:
                if isinstance(o, SupportMove | Convoy):
                    helped = o.supported if isinstance(o, SupportMove) else o.convoyed
                    where = (helped.province, province_of(o.destination))
                    self.helpers.setdefault(where, []).append((key, o))

    # --- the steps -----------------------------------------------------------------
    def run(self) -> list[Order]:
        cands: list[OrderSet] = [self._heuristic(self.me, self.legal)]
        if self.budget <= 0 or not self.keys:
            return list(cands[0].values())
        self.predictions = self._predict()
        cands.append(self._sample(self.me, self.legal, self.mine, 0.0))
        for _ in range(CANDIDATES):
            cands.append(self._sample(self.me, self.legal, self.mine, NOISE))
        scored: list[tuple[float, int, OrderSet]] = []
        for k, cand in enumerate(cands):
            if k and self._out_of_budget():
                break
            scored.append((self._score(cand), -k, cand))
        scored.sort(key=lambda x: x[:2], reverse=True)
        # the best candidate improved, then the next ones while the budget lasts
        best_score, _, best = scored[0]
        for score, _, cand in scored:
            if self._out_of_budget():
                break
            cand, score = self._improve(cand, score)
            if score > best_score:
                best, best_score = cand, score
        return list(best.values())

    def _predict(self) -> list[dict[Power, list[Order]]]:
        v = self.view
        everyone = legal_orders(v.game_map, v.position, v.phase, self.rules)
        idle = v.unplayed()  # nobody plays them: their units hold
        others = {
            p: opts for p, opts in everyone.items() if p != self.me and p not in idle and opts
        }
        heuristic = {p: list(self._heuristic(p, opts).values()) for p, opts in others.items()}
        sampled = {
            p: list(self._sample(p, opts, values(v.game_map, v.position, p), NOISE).values())
            for p, opts in others.items()
        }
        return [heuristic, sampled]

    def _improve(self, best: OrderSet, best_score: float) -> tuple[OrderSet, float]:
        """Change one unit's order (or an army's and a convoying fleet's) at a time while
        that scores better, until nothing does or the budget is spent."""
        improved = True
        while improved:
            improved = False
            keys = list(self.keys)
            self.rng.shuffle(keys)
            for key in keys:
                for change in self._changes(best, key):
                    if self._out_of_budget():
                        return best, best_score
                    cand = {**best, **change}
                    s = self._score(cand)
                    if s > best_score + 1e-9:
                        best, best_score, improved = cand, s, True
        return best, best_score

    def _changes(self, current: OrderSet, key: str) -> list[OrderSet]:
        """Other orders for the unit at ``key``: its holds and moves by value (the best
        few), supports of other units' current orders, a move by convoy with the convoy."""
        options = self.legal[key]
        now = current.get(key)
        out: list[OrderSet] = []
        plain = [o for o in options if isinstance(o, Hold | Move) and not _by_convoy(o)]
        plain.sort(key=lambda o: -self.mine.of(o.unit.type or ARMY, _place(o)))
        for step in plain[:6]:
            if step != now:
                out.append({key: step})
            if isinstance(step, Move):  # with the supports it could have
                dest = province_of(step.destination)
                supports = [
                    (k, s)
                    for k, s in self.helpers.get((step.unit.province, dest), ())
                    if isinstance(s, SupportMove) and province_of(k) != dest
                ]
                if supports:
                    out.append({key: step, **dict(supports)})
                if len(supports) > 1:
                    out += [{key: step, k: s} for k, s in supports]
        planned = {province_of(k): o for k, o in current.items()}
        for o in options:
            if isinstance(o, SupportMove | SupportHold) and o != now:
                target = planned.get(o.supported.province)
                if target is not None and _supports(o, target):
                    out.append({key: o})
        for o in options:
            if isinstance(o, Move) and o.via_convoy and o != now:
                where = (o.unit.province, province_of(o.destination))
                for fleet_key, convoy in self.helpers.get(where, ()):
                    if isinstance(convoy, Convoy):
                        out.append({key: o, fleet_key: convoy})
        return out

    # --- order sets ----------------------------------------------------------------
    def _heuristic(self, power: Power, legal: LegalOrders) -> OrderSet:
        v = self.view
        seed = self.rng.randrange(2**31)
        view = replace(v, power=power, rules=self.rules)
        given = HeuristicBot(seed).orders(view, legal)
        return _keyed(given, legal)

    def _sample(self, power: Power, legal: LegalOrders, vals: Values, noise: float) -> OrderSet:
        """An order set from ``power``'s values: each unit (in random order) to the best
        place no unit of the power goes to yet (values shaken by ``noise``), then some
        units support others' moves into contested places or threatened holds."""
        rng = self.rng
        units = self.view.position.units
        keys = [k for k, opts in legal.items() if opts]
        rng.shuffle(keys)
        chosen: OrderSet = {}
        claimed: set[Province] = set()
        by_province = {province_of(k): k for k in keys}
        staying = set(by_province)  # own units not yet sent elsewhere
        for key in keys:
            here = province_of(key)
            best: tuple[float, Order] | None = None
            for o in legal[key]:
                if not isinstance(o, Hold | Move) or _by_convoy(o):
                    continue
                dest = province_of(_place(o))
                if dest in claimed or (dest != here and dest in staying):
                    continue
                worth = vals.of(o.unit.type or ARMY, _place(o))
                if noise:
                    worth *= 1 + noise * (2 * rng.random() - 1)
                if best is None or worth > best[0]:
                    best = (worth, o)
            order = best[1] if best is not None else legal[key][0]
            chosen[key] = order
            claimed.add(province_of(_place(order)) if isinstance(order, Hold | Move) else here)
            if isinstance(order, Move):
                staying.discard(here)
        for key in keys:
            if noise and rng.random() > SUPPORT_CHANCE:
                continue
            for o in legal[key]:
                if not isinstance(o, SupportMove | SupportHold):
                    continue
                target = chosen.get(by_province.get(o.supported.province, ""))
                if target is None or not _supports(o, target):
                    continue
                where = province_of(_place(target))
                enemy = units.get(where)
                contested = vals.threat.get(where, 0) > 0 or (
                    enemy is not None and enemy.power != power
                )
                if contested and not isinstance(chosen[key], SupportMove | SupportHold):
                    chosen[key] = o
                    break
        return chosen

    # --- scoring -------------------------------------------------------------------
    def _out_of_budget(self) -> bool:
        return self.budget <= 0 or time.perf_counter() > self.deadline

    def _score(self, cand: OrderSet) -> float:
        """The mean worth of the positions ``cand`` leaves against each prediction."""
        v = self.view
        mine = list(cand.values())
        total = 0.0
        for prediction in self.predictions:
            orders = {**prediction, self.me: mine}
            after = adjudicate(v.game_map, v.position, orders, self.rules, v.phase).position
            self.budget -= 1
            total += self._worth(after)
        return total / len(self.predictions)

    def _worth(self, after: Position) -> float:
        me, vals = self.me, self.mine
        worth = 0.0
        for unit in after.units.values():
            if unit.power == me:
                worth += UNIT + PLACE * vals.of(unit.type, unit.location)
        held = 0
        for c in self.view.game_map.centers:
            there = after.units.get(c)
            owner = there.power if there is not None else after.centers.get(c)
            held += owner == me
        worth += (CENTRE if self.turn_changes_owners else CENTRE_SOON) * held
        for d in after.dislodged.values():
            if d.unit.power == me and d.retreats:
                worth += RETREATING
        return worth


def _by_convoy(order: Order) -> bool:
    return isinstance(order, Move) and order.via_convoy


def _place(order: Order) -> str:
    """Where a hold stays or a move goes (location)."""
    if isinstance(order, Move):
        return order.destination
    assert not isinstance(order, Waive)
    return order.unit.location


def _supports(support: SupportMove | SupportHold, target: Order) -> bool:
    """Does ``support`` support the order ``target`` gives?"""
    if isinstance(support, SupportMove):
        return isinstance(target, Move) and province_of(target.destination) == province_of(
            support.destination
        )
    return not isinstance(target, Move)


def _keyed(orders: Sequence[Order], legal: Mapping[str, Sequence[Order]]) -> OrderSet:
    """Orders by the key of their unit (those of no key of ``legal`` left out)."""
    by_province = {province_of(k): k for k in legal}
    out: OrderSet = {}
    for o in orders:
        if not isinstance(o, Waive):
            key = by_province.get(o.unit.province)
            if key is not None:
                out[key] = o
    return out
