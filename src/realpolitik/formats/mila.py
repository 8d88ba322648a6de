"""The MILA saved-game format: the JSON of the PyPI ``diplomacy`` package (and Meta's dipcc).

A MILA saved game is ``{"id", "map", "rules", "phases": [...]}``; each phase has a ``name``
(``S1901M``), a ``state`` (``units`` per power, ``"*A PAR"`` for a dislodged unit,
``retreats``, ``centers``, ``homes``, ``influence``, ``civil_disorder``, ``builds``...),
the ``orders`` per power (``None``: not given), ``results`` per unit and ``messages``.

:func:`from_mila` replays a MILA game through our adjudicator, phase by phase, and checks
that every recorded state is the one we reach (a :class:`MilaError` names the first phase
that differs); a civil-disorder removal is the one the file records (MILA's engine picks
them by its own distance). :func:`to_mila` writes a game so that ``diplomacy.utils.export.
from_saved_game_format`` loads it and its engine replays to the same states. Only the
standard map is shared; conquista and the reduced boards have no MILA equivalent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from realpolitik.adjudicator.results import OrderResult, Outcome
from realpolitik.errors import GameError, MilaError
from realpolitik.formats.savegame import order_from_text
from realpolitik.game import Game
from realpolitik.game.calendar import idle_adjustments
from realpolitik.game.records import Message, PhaseRecord
from realpolitik.game.victory import GameResult
from realpolitik.maps import GameMap, load_map
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
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.vocab import Power, province_of

__all__ = ["COMPLETED", "MilaError", "from_mila", "to_mila"]

MILA_RULES = ["NO_PRESS", "POWER_CHOICE"]
COMPLETED = "COMPLETED"
"""The name of the last entry of a finished game's phases: its end, not a phase."""


# --- export -----------------------------------------------------------------------------------
def _full(order: Order, position: Position) -> Order:
    """The order with the unit types (and fleet coasts) MILA's notation needs, without
    nationalities."""

    def fix(ref: UnitRef, dislodged: bool = False) -> UnitRef:
        found = position.dislodged.get(ref.province) if dislodged else None
        unit = found.unit if found is not None else position.units.get(ref.province)
        if unit is None:
            return UnitRef(ref.type, ref.location)
        return UnitRef(unit.type, unit.location)

    if isinstance(order, Waive | Build):
        return order
    if isinstance(order, Retreat):
        return Retreat(fix(order.unit, True), order.destination)
    if isinstance(order, Disband):
        return Disband(fix(order.unit, bool(position.dislodged)))
    unit = fix(order.unit)
    if isinstance(order, Hold):
        return Hold(unit)
    if isinstance(order, Move):
        return Move(unit, order.destination, order.via_convoy)
    if isinstance(order, SupportHold):
        return SupportHold(unit, fix(order.supported))
    if isinstance(order, SupportMove):
        return SupportMove(unit, fix(order.supported), province_of(order.destination))
    return Convoy(unit, fix(order.convoyed), province_of(order.destination))


def _codes(outcome: Outcome) -> list[str]:
    result = outcome.result
    codes: list[str] = []
    if result is OrderResult.ILLEGAL:
        codes.append("void")
    elif result is OrderResult.INVALID:
        codes.append("no convoy" if isinstance(outcome.order, Move) else "void")
    elif result is OrderResult.FAILS:
        codes.append("bounce")
    elif result is OrderResult.CUT:
        codes.append("cut")
    elif result is OrderResult.DISRUPTED:
        codes.append("disrupted")
    if outcome.fate is not None:
        codes.append("dislodged")
    if isinstance(outcome.order, Disband) and result is OrderResult.SUCCEEDS:
        codes.append("disband")
    return codes


