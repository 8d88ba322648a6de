"""The host's settings from the environment (:meth:`Settings.from_env`): each number is
checked, and a bad one stops the server with its variable's name (it was cut to a whole
number, or taken negative, infinite or not a number, without a word)."""

from __future__ import annotations

import dataclasses

import pytest

from realpolitik.server.settings import Settings

FIELDS = dataclasses.fields(Settings)
WHOLE = [f.name for f in FIELDS if f.type in ("int", "int | None")]
POSITIVE = [f.name for f in FIELDS if f.type == "float"]


def variable(field: str) -> str:
    return "REALPOLITIK_" + field.upper()


def test_the_numbers_are_all_found() -> None:
    assert {"requests_per_minute", "max_streams", "bot_strength"} <= set(WHOLE)
    assert {"tick_seconds", "session_days", "push_seconds"} <= set(POSITIVE)


@pytest.mark.parametrize("field", WHOLE)
def test_a_whole_number_is_read_and_anything_else_refused(field: str) -> None:
    assert getattr(Settings.from_env({variable(field): "7"}), field) == 7
    assert getattr(Settings.from_env({}), field) == getattr(Settings(), field)
    for bad in ("-1", "1.5", "1e3", "many", " 7"):
        with pytest.raises(ValueError, match=f"{variable(field)} must be a whole number"):
            Settings.from_env({variable(field): bad})


@pytest.mark.parametrize("field", POSITIVE)
def test_a_time_is_a_number_above_zero(field: str) -> None:
    assert getattr(Settings.from_env({variable(field): "0.25"}), field) == 0.25
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(ValueError, match=f"{variable(field)} must be a number > 0"):
            Settings.from_env({variable(field): bad})
