"""Errors the API answers with: an HTTP status and a message that names the problem (in
English), and for the errors a player meets in the web page a ``code`` and its ``values``,
which the page says in its own language."""

from __future__ import annotations


class ApiError(Exception):
    """A request that cannot be done; ``status`` is the HTTP status to answer with;
    ``code`` (``"username_taken"``) names the error for a translation of ``message``, with
    the ``values`` it names (``{"username": "ada"}``)."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        values: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.values = dict(values or {})
        if status is not None:
            self.status = status


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Conflict(ApiError):
    status = 409


class TooManyAttempts(ApiError):
    """Too many attempts: try again after ``retry_after`` seconds (the Retry-After header)."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"too many attempts: try again in {retry_after} s",
            code="too_many_attempts",
            values={"seconds": retry_after},
        )
        self.retry_after = retry_after


def not_playing(power: str) -> Forbidden:
    """The caller does not play ``power`` in the game (a seat left, or another account
    logged in, in another tab)."""
    return Forbidden(
        f"you do not play {power} in this game", code="not_your_power", values={"power": power}
    )


def no_game(game_id: int) -> NotFound:
    """No game ``game_id``, or none the caller may see (an outsider learns neither)."""
    return NotFound(f"no game {game_id}", code="no_game", values={"id": game_id})


def nothing_to_order(power: str, phase: str) -> Conflict:
    """``power`` gives no orders in ``phase`` (out, conceded, or nothing of it to move)."""
    return Conflict(
        f"{power} has no orders to give in {phase}",
        code="nothing_to_order",
        values={"power": power},
    )


class Unprocessable(ApiError):
    status = 422


class OrdersRefused(Unprocessable):
    """Orders the rules do not allow: ``refused`` names each (``order``, ``reason``)."""

    def __init__(self, power: str, refused: list[dict[str, str]]) -> None:
        named = "; ".join(f"{r['order']}: {r['reason']}" for r in refused)
        super().__init__(f"{power}: {named}")
        self.refused = refused
