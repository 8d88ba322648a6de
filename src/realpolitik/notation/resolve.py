"""A parsed order against a position: fill in what the board tells, reject what it forbids.

With a position, ``parse_order`` completes an order from the board (the unit type, a fleet's
coast, the only coast a fleet can reach, a retreat for a move of a dislodged unit, a build or
a removal for a bare unit in an adjustment phase) and rejects what no edition allows there:
no such unit, a unit of another power, an army at sea, a province out of reach, a support
into a province the supporter cannot enter (under conquista's rules, given: does not
border), a convoy by a fleet on a coast, a build on an occupied or foreign centre. It
raises :class:`IllegalOrderError`, or :class:`AmbiguousOrderError` when the board leaves
two readings (a fleet that can reach both coasts of Spain; a build on a coastal centre with
no unit type). Messages are in the order's language. The adjudicator still judges
everything that depends on other orders.

:func:`complete` only completes: each unit an order names, as the board has it
(:func:`complete_unit`, which the checks above use too), judging nothing; a game stores
its orders so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from realpolitik.adjudicator.legality import convoy_rule, move_rule, support_rule
from realpolitik.adjudicator.reasons import Reason
from realpolitik.errors import AmbiguousOrderError, IllegalOrderError, OrderError
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.notation.lexicon import VERB, load_lexicon, tokenize
from realpolitik.notation.reasons import message, say
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
    UnitRef,
    Waive,
)
from realpolitik.phase import PhaseKind
from realpolitik.position import Position
from realpolitik.rules import ImpossibleCoast, MissingUnitType, Rules, UnknownCoast
from realpolitik.vocab import (
    ARMY,
    FLEET,
    PROVINCE,
    Location,
    Power,
    Province,
    Unit,
    coast_of,
    province_of,
)


@dataclass(frozen=True, slots=True)
class ParseContext:
    """What an order is checked against: the map, the position, the power giving the order
    (if known), the kind of phase (``None``: any), the language of the messages, and the
    rules whose reach of supports applies (``None``: a supporter reaches where it could
    move, as in every edition but conquista)."""

    game_map: GameMap
    position: Position
    power: Power | None
    kind: PhaseKind | None
    language: str
    text: str
    rules: Rules | None = None


class _Checker:
    def __init__(self, context: ParseContext) -> None:
        self.ctx = context
        self.map = context.game_map
        self.lang = context.language

    # --- messages ----------------------------------------------------------------------
    def illegal(self, key: str, province: Province = "") -> IllegalOrderError:
        """The error saying the message ``key``, that no reason says (``wrong_phase``...)."""
        said = say(key, self.lang, game_map=self.map, province=province)
        return IllegalOrderError(f'{said} ("{self.ctx.text}")', self.ctx.text)

    # --- units -------------------------------------------------------------------------
    def unit(
        self, ref: UnitRef, pool: Mapping[Province, Unit], ordered: bool = True
    ) -> tuple[UnitRef, Unit]:
        actual = pool.get(ref.province)
        if actual is None:
            raise self.rejected(Reason("no_unit", ref.province))
        for power in (self.ctx.power if ordered else None, ref.power):
            if power is not None and actual.power != power:
                raise self.rejected(Reason("wrong_nationality", ref.province, power=power))
        if ref.type is not None and ref.type is not actual.type:
            found, written = actual.type.value, ref.type.value
            raise self.rejected(Reason("wrong_unit_type", ref.province, unit=found, name=written))
        if coast_of(ref.location) is not None and actual.location != ref.location:
            wrong = Reason("wrong_unit_coast", location=actual.location, name=ref.location)
            raise self.rejected(wrong)
        return complete_unit(ref, actual, own=ordered), actual

    def destination(self, unit: Unit, dest: Location, *, via: bool, retreat: bool) -> Location:
        """The exact location a unit can move (or retreat) to, or an error: the move rule
        of :mod:`realpolitik.adjudicator.legality`, read strictly about coasts (a coast a
        fleet cannot reach, or a province does not have, is an error; an army's is
        dropped)."""
        if unit.type is ARMY:
            dest = province_of(dest)
        rule = move_rule(self.map, _STRICT, unit.type, unit.location, dest, via)
        if rule.reason is None:
            return rule.exact
        if rule.overseas and not retreat:
            return rule.province  # by convoy, if the fleets are there
        raise self.rejected(rule.reason, unit)

    def rejected(self, reason: Reason, unit: Unit | None = None) -> OrderError:
        """The error saying ``reason`` in the order's language (for an order of ``unit``),
        with the lexicon's message (:func:`realpolitik.notation.reasons.message`): the
        reader names the unit it read, and says a support into the supporter's own province
        and an unknown province as it always has."""
        if reason.key == "support_into_own":
            reason = reason._replace(key="cannot_support")
        elif reason.key == "unknown_province":
            reason = reason._replace(key="impassable")
        if unit is not None and reason.key in ("not_adjacent", "cannot_support", "not_bordering"):
            reason = reason._replace(unit=str(unit))
        text = f'{message(reason, self.lang, game_map=self.map)} ("{self.ctx.text}")'
        if reason.key in ("missing_coast", "build_type"):  # the board leaves two readings
            return AmbiguousOrderError(text, self.ctx.text)
        return IllegalOrderError(text, self.ctx.text)

    # --- orders ------------------------------------------------------------------------
    def resolve(self, order: Order) -> Order:
        kind, units = self.ctx.kind, self.ctx.position.units
        if isinstance(order, Waive | Build):
            if kind not in (None, PhaseKind.ADJUSTMENTS):
                raise self.illegal("wrong_phase")
            return order if isinstance(order, Waive) else self.build(order.unit)
        if kind is PhaseKind.ADJUSTMENTS:
            meant = bare_unit(order, self.ctx.text, self.lang, self.map, self.ctx.position)
            if isinstance(meant, Build):  # "F Edi": the rulebook's build
                return self.build(meant.unit)
            if isinstance(meant, Disband):  # "E Gal": a removal
                return Disband(self.unit(meant.unit, units)[0])
            raise self.illegal("wrong_phase")  # "A Mun H" keeps a unit: never a removal
        if kind is PhaseKind.RETREATS:
            return self.retreat_phase(order)
        if isinstance(order, Retreat):
            if kind is PhaseKind.MOVEMENT:
                raise self.illegal("wrong_phase")
            return self.retreat(order)
        if isinstance(order, Disband):
            if kind is PhaseKind.MOVEMENT:
                raise self.illegal("wrong_phase")
            if order.unit.province in units:
                return Disband(self.unit(order.unit, units)[0])
            return Disband(self.unit(order.unit, self.dislodged())[0])
        ref, unit = self.unit(order.unit, units)
        if isinstance(order, Hold):
            return Hold(ref)
        if isinstance(order, Move):
            dest = self.destination(unit, order.destination, via=order.via_convoy, retreat=False)
            return Move(ref, dest, order.via_convoy)
        if isinstance(order, SupportHold | SupportMove):
            return self.support(order, ref, unit)
        return self.convoy(order, ref, unit)

    def dislodged(self) -> dict[Province, Unit]:
        return {p: d.unit for p, d in self.ctx.position.dislodged.items()}

    def retreat_phase(self, order: Order) -> Order:
        if isinstance(order, Move) and not order.via_convoy:
            order = Retreat(order.unit, order.destination)
        if isinstance(order, Retreat):
            return self.retreat(order)
        if isinstance(order, Disband):
            return Disband(self.unit(order.unit, self.dislodged())[0])
        unit = order.unit if not isinstance(order, Waive | Build) else None
        if unit is not None and unit.province in self.ctx.position.dislodged:
            raise self.illegal("dislodged_only", unit.province)
        raise self.illegal("wrong_phase")

    def retreat(self, order: Retreat) -> Order:
        prov = order.unit.province
        found = self.ctx.position.dislodged.get(prov)
        if found is None:
            if prov in self.ctx.position.units:
                raise self.rejected(Reason("not_dislodged", prov))
            raise self.rejected(Reason("no_unit", prov))
        ref, unit = self.unit(order.unit, {prov: found.unit})
        dest = self.destination(unit, order.destination, via=False, retreat=True)
        if found.retreats and province_of(dest) not in {province_of(r) for r in found.retreats}:
            raise self.rejected(Reason("cannot_retreat", location=dest, unit=str(unit)), unit)
        return Retreat(ref, dest)

    def support(self, order: SupportHold | SupportMove, ref: UnitRef, unit: Unit) -> Order:
        target_ref, target = self.unit(order.supported, self.ctx.position.units, ordered=False)
        dest = None if isinstance(order, SupportHold) else order.destination
        rules = self.ctx.rules or _STRICT
        rule = support_rule(
            self.map, rules, unit.type, unit.location, target.type, target.location, dest
        )
        if rule.reason is not None:
            raise self.rejected(rule.reason, unit)
        if isinstance(order, SupportHold):
            return SupportHold(ref, target_ref)
        into = rule.into
        if not (rule.near or rule.overseas):
            raise self.rejected(Reason("target_cannot_move", into, unit=str(target)), unit)
        dest = order.destination
        coast = coast_of(dest)
        if coast is not None and (target.type is ARMY or coast not in self.map.coasts(into)):
            if target.type is ARMY:
                dest = into
            else:
                raise self.rejected(Reason("no_such_coast", into, coast=coast), unit)
        return SupportMove(ref, target_ref, dest)

    def convoy(self, order: Convoy, ref: UnitRef, unit: Unit) -> Order:
        army, dest = order.convoyed, order.destination
        reason = convoy_rule(self.map, unit.type, unit.location, army.location, dest)
        if reason is not None:
            raise self.rejected(reason, unit)
        target_ref, target = self.unit(army, self.ctx.position.units, ordered=False)
        if target.type is not ARMY:
            raise self.illegal("convoy_army")
        return Convoy(ref, target_ref, province_of(dest))

    def build(self, ref: UnitRef) -> Order:
        prov = ref.province
        info = self.map.provinces[prov]
        if prov in self.ctx.position.units:
            raise self.rejected(Reason("occupied", prov))
        for power in (self.ctx.power, ref.power):  # the power's, and the one it names
            if info.home is None or (power is not None and info.home != power):
                raise self.rejected(Reason("not_home_centre", prov, power=power or ""))
        # the build is the home power's: a name it gives ("A Inglaterra coloca uma
        # armada em Edimburgo") says who builds, and is not kept
        kind = ref.type
        if kind is None:
            if info.type is not ProvinceType.INLAND:
                raise self.rejected(Reason("build_type", prov))
            kind = ARMY
        if kind is ARMY:
            return Build(UnitRef(ARMY, prov))
        if info.type is ProvinceType.INLAND:
            raise self.rejected(Reason("fleet_build_inland", prov))
        coast = coast_of(ref.location)
        if not info.coasts:
            return Build(UnitRef(FLEET, prov))
        if coast is None:
            raise self.rejected(Reason("missing_coast", prov, coasts=info.coasts))
        if coast not in info.coasts:
            raise self.rejected(Reason("no_such_coast", prov, coast=coast))
        return Build(UnitRef(FLEET, f"{prov}/{coast}"))


_STRICT = Rules(
    name="strict coasts",
    impossible_coast=ImpossibleCoast.ILLEGAL,
    unknown_coast=UnknownCoast.ILLEGAL,
)
"""How the reader takes coasts: one a fleet cannot reach, or a province does not have, is
an error (the adjudicator's rules may ignore it); an omitted one is filled in when the
fleet can reach only one."""


def complete_unit(ref: UnitRef, unit: Unit | None, *, own: bool = False) -> UnitRef:
    """``ref`` with the type and the coast it leaves out taken from ``unit``, the unit in
    its province (``None``: there is none). A type or a coast ``ref`` gives is kept, even
    one the unit does not have (the adjudicator judges it): then both are kept as given.
    ``own``: ``ref`` names the unit ordered, whose nationality, if its owner's, is left out
    (the power giving the order says it: "A Inglaterra coloca...", "French A PAR").

        >>> str(complete_unit(UnitRef(None, "STP"), Unit("RUSSIA", FLEET, "STP/SC")))
        'F STP/SC'
    """
    if unit is None:
        return ref
    power = None if own and ref.power == unit.power else ref.power
    utype, location = ref.type, ref.location
    if (utype is None or utype is unit.type) and (
        location == unit.location or coast_of(location) is None
    ):
        utype, location = unit.type, unit.location
    if utype is ref.type and location == ref.location and power == ref.power:
        return ref
    return UnitRef(utype, location, power)


def complete(
    order: Order, position: Position, kind: PhaseKind, rules: Rules | None = None
) -> Order:
    """``order`` with each unit it names completed from ``position`` (:func:`complete_unit`):
    the unit ordered (in a retreat phase, the dislodged one) and the unit it supports or
    convoys. Nothing is judged: an order for no unit, an impossible move, are kept as they
    are. ``order`` itself when nothing is left out. Where a unit named without its type
    makes an order illegal (``rules``: DATC 4.C.1 a), such a unit is left so."""
    if isinstance(order, Waive | Build):
        return order
    untyped = rules is not None and rules.missing_unit_type is MissingUnitType.ILLEGAL
    units = position.units
    pool = units
    if kind is PhaseKind.RETREATS:
        pool = {p: d.unit for p, d in position.dislodged.items()}
    ref = _completed(order.unit, pool, untyped, own=True)
    if isinstance(order, SupportHold):
        supported = _completed(order.supported, units, untyped)
        if ref is order.unit and supported is order.supported:
            return order
        return SupportHold(ref, supported)
    if isinstance(order, SupportMove):
        supported = _completed(order.supported, units, untyped)
        if ref is order.unit and supported is order.supported:
            return order
        return SupportMove(ref, supported, order.destination)
    if isinstance(order, Convoy):
        convoyed = _completed(order.convoyed, units, untyped)
        if ref is order.unit and convoyed is order.convoyed:
            return order
        return Convoy(ref, convoyed, order.destination)
    return order if ref is order.unit else replace(order, unit=ref)


def _completed(
    ref: UnitRef, pool: Mapping[Province, Unit], untyped: bool, *, own: bool = False
) -> UnitRef:
    """:func:`complete_unit` of ``ref`` with the unit of ``pool`` in its province (a unit
    without its type kept so if ``untyped``: see :func:`complete`)."""
    unit = pool.get(PROVINCE[ref.location])
    if unit is None:
        return ref
    if ref.type is unit.type and ref.location == unit.location and (ref.power is None or not own):
        return ref  # the usual case, decided at once
    if untyped and ref.type is None:
        return ref
    return complete_unit(ref, unit, own=own)


def resolve(order: Order, context: ParseContext) -> Order:
    """``order`` completed from ``context``, or an :class:`IllegalOrderError` /
    :class:`AmbiguousOrderError` in the context's language."""
    return _Checker(context).resolve(order)


__all__ = ["ParseContext", "bare_unit", "complete", "complete_unit", "resolve", "says_hold"]


def bare_unit(
    order: Order, text: str, language: str, game_map: GameMap, position: Position
) -> Order:
    """``order`` (read from ``text`` in an adjustment phase) as the rulebooks write a build
    or a removal: a bare unit ("F Edi", "E Gal": read as a hold) is the removal of the unit
    standing there, else a build there, as written (the adjudicator judges them); any other
    order, a hold said in words ("A Mun H") too, stays as it is."""
    if type(order) is not Hold or says_hold(text, language, game_map):
        return order
    if order.unit.province in position.units:
        return Disband(order.unit)
    return Build(order.unit)


def says_hold(text: str, language: str, game_map: GameMap) -> bool:
    """Whether ``text`` names the hold (``H``, ``holds``, ``M``, ``permanece``...): a hold
    written out, not the bare unit the rulebooks write for a build or a removal."""
    lexicon = load_lexicon(language, game_map)
    words = tokenize(text)
    return any(
        reading.cls == VERB and reading.value == "hold"
        for start in range(len(words))
        for size in lexicon.sizes.get(words[start], ())
        for reading in lexicon.phrases.get(tuple(words[start : start + size]), ())
    )
