"""The one place the server calls the game library: new games, loading a stored game,
checking orders, legal orders, processing a phase, bots, notation and the map picture.

The server keeps a game as ``game_to_json(game)`` in the database and the current phase's
orders in their own rows; processing loads the game, submits the stored orders and calls
``Game.process()``. Nothing here knows a rule: every answer comes from the library.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from realpolitik import notation
from realpolitik import orders as o
from realpolitik.adjudicator import Resolution
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome
from realpolitik.bots import PowerView, make_bot
from realpolitik.errors import OrderError
from realpolitik.formats.savegame import game_from_json, game_to_json, read_votes, record_to_json
from realpolitik.game import Game
from realpolitik.game.records import PhaseRecord
from realpolitik.notation import parse_order
from realpolitik.notation.formatter import place_name, power_name, unit_phrase
from realpolitik.notation.lexicon import language_data
from realpolitik.notation.reasons import say
from realpolitik.orders import Order, order_unit
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.render import svg
from realpolitik.render.legend import phase_name
from realpolitik.render.words import Words
from realpolitik.vocab import Power

log = logging.getLogger(__name__)

T = TypeVar("T")

_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, Game]] = OrderedDict()  # game id: its newest version
_cache_lock = threading.Lock()


def new_game(
    *,
    variant: str,
    edition: str,
    seats: int,
    seed: int,
    setup: str | None = None,
    last_year: int | None = None,
) -> Game:
    """A new game for ``seats`` players at the edition's table ``setup`` (None: its first
    for that many), powers assigned at random (from ``seed``); ``last_year``: the one the
    players agreed (a shortened game)."""
    players = [seat_player(k) for k in range(1, seats + 1)]
    return Game.new(
        variant=variant, edition=edition, players=players, seed=seed, setup=setup,
        last_year=last_year,
    )  # fmt: skip


def seat_player(seat: int) -> str:
    return f"seat{seat}"


def seat_powers(game: Game) -> dict[int, list[Power]]:
    """Seat number -> the powers that seat plays."""
    out: dict[int, list[Power]] = {}
    for player, powers in game.players.items():
        out[int(str(player).removeprefix("seat"))] = sorted(powers)
    return out


def load(game_id: int, version: int, state: Mapping[str, Any]) -> Game:
    """The stored game, shared between readers (cached by id and version: never mutate
    it; use :func:`fresh` to change a game). Only a game's newest version is kept: the
    older ones would be asked for again only by a request already under way. Its draw
    votes may be older than the state's (:func:`draw_votes`)."""
    with _cache_lock:
        hit = _cache.get(game_id)
        if hit is not None and hit[0] == version:
            _cache.move_to_end(game_id)
            return hit[1]
    game = fresh(state)
    with _cache_lock:
        hit = _cache.get(game_id)
        if hit is None or hit[0] < version:
            _cache[game_id] = (version, game)
            _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return game


def clear_cache() -> None:
    """Forget every loaded game and what was worked out from it (a database replaced by
    another, as in tests)."""
    with _cache_lock:
        _cache.clear()
        _derived.clear()


_derived: OrderedDict[int, tuple[int, dict[tuple[Any, ...], Any]]] = OrderedDict()
_making: dict[tuple[int, int, tuple[Any, ...]], threading.Lock] = {}  # answers being made


