"""The JSON contract of ``realpolitik adjudicate``: a situation in, a result out.

Situation::

    {"phase": "S1901M",
     "units": {"ENGLAND": ["F NTH", "A LON"]},
     "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
     "dislodged": {"ENGLAND": [{"unit": "F NTH", "attacker_from": "ENG"}]},
     "contested": ["BEL"],
     "orders": {"ENGLAND": ["F NTH - NWY", "A LON H"]},
     "language": "en"}

``language`` is the language of the orders: ``en``, ``es``, ``fr``, ``pt`` (see
:mod:`realpolitik.notation`) or ``auto`` (guessed order by order); the result's order texts
are written in it (English short notation for ``en`` and ``auto``).

``edition`` (``classic``, ``1971``, ``grow``, ``conquista``, or the rules-only ``datc``;
``realpolitik adjudicate --rules`` overrides it) applies the whole edition: its board (``map``
may name another), its rules and mechanics, its calendar. Conquista's ``accept`` (per power:
the foreign units whose support it accepts, ``["A GAL"]``) and ``ally`` (per power: the
powers it declares an alliance with) go with the orders; the result then has ``alliances``
(those formed this phase).

Result: ``phase``, ``orders`` (per power: ``order``, ``result``, ``reason``, and ``unit`` when
the unit was dislodged or destroyed), ``units``, ``dislodged`` (with ``retreats``),
``contested``, ``centers`` (after the phase: ownership changes after a Fall turn) and
``next_phase``. A malformed situation raises :class:`SituationError`; a bad order is reported
in the result (the unit holds), never raised.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any

from realpolitik.adjudicator import retreat_options
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult
from realpolitik.errors import OrderError, SituationError
from realpolitik.game.calendar import Turn, phases_of_year, play
from realpolitik.game.editions import EDITIONS, edition
from realpolitik.game.victory import form_alliances
from realpolitik.maps import GameMap, load_map
from realpolitik.notation import (
    LANGUAGES,
    format_order,
    read_all,
    read_guessed,
    read_order,
    read_written,
)
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Dislodged, Position
from realpolitik.rules import PRESETS, Rules, rules_for
from realpolitik.vocab import Power, Province, province_of

KNOWN_KEYS = {
    "phase", "units", "centers", "dislodged", "contested", "orders", "language", "map",
    "edition", "accept", "ally",
}  # fmt: skip
AUTO = "auto"
"""The ``language`` that guesses each order's language."""
CALENDAR = "classic"
"""The calendar of the rules-only ``datc`` preset (an edition follows its own; idle
adjustment phases are skipped)."""


def check_language(language: Any) -> str:
    """A known order language (``en``, ``es``, ``fr``, ``pt`` or ``auto``), or raise."""
    if language not in (*LANGUAGES, AUTO):
        known = ", ".join((*LANGUAGES, AUTO))
        raise SituationError(f"unknown language {language!r} (known: {known})")
    return str(language)


def read_situation(data: Any, game_map: GameMap) -> tuple[Phase, Position]:
    """Validate the situation's phase and position."""
    if not isinstance(data, Mapping):
        raise SituationError("a situation must be a JSON object")
    unknown = set(data) - KNOWN_KEYS
    if unknown:
        raise SituationError(f"unknown key(s) in situation: {', '.join(sorted(unknown))}")
    if "phase" not in data:
        raise SituationError("the situation has no 'phase' (e.g. \"S1901M\")")
    try:
        phase = Phase.parse(str(data["phase"]))
    except ValueError as exc:
        raise SituationError(str(exc)) from None
    position = Position.from_json(data, game_map)
    for prov, d in position.dislodged.items():
        if prov in position.units and position.units[prov] == d.unit:
            raise SituationError(f"{d.unit} is both on the board and dislodged")
    if phase.kind is PhaseKind.RETREATS:
        position = _with_retreats(position, data, game_map)
    return phase, position


def check_dislodged(phase: Phase, position: Position) -> None:
    """Refuse dislodged units outside a retreat phase: the phase would not see them, and
    they would vanish from the result unseen."""
    if position.dislodged and phase.kind is not PhaseKind.RETREATS:
        units = ", ".join(str(d.unit) for d in position.dislodged.values())
        raise SituationError(
            f"dislodged units ({units}) given in {phase}: only a retreat phase has them "
            f"(e.g. F{phase.year}R)"
        )


