"""A sandbox's way back: its creator takes it back to an earlier phase of its history, to
play that phase again another way; and a sandbox forked from another game's position
(:func:`fork`), to try lines for every power there.

A sandbox's stored state holds no history, as no game's does (processing its two hundredth
phase costs what its first did): each processed phase's row keeps, besides its record,
what going back to it needs (:func:`.engine.replay_json`, written once as the phase is
processed). Going back reads them all, rebuilds the saved game whole
(:func:`.engine.with_history`) and the game layer's own :meth:`Game.rollback` makes the
fork; the phases after the one gone back to are dropped, and the orders given in it come
back as its orders, none ready (to change one and play again). One transaction on the
game's locked row, as processing a phase: the scheduler, which skips a game another holds,
never processes it halfway through, nor does a phase processed meanwhile add a row.

A fork of a past phase of any game starts from the status the phase began with (who had
conceded, the alliances, the coin toss), which every game's rows keep the same way.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, delete, select, update

from realpolitik.errors import GameError
from realpolitik.game.records import EventKind, PhaseRecord
from realpolitik.phase import Phase
from realpolitik.server import engine, games, limits
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, Forbidden, NotFound
from realpolitik.server.gamesettings import SANDBOX, GameSettings
from realpolitik.server.play import begin_phase, store_orders
from realpolitik.server.rows import ACTIVE, FINISHED, game_row, summary, visible_row


def rollback(b: Backend, game_id: int, user: User, phase: str) -> dict[str, Any]:
    """Take the sandbox back to the start of ``phase``: a phase of its history (the orders
    given in it are given again, none ready), or the current one (its orders go); answer
    its summary, with a new version."""
    try:
        target = str(Phase.parse(phase))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    with transaction(b.db) as conn:
        row = visible_row(conn, game_id, user, None, lock=True)
        if row.creator_id != user.id:
            raise Forbidden("only the sandbox's creator can take it back")
        if not row.settings.get("sandbox", False):
            raise Conflict(
                "only a sandbox goes back to an earlier phase: this game is not one",
                code="not_sandbox",
            )
        if row.state is None:
            raise Conflict("this game has not started yet", code="not_started")
        if row.status == FINISHED:  # in play again: one more game of the creator's not over
            limits.lock_user(conn, user.id)
            limits.check_games(b, conn, user.id)
        rows = conn.execute(
            select(t.phases.c.phase, t.phases.c.record, t.phases.c.replay)
            .where(t.phases.c.game_id == game_id)
            .order_by(t.phases.c.idx)
        ).all()
        played = [r.phase for r in rows]
        if target != row.phase and target not in played:
            raise NotFound(
                f"{target} is not a phase of this game (played: {', '.join(played) or 'none'};"
                f" now: {row.phase})"
            )
        kept = all(r.replay is not None for r in rows)
        whole = [(r.record, r.replay) for r in rows] if kept else []
        game = engine.fresh(engine.with_history(row.state, whole))
        if target == row.phase and game.is_over:  # (it ended in it: no start to go back to)
            raise Conflict(
                f"the game ended in {target}: go back to a phase before it", code="game_over"
            )
        if not kept:  # played before a sandbox kept what going back needs
            raise Conflict("this sandbox's history is not kept: it cannot go back")
        k = played.index(target) if target != row.phase else len(played)
        if k < len(played) and game.history[k].skipped:
            raise BadRequest(
                f"nobody had a choice in {target} (it was played by itself): "
                "go back to the phase before it"
            )
        try:
            fork = game.rollback(target)
        except GameError as exc:
            raise BadRequest(str(exc)) from None
        conn.execute(delete(t.phases).where(t.phases.c.game_id == game_id, t.phases.c.idx >= k))
        conn.execute(delete(t.orders).where(t.orders.c.game_id == game_id))
        if k < len(played):  # the orders given in it, to change rather than give all again
            _give_again(conn, game_id, game.history[k], b.now())
        _forget_concessions(conn, game_id, set(fork.status.conceded))
        conn.execute(
            update(t.games)
            .where(t.games.c.id == game_id)
            .values(
                state=engine.to_state(fork),
                phase=engine.phase_of(fork),
                status=ACTIVE,
                result=None,
                version=row.version + 1,
                alone=False,
                updated_at=b.now(),
            )
        )
        begin_phase(b, conn, game_id, fork, GameSettings.from_json(row.settings), first=k == 0)
        return summary(conn, game_row(conn, game_id), user, b.now())


def _forget_concessions(conn: Connection, game_id: int, conceded: set[str]) -> None:
    """Keep with the seats who conceded only the powers still conceded at the phase gone
    back to (a concession of a later phase is taken back with it: the power plays on)."""
    s = t.seats.c
    for seat, by in conn.execute(select(s.seat, s.conceded_by).where(s.game_id == game_id)):
        kept = {power: user for power, user in (by or {}).items() if power in conceded}
        if kept != (by or {}):
            conn.execute(
                update(t.seats).where(s.game_id == game_id, s.seat == seat).values(conceded_by=kept)
            )


def _played(conn: Connection, game_id: int) -> list[str]:
    """The phases the game has played (its history), in order."""
    return list(
        conn.execute(
            select(t.phases.c.phase).where(t.phases.c.game_id == game_id).order_by(t.phases.c.idx)
        ).scalars()
    )


def _give_again(conn: Connection, game_id: int, record: PhaseRecord, now: float) -> None:
    """Store the orders given in ``record``'s phase (conquista: with the supports accepted
    and the alliances declared) as that phase's orders again, none of them ready."""
    for power, orders in record.orders.items():
        accept = sorted(prov for p, prov in record.accepted if p == power)
        ally = record.declared.get(power)
        store_orders(
            conn, game_id, str(record.phase), power, [str(o) for o in orders], now,
            ready=False, accept=accept or None, ally=None if ally is None else list(ally),
        )  # fmt: skip


