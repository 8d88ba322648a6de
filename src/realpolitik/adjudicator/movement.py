"""The movement resolver: strengths, supports, convoy paths, and the guess-and-check loop.

Each unit has up to three yes/no *decisions*: does its move succeed, is its support given,
does its convoy path hold. A decision is computed from the others (the strength rules of
the DATC's "math of adjudication"); cycles are resolved by guessing both answers: one
consistent answer wins, otherwise the backup rule decides (circular movement succeeds; a
convoy paradox is settled by the edition's paradox rule).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from itertools import count
from typing import cast

from realpolitik.adjudicator.convoy import has_route
from realpolitik.adjudicator.problem import (
    CONVOY,
    HOLD,
    MOVE,
    SUPPORT,
    MovementProblem,
    build_problem,
)
from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.adjudicator.retreats import retreat_options
from realpolitik.maps.model import GameMap
from realpolitik.orders import Hold, Order, UnitRef
from realpolitik.phase import Phase
from realpolitik.position import Dislodged, Position
from realpolitik.rules import (
    ConvoyedAttackOrigin,
    ConvoyParadox,
    DislodgedOrigin,
    Dislodging,
    MultiRouteConvoy,
    RetreatAfterConvoy,
    Rules,
    SupportCut,
)
from realpolitik.vocab import Power, Province, Unit

_MOVE, _SUPPORT, _PATH = 0, 1, 2
_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_BOOK_PARADOX_RULES = (ConvoyParadox.RULE_1971, ConvoyParadox.RULE_1982, ConvoyParadox.RULE_2000)
_NO_GUESS = sys.maxsize  # no guess read
_NONE: tuple[int, ...] = ()  # no supports, no fleets


class Resolver:
    """Resolves a :class:`MovementProblem`; query :meth:`moves`, :meth:`given`,
    :meth:`dislodged_by`."""

    def __init__(self, problem: MovementProblem) -> None:
        self.problem = problem
        n = problem.size
        self.state = [_UNRESOLVED] * (3 * n)
        self.value = [False] * (3 * n)
        self.deps: list[int] = []
        self.started = [0] * (3 * n)  # when each guess began
        self.waits = [0] * (3 * n)  # for a guess: the start of the oldest guess it depends on
        self.clock = 0
        self.oldest = _NO_GUESS  # the start of the oldest guess read by the current frame
        rules = problem.rules
        self.paradox_rule = rules.convoy_paradox
        self.any_route_breaks = rules.multi_route_convoy is MultiRouteConvoy.ANY_ROUTE
        self.never_origin = rules.dislodged_origin is DislodgedOrigin.NEVER
        self.convoy_cuts_own_target = rules.convoyed_attack_origin is ConvoyedAttackOrigin.CUT
        self.target_cuts = rules.support_cut is SupportCut.ANY_ATTACK  # Grow: no classic exception
        self.exempt: dict[tuple[int, int], bool] = {}
        self.paradox: set[int] = set()  # armies whose convoy the paradox rule stopped
        self.by_rule: set[int] = set()  # decisions a backup rule settled, not computed
        self._settle_the_obvious()

    def _settle_the_obvious(self) -> None:
        """Decide at once what needs no other decision: a move by land into an empty
        province nobody else enters succeeds."""
        problem = self.problem
        attackers, index = problem.attackers, problem.index
        state, value = self.state, self.value
        convoyed, dest = problem.convoyed, problem.dest
        for i in problem.movers:
            into = dest[i] or ""
            if not convoyed[i] and into not in index and len(attackers[into]) == 1:
                d = 3 * i + _MOVE
                state[d] = _RESOLVED
                value[d] = True

    # --- the decision loop ------------------------------------------------------------------
    def resolve(self, d: int) -> bool:
        """The value of decision ``d``: settled, the current guess, or worked out now.

        A decision worked out is settled only if no guess was read on the way (directly or
        by a decision that is itself waiting on a guess): ``oldest`` collects the start of
        the oldest guess read. If that guess is ``d``'s own, ``d`` heads a cycle and both
        guesses are tried; if it is older, ``d`` waits on it, still a guess."""
        state = self.state[d]
        if state == _RESOLVED:
            return self.value[d]
        if state == _GUESSING:
            if self.waits[d] < self.oldest:
                self.oldest = self.waits[d]
            if d not in self.deps:
                self.deps.append(d)
            return self.value[d]
        deps = self.deps
        old = len(deps)
        outer = self.oldest
        self.clock += 1
        started = self.started[d] = self.waits[d] = self.clock
        self.value[d] = False
        self.state[d] = _GUESSING
        self.oldest = _NO_GUESS
        first = self._adjudicate(d)
        oldest = self.oldest
        if oldest == _NO_GUESS:  # no guess read: settled
            self.oldest = outer
            self._settle(d, first)
            return first
        if oldest < started:
            return self._wait(d, first, oldest, outer)
        # d heads a cycle: try the other guess
        for x in deps[old:]:
            self.state[x] = _UNRESOLVED
        del deps[old:]
        self.value[d] = True
        self.state[d] = _GUESSING
        self.oldest = _NO_GUESS
        second = self._adjudicate(d)
        if self.oldest < started:  # the other guess leads to an older one
            return self._wait(d, second, self.oldest, outer)
        self.oldest = outer
        if first == second:  # one consistent value
            for x in deps[old:]:
                self.state[x] = _UNRESOLVED
            del deps[old:]
            self._settle(d, first)
            return first
        self._backup_rule(old)
        return self.resolve(d)

    def _wait(self, d: int, guess: bool, oldest: int, outer: int) -> bool:
        """Leave ``d`` a guess waiting on the older guess started at ``oldest``: the frame
        of that guess settles it."""
        if d not in self.deps:
            self.deps.append(d)
        self.value[d] = guess
        self.waits[d] = oldest
        self.oldest = min(outer, oldest)
        return guess

    def _backup_rule(self, old: int) -> None:
        cycle = self.deps[old:]
        paradox = any(d % 3 == _PATH for d in cycle)
        for d in cycle:
            kind = d % 3
            if paradox and self.paradox_rule is ConvoyParadox.ALL_HOLD and kind != _SUPPORT:
                self._settle(d, False)  # all moves of the paradox hold
                self.by_rule.add(d)
            elif paradox and kind == _PATH:
                self._settle(d, False)  # Szykman: the paradox's convoys do not carry
                self.paradox.add(d // 3)
                self.by_rule.add(d)
            elif not paradox and kind == _MOVE:
                self._settle(d, True)  # circular movement
                self.by_rule.add(d)
            else:
                self.state[d] = _UNRESOLVED
        del self.deps[old:]

    def _settle(self, d: int, value: bool) -> None:
        self.value[d] = value
        self.state[d] = _RESOLVED

    def _adjudicate(self, d: int) -> bool:
        i, kind = divmod(d, 3)
        if kind == _MOVE:
            return self._move_succeeds(i)
        if kind == _SUPPORT:
            return self._support_given(i)
        return self._path_holds(i)

    # --- public queries -----------------------------------------------------------------------
    def decisions(self) -> list[int]:
        """Every decision of the phase: each move's, each support's, and the convoy path of
        each move that may go by convoy."""
        problem = self.problem
        found = [3 * i + _MOVE for i in problem.movers] + [
            3 * i + _SUPPORT for i in problem.supports
        ]
        return found + [
            3 * i + _PATH for i in problem.movers if problem.convoyed[i] and not problem.no_route[i]
        ]

    def computed(self, d: int) -> bool:
        """What decision ``d``'s rule gives from the values of the others as they stand
        (once all are resolved: their final values)."""
        return self._adjudicate(d)

    def moves(self, i: int) -> bool:
        d = 3 * i + _MOVE
        if self.state[d] == _RESOLVED:  # most often, once the phase is resolved
            return self.value[d]
        return self.resolve(d)

    def given(self, i: int) -> bool:
        return self.resolve(3 * i + _SUPPORT)

    def path(self, i: int) -> bool:
        """Can the unit reach its destination (by land, or by a convoy that holds)?"""
        problem = self.problem
        if not problem.convoyed[i] or problem.fallback[i]:
            return True
        return not problem.no_route[i] and self.resolve(3 * i + _PATH)

    def by_convoy(self, i: int) -> bool:
        """Does the move go by convoy? A move that may fall back (DATC 4.A.3 a, c) goes by
        land when its convoy is disrupted."""
        problem = self.problem
        if not problem.convoyed[i]:
            return False
        return not problem.fallback[i] or self.resolve(3 * i + _PATH)

    def dislodged_by(self, i: int) -> int:
        """The unit that dislodges unit ``i``, or -1."""
        problem = self.problem
        if problem.kind[i] == MOVE and self.moves(i):
            return -1
        for j in problem.attackers.get(problem.prov[i], ()):
            if self.moves(j):
                return j
        return -1

    # --- strengths -------------------------------------------------------------------------
    def head_to_head(self, i: int, t: int) -> bool:
        problem = self.problem
        return (
            problem.kind[t] == MOVE
            and problem.dest[t] == problem.prov[i]
            and not self.by_convoy(i)
            and not self.by_convoy(t)
        )

    def _supports(self, supporters: Sequence[int]) -> int:
        given = 0
        for s in supporters:
            if self.resolve(3 * s + _SUPPORT):
                given += 1
        return given

    def attack_strength(self, i: int) -> int:
        problem = self.problem
        if not self.path(i):
            return 0
        t = problem.index.get(problem.dest[i] or "", -1)
        if t < 0 or (problem.kind[t] == MOVE and not self.head_to_head(i, t) and self.moves(t)):
            return 1 + self._supports(problem.move_supports.get(i, _NONE))
        victim = problem.owner[t]
        if victim == problem.owner[i]:
            return 0
        return 1 + self._supports(
            [s for s in problem.move_supports.get(i, _NONE) if problem.owner[s] != victim]
        )

    def hold_strength(self, i: int) -> int:
        problem = self.problem
        if problem.kind[i] == MOVE:
            return 0 if self.moves(i) else 1
        return 1 + self._supports(problem.hold_supports.get(i, _NONE))

    def defend_strength(self, i: int) -> int:
        return 1 + self._supports(self.problem.move_supports.get(i, _NONE))

    def prevent_strength(self, i: int) -> int:
        problem = self.problem
        if not self.path(i):
            return 0
        t = problem.index.get(problem.dest[i] or "", -1)
        if (
            t >= 0
            and problem.kind[t] == MOVE
            and problem.dest[t] == problem.prov[i]
            and (self.never_origin or self.head_to_head(i, t))
            and self.moves(t)
        ):
            return 0  # beaten by the unit from where it was going: no effect there
        return 1 + self._supports(problem.move_supports.get(i, _NONE))

    # --- decisions ---------------------------------------------------------------------------
    def _move_succeeds(self, i: int) -> bool:
        problem = self.problem
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        dest = problem.dest[i] or ""
        t = problem.index.get(dest, -1)
        if t >= 0:
            if self.head_to_head(i, t):
                if attack <= self.defend_strength(t):
                    return False
            elif attack <= self.hold_strength(t):
                return False
        return all(
            not (j != i and attack <= self.prevent_strength(j)) for j in problem.attackers[dest]
        )

    def _support_given(self, i: int) -> bool:
        problem = self.problem
        attackers = problem.attackers.get(problem.prov[i])
        if not attackers:
            return True
        into = (
            problem.target_dest[i]
            if problem.target_dest[i] is not None
            else problem.prov[problem.target[i]]
        )
        power = problem.owner[i]
        for j in attackers:
            if problem.owner[j] == power:
                continue
            if self.by_convoy(j):
                if self._exempt(j, i):
                    continue
                if problem.prov[j] == into and not (
                    self.convoy_cuts_own_target or self.target_cuts
                ):
                    continue
                if not self.path(j):
                    continue
            elif problem.prov[j] == into and not self.target_cuts:
                continue
            return False
        for j in attackers:
            if self.by_convoy(j) and self._exempt(j, i):
                continue
            if self.moves(j):
                return False
        return True

    def _path_holds(self, i: int) -> bool:
        problem = self.problem
        fleets = problem.fleets.get(i, _NONE)
        if self.any_route_breaks:
            for f in fleets:
                if self.dislodged_by(f) >= 0:
                    return False
            alive = fleets
        else:
            alive = [f for f in fleets if self.dislodged_by(f) < 0]
        provs = {problem.prov[f] for f in alive}
        return has_route(problem.game_map, problem.prov[i], problem.dest[i] or "", provs)

    # --- the rulebooks' convoy paradox rules (DATC 4.A.2 a, b, c) ----------------------------
    def _exempt(self, army: int, supporter: int) -> bool:
        """Does the paradox rule stop a convoyed ``army`` from cutting ``supporter``'s support
        (and from dislodging it: the rule takes precedence, DATC 6.F.17)?"""
        rule = self.paradox_rule
        if rule not in _BOOK_PARADOX_RULES:
            return False
        key = (army, supporter)
        cached = self.exempt.get(key)
        if cached is None:
            cached = self.exempt[key] = self._compute_exempt(army, supporter)
        return cached

    def _compute_exempt(self, army: int, supporter: int) -> bool:
        problem = self.problem
        if problem.kind[supporter] != SUPPORT:
            return False
        into = problem.target_dest[supporter]
        if self.paradox_rule is ConvoyParadox.RULE_1982:
            sea = into if into is not None else problem.prov[problem.target[supporter]]
            f = problem.index.get(sea, -1)
            return (
                problem.units[supporter].type.value == "F"
                and problem.game_map.provinces[sea].is_sea
                and f >= 0
                and problem.kind[f] == CONVOY
            )
        if into is None:
            return False
        fleets = problem.fleets.get(army, _NONE)
        target_fleet = problem.index.get(into, -1)
        if target_fleet < 0 or target_fleet not in fleets:
            return False
        if self.paradox_rule is ConvoyParadox.RULE_1971:
            return True
        others = {problem.prov[f] for f in fleets if f != target_fleet}
        return not has_route(problem.game_map, problem.prov[army], problem.dest[army] or "", others)


# --- the phase: resolve, then read the outcomes and the new position ------------------------
def adjudicate_movement(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
    *,
    disorder: Collection[Power] = (),
    accepted: Collection[tuple[Power, Province]] = (),
) -> Resolution:
    """Resolve a movement phase. Pure: the inputs are not changed."""
    problem = build_problem(game_map, position, orders, rules, disorder=disorder, accepted=accepted)
    r = Resolver(problem)
    dest, dest_loc, prov, index = problem.dest, problem.dest_loc, problem.prov, problem.index
    dislodger: dict[int, int] = {}  # dislodged unit: the unit dislodging it
    for attacked in problem.attackers:
        i = index.get(attacked, -1)
        if i >= 0:
            j = r.dislodged_by(i)
            if j >= 0:
                dislodger[i] = j
    # the units after the phase, in problem order: each moved unit where it went, each
    # dislodged one gone (its key None, dropped)
    keys: list[Province | None] = list(prov)
    after = list(problem.units)
    for i in problem.movers:
        if r.moves(i):
            unit = after[i]
            keys[i] = dest[i]
            after[i] = Unit(unit.power, unit.type, dest_loc[i] or "")
    for i in dislodger:
        keys[i] = None
    placed = dict(zip(keys, after, strict=True))
    placed.pop(None, None)
    units = cast(dict[Province, Unit], placed)
    contested = _contested(r, units)
    dislodged: dict[Province, Dislodged] = {}
    for i in sorted(dislodger):
        j = dislodger[i]
        unit = problem.units[i]
        origin = prov[j]
        by_convoy = (
            r.by_convoy(j) and rules.retreat_after_convoy is RetreatAfterConvoy.AFTER_A_CONVOY
        )
        barred = None if by_convoy else origin
        options: tuple[str, ...] = ()
        if rules.dislodged is Dislodging.RETREAT:
            options = retreat_options(game_map, unit, units, contested, barred)
        dislodged[prov[i]] = Dislodged(unit, origin, options)

    # the fate of each dislodged unit (by number)
    fates = {
        i: OrderResult.DISLODGED if dislodged[prov[i]].retreats else OrderResult.DESTROYED
        for i in dislodger
    }
    outcomes = _outcomes(r, fates)
    order_of, order_unit = problem.order_of, problem.order_unit
    for i in [i for i, k in enumerate(order_of) if k < 0] if -1 in order_of else ():
        unit = problem.units[i]
        if i not in order_unit:  # not even an illegal order: it holds
            hold = Hold(UnitRef(unit.type, unit.location))
            fate = fates.get(i)
            result = fate or OrderResult.STANDS
            outcomes.append(Outcome(unit.power, hold, result, "no order: holds", fate, True))
    if (
        rules.dislodged is Dislodging.DESTROYED
    ):  # no retreats: dislodged units are destroyed at once
        lost = tuple(d.unit for _, d in sorted(dislodged.items()))
        new_position = Position(units, dict(position.centers), {}, frozenset(contested))
        return Resolution(phase, tuple(outcomes), new_position, lost, ())
    new_position = Position(units, dict(position.centers), dislodged, frozenset(contested))
    return Resolution(phase, tuple(outcomes), new_position, (), ())


def _contested(r: Resolver, units: Mapping[Province, Unit]) -> set[Province]:
    """Provinces left empty by a standoff: a failed move that still had strength to prevent."""
    problem = r.problem
    out: set[Province] = set()
    for prov, attackers in problem.attackers.items():
        if prov in units:
            continue
        for j in attackers:
            if not r.moves(j) and r.prevent_strength(j) > 0:
                out.add(prov)
                break
    return out


def _outcomes(r: Resolver, fates: Mapping[int, OrderResult]) -> list[Outcome]:
    """The result of every order, in the order given (``fates``: of the dislodged units,
    by number)."""
    problem = r.problem
    order_of, kind, fails, invalid, no_route = (
        problem.order_of,
        problem.kind,
        problem.fails,
        problem.invalid,
        problem.no_route,
    )
    out: list[Outcome] = []
    add = out.append
    notes = {**invalid, **fails} if fails else invalid  # why an order is invalid or fails
    numbered = zip(count(), problem.order_power, problem.orders, problem.order_unit)
    for k, power, order, i in numbered:
        if i < 0 or order_of[i] != k:  # illegal, or not the order the unit follows
            fate = fates.get(i) if fates else None
            if k in fails:
                add(Outcome(power, order, OrderResult.FAILS, fails[k], fate, False))
            else:
                reason = problem.illegal.get(k) or "the unit has another order"
                add(Outcome(power, order, OrderResult.ILLEGAL, reason, fate, False))
            continue
        fate = fates.get(i) if fates else None
        what = kind[i]
        if k in notes:
            result, reason = (
                (OrderResult.FAILS, fails[k]) if k in fails else (OrderResult.INVALID, invalid[k])
            )
        elif what == SUPPORT:
            if r.given(i):
                result, reason = OrderResult.GIVEN, ""
            else:
                result, reason = (
                    OrderResult.CUT,
                    "dislodged" if fate is not None else "cut by an attack",
                )
        elif what == MOVE:
            if no_route[i]:
                result, reason = OrderResult.INVALID, "no convoy route is ordered"
            elif r.moves(i):
                result, reason = OrderResult.SUCCEEDS, ""
            else:
                result, reason = OrderResult.FAILS, _why_failed(r, i)
        elif what == HOLD:
            result, reason = fate or OrderResult.STANDS, ""
        elif fate is not None:
            result, reason = OrderResult.DISRUPTED, "the fleet is dislodged"
        elif problem.target[i] in r.paradox and problem.prov[i] in problem.attackers:
            result, reason = OrderResult.DISRUPTED, "a convoy paradox: it holds"
        else:
            result, reason = OrderResult.AVAILABLE, ""
        add(Outcome(power, order, result, reason, fate, False))
    return out


def _why_failed(r: Resolver, i: int) -> str:
    problem = r.problem
    if not r.path(i):
        return "the convoy is disrupted"
    attack = r.attack_strength(i)
    dest = problem.dest[i] or ""
    t = problem.index.get(dest, -1)
    if attack == 0 and t >= 0:
        return f"cannot dislodge its own unit {problem.units[t]}"
    if t >= 0:
        if r.head_to_head(i, t):
            defend = r.defend_strength(t)
            if attack <= defend:
                by = str(problem.units[t])
                return f"beaten head-to-head by {by} ({attack} against {defend})"
        else:
            hold = r.hold_strength(t)
            if attack <= hold:
                return f"bounced off {problem.units[t]} ({attack} against {hold})"
    rivals = [str(problem.units[j]) for j in problem.attackers[dest] if j != i]
    return f"standoff in {dest} with {', '.join(rivals)}" if rivals else "bounced"
