"""Parse order text in English, Spanish, French or Portuguese into typed orders.

``parse_order("E Par A E Mar-Bor", game_map=standard, language="es")`` ->
``SupportMove(A PAR, A MAR, BUR)``. The words
come from the language's lexicon (:mod:`.lexicon`), the grammar is shared
(:mod:`.grammar`). As the rulebooks say, a misspelled order with a single possible meaning is
executed and an ambiguous one is not:

* the text is read with whole phrases first, then (if that reads nothing) with glued words
  split, unique prefixes, a name's first word alone ("Black") and one-letter
  misspellings;
* of the readings, the cheapest wins (the language's own words before weaker ones); two
  different orders at the same cost raise :class:`AmbiguousOrderError`;
* with a ``position``, readings that do not fit the board are dropped, and the order is
  completed and checked (:mod:`.resolve`), raising :class:`IllegalOrderError` or
  :class:`AmbiguousOrderError` when nothing fits.

Text that is not understood raises :class:`InvalidOrderError`. Messages are in the order's
language. Parsing without a position is cached (bulk re-adjudication parses the same texts
again and again).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from realpolitik.errors import AmbiguousOrderError, InvalidOrderError, OrderError, expect
from realpolitik.maps.model import GameMap
from realpolitik.notation.formatter import format_order
from realpolitik.notation.grammar import (
    END,
    MAX_LENGTH,
    MAX_WORDS,
    Candidate,
    Parser,
    exact_chart,
    loose_chart,
)
from realpolitik.notation.lexicon import LANGUAGES, language_data, load_lexicon, tokenize
from realpolitik.notation.resolve import ParseContext, bare_unit, resolve
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, FLEET, Power, UnitType

_SEPARATORS = re.compile(r"[;,\n]+")
_TYPES: dict[str, UnitType] = {"A": ARMY, "F": FLEET}
_EXPECTED_ORDER = ("unit", "province", "coast", "verb", "power", "end")


def _message(language: str, key: str, **names: str) -> str:
    return str(language_data(language)["messages"][key]).format(**names)


def _stage(
    text: str, language: str, game_map: GameMap, loose: bool
) -> tuple[tuple[Candidate, ...], str]:
    """The readings of ``text`` (cheapest first), or none and the reason; a text longer
    than :data:`MAX_LENGTH` is too long unread and unremembered (the reason names its
    beginning)."""
    if len(text) > MAX_LENGTH:
        return (), _message(language, "too_long", text=text.strip()[:40] + "…")
    return _read(text, language, game_map, loose)


@lru_cache(maxsize=16384)
def _read(
    text: str, language: str, game_map: GameMap, loose: bool
) -> tuple[tuple[Candidate, ...], str]:
    """:func:`_stage` of a text not too long to read."""
    lexicon = load_lexicon(language, game_map)
    words = tokenize(text)
    if not words:
        return (), _message(language, "empty")
    if len(words) > MAX_WORDS:
        return (), _message(language, "too_long", text=text.strip())
    chart = (loose_chart if loose else exact_chart)(words, lexicon)
    if chart.uncovered >= 0:
        return (), _message(
            language, "unknown_word", word=chart.words[chart.uncovered], text=text.strip()
        )
    found = Parser(chart).orders()
    if found:
        return tuple(found), ""
    parser = Parser(chart, track=True)  # again, noting where reading stopped
    parser.orders()
    names = language_data(language)["expected"]
    wanted = set(parser.expected)
    if "province" in wanted:  # what a unit needs; its nation, type and coast are optional
        wanted -= {"unit", "coast", "power"}
    expected = _message(language, "or").join(str(names[c]) for c in _EXPECTED_ORDER if c in wanted)
    if parser.far >= len(chart.words) or parser.far < 0:
        return (), _message(language, "incomplete", text=text.strip(), expected=expected)
    word = chart.words[parser.far]
    if parser.expected == {END}:
        expected = str(names[END])
    return (), _message(language, "unexpected", text=text.strip(), expected=expected, word=word)


def candidates(text: str, language: str, game_map: GameMap) -> tuple[Candidate, ...]:
    """Every reading of ``text`` as (order, cost), cheapest first; raises
    :class:`InvalidOrderError` when there is none."""
    found, reason = _stage(text, language, game_map, False)
    if found:
        return found
    found, loose_reason = _stage(text, language, game_map, True)
    if found:
        return found
    raise InvalidOrderError(loose_reason or reason, text)


def _pick(found: list[tuple[Order, int]], text: str, language: str, game_map: GameMap) -> Order:
    cheapest = min(cost for _, cost in found)
    best = list(dict.fromkeys(order for order, cost in found if cost == cheapest))
    if len(best) == 1:
        return best[0]
    readings = _message(language, "or").join(
        format_order(o, language, game_map=game_map) for o in best
    )
    raise AmbiguousOrderError(
        _message(language, "ambiguous", text=text.strip(), readings=readings), text
    )


def _score(text: str, language: str, game_map: GameMap) -> int:
    own = load_lexicon(language, game_map).own
    return sum(1 for word in tokenize(text) if word in own)


def guess_language(
    text: str,
    *,
    game_map: GameMap,
    languages: tuple[str, ...] = LANGUAGES,
    position: Position | None = None,
    power: Power | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> str:
    """The language ``text`` is most likely written in. With a ``position`` (and ``power``,
    ``phase``, ``rules`` as :func:`parse_order` takes them), a language whose reading is a
    legal order there comes first ("F Edi - Nor" from Edinburgh: English's Norwegian Sea,
    not Spanish's Norway); failing that, or without a position, every language that reads
    it as an order. Among those, the preference is fixed: whole words before loose
    reading, then the cheapest reading (its own words, not borrowed ones: "A" is a weak
    army in Spanish), then the most of its own words, then the first of ``languages``.
    Upper-case English short notation (``A BUD - GAL``, as ``str(order)`` writes it) is
    English.

    >>> from realpolitik.maps import load_map
    >>> standard = load_map("standard")
    >>> guess_language("E Par A E Mar-Bor", game_map=standard)
    'es'
    >>> guess_language("A do Mar do Norte permanece", game_map=standard)
    'pt'
    """
    if "en" in languages and text == text.upper() and _canonical(text, game_map) is not None:
        return "en"  # the English short notation, as the JSON contract writes it
    ranked = _readers(text, game_map, languages, every=position is not None)
    if position is not None:
        for lang in ranked:
            try:
                parse_order(
                    text, game_map=game_map, language=lang, position=position,
                    power=power, phase=phase, rules=rules,
                )  # fmt: skip
            except OrderError:
                continue
            return lang
    if ranked:
        return ranked[0]
    return max(languages, key=lambda lang: _score(text, lang, game_map))


def _readers(text: str, game_map: GameMap, languages: tuple[str, ...], every: bool) -> list[str]:
    """The languages that read ``text`` as an order, in :func:`guess_language`'s
    preference; unless ``every``, only those that read it best (loosely only when none
    reads it in whole words)."""
    ranked: list[tuple[bool, int, int, int, str]] = []
    for loose in (False, True):
        for index, lang in enumerate(languages):
            if any(r[4] == lang for r in ranked):
                continue
            found = _stage(text, lang, game_map, loose)[0]
            if found:
                ranked.append((loose, found[0][1], -_score(text, lang, game_map), index, lang))
        if ranked and not every:
            break
    return [r[4] for r in sorted(ranked)]


def parse_order(
    text: str,
    *,
    game_map: GameMap,
    language: str | None = "en",
    position: Position | None = None,
    power: Power | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> Order:
    """Parse one order on ``game_map`` written in ``language`` ("en", "es", "fr", "pt";
    ``None``: guess).

    Without a ``position`` the order is returned as written (unit type and coasts only if
    given). With one, it is completed and checked against the board (see
    :mod:`realpolitik.notation.resolve`); ``power`` (whose order it is) and ``phase`` (a
    retreat phase turns moves into retreats, an adjustment phase bare units into builds
    and removals; by default a position with dislodged units means a retreat phase)
    sharpen the checks; ``rules`` decide where a unit may support into (``None``: where it
    could move; conquista's: any province its own borders).

    >>> from realpolitik.maps import load_map
    >>> str(parse_order("F MNe T E Ank-Seb", game_map=load_map("standard"), language="es"))
    'F BLA C A ANK - SEV'
    """
    expect(game_map, GameMap, "game_map", "load_map('standard')")
    if position is None:
        return read_order(text, language, game_map)
    expect(position, Position, "position", "Position.from_json(data, game_map)")
    if language is None:
        language = guess_language(
            text, game_map=game_map, position=position, power=power, phase=phase, rules=rules
        )
    kind = phase.kind if phase is not None else None
    if kind is None and position.dislodged:
        kind = PhaseKind.RETREATS
    context = ParseContext(game_map, position, power, kind, language, text.strip(), rules)
    fitting: list[tuple[Order, int]] = []
    errors: list[tuple[int, OrderError]] = []
    for order, cost in candidates(text, language, game_map):
        try:
            fitting.append((resolve(order, context), cost))
        except OrderError as exc:
            errors.append((cost, exc))
    if fitting:
        return _pick(fitting, text, language, game_map)
    raise min(errors, key=lambda item: item[0])[1]


def read_guessed(
    text: str,
    *,
    game_map: GameMap,
    position: Position,
    power: Power | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> Order:
    """``text`` in its language guessed on the board (:func:`guess_language` with the
    position): the order as written, as :func:`read_order` reads it (the adjudicator judges
    it), or, when that reads no single order (English "F Edi - Nor": Norway or the Norwegian
    Sea) or only an order the board refuses where another reading is legal (Spanish "F Mar
    Negro CA Ankara-Sevastopol", guessed Portuguese, where "A" is a fleet, with an army in
    Ankara), its reading completed and checked on the board; raises the as-written
    :class:`OrderError` when neither reads."""
    text = _text(text)

    def on_board(text: str, language: str) -> Order:
        return parse_order(
            text, game_map=game_map, language=language, position=position,
            power=power, phase=phase, rules=rules,
        )  # fmt: skip

    language = guess_language(
        text, game_map=game_map, position=position, power=power, phase=phase, rules=rules
    )
    try:
        written = read_order(text, language, game_map)
    except OrderError as exc:
        try:
            return on_board(text, language)
        except OrderError:
            raise exc from None
    try:  # the as-written order, checked on the board (its English reads back exactly)
        on_board(str(written), "en")
    except OrderError:
        try:
            return on_board(text, language)
        except OrderError:
            pass  # no legal reading: the adjudicator says what is wrong with this one
    return written


def read_written(
    text: str,
    *,
    game_map: GameMap,
    language: str,
    position: Position,
    power: Power | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> Order:
    """``text`` as written (:func:`read_order`: not completed, not checked, for the
    adjudicator to judge); but where it reads as several orders at the same cost (English
    "F Edi - Nor": Norway or the Norwegian Sea), the one of them the board allows (a fleet in
    Edinburgh reaches only the sea), still as written: a miswritten order with one possible
    meaning is carried out. Raises the :class:`AmbiguousOrderError` when the board allows
    none of them or more than one. In an adjustment ``phase`` a bare unit is read as the
    rulebooks write a build ("F Edi") or, where a unit stands, a removal ("E Gal"), as a
    game reads them (:func:`~realpolitik.notation.resolve.bare_unit`)."""
    adjusting = phase is not None and phase.kind is PhaseKind.ADJUSTMENTS
    try:
        written = read_order(text, language, game_map)
        return bare_unit(written, text, language, game_map, position) if adjusting else written
    except AmbiguousOrderError as ambiguous:
        found = candidates(text, language, game_map)
        cheapest = min(cost for _, cost in found)
        kind = phase.kind if phase is not None else None
        context = ParseContext(game_map, position, power, kind, language, text.strip(), rules)
        fitting: list[Order] = []
        for order, cost in found:
            if cost == cheapest and order not in fitting:
                try:
                    resolve(order, context)
                except OrderError:
                    continue
                fitting.append(order)
        if len(fitting) != 1:
            raise ambiguous from None
        if adjusting:
            return bare_unit(fitting[0], text, language, game_map, position)
        return fitting[0]


def read_order(text: str, language: str | None, game_map: GameMap) -> Order:
    """``parse_order(text, game_map=game_map, language=language)``: the order as written, without a
    position to complete or check it against (the path of bulk adjudication: remembered)."""
    return read_all((text,), language, game_map)[0]


def read_all(texts: Iterable[str], language: str | None, game_map: GameMap) -> list[Order]:
    """:func:`read_order` of every text, in order; raises the first unreadable text's
    :class:`OrderError` (a :class:`TypeError` for something not text)."""
    if language is None:  # each text's own language
        return [
            read_all((_text(t),), guess_language(t, game_map=game_map), game_map)[0] for t in texts
        ]
    known = _known(language, game_map)
    out: list[Order] = []
    for text in texts:
        try:
            order = known.get(text)
        except TypeError:  # unhashable (a dict, a list): not text, said by _text
            order = None
        if order is None:
            text = _text(text)
            if len(known) >= _KNOWN_TEXTS:
                known.clear()
            order = known[text] = _pick_free(text, language, game_map)  # made, then published
        out.append(order)
    return out


def _text(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"an order is text, not {type(text).__name__}")
    return text


_KNOWN_TEXTS = 16_384  # orders remembered per map and language (forgotten all at once)
_KNOWN: dict[GameMap, dict[str, dict[str, Order]]] = {}


def _known(language: str, game_map: GameMap) -> dict[str, Order]:
    """The orders read so far without a position, by text, for this map and language (a
    plain dictionary lookup per order: bulk adjudication reads the same texts again and
    again). Threads share it: an order is made whole, then published by one assignment."""
    languages = _KNOWN.get(game_map)
    if languages is None:
        if len(_KNOWN) >= 16:  # every shipped board, usually
            _KNOWN.clear()
        languages = _KNOWN[game_map] = {}
    known = languages.get(language)
    if known is None:
        known = languages[language] = {}
    return known


def _pick_free(text: str, language: str, game_map: GameMap) -> Order:
    if language == "en":
        order = _canonical(text, game_map)
        if order is not None:
            return order
    return _pick(list(candidates(text, language, game_map)), text, language, game_map)


def _canonical(text: str, game_map: GameMap) -> Order | None:
    """The English short notation as ``str(order)`` writes it, read directly (the fast path
    of bulk adjudication); ``None`` for anything else. Reads exactly what the grammar reads:
    words separated by single spaces, a unit ``[POWER] [A|F] LOC`` and then ``H``, ``D``,
    ``B``, ``- LOC [VIA]``, ``R LOC``, ``S unit [- LOC]`` or ``C unit - LOC``, where a LOC is
    a province of the map named by three capital letters, with a coast (``/NC``, ``/SC``,
    ``/EC``, ``/WC``) or not, and a POWER a power of the map; or ``WAIVE``."""
    text = text.strip().upper()
    if text == "WAIVE":
        return Waive()
    words = text.split(" ")
    short = _shorthand(game_map)
    read = _unit(words, 0, short)
    if read is None or read[1] >= len(words):
        return None
    unit, at = read
    verb, after = words[at], words[at + 1 :]
    places = short.places
    if verb in _NO_ARGUMENT:
        return None if after else _NO_ARGUMENT[verb](unit)
    if verb == "-":
        via = len(after) == 2 and after[1] == "VIA"
        if len(after) != 1 + via or (dest := places.get(after[0])) is None:
            return None
        return Move(unit, dest, via)
    if verb == "R":
        dest = places.get(after[0]) if len(after) == 1 else None
        return None if dest is None else Retreat(unit, dest)
    if verb not in ("S", "C") or (found := _unit(after, 0, short)) is None:
        return None
    other, rest = found[0], after[found[1] :]
    if not rest:
        return SupportHold(unit, other) if verb == "S" else None  # a convoy needs its end
    if len(rest) != 2 or rest[0] != "-" or (to := places.get(rest[1])) is None:
        return None
    return SupportMove(unit, other, to) if verb == "S" else Convoy(unit, other, to)


def _unit(words: list[str], at: int, short: _Shorthand) -> tuple[UnitRef, int] | None:
    """The unit named from ``words[at]`` on (``[POWER] [A|F] LOC``) and the index after it."""
    power = words[at] if at < len(words) and words[at] in short.powers else None
    at += power is not None
    kind = _TYPES.get(words[at]) if at < len(words) else None
    at += kind is not None
    if at >= len(words) or (loc := short.places.get(words[at])) is None:
        return None
    ref = short.refs.get((kind, loc, power))
    if ref is None:  # made whole, then published by one assignment (threads share it)
        ref = short.refs[kind, loc, power] = UnitRef(kind, loc, power)
    return ref, at + 1


_NO_ARGUMENT: dict[str, type[Hold | Disband | Build]] = {"H": Hold, "D": Disband, "B": Build}
_THREE_CAPITALS = re.compile(r"[A-Z]{3}")
_COASTS = ("NC", "SC", "EC", "WC")  # the coasts the short notation writes


class _Shorthand:
    """What the short notation names on one map: ``places``, each location word it may
    use (a province named by three capital letters, bare or with any of :data:`_COASTS`);
    ``powers``, the map's powers; ``refs``, the unit references read so far, by unit type (or
    ``None``), location and nationality (or ``None``): made on first use (all 9,000 of a map
    made up front were a fifth of a process's start-up)."""

    __slots__ = ("places", "powers", "refs")

    def __init__(self, game_map: GameMap) -> None:
        self.places: dict[str, str] = {}
        for prov in game_map.provinces:
            if _THREE_CAPITALS.fullmatch(prov):
                for place in (prov, *(f"{prov}/{coast}" for coast in _COASTS)):
                    self.places[place] = place
        self.powers = frozenset(game_map.powers)
        self.refs: dict[tuple[UnitType | None, str, Power | None], UnitRef] = {}


@lru_cache(maxsize=16)  # every shipped board
def _shorthand(game_map: GameMap) -> _Shorthand:
    return _Shorthand(game_map)


def parse_orders(
    text: str,
    *,
    game_map: GameMap,
    language: str | None = "en",
    position: Position | None = None,
    power: Power | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
) -> list[Order]:
    """Several orders separated by ``;``, ``,`` or new lines (as the rulebooks print them;
    a line that reads whole is one order: :func:`order_each`)."""
    return [
        parse_order(
            part,
            game_map=game_map,
            language=language,
            position=position,
            power=power,
            phase=phase,
            rules=rules,
        )
        for part in order_each(
            [line for line in text.splitlines() if line.strip()],
            language=language,
            game_map=game_map,
        )
    ]


def split_orders(text: str) -> list[str]:
    """The orders of a line as the rulebooks print them, ``;``, ``,`` or new lines between
    them (``"E Pru—Var; E Sil A E Pru—Var"``): the parts, without their blanks, empty ones
    left out."""
    return [part.strip() for part in _SEPARATORS.split(text) if part.strip()]


def order_each(texts: Iterable[str], *, language: str | None, game_map: GameMap) -> list[str]:
    """``texts``, an order each: a line of orders as the rulebooks print them (``"E de Liv.
    para Yor.; A de Lon. para Mar do Norte"``) is taken order by order, unless it reads
    whole (a comma within one order: ``"E Par - Bor, apoyado por E Mar"``). The command
    line and the server read a power's orders so."""
    out: list[str] = []
    for text in texts:
        parts = split_orders(text)
        if len(parts) > 1 and not _reads(text, language, game_map):
            out.extend(parts)
        else:
            out.append(text)
    return out


def _reads(text: str, language: str | None, game_map: GameMap) -> bool:
    """Whether ``text`` reads as an order (on no position: the board check comes after)."""
    try:
        parse_order(text, language=language, game_map=game_map)
    except OrderError:
        return False
    return True


__all__ = [
    "candidates",
    "guess_language",
    "order_each",
    "parse_order",
    "parse_orders",
    "read_guessed",
    "read_written",
    "split_orders",
]