def fork(
    b: Backend, game_id: int, user: User, phase: str | None = None, code: str | None = None
) -> dict[str, Any]:
    """A new sandbox of ``user``'s starting at the position of ``phase`` (a phase of the
    game's history, or the current one: the default) of a game the user may see (an
    unlisted one: a member, or with its invitation ``code``); its summary. Same edition,
    table and rules; only the public position goes over (:func:`_public_state`): never
    the phase's orders, draw votes or press. It counts against the user's cap of games."""
    target = None
    if phase is not None:
        try:
            target = str(Phase.parse(phase))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    with reading(b.db) as conn:
        row = visible_row(conn, game_id, user, code)
        if row.state is None:
            raise Conflict("this game has not started yet", code="not_started")
        target = target or row.phase
        if target == row.phase:
            position, status = row.state["position"], _kept(row.state.get("status", {}))
        else:
            played = _played(conn, game_id)
            if target not in played:
                raise NotFound(f"{target} is not a phase of this game (now: {row.phase})")
            k = played.index(target)
            rows = conn.execute(
                select(t.phases.c.record, t.phases.c.replay)
                .where(t.phases.c.game_id == game_id, t.phases.c.idx <= k)
                .order_by(t.phases.c.idx)
            ).all()
            record, replay = rows[k]
            if record.get("skipped", False):
                raise BadRequest(
                    f"nobody had a choice in {target} (it was played by itself): "
                    "start from the phase before it"
                )
            position = record["position"]
            if replay is not None:  # the phase's status as it began, kept in its row
                status = _kept(replay["status"])
            else:  # played before every game's rows kept it
                status = _status_before(row.state, [r.record for r in rows[:k]], target)
        settings = dataclasses.replace(
            GameSettings.from_json(row.settings), sandbox=True, **SANDBOX
        )
        game = engine.fresh(_public_state(row.state, target, position, status))
        # the players' agreed last year, or none: not the end the server gives a game of
        # bots alone (engine.limit_bot_game), which its state keeps
        game.last_year = settings.last_year
        suffix = f" · {engine.phase_title(game, target, user.language)}"
        base = games.without_hidden(row.name)  # (one named before they were refused)
        name = base[: games.NAME_LIMIT - len(suffix)].rstrip() + suffix
    new_id = games.create_game(b, user, name, settings, game=game)
    with reading(b.db) as conn:
        return summary(conn, game_row(conn, new_id), user, b.now())


_PUBLIC = ("format", "version", "variant", "edition", "setup", "rules", "players", "last_year",
           "clock", "start")  # fmt: skip
"""What of a stored game a fork takes as it is: the table and its rules."""


def _public_state(
    state: Mapping[str, Any], phase: str, position: Any, status: Mapping[str, Any]
) -> dict[str, Any]:
    """A saved game (:mod:`realpolitik.formats.savegame`) at ``phase``'s ``position``
    built from the public parts of ``state`` only: no pending orders, acceptances,
    declarations or draw votes, no messages, no history, no result, a new seed."""
    kept = {k: state[k] for k in _PUBLIC if k in state}
    return kept | {
        "seed": secrets.randbelow(2**31),
        "phase": phase,
        "position": position,
        "status": {"civil_disorder": [], "missed": [], "conceded": [], "coin_toss": None}
        | dict(status),
        "pending": {"orders": {}, "accepted": {}, "declared": {}, "votes": {}},
        "messages": [],
        "history": [],
        "result": None,
    }


def _kept(status: Mapping[str, Any]) -> dict[str, Any]:
    """What a fork keeps of a phase's status: conceded powers, alliances, the coin toss;
    not who is in civil disorder or missed orders (the sandbox's creator plays every
    power)."""
    return {k: status[k] for k in ("conceded", "alliances", "coin_toss") if k in status}


def _status_before(
    state: Mapping[str, Any], before: Sequence[Mapping[str, Any]], phase: str
) -> dict[str, Any]:
    """The status at the start of an earlier ``phase`` of a game whose rows do not keep it
    (played before they did), as far as its stored state tells it: the alliances standing
    then, as the events of the records ``before`` it (oldest first) formed and ended them;
    the coin toss if made by then (on entering its phase); nobody conceded or in civil
    disorder."""
    status = state.get("status", {})
    toss = status.get("coin_toss")
    played = {r["phase"] for r in before}
    alliances: dict[tuple[str, ...], str] = {}  # members -> the phase it was formed in
    for record in before:
        for event in record.get("events", ()):
            members = tuple(event["powers"])
            if event["kind"] == EventKind.ALLIANCE_ENDED:
                alliances.pop(members, None)
            elif event["kind"] == EventKind.ALLIANCE_FORMED:
                alliances[members] = record["phase"]
    return {
        "alliances": [{"members": list(m), "formed": f} for m, f in alliances.items()],
        "coin_toss": toss if toss is not None and toss["phase"] in played | {phase} else None,
    }
