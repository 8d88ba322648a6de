"""Random text never crashes the parser: it gives an order or one of the three order errors.

Two kinds of text: any Unicode, and "word soup" drawn from the lexicons (unit letters, order
words, provinces, coasts, nations, fillers, punctuation), which reaches deep into the
grammar. With and without a position; whatever is read also writes and reads back.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    Order,
    Phase,
    Position,
    load_map,
)
from realpolitik.notation import LANGUAGES, format_order, load_lexicon, parse_order

BOARD = load_map("standard")
START = Position.initial(BOARD)
THREE = (InvalidOrderError, IllegalOrderError, AmbiguousOrderError)
PHASES = (None, Phase.parse("S1901M"), Phase.parse("F1901R"), Phase.parse("W1901A"))

WORDS = sorted(
    {
        " ".join(key)
        for language in LANGUAGES
        for key in load_lexicon(language, BOARD).phrases
        if len(key) <= 2
    }
    | {"(", ")", ".", "/", ",", "-", "->", "xyz", "Ñ", "1901"}
)
languages = st.sampled_from((*LANGUAGES, None))
soup = st.lists(st.sampled_from(WORDS), max_size=14).flatmap(
    lambda words: st.lists(
        st.sampled_from((" ", "", "-", ". ")), min_size=len(words), max_size=len(words)
    ).map(lambda seps: "".join(w + s for w, s in zip(words, seps, strict=True)))
)


def _read(text: str, language: str | None, **board: object) -> Order | None:
    """The order, or None after one of the three errors (anything else fails the test)."""
    try:
        return parse_order(text, game_map=BOARD, language=language, **board)  # type: ignore[arg-type]
    except THREE as exc:
        assert type(exc) in THREE and str(exc)
        return None


def _writes_back(order: Order, language: str) -> None:
    for style in ("short", "long"):
        text = format_order(order, language, style)
        assert parse_order(text, language=language, game_map=BOARD) == order, text


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60), language=languages)
def test_any_text(text: str, language: str | None) -> None:
    order = _read(text, language)
    if order is not None:
        _writes_back(order, language or "en")


@settings(max_examples=600, deadline=None)
@given(text=soup, language=st.sampled_from(LANGUAGES))
def test_word_soup(text: str, language: str) -> None:
    order = _read(text, language)
    if order is not None:
        _writes_back(order, language)


@settings(max_examples=400, deadline=None)
@given(text=soup, language=languages, phase=st.sampled_from(PHASES))
def test_word_soup_against_the_board(text: str, language: str | None, phase: Phase | None) -> None:
    order = _read(text, language, position=START, phase=phase)
    if order is not None:
        _writes_back(order, language or "en")