def _state(
    game: Game,
    phase: Phase,
    position: Position,
    influence: Mapping[str, Power],
    disorder: Collection[Power],
) -> dict[str, Any]:
    game_map = game.map_for(phase)
    powers = game_map.powers
    units: dict[str, list[str]] = {p: [] for p in powers}
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for unit in sorted(position.units.values(), key=lambda u: u.location):
        units[unit.power].append(str(unit))
    for d in position.dislodged.values():
        if not d.retreats:  # MILA's engine removes it at once, never writes it
            continue
        units[d.unit.power].append(f"*{d.unit}")
        retreats[d.unit.power][str(d.unit)] = list(d.retreats)
    builds: dict[str, dict[str, Any]] = {}
    for power in powers:
        count = 0
        if phase.is_adjustments:
            count = len(position.centers_of(power)) - len(position.units_of(power))
        homes = [
            h
            for h in game_map.homes.get(power, ())
            if count > 0 and position.centers.get(h) == power and h not in position.units
        ]
        builds[power] = {"count": count, "homes": homes}
    return {
        "timestamp": 0,
        "zobrist_hash": "0",
        "note": "",
        "name": str(phase),
        "units": units,
        "retreats": retreats,
        "centers": {p: position.centers_of(p) for p in powers},
        "homes": {p: list(game_map.homes.get(p, ())) for p in powers},
        "influence": {p: sorted(q for q, o in influence.items() if o == p) for p in powers},
        "civil_disorder": {p: int(p in disorder) for p in powers},
        "builds": builds,
        "game_id": f"realpolitik-{game.seed}",
        "map": "standard",
        "rules": MILA_RULES,
    }


def _phase(game: Game, record: PhaseRecord, influence: dict[str, Power]) -> dict[str, Any]:
    pos, phase = record.position, record.phase
    orders: dict[str, list[str] | None] = {p: [] for p in game.map_for(phase).powers}
    results: dict[str, list[str]] = {}
    for outcome in record.outcomes:
        if phase.is_retreats and _stranded(outcome.order, pos):
            continue  # removed by MILA's engine with the movement before
        order = _full(outcome.order, pos)
        key = "WAIVE" if isinstance(order, Waive) else str(order.unit)
        if not (outcome.implied and phase.is_movement):
            given = orders[outcome.power]
            orders[outcome.power] = [*(given or []), str(order)]
        results[key] = [] if outcome.implied and phase.is_movement else _codes(outcome)
    for power in record.disorder:  # no orders given: MILA's "not set"
        if not orders.get(power, True):
            orders[power] = None
    state = _state(game, phase, pos, influence, record.disorder)
    return {
        "name": str(phase),
        "state": state,
        "orders": orders,
        "results": results,
        "messages": _messages(game, phase),
    }


def _stranded(order: Order, position: Position) -> bool:
    """Is ``order`` the disband of a dislodged unit with nowhere to go? MILA's engine
    removes such a unit as it resolves the movement, even when another unit's retreat
    makes a retreat phase, and writes neither it nor its disband there (a disband given
    for it is refused: "UNIT NOT IN RETREAT")."""
    if not isinstance(order, Disband):
        return False
    found = position.dislodged.get(order.unit.province)
    return found is not None and not found.retreats


def _messages(game: Game, phase: Phase) -> list[dict[str, Any]]:
    return [
        {
            "sender": m.sender,
            "recipient": m.recipient,
            "time_sent": k + 1,
            "phase": str(m.phase),
            "message": m.text,
        }
        for k, m in enumerate(game.messages)
        if m.phase == phase
    ]


def _standard(game_map: GameMap) -> bool:
    """Whether ``game_map`` is the standard board, whatever its name (grow's seven-player
    board is: only Italy's start differs, which a MILA file's first state says)."""
    standard = load_map("standard")
    return (
        game_map.army_adjacency == standard.army_adjacency
        and game_map.fleet_adjacency == standard.fleet_adjacency
        and game_map.centers == standard.centers
        and game_map.homes == standard.homes
    )


def to_mila(game: Game) -> dict[str, Any]:
    """The game as a MILA saved game (standard map only). Phases that MILA's engine skips
    too are left out; other skipped phases (civil-disorder removals and disbands) are
    written with their implied orders, so that MILA's engine makes the same changes."""
    if game.setup.neutral is not None:
        raise MilaError("the two-player game (a neutral Italy) has no MILA equivalent")
    game_map = game.game_map
    if not _standard(game_map):
        raise MilaError(f"the {game_map.name} map has no MILA equivalent (only the standard map)")
    influence: dict[str, Power] = {}
    phases: list[dict[str, Any]] = []
    for record in game.history:
        _occupy(influence, record.position)
        if record.skipped and not _mila_has(game, record):
            continue
        phases.append(_phase(game, record, influence))
    _occupy(influence, game.position)
    current = _state(game, game.phase, game.position, influence, game.civil_disorder)
    pending = game.pending_orders()
    phases.append(
        {
            "name": str(game.phase),
            "state": current,
            "orders": {
                p: [str(_full(o, game.position)) for o in pending[p]] if p in pending else None
                for p in game.powers
            },
            "results": {},
            "messages": _messages(game, game.phase),
        }
    )
    if game.result is not None:
        phases[-1:] = _completed(game, game.result, phases[-1])
    return {
        "id": f"realpolitik-{game.seed}",
        "map": "standard",
        "rules": MILA_RULES,
        "phases": phases,
    }