def derived(game_id: int, version: int, what: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()``, worked out once per version of a game (``what``: which answer): the
    answers every player of a phase asks for alike (its legal orders, names, the board
    part of its view). Only the newest version's answers are kept, for the games most
    recently asked about. Readers asking at once while it is being made wait for the one
    making it (the burst of fetches after a phase). Shared between readers: never mutate
    it."""
    hit = _derived_hit(game_id, version, what)
    if hit is not None:
        found: T = hit[0]
        return found
    key = (game_id, version, what)
    with _cache_lock:
        making = _making.setdefault(key, threading.Lock())
    with making:
        hit = _derived_hit(game_id, version, what)  # made while this one waited
        if hit is not None:
            waited: T = hit[0]
            return waited
        try:
            value = make()  # made whole before anyone can read it
        except BaseException:
            with _cache_lock:
                _making.pop(key, None)
            raise
        with _cache_lock:
            _making.pop(key, None)
            entry = _derived.get(game_id)
            if entry is None or entry[0] < version:
                entry = _derived[game_id] = (version, {})
            if entry[0] == version:
                entry[1][what] = value
            _derived.move_to_end(game_id)
            while len(_derived) > _CACHE_SIZE:
                _derived.popitem(last=False)
    return value


def _derived_hit(game_id: int, version: int, what: tuple[Any, ...]) -> tuple[Any] | None:
    with _cache_lock:
        entry = _derived.get(game_id)
        if entry is not None and entry[0] == version and what in entry[1]:
            _derived.move_to_end(game_id)
            return (entry[1][what],)
    return None


def scratch(game_id: int, version: int, state: Mapping[str, Any]) -> Game:
    """A private copy of the stored game, to check orders against."""
    return load(game_id, version, state).copy()


def draw_votes(state: Mapping[str, Any]) -> dict[str, bool]:
    """The draw votes in a stored game, read from the state itself: a secret vote changes
    the state without a new version, so the game :func:`load` gives for that version may hold
    older votes."""
    return read_votes(state)


def fresh(state: Mapping[str, Any]) -> Game:
    return game_from_json(dict(state))


def to_state(game: Game) -> dict[str, Any]:
    """The game as stored: its saved game without the history (each processed phase has a
    row of its own: :func:`record_json` and :func:`replay_json`), so
    loading and saving a game cost as much in its twentieth year as in its first."""
    state = game_to_json(game)
    state["history"] = []
    return state


REPLAY = ("orders", "civil_disorder", "status")
"""What a phase's saved-game record holds that its :func:`record_json` does not: the orders
as given (the outcomes are how they were adjudicated), the powers in civil disorder in it,
the status before it (:meth:`Game.rollback` starts the phase again from it)."""


def replay_json(record: PhaseRecord) -> dict[str, Any]:
    """What going back to the phase of ``record`` (a sandbox) or a fork of it needs beyond
    its :func:`record_json` (:data:`REPLAY`), as the phase's row keeps it."""
    saved = record_to_json(record)
    return {key: saved[key] for key in REPLAY}


def with_history(
    state: Mapping[str, Any], rows: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]
) -> dict[str, Any]:
    """The stored ``state`` with its history rebuilt from its phases' ``rows`` (each its
    :func:`record_json` and :func:`replay_json`, oldest first): the saved game whole, as
    :meth:`Game.rollback` takes it back (a sandbox's; only there is the whole read)."""
    return dict(state) | {"history": [_saved_record(record, replay) for record, replay in rows]}


def _saved_record(record: Mapping[str, Any], replay: Mapping[str, Any]) -> dict[str, Any]:
    """A phase's saved-game record (:func:`~realpolitik.formats.savegame.record_to_json`)
    made again from its :func:`record_json` and :func:`replay_json`."""
    return {
        "phase": record["phase"],
        "position": record["position"],
        "outcomes": [
            {"power": power, **entry}
            for power, entries in record["orders"].items()
            for entry in entries
        ],
        "skipped": bool(record.get("skipped", False)),
        "accepted": [
            [power, prov] for power, provs in record.get("accepted", {}).items() for prov in provs
        ],
        "declared": dict(record.get("declared", {})),
        "events": list(record.get("events", ())),
    } | {key: replay[key] for key in REPLAY if key in replay}


def limit_bot_game(game: Game, years: int) -> None:
    """Give a game no person plays an end: ``years`` after its start (or now, if
    that is later), the powers with most centres win as in a shortened game. A game that
    has one (the players' agreed last year) keeps it."""
    if game.last_year is None:
        first = game.edition.first_year(game.setup)
        game.last_year = max(game.phase.year, first + years - 1)


def phase_of(game: Game) -> str:
    return str(game.phase)


