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

from realpolitik.adjudicator.convoy import has_route
from realpolitik.adjudicator.problem import (
    Decision,
    MovementProblem,
    Slot,
    build_problem,
)
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.adjudicator.retreats import retreat_options
from realpolitik.maps.model import GameMap
from realpolitik.orders import Convoy, Hold, Move, Order, UnitRef
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
from realpolitik.vocab import FLEET, Power, Province, Unit

_BOOK_PARADOX_RULES = (ConvoyParadox.RULE_1971, ConvoyParadox.RULE_1982, ConvoyParadox.RULE_2000)
_NO_GUESS = sys.maxsize  # no guess read


class Resolver:
    """Resolves a :class:`MovementProblem`: gives each unit the decisions its order raises,
    then answers them on demand; query :meth:`moves`, :meth:`given`, :meth:`dislodged_by`."""

    def __init__(self, problem: MovementProblem) -> None:
        self.problem = problem
        self.deps: list[Decision] = []  # the guesses read, in the order read
        self.clock = 0  # counts the guesses begun
        self.oldest = _NO_GUESS  # the start of the oldest guess read by the current frame
        rules = problem.rules
        self.paradox_rule = rules.convoy_paradox
        self.any_route_breaks = rules.multi_route_convoy is MultiRouteConvoy.ANY_ROUTE
        self.never_origin = rules.dislodged_origin is DislodgedOrigin.NEVER
        self.convoy_cuts_own_target = rules.convoyed_attack_origin is ConvoyedAttackOrigin.CUT
        self.target_cuts = rules.support_cut is SupportCut.ANY_ATTACK  # Grow: no classic exception
        self.exempt: dict[tuple[Slot, Slot], bool] = {}
        self.paradox: set[Slot] = set()  # armies whose convoy the paradox rule stopped
        self.by_rule: set[Decision] = set()  # decisions a backup rule settled, not computed
        attackers, in_province = problem.attackers, problem.in_province
        for slot in problem.movers:
            by_land = slot.sea is None or not slot.sea.convoyed
            if not by_land or slot.dest in in_province or len(attackers[slot.dest]) > 1:
                slot.decision = Decision("move", slot)
            # else a move by land into an empty province nobody else enters: it succeeds
        for slot in problem.supports:
            # an invalid support asks nothing; one nobody attacks is given
            if slot.order_number not in problem.verdicts and slot.province in attackers:
                slot.decision = Decision("support", slot)
        for slot in problem.movers:
            sea = slot.sea
            if sea is not None and sea.convoyed and not sea.no_route:
                sea.path_decision = Decision("path", slot)

    # --- the decision loop ------------------------------------------------------------------
    def resolve(self, d: Decision) -> bool:
        """The value of decision ``d``: settled, the current guess, or worked out now.

        A decision worked out is settled only if no guess was read on the way (directly or
        by a decision that is itself waiting on a guess): ``oldest`` collects the start of
        the oldest guess read. If that guess is ``d``'s own, ``d`` heads a cycle and both
        guesses are tried; if it is older, ``d`` waits on it, still a guess."""
        if d.settled:
            return d.value
        if d.guessing:
            if d.waits < self.oldest:
                self.oldest = d.waits
            if d not in self.deps:
                self.deps.append(d)
            return d.value
        deps = self.deps
        old = len(deps)
        outer = self.oldest
        self.clock += 1
        started = d.waits = self.clock
        d.value = False
        d.guessing = True
        self.oldest = _NO_GUESS
        first = self.computed(d)
        oldest = self.oldest
        if oldest == _NO_GUESS:  # no guess read: settled
            self.oldest = outer
            self._settle(d, first)
            return first
        if oldest < started:
            return self._wait(d, first, oldest, outer)
        # d heads a cycle: try the other guess
        self._forget(old)
        d.value = True
        d.guessing = True
        self.oldest = _NO_GUESS
        second = self.computed(d)
        if self.oldest < started:  # the other guess leads to an older one
            return self._wait(d, second, self.oldest, outer)
        self.oldest = outer
        if first == second:  # one consistent value
            self._forget(old)
            self._settle(d, first)
            return first
        self._backup_rule(old)
        return self.resolve(d)

    def _forget(self, old: int) -> None:
        """Drop the guesses read since ``deps[old]``: they are worked out again."""
        deps = self.deps
        for x in deps[old:]:
            x.guessing = False
        del deps[old:]

    def _wait(self, d: Decision, guess: bool, oldest: int, outer: int) -> bool:
        """Leave ``d`` a guess waiting on the older guess started at ``oldest``: the frame
        of that guess settles it."""
        if d not in self.deps:
            self.deps.append(d)
        d.value = guess
        d.waits = oldest
        self.oldest = min(outer, oldest)
        return guess

    def _backup_rule(self, old: int) -> None:
        cycle = self.deps[old:]
        paradox = any(d.kind == "path" for d in cycle)
        for d in cycle:
            kind = d.kind
            if paradox and self.paradox_rule is ConvoyParadox.ALL_HOLD and kind != "support":
                self._settle(d, False)  # all moves of the paradox hold
                self.by_rule.add(d)
            elif paradox and kind == "path":
                self._settle(d, False)  # Szykman: the paradox's convoys do not carry
                self.paradox.add(d.slot)
                self.by_rule.add(d)
            elif not paradox and kind == "move":
                self._settle(d, True)  # circular movement
                self.by_rule.add(d)
            else:
                d.guessing = False
        del self.deps[old:]

    @staticmethod
    def _settle(d: Decision, value: bool) -> None:
        d.value = value
        d.settled = True
        d.guessing = False

    # --- public queries -----------------------------------------------------------------------
    def decisions(self) -> list[Decision]:
        """Every decision of the phase: each move's and each support's (but for an
        uncontested move, a support nobody attacks), and the convoy path of each move that may
        go by convoy."""
        problem = self.problem
        found = [s.decision for s in problem.movers]
        found += [s.decision for s in problem.supports]
        found += [s.sea.path_decision for s in problem.movers if s.sea is not None]
        return [d for d in found if d is not None]

    def computed(self, d: Decision) -> bool:
        """What decision ``d``'s rule gives from the values of the others as they stand
        (once all are resolved: their final values)."""
        if d.kind == "move":
            return self._move_succeeds(d.slot)
        if d.kind == "support":
            return self._support_given(d.slot)
        return self._path_holds(d.slot)

    def moves(self, slot: Slot) -> bool:
        """Does the unit's move succeed? (It must be ordered to move.)"""
        d = slot.decision
        if d is None:  # uncontested (see __init__)
            return True
        if d.settled:  # most often, once the phase is resolved
            return d.value
        return self.resolve(d)

    def given(self, slot: Slot) -> bool:
        """Is the unit's support given? (It must be ordered to support.)"""
        d = slot.decision
        return d is None or self.resolve(d)  # (None: nobody attacks it)

    def reaches(self, slot: Slot) -> bool:
        """Can the unit reach its destination (by land, or by a convoy that holds)?"""
        sea = slot.sea
        if sea is None or not sea.convoyed or sea.fallback:
            return True
        return sea.path_decision is not None and self.resolve(sea.path_decision)

    def by_convoy(self, slot: Slot) -> bool:
        """Does the move go by convoy? A move that may fall back (DATC 4.A.3 a, c) goes by
        land when its convoy is disrupted."""
        sea = slot.sea
        if sea is None or not sea.convoyed:
            return False
        return not sea.fallback or (
            sea.path_decision is not None and self.resolve(sea.path_decision)
        )

    def dislodged_by(self, slot: Slot) -> Slot | None:
        """The unit that dislodges this one, if any."""
        if slot.kind is Move and self.moves(slot):
            return None
        for attacker in self.problem.attackers.get(slot.province, ()):
            if self.moves(attacker):
                return attacker
        return None

    # --- strengths -------------------------------------------------------------------------
    def head_to_head(self, slot: Slot, other: Slot) -> bool:
        """Do the two units move into each other's province, neither by convoy?"""
        return (
            other.dest == slot.province and not self.by_convoy(slot) and not self.by_convoy(other)
        )

    def _given(self, supporters: Sequence[Slot]) -> int:
        """How many of ``supporters`` give their support."""
        given = 0
        for s in supporters:
            if s.decision is None or self.resolve(s.decision):  # (None: nobody attacks it)
                given += 1
        return given

    def attack_strength(self, slot: Slot) -> int:
        if not self.reaches(slot):
            return 0
        there = self.problem.in_province.get(slot.dest)
        if there is None or (
            there.kind is Move and not self.head_to_head(slot, there) and self.moves(there)
        ):
            return 1 + self._given(slot.supports)
        victim = there.power
        if victim == slot.power:
            return 0
        return 1 + self._given([s for s in slot.supports if s.power != victim])

    def hold_strength(self, slot: Slot) -> int:
        if slot.kind is Move:
            return 0 if self.moves(slot) else 1
        return 1 + self._given(slot.supports)

    def defend_strength(self, slot: Slot) -> int:
        return 1 + self._given(slot.supports)

    def prevent_strength(self, slot: Slot) -> int:
        if not self.reaches(slot):
            return 0
        there = self.problem.in_province.get(slot.dest)
        if (
            there is not None
            and there.dest == slot.province
            and (self.never_origin or self.head_to_head(slot, there))
            and self.moves(there)
        ):
            return 0  # beaten by the unit from where it was going: no effect there
        return 1 + self._given(slot.supports)

    # --- the rules of the decisions --------------------------------------------------------
    def _move_succeeds(self, slot: Slot) -> bool:
        attack = self.attack_strength(slot)
        if attack == 0:
            return False
        there = self.problem.in_province.get(slot.dest)
        if there is not None:
            if self.head_to_head(slot, there):
                if attack <= self.defend_strength(there):
                    return False
            elif attack <= self.hold_strength(there):
                return False
        return all(
            other is slot or attack > self.prevent_strength(other)
            for other in self.problem.attackers[slot.dest]
        )

    def _support_given(self, slot: Slot) -> bool:
        attackers = self.problem.attackers.get(slot.province)
        if not attackers:
            return True
        target = slot.target
        assert target is not None
        into = slot.target_dest if slot.target_dest is not None else target.province
        power = slot.power
        for attacker in attackers:
            if attacker.power == power:
                continue
            if self.by_convoy(attacker):
                if self._exempt(attacker, slot):
                    continue
                if attacker.province == into and not (
                    self.convoy_cuts_own_target or self.target_cuts
                ):
                    continue
                if not self.reaches(attacker):
                    continue
            elif attacker.province == into and not self.target_cuts:
                continue
            return False
        for attacker in attackers:
            if self.by_convoy(attacker) and self._exempt(attacker, slot):
                continue
            if self.moves(attacker):
                return False
        return True

    def _path_holds(self, slot: Slot) -> bool:
        assert slot.sea is not None
        fleets = slot.sea.fleets
        if self.any_route_breaks:
            for fleet in fleets:
                if self.dislodged_by(fleet) is not None:
                    return False
            seas = {f.province for f in fleets}
        else:
            seas = {f.province for f in fleets if self.dislodged_by(f) is None}
        return has_route(self.problem.game_map, slot.province, slot.dest, seas)

    # --- the rulebooks' convoy paradox rules (DATC 4.A.2 a, b, c) ----------------------------
    def _exempt(self, army: Slot, supporter: Slot) -> bool:
        """Does the paradox rule stop a convoyed ``army`` from cutting ``supporter``'s support
        (and from dislodging it: the rule takes precedence, DATC 6.F.17)?"""
        if self.paradox_rule not in _BOOK_PARADOX_RULES:
            return False
        key = (army, supporter)
        cached = self.exempt.get(key)
        if cached is None:
            cached = self.exempt[key] = self._compute_exempt(army, supporter)
        return cached

    def _compute_exempt(self, army: Slot, supporter: Slot) -> bool:
        problem = self.problem
        if supporter.decision is None or supporter.decision.kind != "support":
            return False
        into = supporter.target_dest
        target = supporter.target
        assert target is not None
        if self.paradox_rule is ConvoyParadox.RULE_1982:
            sea = into if into is not None else target.province
            fleet = problem.in_province.get(sea)
            return (
                supporter.unit.type is FLEET
                and problem.game_map.provinces[sea].is_sea
                and fleet is not None
                and fleet.kind is Convoy
            )
        if into is None:
            return False
        target_fleet = problem.in_province.get(into)
        assert army.sea is not None  # (a convoyed army)
        fleets = army.sea.fleets
        if target_fleet is None or target_fleet not in fleets:
            return False
        if self.paradox_rule is ConvoyParadox.RULE_1971:
            return True
        others = {f.province for f in fleets if f is not target_fleet}
        return not has_route(problem.game_map, army.province, army.dest, others)


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
    in_province = problem.in_province
    dislodger: dict[Slot, Slot] = {}  # dislodged unit: the unit dislodging it
    for attacked in problem.attackers:
        slot = in_province.get(attacked)
        if slot is not None:
            attacker = r.dislodged_by(slot)
            if attacker is not None:
                dislodger[slot] = attacker
    # the units after the phase, in board order: each moved unit where it went, each
    # dislodged one gone
    units: dict[Province, Unit] = {}
    for slot in problem.slots:
        if slot.kind is Move and r.moves(slot):
            unit = slot.unit
            units[slot.dest] = Unit(unit.power, unit.type, slot.dest_location)
        elif slot not in dislodger:
            units[slot.province] = slot.unit
    contested = _contested(r, units)
    dislodged: dict[Province, Dislodged] = {}
    for slot, attacker in sorted(dislodger.items(), key=_by_slot_number):
        by_convoy = (
            r.by_convoy(attacker)
            and rules.retreat_after_convoy is RetreatAfterConvoy.AFTER_A_CONVOY
        )
        barred = None if by_convoy else attacker.province
        options: tuple[str, ...] = ()
        if rules.dislodged is Dislodging.RETREAT:
            options = retreat_options(game_map, slot.unit, units, contested, barred)
        dislodged[slot.province] = Dislodged(slot.unit, attacker.province, options)

    # the fate of each dislodged unit
    fates = {
        slot: OrderResult.DISLODGED if dislodged[slot.province].retreats else OrderResult.DESTROYED
        for slot in dislodger
    }
    outcomes = _outcomes(r, fates)
    unordered = [slot for slot in problem.slots if slot.order_number < 0]
    named = {slot for _, _, slot in problem.orders} if unordered else set()
    for slot in unordered:
        if slot not in named:  # not even an illegal order: it holds
            unit = slot.unit
            hold = Hold(UnitRef(unit.type, unit.location))
            fate = fates.get(slot)
            result = fate or OrderResult.STANDS
            outcomes.append(Outcome(unit.power, hold, result, Reason("no_order"), fate, True))
    problem.unlink()
    if rules.dislodged is Dislodging.DESTROYED:  # no retreats: dislodged units destroyed at once
        lost = tuple(d.unit for _, d in sorted(dislodged.items()))
        new_position = Position(units, position.centers, {}, frozenset(contested))
        return Resolution(phase, tuple(outcomes), new_position, lost, ())
    new_position = Position(units, position.centers, dislodged, frozenset(contested))
    return Resolution(phase, tuple(outcomes), new_position)


