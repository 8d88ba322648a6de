"""Notices mailed to players (to a confirmed address, each kind unless turned off):

- :data:`PHASE`: a new phase has begun in a game where one of the user's powers must act
  (the game, the phase in the user's language, the deadline, a link);
- :data:`REMINDER`: the deadline is within ``remind_seconds`` and one of the user's
  powers that must act is not ready (games with deadlines only; not in a phase shorter
  than that, whose new-phase notice came within it).

Bots get none, nor games of bots alone or sandboxes. The mail loop looks for notices due
(:func:`notify`); each is given at most once per game, phase, user and kind: the row of
``notices`` that records it is written in the transaction that queues the mail, and a
second process finding the same notice meets the row's key and sends nothing. A phase
that began before the address was confirmed has no new-phase notice.

Each mail holds a link of its own that turns notices off without logging in
(:mod:`.unsubscribe`, also in its ``List-Unsubscribe`` header), and writes the deadline in
the user's time zone (:mod:`.zones`; UTC if none is known) and language."""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from realpolitik.notation.formatter import power_name
from realpolitik.server import engine, mail, unsubscribe, zones
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.contact import PHASE as PHASE
from realpolitik.server.contact import REMINDER as REMINDER
from realpolitik.server.contact import SWITCHES
from realpolitik.server.db import reading, transaction
from realpolitik.server.rows import ACTIVE

log = logging.getLogger(__name__)

Compose = Callable[[str], tuple[str, str]]
"""A notice's subject and body, given the link that turns notices off."""


def _candidates(b: Backend, kind: str, now: float) -> list[Any]:
    """The seats of users who may be due a notice of ``kind`` in their game's phase."""
    g, s, u, n = t.games.c, t.seats.c, t.users.c, t.notices.c
    given = (
        select(n.game_id)
        .where(n.game_id == g.id, n.phase == g.phase, n.user_id == u.id, n.kind == kind)
        .exists()
    )
    stmt = (
        select(
            g.id.label("game_id"),
            g.name,
            g.phase,
            g.deadline_at,
            u.id.label("user_id"),
            u.username,
            u.language,
            u.email,
            u.time_zone,
            s.powers,
        )
        .select_from(t.games.join(t.seats, s.game_id == g.id).join(t.users, u.id == s.user_id))
        .where(g.status == ACTIVE, ~g.alone, u.email_confirmed_at.is_not(None), ~given)
        .where(u[SWITCHES[kind]])
    )
    if kind == PHASE:
        stmt = stmt.where(g.phase_started_at >= u.email_confirmed_at)
    else:
        before = b.settings.remind_seconds
        stmt = stmt.where(
            g.deadline_at > now,
            g.deadline_at <= now + before,
            g.phase_started_at < g.deadline_at - before,  # a short phase: its notice is enough
        )
    with reading(b.db) as conn:
        return list(conn.execute(stmt.order_by(g.id, u.id)).all())


def notify(b: Backend) -> int:
    """Queue the notices due now; return how many mails were queued. Mail off: none."""
    if not b.settings.mail:
        return 0
    queued = 0
    for kind in (PHASE, REMINDER):
        now = b.now()
        by_game: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
        for row in _candidates(b, kind, now):
            by_game[row.game_id][row.user_id].append(row)
        for game_id, users in by_game.items():
            try:
                queued += _notify_game(b, kind, game_id, users, now)
            except Exception:  # one game's trouble stops no other's notices
                log.exception("notices of game %d failed", game_id)
    return queued


def _notify_game(
    b: Backend, kind: str, game_id: int, users: dict[int, list[Any]], now: float
) -> int:
    g, o = t.games.c, t.orders.c
    with reading(b.db) as conn:
        row = conn.execute(
            select(g.id, g.version, g.state, g.phase, g.settings).where(g.id == game_id)
        ).one()
        ready = {
            r.power
            for r in conn.execute(
                select(o.power).where(o.game_id == game_id, o.phase == row.phase, o.ready)
            )
        }
    game = engine.load(row.id, row.version, row.state)
    to_act = set(engine.powers_to_act(game))
    sandbox = bool(row.settings.get("sandbox", False))
    queued = 0
    for user_id, seats in users.items():
        first = seats[0]
        if first.phase != row.phase:
            continue  # processed meanwhile: the next pass looks at the new phase
        mine = sorted(p for seat in seats for p in seat.powers if p in to_act)
        if kind == REMINDER:
            mine = [p for p in mine if p not in ready]
            if not mine and not sandbox:
                continue  # ready for now: a reminder may still be due if that changes
        message = None if sandbox or not mine else _composer(b, kind, game, first, mine, now)
        queued += _give(b, kind, first, user_id, message, now)
    return queued


def _give(
    b: Backend, kind: str, seat: Any, user_id: int, message: Compose | None, now: float
) -> int:
    """Record the notice and queue its mail (``None``: nothing to send) with its link to
    turn notices off, in one transaction; 0 if it was given already (by another process
    meanwhile)."""
    try:
        with transaction(b.db) as conn:
            conn.execute(
                insert(t.notices).values(
                    game_id=seat.game_id,
                    phase=seat.phase,
                    user_id=user_id,
                    kind=kind,
                    created_at=now,
                )
            )
            if message is not None:
                link = unsubscribe.issue(conn, b.settings.public_url, user_id, kind, now)
                mail.queue(conn, now, seat.email, *message(link), unsubscribe=link)
    except IntegrityError:
        return 0
    return int(message is not None)


def _composer(
    b: Backend, kind: str, game: Any, seat: Any, powers: list[str], now: float
) -> Compose:
    """The subject and body of a notice, in the user's language (given its link)."""
    language = seat.language
    site = b.settings.public_url
    deadline = seat.deadline_at
    minutes = math.ceil((deadline - now) / 60) if deadline else 0
    values = {
        "username": seat.username,
        "game": seat.name,
        "phase": engine.phase_title(game, seat.phase, language),
        "powers": ", ".join(power_name(p, language) for p in powers),
        "deadline": (
            when(deadline, seat.time_zone, language)
            if deadline
            else mail.text(language, "no_deadline")
        ),
        "minutes": minutes,
        "left": mail.text(language, "minute" if minutes == 1 else "minutes", n=minutes),
        "link": mail.text(language, "link", url=f"{site}/#/game/{seat.game_id}"),
    }
    subject = mail.text(language, f"{kind}_subject", **values)
    body = mail.text(language, f"{kind}_body", **values)

    def compose(link: str) -> tuple[str, str]:
        off = mail.text(language, "off", unsubscribe=link, account=f"{site}/#/account")
        return subject, body + "\n\n-- \n" + off + "\n"

    return compose


def when(moment: float, zone: str | None, language: str) -> str:
    """A deadline as a mail writes it: in the time zone ``zone`` (UTC if none or unknown)
    and ``language``.

    >>> when(1_800_000_000.0, "Europe/Madrid", "es")
    'viernes 15 de enero de 2027, 09:00 (Europe/Madrid)'
    """
    local, shown = zones.local_time(moment, zone)
    return mail.text(
        language,
        "date",
        weekday=mail.text(language, "weekdays").split()[local.weekday()],
        day=local.day,
        month=mail.text(language, "months").split()[local.month - 1],
        year=local.year,
        time=f"{local:%H:%M}",
        zone=shown,
    )