def _completed(game: Game, result: GameResult, current: dict[str, Any]) -> list[dict[str, Any]]:
    """The end of a finished game as MILA's engine writes it: a phase ``COMPLETED`` with
    the last state and a note of the winners, after the phase that won the game (the phase
    that would come next is not written), or after the current one, in which a draw or a
    concession was agreed."""
    played = any(r.phase == result.phase for r in game.history)
    winners = ", ".join(p[:3] for p in result.winners)
    state = {**current["state"], "name": COMPLETED, "note": f"Victory by: {winners}"}
    state["builds"] = {p: {"count": 0, "homes": []} for p in state["builds"]}
    end = {
        "name": COMPLETED,
        "state": state,
        "orders": dict.fromkeys(current["orders"]),
        "results": {},
        "messages": [],
    }
    return [end] if played else [current, end]


def _mila_has(game: Game, record: PhaseRecord) -> bool:
    """Does MILA's engine have this phase we skipped? Not a retreat phase where no unit
    could retreat, nor an adjustment phase with nothing to adjust."""
    if record.phase.is_retreats:
        return any(d.retreats for d in record.position.dislodged.values())
    game_map = game.map_for(record.phase)
    return not idle_adjustments(game_map, record.position, game.rules)


def _occupy(influence: dict[str, Power], position: Position) -> None:
    for prov, unit in position.units.items():
        influence[prov] = unit.power


# --- import -----------------------------------------------------------------------------------
def _position(state: Mapping[str, Any]) -> Position:
    game_map = load_map("standard")
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for power, texts in state.get("units", {}).items():
        for text in texts:
            if text.startswith("*"):
                moves = state.get("retreats", {}).get(power, {}).get(text[1:], [])
                dislodged.setdefault(power, []).append({"unit": text[1:], "retreats": moves})
            else:
                units.setdefault(power, []).append(text)
    data = {"units": units, "centers": state.get("centers", {}), "dislodged": dislodged}
    return Position.from_json(data, game_map)


def _shape(position: Position) -> tuple[set[str], set[str], set[str]]:
    units = {f"{u.power} {u}" for u in position.units.values()}
    dislodged = {f"{d.unit.power} {d.unit}" for d in position.dislodged.values()}
    centers = {f"{o} {c}" for c, o in position.centers.items()}
    return units, dislodged, centers


def _compare(name: str, ours: Position, theirs: Position) -> None:
    # a unit dislodged with nowhere to go: MILA's engine has removed it already
    stranded = {f"{d.unit.power} {d.unit}" for d in ours.dislodged.values() if not d.retreats}
    for what, a, b in zip(
        ("units", "dislodged units", "centres"), _shape(ours), _shape(theirs), strict=True
    ):
        if what == "dislodged units":
            a = a - (stranded - b)
        if a != b:
            extra = ", ".join(sorted(a - b)) or "none"
            lacking = ", ".join(sorted(b - a)) or "none"
            raise MilaError(
                f"phase {name}: our {what} differ from the file's (ours only: {extra}; "
                f"the file's only: {lacking})"
            )


