"""Why an order failed or was refused: a :class:`Reason` is a key and what it names.

The adjudicator gives one with every result that needs explaining (an illegal order, a
bounce, a cut support...). ``str(reason)`` is its English in the notation's terms, the
wording of the ``adjudicate`` contract and of saved games; the lexicons' ``messages`` say the
same keys in words, for players, in each language English included (see
:func:`realpolitik.notation.explain`). English read back
from a saved game or a stored record becomes a reason again with :meth:`Reason.parse`.

>>> reason = Reason("bounced_off", unit="A VEN", strength=1, against=2)
>>> str(reason)
'bounced off A VEN (1 against 2)'
>>> Reason.parse("bounced off A VEN (1 against 2)") == reason
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any, NamedTuple

ENGLISH: Mapping[str, str] = {
    # the order on the map (see realpolitik.adjudicator.legality)
    "impassable": "{province} cannot be entered",
    "own_province": "a unit cannot move to its own province",
    "army_coast": "an army move names a coast",
    "army_to_sea": "an army cannot move to {province} ({name})",
    "not_adjacent": "{province} is not adjacent to {location} and no convoy can reach it",
    "fleet_via": "a fleet cannot be convoyed",
    # (one English for two keys: read back, it is the one true of both, not_adjacent)
    "fleet_not_adjacent": (
        "a fleet at {location} cannot move to {province}: not adjacent by sea or along a coast"
    ),
    "fleet_inland": "a fleet at {location} cannot move to {province}, an inland province",
    "unreachable_coast": "the fleet at {location} cannot reach {province}/{coast}",
    "no_such_coast": "{province} has no coast {coast}",
    "missing_coast": "the coast of {province} must be given ({coasts})",
    "omitted_coast": "the coast of {province} must be given",
    "support_self": "a unit cannot support itself",
    "unknown_province": "unknown province {province}",
    "target_stays": "a supported move must leave its province",
    "support_into_own": "a unit cannot support a move into its own province",
    "cannot_support": "{unit} cannot move to {province}, so cannot support into it",
    "not_bordering": "{unit} does not border {province}, so cannot support into it",
    "target_cannot_move": "{unit} cannot move to {province}",
    "convoy_at_sea": "only a fleet at sea can convoy",
    "convoy_coastal": "a convoy goes from one coastal province to another",
    "convoy_army": "only armies can be convoyed",
    "convoy_off_route": "{unit} is on no possible convoy route from {location} to {province}",
    "missing_unit_type": "the unit type of {location} is missing",
    "wrong_unit_type": "the unit in {province} is {unit}, not {name}",
    "wrong_unit_coast": "the fleet is at {location}, not {name}",
    # the unit an order names
    "no_unit": "there is no unit in {province}",
    "not_own_unit": "the unit in {province} belongs to {power}",
    "missing_nationality": "the nationality of the unit in {province} is missing",
    "wrong_nationality": "the unit in {province} is not {power}'s",
    "another_order": "the unit has another order",
    "no_order": "no order: holds",
    # movement
    "not_movement": "{name} orders are not given in a movement phase",
    "fleet_elsewhere": "{name}; the fleet is at {location}",
    "convoy_disrupted": "the convoy is disrupted",
    "own_unit": "cannot dislodge its own unit {unit}",
    "head_to_head": "beaten head-to-head by {unit} ({strength} against {against})",
    "bounced_off": "bounced off {unit} ({strength} against {against})",
    "standoff": "standoff in {province} with {units}",
    "beaten_to": "beaten to {province} by {unit} ({strength} against {against})",
    "bounced": "bounced",
    "no_convoy_route": "no convoy route is ordered",
    "convoy_unmatched": "the army is not ordered to make that move",
    "fleet_dislodged": "the fleet is dislodged",
    "convoy_paradox": "a convoy paradox: it holds",
    "dislodged": "dislodged",
    "cut": "cut by an attack",
    "moves_not_holds": "{unit} is ordered to move, not to hold",
    "not_moving_there": "{unit} is not ordered to move to {province}",
    "ally_coast": "the support must name the coast {location} of an ally",
    "other_coast": "{unit} is ordered to another coast of {province}",
    "not_accepted": "{power} did not accept the support of {unit}",
    "in_disorder": "{power} is in civil disorder",
    # retreats
    "not_retreat": "only retreats and disbands are ordered in a retreat phase",
    "not_dislodged": "there is no dislodged unit in {province}",
    "dislodged_not_own": "the dislodged unit in {province} belongs to {power}",
    "dislodged_type": "the dislodged unit is {unit}, not {name}",
    "retreat_convoyed": "a retreat cannot be convoyed",
    "cannot_retreat": "{unit} cannot retreat to {location}",
    "retreats_bounced": "bounced in {province}: disbanded",
    "no_retreat": "no retreat order",
    "nowhere_to_retreat": "nowhere to retreat: disbanded",
    # adjustments
    "not_adjustment": "only builds, waives and removals are ordered in an adjustment phase",
    "no_build_due": "{power} has no build due",
    "no_removal_due": "{power} has no removal due",
    "no_waive": "builds cannot be waived",
    "not_home_centre": "{province} is not a home centre of {power}",
    "not_owned": "{power} does not own {province}",
    "occupied": "{province} is occupied",
    "build_type": "the unit type must be given to build in {province}",
    "fleet_build_inland": "a fleet cannot be built in {province}",
    "another_adjustment": "{province} has another adjustment order",
    "too_many": "only {number} adjustments due",
    "civil_disorder": "civil disorder",
    # English kept as it was given (read back from text no key matches)
    "said": "{name}",
}
"""The English of each reason, by key: the ``adjudicate`` contract's wording."""

