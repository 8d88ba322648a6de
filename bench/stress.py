"""Random games whose orders are biased toward the hard parts of adjudication, for the
agreement sweep (``sweep.py``): every order is still one of realpolitik's legal orders, but
they are chosen together, by *tactics*:

* ``convoy``: an army on a coast moves by convoy (to an adjacent province too) and the fleets
  at sea that can convoy it do; often the convoying fleets are attacked (with support), the
  move is supported, the destination's unit moves against the army's origin, or supports an
  attack on a convoying fleet (the convoy paradoxes);
* ``contest``: several units move into one province with supports, the occupant holds with
  support, and some supports are attacked (cut);
* ``h2h``: two units move into each other's province, each perhaps supported;
* ``self``: a unit is attacked by its own power (with supports of either power);
* ``circle``: three to five units move in a ring, sometimes broken by an attacker;

the units left over pick at random, favouring supports that match a move or hold already
chosen. Retreats favour a province another dislodged unit can retreat to; adjustments order
the builds or removals due, fewer (down to none: civil disorder) or more (two builds in one
province, too many builds or disbands).
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import corpus
from corpus import RULES, Legal
from realpolitik import Phase
from realpolitik.orders import Convoy, Hold, Move, Order, Retreat, SupportHold, SupportMove
from realpolitik.phase import PhaseKind
from realpolitik.vocab import Power, Province, province_of


class Options:
    """One movement phase's legal orders, indexed for the tactics, and the orders chosen."""

    def __init__(self, legal: dict[Power, dict[str, list[Order]]]) -> None:
        self.orders: dict[Province, list[Order]] = {}
        self.power: dict[Province, Power] = {}
        self.key: dict[Province, str] = {}
        self.moves_into: dict[Province, list[Move]] = defaultdict(list)
        self.supports: dict[tuple[Province, Province], list[SupportMove]] = defaultdict(list)
        self.holds: dict[Province, list[SupportHold]] = defaultdict(list)
        self.convoys: dict[tuple[Province, Province], list[Convoy]] = defaultdict(list)
        self.chosen: dict[Province, Order] = {}
        for power, keyed in legal.items():
            for key, orders in keyed.items():
                prov = province_of(key)
                self.orders[prov], self.power[prov], self.key[prov] = orders, power, key
                for o in orders:
                    if isinstance(o, Move):
                        self.moves_into[province_of(o.destination)].append(o)
                    elif isinstance(o, SupportMove):
                        dest = province_of(o.destination)
                        self.supports[(o.supported.province, dest)].append(o)
                    elif isinstance(o, SupportHold):
                        self.holds[o.supported.province].append(o)
                    elif isinstance(o, Convoy):
                        dest = province_of(o.destination)
                        self.convoys[(o.convoyed.province, dest)].append(o)

    def free(self, prov: Province) -> bool:
        return prov in self.orders and prov not in self.chosen

    def choose(self, order: Order) -> bool:
        prov = order.unit.province  # type: ignore[union-attr]
        if not self.free(prov):
            return False
        self.chosen[prov] = order
        return True

    def move(self, rng: random.Random, prov: Province, dest: Province) -> Move | None:
        """A move of the unit in ``prov`` into ``dest`` (by land or convoy), chosen."""
        moves = [m for m in self.moves_into[dest] if m.unit.province == prov]
        if not moves or not self.free(prov):
            return None
        m = rng.choice(moves)
        self.choose(m)
        return m

    def back(self, rng: random.Random, mover: Province, dest: Province, p: float) -> None:
        """Each free unit that can support the move ``mover`` -> ``dest`` does, with
        probability ``p``."""
        for s in self.supports[(mover, dest)]:
            if rng.random() < p:
                self.choose(s)

    def attack(self, rng: random.Random, target: Province, p_support: float) -> None:
        """A free unit moves into ``target``, perhaps supported."""
        movers = [m for m in self.moves_into[target] if self.free(m.unit.province)]
        if movers:
            m = rng.choice(movers)
            self.choose(m)
            self.back(rng, m.unit.province, target, p_support)

    def defend(self, rng: random.Random, prov: Province, p_support: float) -> None:
        if self.free(prov):
            self.choose(Hold(self.orders[prov][0].unit))  # type: ignore[union-attr]
        for s in self.holds[prov]:
            if rng.random() < p_support:
                self.choose(s)