def _with_retreats(position: Position, data: Mapping[str, Any], game_map: GameMap) -> Position:
    """Dislodged entries without a ``retreats`` list get the computed legal retreats."""
    given: set[Province] = set()
    for entries in (data.get("dislodged") or {}).values():
        for entry in entries:
            if isinstance(entry, Mapping) and entry.get("retreats") is not None:
                given.add(str(entry["unit"]).split()[-1].upper().split("/")[0])
    dislodged: dict[Province, Dislodged] = {}
    for prov, d in position.dislodged.items():
        if prov in given:
            dislodged[prov] = d
        else:
            options = retreat_options(
                game_map, d.unit, position.units, position.contested, d.attacker_from
            )
            dislodged[prov] = Dislodged(d.unit, d.attacker_from, options)
    return Position(position.units, position.centers, dislodged, position.contested)


def read_orders(
    data: Any,
    language: str,
    game_map: GameMap,
    *,
    position: Position | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> tuple[dict[Power, list[Order]], dict[Power, list[tuple[str, str]]]]:
    """Parse the ``orders`` object, written in ``language`` (``auto``: guess each order's;
    with the ``position``, and ``phase`` and ``rules``, a language whose reading is legal
    there is preferred: see :func:`~realpolitik.notation.read_guessed`). With the
    ``position``, a text of several readings is the one the board allows, as
    :meth:`~realpolitik.game.Game.submit` reads it (English "F Edi - Nor" from Edinburgh:
    the Norwegian Sea; see :func:`~realpolitik.notation.read_written`). Returns the parsed
    orders and, per power, the texts that could not be parsed with the reason."""
    if data is None:
        return {}, {}
    if not isinstance(data, dict) and not isinstance(data, Mapping):  # dict: no ABC check
        raise SituationError("'orders' must be an object keyed by power")
    parsed: dict[Power, list[Order]] = {}
    failed: dict[Power, list[tuple[str, str]]] = {}
    lang = None if language == AUTO else language
    guess_on = position if lang is None else None  # guessing: on the position, if there is one
    # an adjustment phase reads its bare units on the board ("F Edi": a build), one by one
    adjusting = position is not None and phase is not None and phase.is_adjustments

    def read(text: str, power: Power) -> Order:
        if guess_on is None:
            if lang is None or position is None:
                return read_order(text, lang, game_map)
            # as Game.submit reads it: a text of several readings is the one the board allows
            return read_written(
                text, game_map=game_map, language=lang, position=position, power=power,
                phase=phase, rules=rules,
            )  # fmt: skip
        return read_guessed(
            text, game_map=game_map, position=guess_on, power=power, phase=phase, rules=rules
        )

    for power, texts in data.items():
        power = _known_power(power, game_map, "orders")  # a misspelt power is no new one
        if not isinstance(texts, list):
            raise SituationError(f"orders of {power} must be a list of strings")
        try:
            if guess_on is None and not adjusting:
                orders = read_all(texts, lang, game_map)
            else:
                orders = [read(text, power) for text in texts]
        except (TypeError, OrderError) as exc:
            if not all(isinstance(text, str) for text in texts):
                raise SituationError(f"orders of {power} must be a list of strings") from None
            if isinstance(exc, TypeError):
                raise
            orders = []  # read them one by one, keeping every error
            for text in texts:
                try:
                    orders.append(read(text, power))
                except OrderError as exc:
                    failed.setdefault(power, []).append((text, str(exc)))
        if orders:
            parsed[power] = orders
    return parsed, failed


def situation_edition(data: Mapping[str, Any], rules: Rules | str | None) -> tuple[str, Rules]:
    """The edition (or ``datc``) that judges a situation, and its rules: ``rules`` (a name:
    ``realpolitik adjudicate --rules``) wins over the situation's ``edition``."""
    named = data.get("edition")
    if named is not None and named not in PRESETS:
        raise SituationError(f"unknown edition {named!r} (known: {', '.join(PRESETS)})")
    if isinstance(rules, Rules):
        return str(named or "classic"), rules
    name = str(rules or named or "classic")
    if name not in PRESETS:
        raise SituationError(f"unknown rules {name!r} (known: {', '.join(PRESETS)})")
    return name, rules_for(name)


def situation_board(data: Mapping[str, Any], name: str) -> GameMap:
    """The situation's ``map``, else the edition's board (``datc``: the standard map)."""
    if "map" in data:
        return load_map(str(data["map"]))
    return load_map(edition(name).map) if name in EDITIONS else load_map("standard")


def read_accept(
    data: Any, rules: Rules, position: Position, game_map: GameMap
) -> frozenset[tuple[Power, Province]]:
    """Conquista's ``accept``: per power, the other powers' units whose support it accepts
    (``"A GAL"`` or ``"GAL"``), as ``(power, province)`` pairs."""
    if data is None:
        return frozenset()
    if rules.foreign_support != "acknowledged":
        raise SituationError("'accept' is for conquista's rules (acknowledged foreign support)")
    if not isinstance(data, Mapping):
        raise SituationError("'accept' must be an object keyed by power")
    pairs: set[tuple[Power, Province]] = set()
    for power, units in data.items():
        power = _known_power(power, game_map, "accept")
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            raise SituationError(f'accept of {power} must be a list of units ("A GAL")')
        for text in units:
            prov = province_of(text.split()[-1]).upper() if text.strip() else ""
            unit = position.units.get(prov)
            if unit is None:
                raise SituationError(f"accept of {power}: there is no unit in {text!r}")
            if unit.power == power:
                raise SituationError(f"accept of {power}: {unit} is its own unit")
            pairs.add((power, prov))
    return frozenset(pairs)


def _known_power(name: Any, game_map: GameMap, what: str) -> Power:
    power = str(name).upper()
    if power not in game_map.powers:
        known = ", ".join(game_map.powers)
        raise SituationError(f"{what}: unknown power {name!r} (powers: {known})")
    return power


def read_ally(data: Any, name: str, phase: Phase, game_map: GameMap) -> list[list[Power]]:
    """Conquista's ``ally``: per power, the powers it declares an alliance with; returns
    the alliances formed (every member declared the same one)."""
    if data is None:
        return []
    if name != "conquista":
        raise SituationError("'ally' is for conquista (alliances declared with the orders)")
    if not isinstance(data, Mapping) or not phase.is_movement:
        raise SituationError("'ally' is an object keyed by power, in a movement phase")
    declared: dict[Power, tuple[Power, ...]] = {}
    for power, partners in data.items():
        if not isinstance(partners, list) or not all(isinstance(p, str) for p in partners):
            raise SituationError(f"ally of {power} must be a list of powers")
        power = _known_power(power, game_map, "ally")
        members = {_known_power(p, game_map, f"ally of {power}") for p in partners} | {power}
        declared[power] = tuple(sorted(members)) if len(members) > 1 else ()
    alliances = form_alliances((), declared, phase)
    return [list(a.members) for a in alliances]


def adjudicate_situation(
    data: Any, rules: Rules | str | None = None, language: str | None = None
) -> dict[str, Any]:
    """Adjudicate one situation (already decoded from JSON) and return the result object.

    ``rules``: an edition or preset name (wins over the situation's ``edition``), or
    :class:`Rules` (the board and calendar then come from the situation's ``edition``);
    ``None``: the situation's ``edition``, else classic. ``language`` (``realpolitik
    adjudicate --lang``) is the language of the orders when the situation does not say,
    and the language of the result's order texts; without it the results are written in
    the situation's language."""
    result: dict[str, Any] = json.loads(adjudicate_text(data, rules, language))
    return result


def adjudicate_text(
    data: Any, rules: Rules | str | None = None, language: str | None = None
) -> str:
    """:func:`adjudicate_situation`'s result as JSON text, exactly ``json.dumps`` of it (one
    line: ``realpolitik adjudicate --jsonl`` writes it as it is)."""
    if not isinstance(data, Mapping):
        raise SituationError("a situation must be a JSON object")
    name, rules = situation_edition(data, rules)
    game_map = situation_board(data, name)
    phase, position = read_situation(data, game_map)
    if language is not None:
        language = check_language(language)
    given = data.get("language")
    orders_language = check_language(given if given is not None else language or "en")
    out_language = language if language is not None and language != AUTO else orders_language
    try:
        orders, failed = read_orders(
            data.get("orders"),
            orders_language,
            game_map,
            position=position,
            phase=phase,
            rules=rules,
        )
    except ValueError as exc:
        if isinstance(exc, SituationError):
            raise
        raise SituationError(str(exc)) from None
    accepted = read_accept(data.get("accept"), rules, position, game_map)
    alliances = read_ally(data.get("ally"), name, phase, game_map)
    calendar = edition(name if name in EDITIONS else CALENDAR)
    year = phases_of_year(calendar, rules, phase.year)
    if phase not in year:  # e.g. a retreat phase under conquista, which destroys instead
        raise SituationError(
            f"{name} has no phase {phase} (a year of it: {', '.join(map(str, year))})"
        )
    check_dislodged(phase, position)
    turn = play(
        calendar, game_map, rules, phase, position, orders, accepted=accepted, skip_idle=True
    )
    text = result_text(turn, failed, out_language, game_map)
    if "ally" in data:  # conquista: the alliances formed this phase, the result's last key
        text = f'{text[:-1]}, "alliances": {json.dumps(alliances)}}}'
    return text


def result_json(
    turn: Turn, failed: Mapping[Power, list[tuple[str, str]]], language: str, game_map: GameMap
) -> dict[str, Any]:
    """The contract's result of a phase played (``failed``: the order texts that could not
    be read, with the reason; ``language``: that of the result's order texts)."""
    result: dict[str, Any] = json.loads(result_text(turn, failed, language, game_map))
    return result


def result_text(
    turn: Turn, failed: Mapping[Power, list[tuple[str, str]]], language: str, game_map: GameMap
) -> str:
    """:func:`result_json` as JSON text, exactly ``json.dumps`` of it: ``phase``; ``orders``,
    per power in alphabetical order, an entry per order (``order``, ``result``, ``reason``,
    and ``unit`` and ``implied`` when they apply, as
    :meth:`~realpolitik.adjudicator.results.Outcome.to_json` has them); ``units``,
    ``dislodged``, ``contested``, ``centers`` (as :meth:`Position.to_json` shapes them); and
    ``next_phase``. Written rather than built and encoded (for the entries, a third of the
    instructions), each order's text found again by the order (see :func:`_written`)."""
    entries: dict[Power, list[str]] = {}
    written = _written(language, game_map)
    for power, order, result, reason, fate, implied in turn.resolution.outcomes:
        found = written.get(id(order))
        if found is None:
            english = language in ("en", AUTO)  # else each order is written in ``language``
            text = str(order) if english else format_order(order, language, game_map=game_map)
            found = (order, _STRING(text))
            if not implied:  # an implied hold is a new order each time
                if len(written) >= _WRITTEN_ORDERS:
                    written.clear()
                written[id(order)] = found  # made whole, then published
        said = '""' if reason is None else _SAID.get(reason) or _said(reason)
        entry = f'{{"order": {found[1]}, "result": "{result._value_}", "reason": {said}'
        if fate is not None:
            entry += f', "unit": "{fate._value_}"'
        if implied:
            entry += ', "implied": true'
        entries.setdefault(power, []).append(entry + "}")
    for power, bad in failed.items():
        for text, why in bad:
            entries.setdefault(power, []).append(
                f'{{"order": {_STRING(text)}, "result": "{OrderResult.ILLEGAL._value_}", '
                f'"reason": {_STRING(why)}}}'
            )
    after = turn.after
    units: dict[Power, list[str]] = {}
    for unit in sorted(after.units.values(), key=_by_location):
        units.setdefault(unit.power, []).append(_STRING(str(unit)))
    centers: dict[Power, list[str]] = {}
    for prov, power in sorted(after.centers.items()):
        centers.setdefault(power, []).append(_STRING(prov))
    dislodged: dict[Power, list[str]] = {}
    for prov in sorted(after.dislodged):
        d = after.dislodged[prov]
        retreat = {"unit": str(d.unit), "attacker_from": d.attacker_from, "retreats": d.retreats}
        dislodged.setdefault(d.unit.power, []).append(json.dumps(retreat))
    contested = ", ".join(_STRING(prov) for prov in sorted(after.contested))
    return (
        f'{{"phase": {_STRING(str(turn.phase))}, "orders": {_by_power(entries)}, '
        f'"units": {_by_power(units)}, "dislodged": {_by_power(dislodged)}, '
        f'"contested": [{contested}], "centers": {_by_power(centers)}, '
        f'"next_phase": {_STRING(str(turn.following))}}}'
    )


def _by_power(written: Mapping[Power, list[str]]) -> str:
    """A JSON object of lists keyed by power, in alphabetical order, from the lists' items
    written as JSON."""
    lists = (f"{_STRING(power)}: [{', '.join(written[power])}]" for power in sorted(written))
    return f"{{{', '.join(lists)}}}"


def _said(reason: Reason) -> str:
    """``reason``'s English as JSON, remembered: a phase writes a dozen reasons, most of
    them said before: remembering them pays about 4% of ``adjudicate --jsonl``."""
    if len(_SAID) >= 16_384:
        _SAID.clear()
    said = _SAID[reason] = _STRING(str(reason))
    return said


_SAID: dict[Reason, str] = {}
_by_location = attrgetter("location")
_STRING = encode_basestring_ascii
"""A string as ``json.dumps`` writes it."""
_WRITTEN_ORDERS = 16_384  # orders remembered per language and map (forgotten all at once)
_WRITTEN: dict[tuple[str, GameMap], dict[int, tuple[Order, str]]] = {}


def _written(language: str, game_map: GameMap) -> dict[int, tuple[Order, str]]:
    """The orders written so far in ``language`` on ``game_map``, by ``id``: each order and
    its text as JSON. Orders read from the same text are one shared object (see
    :func:`~realpolitik.notation.read_all`), so most of a phase's orders are found here
    (writing one costs ten times as much). Each item keeps its order alive: no other object
    can take that ``id`` while it is here. Threads share it: an item is made whole, then
    published by one assignment."""
    found = _WRITTEN.get((language, game_map))
    if found is None:
        if len(_WRITTEN) >= 16:  # every shipped board in one language, usually
            _WRITTEN.clear()
        found = _WRITTEN[language, game_map] = {}
    return found