ONE: Mapping[str, str] = {
    "too_many": "only {number} adjustment due",
}
"""The English of a key whose ``number`` is 1, where it takes the singular ("only 1
adjustment due"; the lexicons' messages have theirs under ``key_one``)."""

FORMER: Mapping[str, str] = {
    "fleet_not_adjacent": "a fleet at {location} cannot move to {province}",  # and inland
    "too_many": "only {number} adjustment(s) due",  # the singular and the plural in one
}
"""English the adjudicator once wrote for a key, read back (records saved before) as that
key. Tried first, its places as the notation writes them (``MUN``, ``SPA/NC``): a wider
pattern of today's English (``{unit} cannot move to {province}``) would take it."""


class Reason(NamedTuple):
    """Why: a key (of :data:`ENGLISH` and of the lexicons' ``messages``) and what it names,
    each as the English notation writes it: a province (``"SPA"``), a location
    (``"SPA/NC"``), a coast (``"NC"``), the coasts to choose from, a unit (``"A PAR"``, or a
    unit type for the ``*_type`` keys), the units of a standoff, a power, a name (a
    province's English name, a unit type, an order kind), strengths (``strength`` against
    ``against``) and a ``number``."""

    key: str
    province: str = ""
    location: str = ""
    coast: str = ""
    coasts: tuple[str, ...] = ()
    unit: str = ""
    name: str = ""
    power: str = ""
    units: tuple[str, ...] = ()
    strength: int = 0
    against: int = 0
    number: int = 0

    def __str__(self) -> str:
        english = ONE.get(self.key) if self.number == 1 else None
        return (english or ENGLISH[self.key]).format(
            province=self.province,
            location=self.location,
            coast=self.coast,
            coasts=", ".join(self.coasts),
            unit=self.unit,
            name=self.name,
            power=self.power,
            units=", ".join(self.units),
            strength=self.strength,
            against=self.against,
            number=self.number,
        )

    def __repr__(self) -> str:
        named = [
            f"{field}={value!r}"
            for field, value, default in zip(self._fields[1:], self[1:], _DEFAULTS, strict=True)
            if value != default
        ]
        return f"Reason({', '.join([repr(self.key), *named])})"

    @classmethod
    def parse(cls, text: str) -> Reason | None:
        """The reason whose English is ``text`` (``None`` for no text); English that no
        key writes is kept as it is, as ``said`` (so is text longer than any reason: the
        patterns would take quadratic time over it)."""
        return _parse(text) if text else None


# a saved game says the same reasons again and again: each is read once (a long game
# loaded twice as fast with this and its orders read once)
@lru_cache(maxsize=4096)
def _parse(text: str) -> Reason:
    if len(text) > _LONGEST:
        return Reason("said", name=text)
    for key, pattern in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return Reason(key, **{f: _FIELD_TYPES[f](v) for f, v in found.groupdict().items()})
    return Reason("said", name=text)


_LONGEST = 1_000
"""Longer than any reason the adjudicator writes (a standoff of seven units, a reason
within a reason)."""
_DEFAULTS = tuple(Reason._field_defaults[field] for field in Reason._fields[1:])


def _items(text: str) -> tuple[str, ...]:
    return tuple(text.split(", "))


_FIELD_TYPES: Mapping[str, Callable[[str], Any]] = {
    "province": str, "location": str, "coast": str, "coasts": _items, "unit": str, "name": str,
    "power": str, "units": _items, "strength": int, "against": int, "number": int,
}  # fmt: skip
"""How each field reads back from its English."""


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each key's English as a regular expression with a group per field (made on the
    first :meth:`Reason.parse`: only reading back needs them); :data:`FORMER` first, then
    the singulars of :data:`ONE`."""
    found = []
    former = [(key, english, True) for key, english in FORMER.items()]
    one = [(key, english, False) for key, english in ONE.items()]
    for key, english, old in [*former, *one, *((k, e, False) for k, e in ENGLISH.items())]:
        if key == "said":
            continue
        parts = re.split(r"\{(\w+)\}", english)  # text, field, text, field, ..., text
        for k in range(1, len(parts), 2):
            value = "[0-9]+" if _FIELD_TYPES[parts[k]] is int else "[^;]+?"  # see fleet_elsewhere
            if old and value != "[0-9]+":
                value = "[A-Z]+(?:/[A-Z]+)?"  # a place as the notation writes it
            parts[k] = f"(?P<{parts[k]}>{value})"
        for k in range(0, len(parts), 2):
            parts[k] = re.escape(parts[k])
        found.append((key, re.compile("".join(parts))))
    return tuple(found)