def convoy(rng: random.Random, o: Options) -> None:
    routes = [k for k in o.convoys if o.free(k[0])]
    if not routes:
        return
    army, dest = rng.choice(routes)
    moves = [m for m in o.moves_into[dest] if m.unit.province == army]
    by_sea = [m for m in moves if m.via_convoy] or moves
    o.choose(rng.choice(by_sea if rng.random() < 0.85 else moves))
    fleets = [c for c in o.convoys[(army, dest)] if rng.random() < 0.85]
    for c in fleets:
        o.choose(c)
    if rng.random() < 0.5:
        o.back(rng, army, dest, 0.6)
    if fleets and rng.random() < 0.5:
        o.attack(rng, rng.choice(fleets).unit.province, 0.7)
    if rng.random() < 0.3:
        o.move(rng, dest, army)
    if fleets and o.free(dest) and rng.random() < 0.4:
        fleet = rng.choice(fleets).unit.province
        paradox = [s for (_, d), ss in o.supports.items() if d == fleet for s in ss]
        paradox = [s for s in paradox if s.unit.province == dest]
        if paradox:
            s = rng.choice(paradox)
            o.choose(s)
            o.move(rng, s.supported.province, fleet)
    if rng.random() < 0.3:
        o.attack(rng, dest, 0.5)


def contest(rng: random.Random, o: Options) -> None:
    targets = [d for d, ms in o.moves_into.items() if len(ms) > 1]
    if not targets:
        return
    target = rng.choice(targets)
    movers = [m for m in o.moves_into[target] if o.free(m.unit.province)]
    rng.shuffle(movers)
    supporters: list[Province] = []
    for m in movers[: rng.randint(1, 3)]:
        if o.choose(m):
            o.back(rng, m.unit.province, target, 0.6)
            supporters += [s.unit.province for s in o.supports[(m.unit.province, target)]]
    if target in o.orders and rng.random() < 0.6:
        o.defend(rng, target, 0.5)
    for s in supporters:
        if o.chosen.get(s) is not None and rng.random() < 0.3:
            o.attack(rng, s, 0.3)


def h2h(rng: random.Random, o: Options) -> None:
    pairs = [
        (m.unit.province, d)
        for d, ms in o.moves_into.items()
        for m in ms
        if d in o.orders
        and any(n.unit.province == d for n in o.moves_into.get(m.unit.province, []))
    ]
    pairs = [(a, b) for a, b in pairs if o.free(a) and o.free(b)]
    if not pairs:
        return
    a, b = rng.choice(pairs)
    o.move(rng, a, b)
    o.move(rng, b, a)
    o.back(rng, a, b, 0.5)
    o.back(rng, b, a, 0.5)


def self_attack(rng: random.Random, o: Options) -> None:
    cases = [
        (m, d)
        for d, ms in o.moves_into.items()
        if d in o.orders
        for m in ms
        if o.power[m.unit.province] == o.power[d] and o.free(m.unit.province)
    ]
    if not cases:
        return
    m, d = rng.choice(cases)
    o.choose(m)
    o.back(rng, m.unit.province, d, 0.8)
    if rng.random() < 0.4:
        o.attack(rng, d, 0.5)  # a foreign attack too, perhaps supported by the victim's power
    if rng.random() < 0.5:
        moves = [n for n in o.orders[d] if isinstance(n, Move)]
        if moves:
            o.choose(rng.choice(moves))  # the victim moves away (and perhaps fails)
    elif rng.random() < 0.5:
        o.defend(rng, d, 0.3)


def circle(rng: random.Random, o: Options) -> None:
    nxt: dict[Province, list[Province]] = defaultdict(list)
    for d, ms in o.moves_into.items():
        if d in o.orders:
            for m in ms:
                nxt[m.unit.province].append(d)
    starts = [p for p in nxt if o.free(p)]
    for _ in range(20):
        if not starts:
            return
        path = [rng.choice(starts)]
        while len(path) < 6:
            ahead = [p for p in nxt[path[-1]] if o.free(p) and (p not in path or p == path[0])]
            if not ahead:
                break
            step = path[0] if path[0] in ahead and len(path) >= 3 else rng.choice(ahead)
            if step == path[0]:
                if len(path) < 3:
                    break
                for a, b in zip(path, [*path[1:], path[0]], strict=True):
                    o.move(rng, a, b)
                if rng.random() < 0.4:
                    o.attack(rng, rng.choice(path), 0.5)
                return
            path.append(step)