def powers_to_act(game: Game) -> list[Power]:
    """Powers that have orders to give in the current phase (none once the game is over)."""
    if game.is_over:
        return []
    return sorted(game.must_order())


def alive_powers(game: Game) -> list[Power]:
    position = game.position
    alive = {u.power for u in position.units.values()} | set(position.centers.values())
    alive |= {d.unit.power for d in position.dislodged.values()}
    return sorted(p for p in game.powers if p in alive)


def powers_in(game: Game) -> list[Power]:
    """The powers still in the game: a unit or a centre on the board, not conceded (a seat
    of none of them is no seat to take: :func:`.rows.open_seats`)."""
    conceded = game.status.conceded
    return [p for p in alive_powers(game) if p not in conceded]


def check_orders(game: Game, power: Power, texts: Sequence[str], language: str) -> list[str]:
    """Check ``texts`` as the whole of ``power``'s orders; return them in the canonical
    English notation. Raises :class:`OrderError` naming the bad order. The game passed in
    is changed (the orders are submitted to it): pass a fresh or throwaway one."""
    orders = game.submit(power, list(texts), language=language)
    return [str(o) for o in orders]


def check_accept(game: Game, power: Power, units: Sequence[str]) -> list[str]:
    """Conquista: the provinces of the foreign units whose support ``power`` accepts, as
    :meth:`Game.accept_support` checks them (a :class:`GameError` says what is wrong)."""
    return [str(p) for p in game.accept_support(power, units)]


def check_ally(game: Game, power: Power, partners: Sequence[str]) -> list[str]:
    """Conquista: the members of the alliance ``power`` declares (``[]``: none), as
    :meth:`Game.declare_alliance` checks them."""
    return list(game.declare_alliance(power, partners))


def order_key(order_text: str, game: Game) -> str:
    """Which unit (or build province) an order is for: one order per key."""
    order = parse_order(order_text, game_map=game.game_map)
    ref = order_unit(order)
    return "WAIVE" if ref is None else ref.province


def merge_orders(game: Game, current: Sequence[str], new: Sequence[str]) -> list[str]:
    """``current`` with each order of ``new`` replacing the order for the same unit."""
    replaced = {order_key(o, game) for o in new if order_key(o, game) != "WAIVE"}
    kept = [o for o in current if order_key(o, game) not in replaced]
    return kept + list(new)


def legal(game: Game, power: Power) -> dict[str, list[Order]]:
    return dict(game.legal_orders(power).get(power, {}))


def describe(order: Order) -> dict[str, Any]:
    """What the browser needs to offer an order on the map: its kind, the province it goes
    to (``dest``), the unit it supports or convoys (``target``)."""
    out: dict[str, Any] = {"kind": type(order).__name__.lower()}
    if isinstance(order, o.SupportHold | o.SupportMove):
        out["kind"] = "support"
        out["target"] = order.supported.province
    if isinstance(order, o.Convoy):
        out["target"] = order.convoyed.province
    if isinstance(order, o.Move | o.Retreat | o.SupportMove | o.Convoy):
        out["dest"] = order.destination.split("/")[0]
    if isinstance(order, o.SupportHold):
        out["dest"] = order.supported.province
    if isinstance(order, o.Build):
        out["dest"] = order.unit.province
    if isinstance(order, o.Move) and order.via_convoy:
        out["via"] = True
    return out


def format_order(order: Order | str, language: str, game: Game, *, long: bool = False) -> str:
    """An order in ``language``'s notation (English if that language has none yet);
    ``long``: as a sentence ("La flota de Londres se mueve al Mar del Norte.")."""
    game_map = game.game_map
    if isinstance(order, str):
        if language == "en" and not long:
            return order
        text = order
        try:
            parsed = notation.parse_order(order, game_map=game_map)
        except OrderError:
            return text
    else:
        parsed = order
    try:
        return notation.format_order(
            parsed, language, "long" if long else "short", game_map=game_map
        )
    except (ValueError, KeyError):
        return str(parsed)


