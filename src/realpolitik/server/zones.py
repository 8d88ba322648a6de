"""A player's time zone: an IANA name (``Europe/Madrid``) the page sends from the browser,
checked against the zones this machine knows (:mod:`zoneinfo`: the system's database, or
the ``tzdata`` package), and the deadlines in mail written in it.

A machine with no time-zone data at all keeps no zone (it could not tell a good name from a
bad one) and writes UTC; so does a zone that later goes missing. An example:

>>> moment, shown = local_time(1_800_000_000.0, "Europe/Madrid")
>>> moment.isoformat(), shown
('2027-01-15T09:00:00+01:00', 'Europe/Madrid')
>>> local_time(1_800_000_000.0, None)[1]
'UTC'
"""

from __future__ import annotations

import logging
import zoneinfo
from datetime import UTC, datetime, tzinfo
from functools import cache

from realpolitik.server.errors import BadRequest

log = logging.getLogger(__name__)

MAX_ZONE = 64


HOST_ZONE = "localtime"
"""The system's link to the host's own zone (``/usr/share/zoneinfo/localtime``), listed
among the zones on Debian: no zone's name, and its meaning changes with the machine."""


@cache
def known() -> frozenset[str]:
    """The IANA names this machine has data for (none: no ``tzdata`` and no system zones)."""
    names = frozenset(zoneinfo.available_timezones()) - {HOST_ZONE}
    if not names:
        log.warning("no time-zone data here (install tzdata): mail gives deadlines in UTC")
    return names


def check_zone(name: str) -> str | None:
    """``name`` if it is a time zone this machine knows (400 naming it otherwise);
    ``None`` where no zone is known at all (then none is kept: mail says UTC)."""
    names = known()
    if not names:
        return None
    if name not in names:
        shown = name[:MAX_ZONE]
        raise BadRequest(
            f"unknown time zone {shown!r}: an IANA name such as Europe/Madrid",
            code="time_zone_unknown",
            values={"zone": shown},
        )
    return name


def _zone_of(name: str | None) -> tuple[tzinfo, str]:
    """The zone of ``name`` and the name to show with a time (UTC for none, or one this
    machine does not know)."""
    if name:
        try:
            return zoneinfo.ZoneInfo(name), name
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            log.warning("time zone %r unknown here: UTC instead", name)
    return UTC, "UTC"


def local_time(moment: float, name: str | None) -> tuple[datetime, str]:
    """The moment ``moment`` (seconds since the epoch) in the zone ``name``, and the name
    of the zone it is in (``"UTC"`` where ``name`` is none or unknown)."""
    zone, shown = _zone_of(name)
    return datetime.fromtimestamp(moment, zone), shown