def _by_slot_number(item: tuple[Slot, Slot]) -> int:
    return item[0].number


def _contested(r: Resolver, units: Mapping[Province, Unit]) -> set[Province]:
    """Provinces left empty by a standoff: a failed move that still had strength to prevent."""
    out: set[Province] = set()
    for prov, attackers in r.problem.attackers.items():
        if prov in units:
            continue
        for attacker in attackers:
            if not r.moves(attacker) and r.prevent_strength(attacker) > 0:
                out.add(prov)
                break
    return out


def _outcomes(r: Resolver, fates: Mapping[Slot, OrderResult]) -> list[Outcome]:
    """The result of every order, in the order given (``fates``: of the dislodged units)."""
    out: list[Outcome] = []
    add = out.append
    verdicts = r.problem.verdicts
    for number, (power, order, slot) in enumerate(r.problem.orders):
        fate = fates.get(slot) if fates and slot is not None else None
        verdict = verdicts.get(number)
        if slot is None or slot.order_number != number:  # illegal, or not the unit's order
            result, why = verdict or (OrderResult.ILLEGAL, Reason("another_order"))
            add(Outcome(power, order, result, why, fate))
            continue
        kind = slot.kind
        reason: Reason | None
        if verdict is not None:  # invalid, or it fails at once
            result, reason = verdict
        elif kind is Move:
            if slot.sea is not None and slot.sea.no_route:
                result, reason = OrderResult.INVALID, Reason("no_convoy_route")
            elif r.moves(slot):
                result, reason = OrderResult.SUCCEEDS, None
            else:
                result, reason = OrderResult.FAILS, _why_failed(r, slot)
        elif kind is Hold:
            result, reason = fate or OrderResult.STANDS, None
        elif kind is Convoy:
            if fate is not None:
                result, reason = OrderResult.DISRUPTED, Reason("fleet_dislodged")
            elif slot.target in r.paradox and slot.province in r.problem.attackers:
                result, reason = OrderResult.DISRUPTED, Reason("convoy_paradox")
            else:
                result, reason = OrderResult.AVAILABLE, None
        elif r.given(slot):  # a support
            result, reason = OrderResult.GIVEN, None
        else:
            result, reason = OrderResult.CUT, Reason("dislodged" if fate is not None else "cut")
        add(Outcome(power, order, result, reason, fate))
    return out


def _why_failed(r: Resolver, slot: Slot) -> Reason:
    if not r.reaches(slot):
        return Reason("convoy_disrupted")
    attack = r.attack_strength(slot)
    dest = slot.dest
    there = r.problem.in_province.get(dest)
    if there is not None:
        if attack == 0:
            return Reason("own_unit", unit=str(there.unit))
        if r.head_to_head(slot, there):
            defend = r.defend_strength(there)
            if attack <= defend:
                return Reason("head_to_head", unit=str(there.unit), strength=attack, against=defend)
        else:
            hold = r.hold_strength(there)
            if attack <= hold:
                return Reason("bounced_off", unit=str(there.unit), strength=attack, against=hold)
    rivals = [s for s in r.problem.attackers[dest] if s is not slot]
    for rival in rivals:
        if r.moves(rival):  # no standoff: the province is taken
            against = r.prevent_strength(rival)
            return Reason("beaten_to", dest, unit=str(rival.unit), strength=attack, against=against)
    units = tuple(str(s.unit) for s in rivals)
    return Reason("standoff", dest, units=units) if units else Reason("bounced")