def order_subject(order: str, language: str, game: Game) -> str:
    """The unit of a stored order as a sentence's subject in ``language``: ``"A PAR H"`` ->
    ``"El ejército de París"`` (a hold that stood is told by it: "El ejército de París se
    mantuvo", not its order's words again); ``""`` for a waive or an order not read."""
    try:
        unit = order_unit(notation.parse_order(order, game_map=game.game_map))
    except OrderError:
        return ""
    if unit is None:
        return ""
    text = unit_phrase(unit, language, game_map=game.game_map)
    return text[:1].upper() + text[1:]


def say_reason(reason: str | None, language: str, game: Game) -> str:
    """A result's reason, stored in English, said in ``language`` (``""`` for none); English
    that names what the map does not know stays as stored."""
    parsed = Reason.parse(reason or "")
    if parsed is None:
        return ""
    try:
        return notation.explain(parsed, language, game_map=game.game_map)
    except (KeyError, ValueError):
        return reason or ""


def process(
    game: Game,
    stored: Mapping[Power, Sequence[str]],
    declared: Mapping[Power, tuple[Sequence[str] | None, Sequence[str] | None]] | None = None,
) -> list[PhaseRecord]:
    """Submit the stored orders (and, conquista, each power's ``declared`` accepted
    supports and alliance), process the phase; return the records of the phases processed
    (one, or more when empty phases were skipped), each to store as its
    :func:`record_json` and its :func:`replay_json`."""
    for power, texts in stored.items():
        try:
            game.submit(power, list(texts))
        except (OrderError, ValueError) as exc:  # checked on entry; a rule change can't
            log.warning("orders of %s dropped at processing: %s", power, exc)
    for power, (accept, ally) in (declared or {}).items():
        try:
            if accept:
                game.accept_support(power, accept)
            if ally is not None:
                game.declare_alliance(power, ally)
        except ValueError as exc:  # checked on entry, as the orders
            log.warning("acceptances or alliance of %s dropped at processing: %s", power, exc)
    before = len(game.history)
    game.process()
    return game.history[before:]


def record_json(record: PhaseRecord) -> dict[str, Any]:
    """A history record as JSON: ``phase``, ``position`` (before), ``orders`` (per power:
    ``order``, ``result``, ``reason``), ``after`` (the position after); conquista, when
    given: ``accepted`` (per power, the provinces of the foreign units whose support it
    accepted) and ``declared`` (per power, the alliance it declared); ``events``, when the
    phase had any (civil disorder, an alliance formed, the end of the game: each as
    :meth:`Event.to_json <realpolitik.game.records.Event.to_json>` gives it); ``skipped``
    (true) for a phase in which nobody had a choice, processed by itself."""
    orders: dict[str, list[dict[str, Any]]] = {}
    for outcome in record.outcomes:
        orders.setdefault(outcome.power, []).append(outcome.to_json())
    out: dict[str, Any] = {
        "phase": str(record.phase),
        "position": record.position.to_json(),
        "orders": dict(sorted(orders.items())),
        "after": record.after.to_json(),
    }
    accepted: dict[str, list[str]] = {}
    for power, prov in sorted(record.accepted):
        accepted.setdefault(power, []).append(prov)
    if accepted:  # conquista: the foreign supports each power accepted
        out["accepted"] = accepted
    declared = record.declared
    if declared:  # conquista: the alliances declared with the orders
        out["declared"] = {p: list(m) for p, m in sorted(declared.items())}
    if record.events:  # civil disorder, alliances formed, the end of the game...
        out["events"] = [e.to_json() for e in record.events]
    if record.skipped:  # nobody had a choice: processed by itself
        out["skipped"] = True
    return out


