"""A player's time zone (:mod:`realpolitik.server.zones`): checked against the zones this
machine knows; a machine without time-zone data keeps none and writes UTC."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta

import pytest

from realpolitik.server import zones
from realpolitik.server.errors import BadRequest


def test_a_known_zone_passes_and_an_unknown_one_is_named() -> None:
    assert zones.check_zone("America/New_York") == "America/New_York"
    with pytest.raises(BadRequest) as refused:
        zones.check_zone("Europe/Atlantis")
    assert refused.value.values == {"zone": "Europe/Atlantis"}
    assert "'Europe/Atlantis'" in refused.value.message


def test_summer_time_is_kept() -> None:
    winter, summer = 1_800_000_000.0, 1_800_000_000.0 + 182 * 86400
    offsets = [zones.local_time(m, "America/New_York")[0].utcoffset() for m in (winter, summer)]
    assert offsets == [timedelta(hours=-5), timedelta(hours=-4)]


def test_without_time_zone_data_no_zone_is_kept_and_mail_says_utc(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(zones, "known", lambda: frozenset())
    assert zones.check_zone("Europe/Madrid") is None  # not refused, not kept

    def missing(key: str) -> zoneinfo.ZoneInfo:
        raise zoneinfo.ZoneInfoNotFoundError(f"No time zone found with key {key}")

    monkeypatch.setattr(zoneinfo, "ZoneInfo", missing)
    moment, shown = zones.local_time(1_800_000_000.0, "Europe/Madrid")
    assert (moment.hour, shown) == (8, "UTC")
