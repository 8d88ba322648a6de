"""Every error the library raises, all ``ValueError`` so callers may catch one kind.

The three ways an order can be rejected (:class:`OrderError`):

* :class:`InvalidOrderError`: the text is not understood.
* :class:`IllegalOrderError`: understood, but the rules do not allow it.
* :class:`AmbiguousOrderError`: more than one reading is possible.

And the inputs that are not what they claim: :class:`SituationError` (a position or a
situation of the JSON contract), :class:`MapDataError` (a board), :class:`VariantError`
(the editions' declarations), :class:`GameError` (a request a game cannot take),
:class:`BotError` (a bot that failed to write its orders),
:class:`SaveGameError` (a saved game), :class:`MilaError` (a MILA saved game),
:class:`ShapeError` (JSON data not of its schema's shape).

An argument of the wrong kind (JSON or text where the core takes a value) is a
``TypeError`` that names it and how to make one (:func:`expect`).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from functools import cache
from typing import Any

from realpolitik.data import read_json


class OrderError(ValueError):
    """Base class: an order text that cannot become an order. ``text`` is the input."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class InvalidOrderError(OrderError):
    """The order text is not understood."""


class IllegalOrderError(OrderError):
    """The order is understood but the rules do not allow it."""


class AmbiguousOrderError(OrderError):
    """The order text has more than one possible reading."""


class SituationError(ValueError):
    """A malformed position or situation (unknown province, two units in one place...)."""


class MapDataError(SituationError):
    """A board that does not exist or whose data is inconsistent (unknown id, asymmetric
    edge, bad type...)."""


class VariantError(ValueError):
    """An unknown edition, variant or setup, or an inconsistent declaration."""


class GameError(ValueError):
    """A request the game cannot take: the game is over, a power nobody plays, ...

    One a player at the table may meet has a ``key``: its sentence ``error_KEY`` of
    ``data/moderator.json``, in each of the four languages, and the ``words`` it names (a
    power as the game writes it, ``FRANCE``; powers, a list). The message is the English
    sentence; the moderator's commands say it in the table's language
    (:func:`realpolitik.commands.printout.refusal`).

    >>> str(GameError.said("conceded", power="TURKEY"))
    'TURKEY has conceded'
    """

    def __init__(self, message: str, *, key: str = "", words: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.key = key
        self.words: dict[str, Any] = dict(words or {})

    @classmethod
    def said(cls, key: str, **words: Any) -> GameError:
        """The error of the sentence ``error_{key}``, in English; its lists of powers are
        joined with commas (the members of an alliance with "and")."""
        english = {
            name: (" and " if name == "members" else ", ").join(value)
            if isinstance(value, list | tuple)
            else value
            for name, value in words.items()
        }
        return cls(error_sentence("en", key).format(**english), key=key, words=words)


@cache
def moderator_sentences() -> Mapping[str, Mapping[str, str]]:
    """``data/moderator.json``: each language's sentences (the moderator's, the errors'),
    by key."""
    sentences: dict[str, dict[str, str]] = read_json("data", "moderator.json")
    return sentences


def error_sentence(language: str, key: str) -> str:
    """The sentence of the :class:`GameError` ``key`` in ``language``, as a template."""
    return moderator_sentences()[language][f"error_{key}"]


class BotError(ValueError):
    """A bot failed to write a power's orders: the message names the bot, the power, the
    phase and the game's seed; ``__cause__`` is the bot's own exception, with its
    traceback (the command line prints it)."""


class SaveGameError(ValueError):
    """Not a saved game, a newer version, or damaged (the message says where)."""


class MilaError(ValueError):
    """Not a MILA saved game, one we cannot read, or one whose replay differs here."""


class ShapeError(ValueError):
    """JSON data not of its schema's shape (the message says where and how)."""


def expect(value: object, kind: type, name: str, made_by: str) -> None:
    """Raise a ``TypeError`` unless ``value`` is a ``kind``: it names the argument and how
    one is made (``made_by``), as when a caller hands a position as JSON."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__} ({made_by}), not {type(value).__name__}")


def refuse_text(power: str, given: object, order: object) -> None:
    """Raise a ``TypeError`` if ``order``, one of ``power``'s orders ``given`` to the core,
    is text (or ``given`` one string): the core takes order values, and would judge text an
    order of no kind of the phase's. Called only on such an order, never on every order."""
    if isinstance(given, str):
        raise TypeError(f"orders of {power} must be a list of orders, not one string {given!r}")
    if isinstance(order, str):
        letter = " (one string for the list is read letter by letter)" if len(order) == 1 else ""
        raise TypeError(
            f"orders of {power} must be order values, not the text {order!r} "
            f"(parse_order(text, game_map=...) reads it){letter}"
        )


def whole_number(value: object, name: str, least: int | None = None) -> int:
    """``value`` as a whole number (``numpy``'s too), at least ``least`` if given; else a
    ``ValueError`` naming ``name`` (a count or a seed given as text, ``2.5`` or ``True``)."""
    try:
        number = None if isinstance(value, bool) else operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        number = None
    if number is None or (least is not None and number < least):
        start = "" if least is None else f" from {least}"
        raise ValueError(f"{name} must be a whole number{start}, not {value!r}")
    return number
