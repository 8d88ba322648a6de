"""A :class:`~realpolitik.adjudicator.reasons.Reason` in a language: the lexicon's message
for its key, with what it names in the language's words.

Each key of :data:`~realpolitik.adjudicator.reasons.ENGLISH` is a message of the lexicons
(``messages``), or is said with another key's message where both say the same thing
(:data:`SAME`). A message names what the reason names by placeholders: ``{unit}`` (a unit in
words, "el ejército de Venecia"), ``{province}`` and ``{location}`` (a place by its name, with
its coast), ``{coast}``, ``{coasts}`` (the coasts to choose from, "costa norte o costa sur"),
``{units}`` (units in words, joined with the language's "and"), ``{power}``, ``{strength}``,
``{against}``, ``{number}`` (digits), and the few a key fills itself (``{actual}`` and
``{written}`` of a wrong unit type or coast, ``{of}`` of a home centre, ``{reason}`` of a
fleet that is elsewhere). A place, a unit or a power may take a preposition, contracted with
its article as the language writes it (the lexicon's ``article`` of each province and power,
its ``contractions`` and ``elide``): ``{unit:de}`` is "del ejército de París",
``{province:em}`` "na Borgonha", ``{power:de}`` "da Alemanha"; an empty one gives the article
alone, for a subject or an object: ``{province:}`` is "l'Espagne". A message writes no
preposition of its own before a place: "em {province}" would read "em Borgonha".

>>> from realpolitik.adjudicator.reasons import Reason
>>> explain(Reason("bounced_off", unit="A VEN", strength=1, against=2), "es")
'enfrentamiento perdido contra el ejército de Venecia (1 contra 2)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from realpolitik.adjudicator.reasons import Reason
from realpolitik.maps.loader import load_map
from realpolitik.maps.model import GameMap
from realpolitik.notation.formatter import coast_name, place_name, power_name, unit_phrase
from realpolitik.notation.lexicon import language_data, singular
from realpolitik.orders import UnitRef
from realpolitik.vocab import FLEET, Location, UnitType, coast_of, province_of

SAME: Mapping[str, str] = {
    "unreachable_coast": "not_adjacent",
    "target_stays": "own_province",
    "omitted_coast": "missing_coast",
    "wrong_nationality": "wrong_power",
    "wrong_unit_type": "wrong_type",
    "wrong_unit_coast": "wrong_coast",
    "not_movement": "wrong_phase",
    "not_retreat": "wrong_phase",
    "not_adjustment": "wrong_phase",
    "dislodged_not_own": "not_own_unit",
    "not_home_centre": "not_home",
}
"""The keys said with another key's message: the same idea, in the lexicons' one wording."""

_FIELD = re.compile(r"\{(\w+)(?::([^}]*))?\}")

_Say = Callable[[str | None], str]
"""A placeholder's words, given its preposition (``None``: none)."""


def explain(reason: Reason, language: str, *, game_map: GameMap | None = None) -> str:
    """``reason`` in ``language``, in words (English too: ``str(reason)`` is the notation's
    wording of the ``adjudicate`` contract); English that no key writes, ``said``, stays as
    it was given.

    >>> explain(Reason("standoff", "BUR", units=("A PAR", "A MUN")), "fr")
    "conflit sans vainqueur pour la Bourgogne avec l'armée de Paris et l'armée de Munich"
    >>> explain(Reason("no_removal_due", power="GERMANY"), "en")
    'Germany has no removal due'
    """
    if reason.key == "said":
        return str(reason)
    if SAME.get(reason.key, reason.key) not in language_data(language)["messages"]:
        return str(reason)  # a key the lexicons do not say yet: its English
    return message(reason, language, game_map=game_map)


def message(reason: Reason, language: str, *, game_map: GameMap | None = None) -> str:
    """The lexicon's message for ``reason`` in ``language``."""
    speaker = _Speaker(language, game_map or load_map("standard"))
    key, names = speaker.names(reason)
    return _fill(str(speaker.data["messages"][key]), names)


def say(
    key: str,
    language: str,
    *,
    game_map: GameMap | None = None,
    province: str = "",
    **words: str,
) -> str:
    """The lexicon's message ``key`` that no reason says (``dislodged_only``,
    ``second_order``): ``province`` (as the English notation writes it) in the language's
    words, with its placeholder's preposition; the other placeholders, ``words`` as given.

    >>> say("second_order", "pt", province="NTH", text="A Nor S")
    'uma segunda ordem para o Mar do Norte (depois de "A Nor S")'
    """
    speaker = _Speaker(language, game_map or load_map("standard"))
    names: dict[str, _Say] = {name: _given(text) for name, text in words.items()}
    names["province"] = lambda p: speaker.place(province, p)
    return _fill(str(speaker.data["messages"][key]), names)


def _given(text: str) -> _Say:
    return lambda p: text