def from_mila(
    data: Any, *, edition: str = "classic", rules: Mapping[str, str] | None = None
) -> Game:
    """Load a MILA saved game by replaying its orders here (``edition``/``rules``: the rules
    to adjudicate with; MILA's engine is closest to ``classic`` with DATC 4.A.3 ``d``)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("phases"), list):
        raise MilaError('not a MILA saved game (no "phases" list)')
    if data.get("map", "standard") != "standard":
        raise MilaError(f"map {data.get('map')!r}: only the standard map can be imported")
    phases = [p for p in data["phases"] if isinstance(p, Mapping)]
    if not phases:
        raise MilaError("the MILA game has no phases")
    try:
        return _replay(phases, edition, rules)
    except MilaError:
        raise
    except KeyError as exc:
        raise MilaError(f"damaged MILA game: {_missing(phases, exc.args[0])}") from None
    except (TypeError, AttributeError, IndexError) as exc:
        raise MilaError(f"damaged MILA game: {exc}") from None
    except ValueError as exc:
        raise MilaError(f"cannot replay the MILA game: {exc}") from None


def _missing(phases: Sequence[Mapping[str, Any]], key: object) -> str:
    """What a ``KeyError`` for ``key`` says is missing, and from which phase (the first
    without it) when a phase lacks it."""
    for k, raw in enumerate(phases):
        if key not in raw:
            return f"{key!r} is missing (phase {raw.get('name', f'number {k + 1}')})"
    return f"{key!r} is missing"


def _replay(
    phases: Sequence[Mapping[str, Any]], edition: str, rules: Mapping[str, str] | None
) -> Game:
    game = Game.new(edition=edition, rules=rules, seed=0)
    if not _standard(game.game_map):
        raise MilaError(f"edition {edition} is not played on the standard map")
    first = phases[0]
    game.phase = Phase.parse(first["name"])
    game.position = game.start = _position(first["state"])  # where the file's game began
    for k, raw in enumerate(phases):
        name = raw["name"]
        if name == COMPLETED:  # a finished MILA game: the last state is not a phase
            _agreed_end(game, raw)
            break
        phase = Phase.parse(name)
        if phase != game.phase:
            if any(r.phase == phase and r.skipped for r in game.history):
                continue  # a phase we processed at once: nobody had a choice in it
            raise MilaError(f"phase {name}: this game is at {game.phase} here")
        _compare(name, game.position, _position(raw["state"]))
        for message in raw.get("messages", ()):
            text = message.get("message", "")
            game.messages.append(Message(phase, message["sender"], message["recipient"], text))
        for power, orders in (raw.get("orders") or {}).items():
            if orders is None or power not in game.powers:
                continue
            try:
                game.submit(power, [order_from_text(text) for text in orders])
            except (GameError, ValueError) as exc:
                raise MilaError(f"phase {name}: {exc}") from None
        ended = k + 1 < len(phases) and phases[k + 1].get("name") == COMPLETED
        if ended and not raw.get("results"):
            continue  # the game ended in this phase, by a draw agreed: its orders not played
        if k + 1 < len(phases) and game.result is None:
            if phase.is_adjustments:
                _recorded_removals(game, phases[k + 1]["state"])
            game.process()
    return game


def _agreed_end(game: Game, end: Mapping[str, Any]) -> None:
    """A game the file ends (``COMPLETED``) that no phase here ended: won by the powers
    its note names ("Victory by: AUS, ENG, ..."), as :func:`to_mila` writes it: the others
    conceded, and those named, if more than one, agreed a draw."""
    if game.result is not None:
        return
    note = str((end.get("state") or {}).get("note", ""))
    named = {name.strip() for name in note.partition(":")[2].split(",")}
    voters = game.voters()
    if not voters or not named <= {p[:3] for p in voters}:
        return
    for power in voters:
        if power[:3] not in named and game.result is None:
            game.concede(power)
    for power in game.voters():
        if game.result is None:
            game.vote_draw(power)


def _recorded_removals(game: Game, after: Mapping[str, Any]) -> None:
    """A power that gave fewer removals than due (civil disorder) loses the units the
    file's next state no longer has: MILA's engine picks them by its own distance (armies
    crossing water, to the nearest home centre), which no DATC 4.D.8 choice is; they are
    given as the power's orders, so that the game goes on as it was played."""
    kept = {f"{p} {u}" for p, units in after.get("units", {}).items() for u in units}
    for power, due in game.builds_due().items():
        given = [o for o in game.orders(power) if isinstance(o, Disband)]
        if due >= 0 or len(given) >= -due:
            continue
        gone = [
            Disband(UnitRef(u.type, u.location))
            for u in game.position.units.values()
            if u.power == power and f"{power} {u}" not in kept
        ]
        if len(gone) > len(given):
            game.submit(power, gone)
