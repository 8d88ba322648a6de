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
    assert getattr(Settings.from_env({variable(field): "8"}), field) == 8
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


@pytest.mark.parametrize("level", ["loud", "warn", "", "10"])
def test_a_log_level_uvicorn_does_not_know_is_named(level: str) -> None:
    """``REALPOLITIK_LOG_LEVEL=loud`` ended ``realpolitik serve`` in uvicorn's traceback
    (``KeyError: 'loud'``) after it had said it was serving."""
    with pytest.raises(ValueError, match="REALPOLITIK_LOG_LEVEL must be one of critical, "):
        Settings.from_env({"REALPOLITIK_LOG_LEVEL": level})


def test_the_log_level_is_read_in_any_case() -> None:
    assert Settings.from_env({}).log_level == "info"
    assert Settings.from_env({"REALPOLITIK_LOG_LEVEL": "WARNING"}).log_level == "warning"


@pytest.mark.parametrize("digit", ["²", "١٢x", "٣"])
def test_a_digit_of_another_script_is_refused_with_the_variable(digit: str) -> None:
    """``REALPOLITIK_MAX_BODY_BYTES=²`` passed ``str.isdigit`` and stopped the server with
    ``invalid literal for int() with base 10: '²'``, naming no variable."""
    with pytest.raises(ValueError, match="REALPOLITIK_MAX_BODY_BYTES must be a whole number"):
        Settings.from_env({"REALPOLITIK_MAX_BODY_BYTES": digit})


def test_an_smtp_server_without_a_sender_is_refused() -> None:
    """With ``REALPOLITIK_SMTP_URL`` and ``REALPOLITIK_PUBLIC_URL`` but no
    ``REALPOLITIK_MAIL_FROM`` the server started with mail silently off."""
    env = {"REALPOLITIK_SMTP_URL": "smtp://localhost:1025", "REALPOLITIK_PUBLIC_URL": "https://a.b"}
    with pytest.raises(ValueError, match="REALPOLITIK_MAIL_FROM must be set with REALPOLITIK_SMTP"):
        Settings.from_env(env)
    assert Settings.from_env(env | {"REALPOLITIK_MAIL_FROM": "dip@a.b"}).mail


@pytest.mark.parametrize(
    ("field", "least"),
    [
        ("login_failures_per_account_address", 1),
        ("login_failures_per_account", 1),
        ("login_attempts_per_address", 1),
        ("max_body_bytes", 1),
        ("password_time_cost", 1),
        ("password_memory_kib", 8),
    ],
)
def test_a_limit_that_would_shut_everyone_out_is_refused(field: str, least: int) -> None:
    """``0`` (as ``REALPOLITIK_REQUESTS_PER_MINUTE=0``, no limit, might suggest) was taken:
    every log-in refused with 429 before any password was checked, every request with a
    body refused with 413, every sign-up a 500 (Argon2's ``Memory cost is too small``)."""
    with pytest.raises(ValueError, match=f"{variable(field)} must be a whole number >= {least}"):
        Settings.from_env({variable(field): str(least - 1)})
    assert getattr(Settings.from_env({variable(field): str(least)}), field) == least