def _fill(template: str, names: Mapping[str, _Say]) -> str:
    """``template`` with each placeholder in its words (given its preposition, if any)."""
    return _FIELD.sub(lambda match: names[match.group(1)](match.group(2)), template)


class _Speaker:
    """Says what reasons name in one language, on one map."""

    def __init__(self, language: str, game_map: GameMap) -> None:
        self.language = language
        self.game_map = game_map
        self.data: Mapping[str, Any] = language_data(language)

    def place(self, loc: Location, prep: str | None = None) -> str:
        return place_name(loc, self.language, game_map=self.game_map, prep=prep) if loc else ""

    def unit(self, ref: UnitRef, prep: str | None = None) -> str:
        return unit_phrase(ref, self.language, game_map=self.game_map, prep=prep or "")

    def named(self, text: str, prep: str | None = None) -> str:
        """A unit as the English notation writes it (``"A PAR"``) in words."""
        ref = _unit_ref(text)
        return text if ref is None else self.unit(ref, prep)

    def kind(self, letter: str) -> str:
        """A unit type (``"A"``) as an indefinite phrase: "un ejército"."""
        try:
            ref = UnitRef(UnitType(letter), "")
        except ValueError:
            return letter
        return unit_phrase(ref, self.language, game_map=self.game_map, indefinite=True)

    def joined(self, items: list[str], word: str) -> str:
        """``a, b y c``: the items joined, the last with ``word`` ("or", "and")."""
        last = str(self.data["messages"][word])
        return ", ".join(items[:-1]) + last + items[-1] if len(items) > 1 else "".join(items)

    def names(self, reason: Reason) -> tuple[str, dict[str, _Say]]:
        """The message key for ``reason`` and the words of each of its placeholders."""
        r = reason
        names: dict[str, _Say] = {
            "province": lambda p: self.place(r.province, p),
            "location": lambda p: self.place(r.location, p),
            "coast": lambda p: coast_name(r.coast, self.language),
            "coasts": lambda p: self.joined([coast_name(c, self.language) for c in r.coasts], "or"),
            "unit": lambda p: self.named(r.unit, p),
            "units": lambda p: self.joined([self.named(u) for u in r.units], "and"),
            "power": lambda p: power_name(r.power, self.language, prep=p),
            "name": lambda p: r.name,
            "strength": lambda p: str(r.strength),
            "against": lambda p: str(r.against),
            "number": lambda p: str(r.number),
        }
        key = r.key
        if key == "not_adjacent" and not r.unit:  # the unit at the location, of no said type
            names["unit"] = lambda p: self.unit(UnitRef(None, r.location), p)
        elif key == "fleet_inland":
            names["unit"] = lambda p: self.unit(UnitRef(FLEET, r.location), p)
        elif key in ("fleet_not_adjacent", "unreachable_coast"):
            names["unit"] = lambda p: self.unit(UnitRef(FLEET, r.location), p)
            there = f"{r.province}/{r.coast}" if r.coast else r.province
            names["province"] = lambda p: self.place(there, p)
        elif key == "omitted_coast":
            coasts = self.game_map.provinces[r.province].coasts
            names["coasts"] = lambda p: self.joined(
                [coast_name(c, self.language) for c in coasts], "or"
            )
        elif key in ("wrong_unit_type", "dislodged_type"):
            names["actual"] = lambda p: self.kind(r.unit)
            names["written"] = lambda p: self.kind(r.name)
        elif key == "wrong_unit_coast":
            names["province"] = lambda p: self.place(province_of(r.location), p)
            actual, written = coast_of(r.location) or "", coast_of(r.name) or ""
            names["actual"] = lambda p: coast_name(actual, self.language)
            names["written"] = lambda p: coast_name(written, self.language)
        elif key == "not_home_centre":  # of no power: a home centre of none
            of = str(self.data["messages"]["of_power"]) if r.power else ""
            names["of"] = lambda p: _fill(of, {"power": names["power"]})
        elif key == "fleet_elsewhere":  # another reason's English, then where the fleet is
            inner = Reason.parse(r.name) or Reason("said", name=r.name)
            names["reason"] = lambda p: explain(inner, self.language, game_map=self.game_map)
        elif key == "cannot_retreat":
            names["province"] = names["location"]
        key = SAME.get(key, key)
        # a count in the singular, where the message has words for it: "solo hay 1 ajuste
        # pendiente", not "1 ajuste(s) pendiente(s)"
        if f"{key}_one" in self.data["messages"] and singular(r.number, self.language):
            key = f"{key}_one"
        return key, names


def _unit_ref(text: str) -> UnitRef | None:
    """``"A PAR"`` (as the English notation writes a unit) as a unit reference."""
    letter, _, location = text.partition(" ")
    try:
        return UnitRef(UnitType(letter), location) if location else None
    except ValueError:
        return None


__all__ = ["SAME", "explain", "message", "say"]