def seat_orders(
    game: Game, power: Power, kind: str, seed: int, strength: int | None = None
) -> list[str]:
    """The orders, as text, that a bot seat of ``kind`` writes for ``power``: a new bot of
    that kind and ``seed`` (``strength``: the search bot's budget) shown the power's view;
    none when the power has no legal orders. (Not :func:`realpolitik.bots.bot_orders`,
    which asks a given bot and names its failures.)"""
    bot = make_bot(kind, seed=seed, strength=strength)
    options = legal(game, power)
    if not options:
        return []
    view = PowerView.of(game, power)
    return [str(o) for o in bot.orders(view, options)]


# The board's units twice the picture's size, unless the page asks for another (a phone's
# are larger still): drawn so by the renderer, with the rings round them, the orders' ends
# and the centres' stars clear of them.
UNIT_SCALE = 2.0


def render_current(
    game: Game,
    orders: Mapping[Power, Sequence[str]],
    *,
    language: str = "en",
    unit_scale: float = UNIT_SCALE,
) -> str:
    """The current position, with the orders of the powers in ``orders`` drawn (a player's
    own: no one else's), its units ``unit_scale`` times the plain picture's size."""
    drawn = {p: _parse_all(game, texts) for p, texts in orders.items()} or None
    return svg.render(
        game.position,
        game_map=game.game_map,
        orders=drawn,
        phase=game.phase,
        language=language,
        edition=game.edition.name,
        unit_scale=unit_scale,
        unplayed=game.unplayed(),
    )


def render_record(
    game: Game,
    record: Mapping[str, Any],
    after: Mapping[str, Any] | None,
    *,
    language: str = "en",
    unit_scale: float = UNIT_SCALE,
) -> str:
    """A processed phase from its stored record (:func:`record_json`): the position before
    it, every order and its result; ``after``: the position that followed (``None``: the
    game's current one). Its units ``unit_scale`` times the plain picture's size."""
    phase = Phase.parse(record["phase"])
    game_map = game.map_for(phase)
    outcomes = tuple(
        Outcome(
            power,
            parse_order(e["order"], game_map=game_map),
            OrderResult(e["result"]),
            Reason.parse(str(e.get("reason", ""))),
            None if e.get("unit") is None else OrderResult(e["unit"]),
            bool(e.get("implied", False)),
        )
        for power, entries in record["orders"].items()
        for e in entries
    )
    before = Position.from_json(record["position"], game_map)
    end = game.position if after is None else Position.from_json(after, game.game_map)
    return svg.render(
        before,
        game_map=game_map,
        results=Resolution(phase, outcomes, end),
        language=language,
        id_prefix="h-",
        edition=game.edition.name,
        unit_scale=unit_scale,
        unplayed=game.unplayed(phase),
    )


def _parse_all(game: Game, texts: Sequence[str]) -> list[Order]:
    out: list[Order] = []
    for text in texts:
        try:
            out.append(parse_order(text, game_map=game.game_map))
        except OrderError:
            continue
    return out


def judge_orders(
    game: Game,
    power: Power,
    texts: Sequence[str],
    language: str,
    current: Sequence[str] = (),
) -> tuple[list[str], list[dict[str, str]]]:
    """Check ``texts`` (written in ``language``) as ``power``'s orders, with ``current``
    (canonical English) kept for the units the texts do not name; return the power's
    orders in canonical English and the refused ones (``order``: the text as given,
    ``reason``: why, in ``language``).

    An order is refused if the notation's board check refuses it (its reason is in
    ``language``), unless the edition's legal orders list it; then if the adjudicator,
    judging the orders on a throwaway copy of ``game``, calls it illegal."""
    words = language_data(language)
    texts = notation.order_each(texts, language=language, game_map=game.game_map)
    given: list[tuple[str, Order]] = []
    refused: list[dict[str, str]] = []
    known: list[set[str]] = []
    for text in texts:
        try:
            order = parse_order(
                text,
                language=language,
                position=game.position,
                game_map=game.game_map,
                power=power,
                phase=game.phase,
                rules=game.rules,
            )
        except OrderError as exc:
            # the board check knows no edition's own rules (grow's builds): an order it
            # refuses stands if the edition's legal orders list it as written
            reason = _without_text(str(exc), text)
            try:
                plain: Order | None = parse_order(text, language=language, game_map=game.game_map)
            except OrderError:
                plain = None
            if plain is None or str(plain) not in _legal_texts(game, power, known):
                refused.append({"order": text, "reason": reason})
                continue
            order = plain
        given.append((text, order))
    keys: dict[str, str] = {}
    for text, order in given:
        ref = order_unit(order)
        if ref is None:
            continue
        if ref.province in keys:
            said = say(
                "second_order",
                language,
                game_map=game.game_map,
                province=ref.province,
                text=keys[ref.province],
            )
            refused.append({"order": text, "reason": said})
        keys[ref.province] = text
    if refused:
        return [], refused
    new = [str(o) for _, o in given]
    orders = merge_orders(game, current, new) if current else new
    try:  # the game's own checks (kinds of the phase, whose unit, one order each) on a
        # copy that shares the position: only its pending orders are its own
        submitted = game.copy().submit(power, orders)
    except (OrderError, ValueError) as exc:
        text = getattr(exc, "text", "") or ""
        return [], [{"order": text, "reason": str(exc)}]
    illegal = str(words["results"]["illegal"]) + str(words["messages"]["colon"])
    offset = len(submitted) - len(given)  # the kept orders come first
    for k, rule in sorted(game.illegal_orders(power, submitted).items()):
        why = notation.explain(rule, language, game_map=game.game_map)
        if k < offset:  # a kept order the rules now refuse: named as it was stored
            refused.append({"order": str(submitted[k]), "reason": why})
            continue
        refused.append({"order": given[k - offset][0], "reason": illegal + why})
    if refused:
        return [], refused
    return [str(o) for o in submitted], []


def _legal_texts(game: Game, power: Power, known: list[set[str]]) -> set[str]:
    """The power's legal orders as text (worked out once, kept in ``known``)."""
    if not known:
        known.append({str(o) for options in legal(game, power).values() for o in options})
    return known[0]


def _without_text(message: str, text: str) -> str:
    """A notation message without the order it quotes at its end."""
    for suffix in (f' ("{text}")', f" ({text!r})"):
        if message.endswith(suffix):
            return message[: -len(suffix)]
    return message


def names(game: Game, language: str) -> dict[str, Any]:
    """What the page shows in ``language``: the powers' names, the current phase's (a game
    over's: the one it ended in, not the one its state moved on to and never plays), the
    provinces' (``"Moscú"``; ``places``: with the article a sentence gives them, ``"el
    Tirol"``) and the units' on the board, dislodged ones too (``"A MOS"``: ``"el ejército
    de Moscú"``)."""
    words = Words(language, game_map=game.game_map, edition=game.edition.name)
    position = game.position
    units = [*position.units.values(), *(d.unit for d in position.dislodged.values())]
    over = game.result
    return {
        "powers": {p: power_name(p, language) for p in game.powers},
        "phase": phase_title(game, str(over.phase if over else game.phase), language),
        "provinces": {p: words.province(p, "long") for p in game.game_map.provinces},
        "places": {
            p: place_name(p, language, game_map=game.game_map, prep="")
            for p in game.game_map.provinces
        },
        "units": {
            str(u): unit_phrase(o.UnitRef(u.type, u.location), language, game_map=game.game_map)
            for u in units
        },
    }


def phase_title(game: Game, phase: str, language: str) -> str:
    """``"Spring 1901 Movement"``, ``"Otoño de 1901, retiradas"`` (the edition's seasons)."""
    return edition_phase_title(game.edition.name, phase, language)


def phase_date(game: Game, phase: Phase, language: str) -> str:
    """A phase's season and year in ``language`` (``"Primavera de 1914"``), by the
    edition's seasons."""
    return Words(language, edition=game.edition.name).date(phase)


def edition_phase_title(edition: str, phase: str, language: str) -> str:
    """A phase's name in ``language`` by the seasons of ``edition`` (no game needed)."""
    return phase_name(Phase.parse(phase), Words(language, edition=edition))