TACTICS: dict[str, Callable[[random.Random, Options], None]] = {
    "convoy": convoy,
    "contest": contest,
    "h2h": h2h,
    "self": self_attack,
    "circle": circle,
}


def movement(
    rng: random.Random, legal: dict[Power, dict[str, list[Order]]], tactics: list[str]
) -> dict[Power, list[Order]]:
    o = Options(legal)
    for _ in range(rng.randint(1, 6)):
        TACTICS[rng.choice(tactics)](rng, o)
    for prov in sorted(o.orders):
        if not o.free(prov):
            continue
        matching = [
            s
            for s in o.orders[prov]
            if isinstance(s, SupportMove | SupportHold) and _matches(s, o.chosen)
        ]
        pool = matching if matching and rng.random() < 0.5 else o.orders[prov]
        o.chosen[prov] = rng.choice(pool)
    out: dict[Power, list[Order]] = defaultdict(list)
    for prov, order in sorted(o.chosen.items()):
        out[o.power[prov]].append(order)
    return dict(out)


def _matches(s: SupportMove | SupportHold, chosen: dict[Province, Order]) -> bool:
    target = chosen.get(s.supported.province)
    if isinstance(s, SupportHold):
        return target is not None and not isinstance(target, Move)
    return isinstance(target, Move) and province_of(target.destination) == province_of(
        s.destination
    )


def retreats(
    rng: random.Random, legal: dict[Power, dict[str, list[Order]]]
) -> dict[Power, list[Order]]:
    where: dict[Province, int] = defaultdict(int)
    for keyed in legal.values():
        for orders in keyed.values():
            for r in orders:
                if isinstance(r, Retreat):
                    where[province_of(r.destination)] += 1
    out: dict[Power, list[Order]] = {}
    for power, keyed in legal.items():
        mine: list[Order] = []
        for _, orders in sorted(keyed.items()):
            if rng.random() < 0.1:
                continue  # no order: disbanded
            shared = [
                r
                for r in orders
                if isinstance(r, Retreat) and where[province_of(r.destination)] > 1
            ]
            mine.append(rng.choice(shared if shared and rng.random() < 0.7 else orders))
        out[power] = mine
    return out


def adjustments(
    rng: random.Random, legal: dict[Power, dict[str, list[Order]]], due: dict[Power, int]
) -> dict[Power, list[Order]]:
    out: dict[Power, list[Order]] = {}
    for power, keyed in legal.items():
        keys = sorted(k for k, v in keyed.items() if v)
        count = abs(due.get(power, 0))
        roll = rng.random()
        if roll < 0.15:
            count = rng.randint(0, max(count - 1, 0))  # fewer: civil disorder for the rest
        elif roll < 0.3:
            count = rng.randint(count, len(keys))  # more than due
        picked = sorted(rng.sample(keys, min(count, len(keys))))
        mine = [rng.choice(keyed[k]) for k in picked]
        if rng.random() < 0.15:  # a second order for one site or unit (two builds in one)
            doubles = [k for k in picked if len(keyed[k]) > 1]
            if doubles:
                k = rng.choice(doubles)
                mine.append(rng.choice([o for o in keyed[k] if o not in mine] or keyed[k]))
        out[power] = mine
    return out


def play(
    game: int, rng: random.Random, last_year: int, tactics: list[str]
) -> Iterator[dict[str, Any]]:
    """The phases of one biased game, from Spring 1901 to the end of ``last_year``."""

    def choose(
        rng: random.Random, phase: Phase, legal: Legal, due: dict[Power, int]
    ) -> dict[Power, list[Order]]:
        if phase.kind is PhaseKind.MOVEMENT:
            return movement(rng, legal, tactics)
        if phase.kind is PhaseKind.RETREATS:
            return retreats(rng, legal)
        return adjustments(rng, legal, due)

    return corpus.play(game, rng, last_year, choose)


def generate(seed: int, games: int, last_year: int, tactics: list[str]) -> list[str]:
    rng = random.Random(seed)
    meta = {
        "seed": seed,
        "games": games,
        "last_year": last_year,
        "rules": RULES,
        "tactics": tactics,
    }
    lines = [json.dumps({"meta": meta})]
    for game in range(games):
        lines.extend(
            json.dumps(entry, sort_keys=True) for entry in play(game, rng, last_year, tactics)
        )
    return lines
