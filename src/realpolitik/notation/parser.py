"""Parse order text in a language's notation into typed orders.

``parse_order("F NTH C A LON - BEL", "en")`` -> ``Convoy(...)``. The grammar is shared by
all languages; only the words differ (see :mod:`.lexicon`). Orders read as::

    [build|disband] unit                  unit [hold|build|disband]
    unit move place [move place]* [via]   unit retreat place
    unit support unit [hold]              unit support unit move place
    unit convoy unit move place           waive

where ``unit`` is ``[power] [type] place`` and ``place`` is ``province [coast]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.errors import InvalidOrderError
from realpolitik.maps.loader import load_map
from realpolitik.maps.model import GameMap
from realpolitik.notation.lexicon import (
    COAST,
    FILLER,
    POWER,
    PROVINCE,
    UNIT,
    VERB,
    Lexicon,
    load_lexicon,
    tokenize,
)
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
from realpolitik.vocab import UnitType


@dataclass(frozen=True, slots=True)
class Token:
    cls: str
    value: str
    text: str


def classify(text: str, lexicon: Lexicon) -> list[Token]:
    """Words of ``text`` matched greedily (longest phrase first) against the lexicon."""
    words = tokenize(text)
    out: list[Token] = []
    k = 0
    while k < len(words):
        for size in range(min(lexicon.longest, len(words) - k), 0, -1):
            key = tuple(words[k : k + size])
            hit = lexicon.phrases.get(key)
            if hit is not None:
                if hit[0] != FILLER:
                    out.append(Token(hit[0], hit[1], " ".join(key)))
                k += size
                break
        else:
            raise InvalidOrderError(f"unknown word {words[k]!r} in order {text!r}", text)
    return out


class _Reader:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.tokens = tokens
        self.k = 0
        self.text = text

    def peek(self, cls: str) -> str | None:
        if self.k < len(self.tokens) and self.tokens[self.k].cls == cls:
            return self.tokens[self.k].value
        return None

    def take(self, cls: str) -> str | None:
        value = self.peek(cls)
        if value is not None:
            self.k += 1
        return value

    def done(self) -> bool:
        return self.k >= len(self.tokens)

    def fail(self, what: str) -> InvalidOrderError:
        if self.done():
            return InvalidOrderError(f"order {self.text!r} is incomplete: {what}", self.text)
        word = self.tokens[self.k].text
        return InvalidOrderError(f"in order {self.text!r}: {what}, found {word!r}", self.text)

    def place(self) -> str:
        prov = self.take(PROVINCE)
        if prov is None:
            raise self.fail("expected a province")
        coast = self.take(COAST)
        return prov if coast is None else f"{prov}/{coast}"

    def unit(self) -> UnitRef:
        power = self.take(POWER)
        kind = self.take(UNIT)
        if power is None:
            power = self.take(POWER)
        return UnitRef(None if kind is None else UnitType(kind), self.place(), power)

    def end(self, order: Order) -> Order:
        if not self.done():
            raise self.fail("expected the end of the order")
        return order


def parse_order(text: str, language: str = "en", game_map: GameMap | None = None) -> Order:
    """Parse one order; raise :class:`InvalidOrderError` if it is not understood."""
    lexicon = load_lexicon(language, game_map or load_map("standard"))
    tokens = classify(text, lexicon)
    r = _Reader(tokens, text)
    if not tokens:
        raise InvalidOrderError(f"empty order {text!r}", text)
    verb = r.take(VERB)
    if verb == "waive":
        return r.end(Waive())
    if verb in ("build", "disband"):
        unit = r.unit()
        return r.end(Build(unit) if verb == "build" else Disband(unit))
    if verb is not None:
        raise r.fail("an order starts with a unit")
    unit = r.unit()
    if r.done():
        return Hold(unit)
    verb = r.take(VERB)
    if verb == "hold":
        return r.end(Hold(unit))
    if verb == "build":
        return r.end(Build(unit))
    if verb == "disband":
        return r.end(Disband(unit))
    if verb == "retreat":
        return r.end(Retreat(unit, r.place()))
    if verb == "move":
        dest = r.place()
        while r.peek(VERB) == "move":  # a convoy path (DATC 4.A.6): only the end counts
            r.take(VERB)
            dest = r.place()
        via = r.take(VERB) == "via"
        return r.end(Move(unit, dest, via))
    if verb == "support":
        target = r.unit()
        if r.done():
            return SupportHold(unit, target)
        then = r.take(VERB)
        if then == "hold":
            return r.end(SupportHold(unit, target))
        if then == "move":
            return r.end(SupportMove(unit, target, r.place()))
        raise r.fail("expected a move or hold after the supported unit")
    if verb == "convoy":
        target = r.unit()
        if r.take(VERB) != "move":
            raise r.fail("expected the convoyed move")
        return r.end(Convoy(unit, target, r.place()))
    raise r.fail("expected an order word")


def format_order(order: Order) -> str:
    """The English short notation, e.g. ``"F NTH C A LON - BEL"`` (inverse of parsing)."""
    return str(order)


__all__ = ["Token", "classify", "format_order", "parse_order"]
