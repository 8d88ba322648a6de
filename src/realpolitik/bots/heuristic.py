"""The heuristic bot: holds its centres, takes neutral centres, supports its attacks.

Movement is a greedy assignment: every (unit, move-or-hold) pair gets a score — a centre
not yet owned is worth most (more when neutral, more again in the Fall when it would be
captured), an own centre under threat is worth holding, other moves are worth more the
closer they bring the unit to a centre it could take — and the best pairs are taken while
no two units aim at one province. Units left with little to do then support the attacks
that meet resistance, or hold a threatened neighbour. Retreats go where they are most
useful, builds pick the unit type closer to the nearest centre to take, removals drop the
units farthest from any.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence

from realpolitik.bots.base import LegalOrders, PowerView, edition_of
from realpolitik.game.calendar import turn_changes_owners
from realpolitik.maps.model import GameMap
from realpolitik.orders import (
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.vocab import ARMY, Location, Province, Unit, UnitType, province_of

_FAR = 99
_SUPPORTER_MAX_SCORE = 4.0


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        survey = _Survey(view)
        if view.phase.is_adjustments:
            return self._adjust(survey, legal)
        if view.phase.is_retreats:
            return self._retreat(survey, legal)
        return self._move(survey, legal)

    # --- movement ------------------------------------------------------------------
    def _move(self, b: _Survey, legal: LegalOrders) -> list[Order]:
        candidates: list[tuple[float, float, str, Order]] = []
        for key, options in legal.items():
            unit = b.view.position.units.get(province_of(key))
            if unit is None:
                continue
            for order in options:
                if isinstance(order, Hold | Move):
                    score = b.score(unit, order)
                    if score is not None:
                        candidates.append((score, self._rng.random(), key, order))
        candidates.sort(key=lambda c: (c[0], c[1]), reverse=True)
        chosen: dict[str, tuple[float, Order]] = {}
        claimed: set[Province] = set()
        own = {u.province for u in b.mine}
        for score, _, key, order in candidates:
            if key in chosen:
                continue
            target = _target(order)
            if target in claimed or (isinstance(order, Move) and target in own):
                continue
            chosen[key] = (score, order)
            claimed.add(target)
        self._add_supports(b, legal, chosen)
        out = [order for _, order in chosen.values()]
        for key, options in legal.items():  # anything unassigned holds, if it can
            if key not in chosen:
                holds = [o for o in options if isinstance(o, Hold)]
                if holds:
                    out.append(holds[0])
        return out

    def _add_supports(
        self, b: _Survey, legal: LegalOrders, chosen: dict[str, tuple[float, Order]]
    ) -> None:
        attacks: list[tuple[float, Order]] = [
            (score, order)
            for score, order in chosen.values()
            if isinstance(order, Move) and b.resisted(province_of(order.destination))
        ]
        attacks.sort(key=lambda a: a[0], reverse=True)
        holds: list[tuple[float, Order]] = [
            (score, order)
            for score, order in chosen.values()
            if isinstance(order, Hold) and b.threat(order.unit.province) and score >= 3
        ]
        helpers = sorted(
            (key for key, (score, _) in chosen.items() if score < _SUPPORTER_MAX_SCORE),
            key=lambda k: chosen[k][0],
        )
        for key in helpers:
            options = legal.get(key, ())
            for _, wanted in [*attacks, *holds]:
                support = _support_for(options, wanted)
                if support is not None:
                    chosen[key] = (chosen[key][0], support)
                    break

    # --- retreats ------------------------------------------------------------------
    def _retreat(self, b: _Survey, legal: LegalOrders) -> list[Order]:
        out: list[Order] = []
        taken: set[Province] = set()
        for key, options in legal.items():
            best: tuple[float, Order] | None = None
            for order in options:
                if isinstance(order, Retreat) and province_of(order.destination) not in taken:
                    dislodged = b.view.position.dislodged.get(province_of(key))
                    utype = dislodged.unit.type if dislodged else ARMY
                    score = b.place_value(utype, order.destination)
                    if best is None or score > best[0]:
                        best = (score, order)
            if best is not None:
                out.append(best[1])
                taken.add(province_of(_retreat_dest(best[1])))
            else:
                out.extend(o for o in options[:1] if isinstance(o, Disband))
        return out

    # --- adjustments ---------------------------------------------------------------
    def _adjust(self, b: _Survey, legal: LegalOrders) -> list[Order]:
        v = b.view
        due = v.due()
        if due > 0:
            builds: list[tuple[float, Order]] = []
            for options in legal.values():
                best = max(
                    (o for o in options if isinstance(o, Build)),
                    key=lambda o: (b.place_value(o.unit.type or ARMY, o.unit.location), str(o)),
                    default=None,
                )
                if best is not None:
                    builds.append((b.place_value(best.unit.type or ARMY, best.unit.location), best))
            builds.sort(key=lambda x: x[0], reverse=True)
            picked: list[Order] = [o for _, o in builds[:due]]
            waives = [o for o in legal.get("WAIVE", ()) if isinstance(o, Waive)]
            picked.extend(waives[:1] * (due - len(picked)))
            return picked
        if due < 0:
            removals: list[tuple[float, Order]] = []
            for options in legal.values():
                for o in options:
                    if isinstance(o, Disband):
                        unit = v.position.units.get(o.unit.province)
                        utype = unit.type if unit else ARMY
                        removals.append((b.place_value(utype, o.unit.location), o))
            removals.sort(key=lambda x: (x[0], str(x[1])))
            return [o for _, o in removals[:-due]]
        return []


class _Survey:
    """What the bot works out once per phase: distances to centres it could take, and
    which provinces enemy units can reach."""

    def __init__(self, view: PowerView) -> None:
        self.view = view
        gm = view.game_map
        pos = view.position
        self.mine = [u for u in pos.units.values() if u.power == view.power]
        targets = {c for c in gm.centers if pos.centers.get(c) != view.power}
        self.army_dist = _bfs(
            (p for p in targets if p in gm.army_adjacency), lambda p: gm.army_adjacency[p]
        )
        fleet_sources = [loc for loc in gm.fleet_adjacency if province_of(loc) in targets]
        self.fleet_dist = _bfs(fleet_sources, lambda loc: gm.fleet_adjacency[loc])
        self.reach: dict[Province, int] = {}
        for unit in pos.units.values():
            if unit.power != view.power:
                for p in _reachable(gm, unit):
                    self.reach[p] = self.reach.get(p, 0) + 1
        # centres taken this turn change owner at its end (the Fall turn; conquista: every turn)
        self.turn_changes_owners = turn_changes_owners(edition_of(view), view.phase)

    def threat(self, province: Province) -> bool:
        return self.reach.get(province, 0) > 0

    def resisted(self, province: Province) -> bool:
        unit = self.view.position.units.get(province)
        occupied = unit is not None and unit.power != self.view.power
        return occupied or self.threat(province)

    def distance(self, utype: UnitType, location: Location) -> int:
        if utype is ARMY:
            return self.army_dist.get(province_of(location), _FAR)
        return self.fleet_dist.get(location, _FAR)

    def place_value(self, utype: UnitType, location: Location) -> float:
        """How good a place is to stand, in general."""
        p = province_of(location)
        centers = self.view.position.centers
        if p in self.view.game_map.centers and centers.get(p) != self.view.power:
            return 10.0 if centers.get(p) is None else 8.0
        value = 4.0 / (1 + self.distance(utype, location))
        if p in self.view.game_map.centers and self.threat(p):
            value += 2.0
        return value

    def score(self, unit: Unit, order: Hold | Move) -> float | None:
        gm = self.view.game_map
        centers = self.view.position.centers
        here = unit.province
        if isinstance(order, Hold):
            if here in gm.centers and centers.get(here) != self.view.power:
                return 12.0 if self.turn_changes_owners else 9.0
            if here in gm.centers and self.threat(here):
                return 7.0 if self.turn_changes_owners else 3.5
            return 4.0 / (1 + self.distance(unit.type, unit.location)) - 0.5
        if order.via_convoy:
            return None
        dest = province_of(order.destination)
        score = self.place_value(unit.type, order.destination)
        if dest in gm.centers and centers.get(dest) == self.view.power:
            score = 6.0 if (self.turn_changes_owners and self.threat(dest)) else 0.5
        if dest in gm.centers and centers.get(dest) != self.view.power and self.turn_changes_owners:
            score += 3.0
        occupant = self.view.position.units.get(dest)
        if occupant is not None and occupant.power != self.view.power:
            score -= 2.0
        score -= 1.0 * self.reach.get(dest, 0)
        if here in gm.centers and centers.get(here) == self.view.power and self.threat(here):
            score -= 5.0 if self.turn_changes_owners else 1.5
        return score


def _target(order: Order) -> Province:
    if isinstance(order, Move):
        return province_of(order.destination)
    assert not isinstance(order, Waive)
    return order.unit.province


def _retreat_dest(order: Order) -> Location:
    return order.destination if isinstance(order, Retreat) else ""


def _support_for(options: Sequence[Order], wanted: Order) -> Order | None:
    for option in options:
        if (
            isinstance(wanted, Move)
            and isinstance(option, SupportMove)
            and option.supported.province == wanted.unit.province
            and province_of(option.destination) == province_of(wanted.destination)
        ):
            return option
        if (
            isinstance(wanted, Hold)
            and isinstance(option, SupportHold)
            and option.supported.province == wanted.unit.province
        ):
            return option
    return None


def _reachable(gm: GameMap, unit: Unit) -> Iterable[Province]:
    if unit.type is ARMY:
        return gm.army_adjacency.get(unit.location, frozenset())
    return gm.fleet_reach.get(unit.location, frozenset())


def _bfs(sources: Iterable[str], neighbours: Callable[[str], Iterable[str]]) -> dict[str, int]:
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for s in sources:
        dist[s] = 0
        queue.append(s)
    while queue:
        cur = queue.popleft()
        for nxt in neighbours(cur):
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist
