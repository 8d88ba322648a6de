"""Playing: the state of a game for one user, legal orders, entering orders, ready flags,
processing a phase (one transaction, never twice), draw votes and concession.

Secrecy: a player reads and changes only the orders of the powers they play; nobody reads
another power's orders before the phase is processed (they appear in the history after).
"""

from __future__ import annotations

import logging
import secrets
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Row, bindparam, case, delete, func, insert, select, update

from realpolitik.errors import OrderError
from realpolitik.game.editions import edition
from realpolitik.maps import load_map
from realpolitik.notation import power_name
from realpolitik.notation.grammar import MAX_LENGTH
from realpolitik.phase import Phase
from realpolitik.server import engine, limits
from realpolitik.server import tables as t
from realpolitik.server.accounts import User, check_language
from realpolitik.server.backend import Backend
from realpolitik.server.db import for_update, reading, transaction
from realpolitik.server.errors import (
    BadRequest,
    Conflict,
    NotFound,
    OrdersRefused,
    Unprocessable,
    not_playing,
    nothing_to_order,
)
from realpolitik.server.gamesettings import GameSettings
from realpolitik.server.rows import (
    ACTIVE,
    FINISHED,
    Seat,
    game_row,
    powers_of,
    seats_of,
    summary,
    visible_row,
)

if TYPE_CHECKING:
    from realpolitik.game import Game

log = logging.getLogger(__name__)

MAX_ORDERS = 64
REQUEST_LIMIT = 3
"""At most this many phases processed within a player's request (a movement phase, then
retreats and adjustments in which no person has a choice)."""


def _active_game(
    conn: Connection, game_id: int, user: User | None, *, lock: bool = False
) -> Row[Any]:
    row = visible_row(conn, game_id, user, None, lock=lock)
    if row.state is None:
        raise Conflict("this game has not started yet", code="not_started")
    return row


def _require_power(seats: list[Seat], user: User | None, power: str) -> str:
    power = power.upper()
    if user is None or power not in powers_of(seats, user):
        raise not_playing(power)
    return power


def _game(row: Row[Any]) -> Game:
    return engine.load(row.id, row.version, row.state)


# --- phases -----------------------------------------------------------------------------


def begin_phase(
    b: Backend, conn: Connection, game_id: int, game: Game, settings: GameSettings, *, first: bool
) -> None:
    """Set the new phase's clock and mark the game to be looked at: the bots' orders are
    given by :func:`order_bots`, outside any transaction (a search bot thinks for a while,
    and the database must not stay locked meanwhile)."""
    now = b.now()
    phase = engine.phase_of(game)
    press_until, deadline = settings.phase_times(phase, now, first=first)
    if game.is_over:
        press_until = deadline = None
    conn.execute(
        update(t.games)
        .where(t.games.c.id == game_id)
        .values(
            phase_started_at=now,
            press_until=press_until,
            deadline_at=deadline,
            needs_check=True,
            updated_at=now,
        )
    )


def _seat_orders(game: Game, power: str, kind: str, strength: int | None) -> list[str]:
    try:
        return engine.seat_orders(game, power, kind, secrets.randbelow(2**31), strength)
    except Exception:  # a bot must never stop the game: its units hold
        log.exception("bot %s failed for %s", kind, power)
        return []


def store_orders(
    conn: Connection,
    game_id: int,
    phase: str,
    power: str,
    orders: list[str],
    now: float,
    *,
    ready: bool | None = None,
    accept: list[str] | None = None,
    ally: list[str] | None = None,
) -> None:
    key = (t.orders.c.game_id == game_id, t.orders.c.phase == phase, t.orders.c.power == power)
    found = conn.execute(select(t.orders.c.ready).where(*key)).first()
    if found is None:
        conn.execute(
            insert(t.orders).values(
                game_id=game_id,
                phase=phase,
                power=power,
                orders=orders,
                ready=bool(ready),
                updated_at=now,
                accept=accept,
                ally=ally,
            )
        )
    else:
        values: dict[str, Any] = {"orders": orders, "updated_at": now}
        if ready is not None:
            values["ready"] = ready
        if accept is not None:
            values["accept"] = accept
        if ally is not None:
            values["ally"] = ally
        conn.execute(update(t.orders).where(*key).values(**values))


_STORED = select(t.orders).where(  # built once: see rows._GAME
    t.orders.c.game_id == bindparam("game_id"), t.orders.c.phase == bindparam("phase")
)


def _stored(conn: Connection, game_id: int, phase: str) -> dict[str, Row[Any]]:
    rows = conn.execute(_STORED, {"game_id": game_id, "phase": phase}).all()
    return {r.power: r for r in rows}


def bots_alone(game: Game, seats: list[Seat]) -> bool:
    """No person plays the game any more: nobody is seated, or every seated person's
    powers are out (conceded, eliminated). Nobody waits for its phases: it is left to the
    scheduler's loop of bots alone, and ends after ``bot_game_years``."""
    playing = set(game.voters())
    return not any(p in playing for s in seats if s.user_id is not None for p in s.powers)


def _waiting(game: Game, seats: list[Seat], stored: dict[str, Row[Any]]) -> list[str]:
    """Powers played by a person that must still say they are ready."""
    human = {p for s in seats if s.user_id is not None for p in s.powers}
    return [
        p
        for p in engine.powers_to_act(game)
        if p in human and not (p in stored and stored[p].ready)
    ]


def process_if_due(b: Backend, game_id: int) -> bool:
    """Process the game's phase if its deadline has passed or every player is ready.

    One transaction: the game row is locked, the phase re-checked, the orders read, the
    phase processed, its record written (unique per game and phase), the new state saved
    with the version bumped only if it is still the one read. Any failure rolls it all
    back; two processes never both process a phase."""
    with transaction(b.db) as conn:
        stmt = select(t.games).where(t.games.c.id == game_id)
        row = conn.execute(for_update(conn, stmt, skip_locked=True)).first()
        if row is None:  # held by another process or request: it is its turn, not ours
            return False
        if row.status != ACTIVE or row.state is None:
            return False
        now = b.now()
        seats = seats_of(conn, game_id)
        stored = _stored(conn, game_id, row.phase)
        game = engine.fresh(row.state)
        if bots_alone(game, seats):
            engine.limit_bot_game(game, b.settings.bot_game_years)
        if engine.phase_of(game) != row.phase:
            raise RuntimeError(f"game {game_id}: stored phase {row.phase} != state")
        late = row.deadline_at is not None and row.deadline_at <= now
        if not late and _waiting(game, seats, stored):
            if row.needs_check:
                conn.execute(
                    update(t.games).where(t.games.c.id == game_id).values(needs_check=False)
                )
            return False
        records = engine.process(
            game,
            {p: r.orders for p, r in stored.items()},
            {p: (r.accept, r.ally) for p, r in stored.items()},
        )
        _bots_agree(game, seats)  # the one person who had not voted may be out now
        count = conn.execute(
            select(func.count()).select_from(t.phases).where(t.phases.c.game_id == game_id)
        ).scalar_one()
        settings = GameSettings.from_json(row.settings)
        for k, record in enumerate(records):
            conn.execute(
                insert(t.phases).values(
                    game_id=game_id,
                    idx=count + k,
                    phase=str(record.phase),
                    record=engine.record_json(record),
                    created_at=now,
                    # what going back to it (a sandbox) or a fork of it needs: written once
                    replay=engine.replay_json(record),
                )
            )
        values: dict[str, Any] = {
            "state": engine.to_state(game),
            "phase": engine.phase_of(game),
            "version": row.version + 1,
            "updated_at": now,
            "alone": bots_alone(game, seats),
        }
        if game.is_over:
            values["status"] = FINISHED
            values["result"] = game_result(game)
        done = conn.execute(
            update(t.games)
            .where(t.games.c.id == game_id, t.games.c.version == row.version)
            .values(**values)
        )
        if done.rowcount != 1:
            raise Conflict("the game was processed meanwhile", code="changed_meanwhile")
        begin_phase(b, conn, game_id, game, settings, first=False)
    log.info("game %d: processed %s", game_id, ", ".join(str(r.phase) for r in records))
    return True


def process_due(b: Backend, game_id: int, limit: int = 1) -> int:
    """Process as many phases as are due, the bots ordering first; return how many."""
    done = 0
    while done < limit:
        try:
            order_bots(b, game_id)
            if not process_if_due(b, game_id):
                break
        except Conflict:
            break
        done += 1
    if done:
        order_bots(b, game_id)  # the new phase's bots order now, not when it is due
    return done


_thinking: set[int] = set()
"""The users of this process whose request is processing a game now (its bots thinking)."""
_thinking_lock = threading.Lock()


def process_for(b: Backend, game_id: int, user: User | None) -> int:
    """:func:`process_due` within a request of ``user`` (up to :data:`REQUEST_LIMIT`
    phases, the bots thinking for the next one: a second of CPU for six search bots),
    one request of a user at a time in this process: a second, while the first one
    processes, leaves the game to the scheduler (marked to be looked at; processed
    within a tick) instead of having more bots think at once on the server's one core.
    One account marking 20 games against bots ready at full speed took another player's
    view from 17 to 345 ms. Returns the phases processed here."""
    key = None if user is None else user.id
    if key is not None:
        with _thinking_lock:
            busy = key in _thinking
            if not busy:
                _thinking.add(key)
        if busy:
            with transaction(b.db) as conn:
                conn.execute(
                    update(t.games).where(t.games.c.id == game_id).values(needs_check=True)
                )
            return 0
    try:
        return process_due(b, game_id, limit=REQUEST_LIMIT)
    finally:
        if key is not None:
            with _thinking_lock:
                _thinking.discard(key)


def order_bots(b: Backend, game_id: int) -> int:
    """Give the orders of the bots' powers that have none in the current phase (stored,
    ready); return how many powers were given orders. The bots think outside any
    transaction; their orders are stored only if the game has not moved on meanwhile."""
    with reading(b.db) as conn:
        row = game_row(conn, game_id)
        if row.status != ACTIVE or row.state is None:
            return 0
        seats = seats_of(conn, game_id)
        stored = _stored(conn, game_id, row.phase)
    game = _game(row)
    if game.is_over:
        return 0
    to_act = set(engine.powers_to_act(game))
    bots = {
        power: seat.bot
        for seat in seats
        if seat.bot is not None
        for power in seat.powers
        if power in to_act and power not in stored
    }
    if not bots:
        return 0
    strength = b.settings.bot_strength
    orders = {power: _seat_orders(game, power, kind, strength) for power, kind in bots.items()}
    with transaction(b.db) as conn:
        now_row = game_row(conn, game_id, lock=True)
        if now_row.version != row.version or now_row.status != ACTIVE:
            return 0  # processed meanwhile: the next phase's bots are asked afresh
        stored = _stored(conn, game_id, row.phase)
        given = [power for power in orders if power not in stored]
        for power in given:
            store_orders(conn, game_id, row.phase, power, orders[power], b.now(), ready=True)
        conn.execute(update(t.games).where(t.games.c.id == game_id).values(needs_check=True))
    return len(given)


def due_games(b: Backend, *, alone: bool | None = None) -> list[int]:
    """Active games whose deadline has passed or whose ready flags changed: the games a
    person plays first, then those of bots alone (always due: they must not make a
    person's deadline wait; see :func:`bots_alone`), each part most overdue first (a game
    waiting on its ready flags is due since its last change). ``alone``: only the games of
    bots alone (true), or only those a person plays (false)."""
    now = b.now()
    g = t.games.c
    due_at = case(
        (g.needs_check & (g.deadline_at.is_(None) | (g.updated_at < g.deadline_at)), g.updated_at),
        else_=g.deadline_at,
    )
    stmt = select(g.id).where(g.status == ACTIVE, (g.deadline_at <= now) | g.needs_check)
    if alone is not None:
        stmt = stmt.where(g.alone if alone else ~g.alone)
    with reading(b.db) as conn:
        rows = conn.execute(stmt.order_by(g.alone, due_at, g.id)).scalars()
        return list(rows)


def creators(b: Backend, game_ids: list[int]) -> dict[int, int]:
    """The account that created each of the games ``game_ids`` (a game gone: left out)."""
    if not game_ids:
        return {}
    g = t.games.c
    with reading(b.db) as conn:
        rows = conn.execute(select(g.id, g.creator_id).where(g.id.in_(game_ids)))
        return {row.id: row.creator_id for row in rows}


# --- seats in a started game --------------------------------------------------------------


def take_over_seat(b: Backend, conn: Connection, row: Row[Any], seat: Seat) -> None:
    """A person takes a seat left empty, or a bot's (:func:`.games.join`): its powers are
    played by them now, units and centres as they stand. The orders its leaver or its bot
    gave for this phase stay, to keep or change, but not as ready: the newcomer says when
    (until then the phase waits for them, as for any player). A draw vote left on its
    powers is not the newcomer's: it goes (bots never vote; the people had not all voted,
    or the game would be drawn). The new version tells :func:`order_bots`, thinking
    meanwhile for that bot, that its orders come too late (stored only if the game has not
    changed)."""
    conn.execute(
        update(t.orders)
        .where(t.orders.c.game_id == row.id, t.orders.c.power.in_(seat.powers))
        .values(ready=False)
    )
    game = engine.fresh(row.state)
    # the players' agreed last year, or none: the server's (engine.limit_bot_game) was
    # only for the bots playing alone
    game.last_year = GameSettings.from_json(row.settings).last_year
    for power in _not_conceded(game, seat):
        game.set_civil_disorder(power, False)
        game.votes.pop(power, None)
    _save(conn, row, game, b.now())


def _not_conceded(game: Game, seat: Seat) -> list[str]:
    """The seat's powers that have not conceded: a conceded power is out for good, whoever
    leaves or takes its seat (:meth:`Game.set_civil_disorder` refuses it)."""
    return [p for p in seat.powers if p not in game.status.conceded]


def vacate_seat(b: Backend, conn: Connection, row: Row[Any], seat: Seat) -> None:
    """A player left a started game: a bot takes over, or the powers fall into civil
    disorder (conquista: they have no orders; see :meth:`Game.set_civil_disorder`). If the
    people left had all voted for a draw, the game is drawn (see :func:`_bots_agree`)."""
    settings = GameSettings.from_json(row.settings)
    now = b.now()
    game = engine.fresh(row.state)
    by_bot = settings.replace_leavers and settings.bots is not None
    if by_bot:
        conn.execute(
            update(t.seats)
            .where(t.seats.c.game_id == row.id, t.seats.c.seat == seat.seat)
            .values(bot=settings.bots)
        )
    else:
        for power in _not_conceded(game, seat):
            game.set_civil_disorder(power, True)
    seats = seats_of(conn, row.id)
    _bots_agree(game, seats)
    if game.is_over:
        _save(conn, row, game, now, deadline_at=None, **_finished(game))
    elif by_bot:  # its orders are given by order_bots, once this transaction is over
        conn.execute(
            update(t.games)
            .where(t.games.c.id == row.id)
            .values(needs_check=True, alone=bots_alone(game, seats))
        )
    else:
        _save(conn, row, game, now)


def _finished(game: Game) -> dict[str, Any]:
    """The row's values of a game that has just ended."""
    return {"status": FINISHED, "result": game_result(game)}


def game_result(game: Game) -> dict[str, Any]:
    """A game over as its row keeps it (the lobby lists it so): who won, and whether they
    share a draw the players agreed (a row stored before ``draw`` was kept is told by its
    state: migration 11)."""
    return {"winners": sorted(game.winners), "draw": _draw_info(game) is not None}


def _save(conn: Connection, row: Row[Any], game: Game, now: float, **extra: Any) -> None:
    """Store the changed game of ``row`` (and whether it is now one of bots alone), to be
    looked at."""
    conn.execute(
        update(t.games)
        .where(t.games.c.id == row.id)
        .values(
            state=engine.to_state(game),
            version=t.games.c.version + 1,
            updated_at=now,
            needs_check=True,
            alone=bots_alone(game, seats_of(conn, row.id)),
            **extra,
        )
    )


# --- reading the game -------------------------------------------------------------------


def game_state(
    b: Backend, game_id: int, user: User | None, language: str = "en", code: str | None = None
) -> dict[str, Any]:
    """Everything the user may see now: the summary, the position, ready flags, their own
    orders (never anyone else's) and the units still without an order."""
    check_language(language)
    with reading(b.db) as conn:
        row = visible_row(conn, game_id, user, code)
        seats = seats_of(conn, game_id)
        out = summary(conn, row, user, b.now(), seats)
        if row.state is None:  # forming: the powers' names, to say who will play what
            game_map = load_map(edition(str(row.settings.get("edition", "classic"))).map)
            out["names"] = {"powers": {p: power_name(p, language) for p in game_map.powers}}
            return out
        stored = _stored(conn, game_id, row.phase)
    game = _game(row)
    mine = powers_of(seats, user)
    # the same for every viewer of this version: worked out once, however many players
    # fetch the game at once when a phase is processed
    shared = engine.derived(
        row.id, row.version, ("view", language), lambda: _board_view(game, row.phase, language)
    )
    to_act = shared["to_act"]
    out.update(shared)
    out["ready"] = {p: bool(p in stored and stored[p].ready) for p in to_act}
    settings = GameSettings.from_json(row.settings)
    out["draw_votes"] = _draw_votes(game, engine.draw_votes(row.state), mine, settings, seats)
    mine_orders: dict[str, Any] = {}
    for power in mine:
        texts = list(stored[power].orders) if power in stored else []
        keys = set(engine.legal(game, power)) if power in to_act else set()
        ordered = {_key_of(o, game) for o in texts}
        mine_orders[power] = {
            "orders": [
                {
                    "order": o,
                    "text": engine.format_order(o, language, game),
                    "long": engine.format_order(o, language, game, long=True),
                }
                for o in texts
            ],
            "ready": bool(power in stored and stored[power].ready),
            "accept": list(stored[power].accept or []) if power in stored else [],
            "ally": _declared(stored.get(power), game, power),
            "to_act": power in to_act,
            "missing": sorted(k for k in keys if k != "WAIVE" and _province(k) not in ordered)
            if row.phase and not row.phase.endswith("A")
            else [],
        }
    out["orders"] = mine_orders
    return out


def _board_view(game: Game, phase: str | None, language: str) -> dict[str, Any]:
    """The part of a game's view that is the same for everyone: the position, who must
    act, the centres, the result and the names (a fresh dict: never mutate it)."""
    position = game.position
    return {
        "position": position.to_json(),
        "to_act": engine.powers_to_act(game),
        "centers": {p: len(position.centers_of(p)) for p in game.powers},
        "powers": list(game.powers),
        "unplayed": sorted(game.unplayed()),  # (out, or neutral: the legend sets them apart)
        "is_over": game.is_over,
        "winners": sorted(game.winners) if game.is_over else [],
        "conceded": sorted(game.status.conceded),
        "disorder": sorted(game.status.disorder),  # (their players left; no bot took over)
        "draw": _draw_info(game),
        "names": engine.names(game, language),
        "adjustments": game.builds_due() if phase and phase.endswith("A") else {},
        "alliances": [  # conquista: public, as formed ("since": its season and year)
            {
                "members": list(a.members),
                "formed": str(a.formed),
                "since": engine.phase_date(game, a.formed, language),
            }
            for a in game.status.alliances
        ],
    }


def _declared(stored: Any, game: Game, power: str) -> list[str]:
    """Conquista: the alliance ``power`` declares with this phase's orders: as stored, else
    the alliance it is in, which goes on (the page ticks its partners, so that saving the
    panel declares it again rather than leaving it)."""
    if stored is not None and stored.ally is not None:
        return list(stored.ally)
    return next((list(a.members) for a in game.status.alliances if power in a.members), [])


def _province(key: str) -> str:
    return key.split("/")[0]


def _key_of(order: str, game: Game) -> str:
    try:
        return engine.order_key(order, game)
    except (OrderError, ValueError):
        return ""


def _draw_info(game: Game) -> dict[str, Any] | None:
    """The agreed draw (the powers that share it), or ``None`` while there is none."""
    result = game.result
    if result is None or result.kind != "draw":
        return None
    return {"powers": list(result.winners), "phase": str(result.phase), "reason": result.reason}


def _draw_votes(
    game: Game,
    votes: dict[str, bool],
    mine: list[str],
    settings: GameSettings,
    seats: list[Seat],
) -> dict[str, Any]:
    """Who may vote for a draw (the powers people play: see :func:`_bots_agree`) and who
    does: every vote if the game's votes are public, else only the caller's own. ``votes``
    are read from the stored state, not ``game`` (shared by version: a secret vote changes
    no version, see :func:`_change`)."""
    public = settings.draw_votes == "public"
    voters = _asked_to_draw(game, seats)
    return {
        "public": public,
        "voters": voters,
        "votes": sorted(p for p in voters if votes.get(p) and (public or p in mine)),
    }


def legal_for(
    b: Backend, game_id: int, user: User | None, power: str, language: str = "en"
) -> dict[str, list[dict[str, Any]]]:
    """The legal orders of one of the user's powers, by unit location (or build province)."""
    check_language(language)
    with reading(b.db) as conn:
        row = _active_game(conn, game_id, user)
        power = _require_power(seats_of(conn, game_id), user, power)
    game = _game(row)

    def work_out() -> dict[str, list[dict[str, Any]]]:
        return {
            key: [
                {
                    "order": str(o),
                    "text": engine.format_order(o, language, game),
                    "long": engine.format_order(o, language, game, long=True),
                }
                | engine.describe(o)
                for o in options
            ]
            for key, options in engine.legal(game, power).items()
        }

    # the same for every request of the phase (the page asks on each new version)
    return engine.derived(row.id, row.version, ("legal", power, language), work_out)


def orders_for(
    b: Backend, game_id: int, user: User | None, power: str, language: str = "en"
) -> dict[str, Any]:
    check_language(language)
    with reading(b.db) as conn:
        row = _active_game(conn, game_id, user)
        power = _require_power(seats_of(conn, game_id), user, power)
        stored = _stored(conn, game_id, row.phase).get(power)
    game = _game(row)
    texts = list(stored.orders) if stored else []
    return {
        "phase": row.phase,
        "power": power,
        "orders": [{"order": o, "text": engine.format_order(o, language, game)} for o in texts],
        "ready": bool(stored and stored.ready),
        "accept": list(stored.accept or []) if stored else [],
        "ally": _declared(stored, game, power),
    }


def submit_orders(
    b: Backend,
    game_id: int,
    user: User,
    power: str,
    texts: list[str],
    *,
    language: str = "en",
    merge: bool = False,
    ready: bool | None = None,
    accept: list[str] | None = None,
    ally: list[str] | None = None,
    phase: str | None = None,
) -> dict[str, Any]:
    """Store the power's orders for this phase (``merge``: only replace the orders of the
    units named), with (conquista) the foreign supports it ``accept``s and the alliance it
    declares (``ally``; ``None``: keep the stored ones). Every order is checked first
    against the position and the rules (see :func:`engine.judge_orders`): if any is
    refused, nothing is stored and the answer (422) names each refused order with the
    reason in ``language``; a bad ``accept`` or ``ally`` is refused likewise (422).
    ``phase``: the phase the orders are for (if the game is in another, 409: a late
    submission is never judged against, or stored for, the next phase). Committed before
    this returns."""
    check_language(language)
    if len(texts) > MAX_ORDERS:
        raise BadRequest(
            f"at most {MAX_ORDERS} orders at once", code="too_many_orders", values={"n": MAX_ORDERS}
        )
    for text in texts:
        if not text.strip() or len(text) > MAX_LENGTH:
            raise BadRequest(
                f"an order is 1 to {MAX_LENGTH} characters: {text[:40]!r}",
                code="order_too_long",
                values={"n": MAX_LENGTH},
            )
    with reading(b.db) as conn:
        row = _active_game(conn, game_id, user)
        if row.status != ACTIVE:
            raise Conflict("this game is over", code="game_over")
        power = _require_power(seats_of(conn, game_id), user, power)
    phase = phase_said(phase)
    if phase is not None and phase != row.phase:
        raise Conflict(
            f"these orders are for {phase}, the game is in {row.phase}",
            code="phase_moved",
        )
    if power not in engine.powers_to_act(_game(row)):
        raise nothing_to_order(power, row.phase)
    game = engine.scratch(row.id, row.version, row.state)
    canonical, refused = engine.judge_orders(game, power, texts, language)
    if refused:
        raise OrdersRefused(power, refused)
    try:
        if accept is not None:
            accept = engine.check_accept(game, power, accept)
        if ally is not None:
            ally = engine.check_ally(game, power, ally)
    except ValueError as exc:  # the game's own refusal, naming what is wrong
        raise Unprocessable(str(exc)) from None
    with transaction(b.db) as conn:  # the game row locked: submissions queue here
        now_row = game_row(conn, game_id, lock=True)
        if now_row.phase != row.phase or now_row.status != ACTIVE:
            raise Conflict(
                f"the phase has changed to {now_row.phase}: these orders were for {row.phase}"
                " and were not stored",
                code="phase_moved",
            )
        # the seat again, locked: the player may have left it while the orders were judged
        _require_power(seats_of(conn, game_id), user, power)
        if merge:  # read, merge and write in this one transaction: no submission is lost
            current = _stored(conn, game_id, row.phase).get(power)
            if current is not None:
                fresh = engine.scratch(row.id, row.version, row.state)
                canonical, refused = engine.judge_orders(
                    fresh, power, canonical, "en", list(current.orders)
                )
                if refused:
                    raise OrdersRefused(power, refused)
        store_orders(
            conn, game_id, row.phase, power, canonical, b.now(),
            ready=ready, accept=accept, ally=ally,
        )  # fmt: skip
        stored = _stored(conn, game_id, row.phase)[power]
        if ready:
            conn.execute(update(t.games).where(t.games.c.id == game_id).values(needs_check=True))
    processed = bool(ready) and process_for(b, game_id, user) > 0
    if ready and not processed:  # the scheduler or another process may have been first
        with reading(b.db) as conn:
            processed = game_row(conn, game_id).phase != row.phase
    return {  # what was stored, for the phase it was stored in (processed or not)
        "phase": row.phase,
        "power": power,
        "orders": [{"order": o, "text": engine.format_order(o, language, game)} for o in canonical],
        "ready": bool(stored.ready),
        "accept": list(stored.accept or []),
        "ally": _declared(stored, game, power),
        "processed": processed,
    }


def phase_said(phase: str | None) -> str | None:
    """The phase a request names, as the game names it (``s1901m``: S1901M); one that is
    no phase's name is refused (400), not taken for a phase gone by (409) or not yet
    processed (404)."""
    if phase is None:
        return None
    try:
        return str(Phase.parse(phase))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def set_ready(
    b: Backend, game_id: int, user: User, power: str, ready: bool, phase: str | None = None
) -> dict[str, Any]:
    """Mark the power ready (or not) in the current phase; once every power to act is,
    the phase is processed. ``phase``: the phase the player said it for (if the game has
    moved on, 409 and nothing changed: a late Ready never marks a phase its player has not
    seen, which would be processed with that power's units holding)."""
    phase = phase_said(phase)
    with transaction(b.db) as conn:
        row = _active_game(conn, game_id, user, lock=True)
        if row.status != ACTIVE:
            raise Conflict("this game is over", code="game_over")
        power = _require_power(seats_of(conn, game_id), user, power)
        if phase is not None and phase != row.phase:
            raise Conflict(
                f"ready was said for {phase}, the game is in {row.phase}: nothing was changed",
                code="ready_moved",
            )
        game = _game(row)
        if power not in engine.powers_to_act(game):
            raise nothing_to_order(power, row.phase)
        current = _stored(conn, game_id, row.phase).get(power)
        store_orders(
            conn,
            game_id,
            row.phase,
            power,
            list(current.orders) if current else [],
            b.now(),
            ready=ready,
        )
        conn.execute(update(t.games).where(t.games.c.id == game_id).values(needs_check=True))
    process_for(b, game_id, user)
    return {"power": power, "phase": row.phase, "ready": ready}


# --- draws and concession ---------------------------------------------------------------


def vote_draw(b: Backend, game_id: int, user: User, power: str, agree: bool) -> dict[str, Any]:
    """Vote for a draw (``agree``) or withdraw the vote; at most ``draw_votes_per_window``
    votes of a power in a while (429, :mod:`.limits`)."""
    return _change(b, game_id, user, power, lambda g, p: g.vote_draw(p, agree), vote=True)


def concede(b: Backend, game_id: int, user: User, power: str) -> dict[str, Any]:
    """``power`` concedes; its seat keeps who conceded it (the table is told: game.js)."""
    return _change(b, game_id, user, power, lambda g, p: g.concede(p), conceding=True)


def _conceded_by(conn: Connection, game_id: int, seats: list[Seat], power: str, user: User) -> None:
    """Keep with ``power``'s seat that ``user`` conceded it (each power its own: a seat of
    several powers may change hands between two concessions)."""
    seat = next(s.seat for s in seats if power in s.powers)
    where = (t.seats.c.game_id == game_id, t.seats.c.seat == seat)
    kept = conn.execute(select(t.seats.c.conceded_by).where(*where)).scalar() or {}
    conn.execute(update(t.seats).where(*where).values(conceded_by={**kept, power: user.id}))


def _change(
    b: Backend,
    game_id: int,
    user: User,
    power: str,
    act: Any,
    *,
    vote: bool = False,
    conceding: bool = False,
) -> dict[str, Any]:
    with transaction(b.db) as conn:
        row = _active_game(conn, game_id, user, lock=True)
        if row.status != ACTIVE:
            raise Conflict("this game is over", code="game_over")
        seats = seats_of(conn, game_id)
        power = _require_power(seats, user, power)
        if vote:
            limits.count_draw_vote(b, conn, game_id, power)
        game = engine.fresh(row.state)
        votes = dict(game.votes)
        if power in game.status.conceded:  # (in another tab)
            raise Conflict(f"{power} has conceded", code="power_conceded", values={"power": power})
        if vote and power not in game.voters():
            raise Conflict(
                f"{power} has no units left: it has no say in a draw",
                code="no_say_in_draw",
                values={"power": power},
            )
        try:
            act(game, power)
        except ValueError as exc:
            raise Conflict(str(exc)) from None
        if conceding:
            _conceded_by(conn, game_id, seats, power, user)
        _bots_agree(game, seats)  # (a concession too: the others may all have voted)
        secret = GameSettings.from_json(row.settings).draw_votes == "secret"
        if game.is_over:
            _save(conn, row, game, b.now(), deadline_at=None, **_finished(game))
        elif vote and game.votes == votes:
            pass  # the vote stood already: nothing changes
        elif vote and secret:
            # only the voter may know: the state changes, and nothing the others can see
            # (no new version, no clock, no look by the scheduler; engine.draw_votes)
            state = engine.to_state(game)
            conn.execute(update(t.games).where(t.games.c.id == game_id).values(state=state))
        else:
            _save(conn, row, game, b.now())
    return {"is_over": game.is_over, "winners": sorted(game.winners), "draw": _draw_info(game)}


def _asked_to_draw(game: Game, seats: list[Seat]) -> list[str]:
    """The powers whose votes decide a draw: those still in the game that a person plays
    (a bot never votes; see :func:`_bots_agree`)."""
    people = {p for s in seats if s.user_id is not None for p in s.powers}
    return [p for p in game.voters() if p in people]


def _bots_agree(game: Game, seats: list[Seat]) -> None:
    """Once every power a person plays has voted for a draw, the bots' powers vote for it
    too: the game is drawn, shared by every power still in it. (Bots never vote: a game
    with bots in its seats could never be drawn.)"""
    asked = _asked_to_draw(game, seats)
    if game.is_over or not asked or not all(game.votes.get(p) for p in asked):
        return
    for power in game.voters():
        if power not in asked and not game.is_over:
            game.vote_draw(power, True)


# --- history ----------------------------------------------------------------------------


def history(
    b: Backend,
    game_id: int,
    language: str = "en",
    user: User | None = None,
    code: str | None = None,
) -> list[dict[str, Any]]:
    """The processed phases, oldest first, with their names in ``language``."""
    check_language(language)
    with reading(b.db) as conn:
        row = visible_row(conn, game_id, user, code)
        rows = conn.execute(
            select(t.phases.c.idx, t.phases.c.phase)
            .where(t.phases.c.game_id == game_id)
            .order_by(t.phases.c.idx)
        ).all()
    game = _game(row) if row.state is not None else None
    return [
        {
            "idx": r.idx,
            "phase": r.phase,
            "name": engine.phase_title(game, r.phase, language) if game else r.phase,
        }
        for r in rows
    ]


def phase_record(
    b: Backend,
    game_id: int,
    phase: str,
    language: str = "en",
    user: User | None = None,
    code: str | None = None,
) -> dict[str, Any]:
    """A processed phase: the position before it, every order with its result, each in
    ``language``: ``text`` (the order's notation), ``long`` (a sentence), ``subject`` (its
    unit in words, "El ejército de París") and ``said`` (the reason, ``""`` for none;
    ``reason`` stays the stored English)."""
    check_language(language)
    with reading(b.db) as conn:
        row = visible_row(conn, game_id, user, code)
        phase = str(phase_said(phase))
        found = conn.execute(
            select(t.phases.c.record).where(
                t.phases.c.game_id == game_id, t.phases.c.phase == phase
            )
        ).first()
    if found is None or row.state is None:
        raise NotFound(f"phase {phase} of game {game_id} has not been processed")
    record = dict(found.record)
    game = _game(row)
    record["orders"] = {  # each order in the language's notation, as a sentence, and why
        power: [
            e
            | {
                "text": engine.format_order(e["order"], language, game),
                "long": engine.format_order(e["order"], language, game, long=True),
                "subject": engine.order_subject(e["order"], language, game),
                "said": engine.say_reason(e.get("reason"), language, game),
            }
            for e in entries
        ]
        for power, entries in record["orders"].items()
    }
    return record


def clear_old_orders(b: Backend, game_id: int) -> None:
    """Drop stored orders of processed phases (they live on in the phase records)."""
    with transaction(b.db) as conn:
        row = game_row(conn, game_id, lock=True)
        conn.execute(
            delete(t.orders).where(t.orders.c.game_id == game_id, t.orders.c.phase != row.phase)
        )
