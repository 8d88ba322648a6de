"""Lexicons: the words of one language's order notation, loaded from ``lexicon/<lang>.json``.

A lexicon maps phrases (normalised: lower case, accents and punctuation removed, see
:func:`normalize`) to their *readings*: a class (unit type, order verb, coast, power,
province, filler word, remark) with a value and a cost. A phrase may have several readings
("a" is a fleet in Portuguese, the support verb in Spanish, an army in English and French,
and an article in all four); the grammar keeps those that make an order, and the cost ranks
them (0 for the language's own words, 1 for a weaker reading such as a map id that the
language uses for another province, 2 for reading a meaningful word as a filler).

The language file also carries everything the formatter needs (short and long forms, articles,
genders, templates), season names, result words and the error messages. The map completes
the phrase table with its ids and English names, so a lexicon is built per (language, map);
a board whose book names places otherwise has them in ``map_provinces`` (see
:func:`province_entries`), for reading and for writing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from realpolitik.data import read_json
from realpolitik.maps.model import GameMap
from realpolitik.vocab import Power, Province

UNIT, VERB, COAST, POWER, PROVINCE, FILLER, REMARK = (
    "unit",
    "verb",
    "coast",
    "power",
    "province",
    "filler",
    "remark",
)
LANGUAGES = ("en", "es", "fr", "pt")
"""The languages with a lexicon, in the order language guessing prefers on a tie."""

WEAK = 1
"""Cost of a weaker reading: a ``~`` alias, or a map id the language uses for another place."""
FILLER_COST = 2
"""Cost of reading as a filler a word that also means something."""

_DASHES = re.compile(r"[\u2010-\u2015\u2212=\u2192\u21d2\u27f6\u2794\u279c]")
_PUNCT = re.compile(r"[()\[\]{},;:._'\u2019`\"!?\u00bf\u00a1*+&>|<#]")
_DASH_RUN = re.compile(r"-(?:\s*-)+")
_SPLIT = re.compile(r"(-)")


def normalize(text: str) -> str:
    """Lower case, no accents, punctuation as spaces, every dash (and ``=``, and an arrow:
    ``→``) a ``-``."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = _DASHES.sub("-", text)
    text = _PUNCT.sub(" ", text.replace("/", " / "))
    return _DASH_RUN.sub("-", text)


def tokenize(text: str) -> list[str]:
    """Normalised words; a ``-`` between words is a word of its own."""
    return [part for word in normalize(text).split() for part in _SPLIT.split(word) if part]


class Reading(NamedTuple):
    """One meaning of a phrase: ``Reading("province", "PAR", 0)``."""

    cls: str
    value: str
    cost: int


class Name(NamedTuple):
    """A multi-letter name for prefix matching: its words and its reading."""

    words: tuple[str, ...]
    reading: Reading


@dataclass(frozen=True, eq=False)
class Lexicon:
    """The phrase table of one language on one map, and the language's formatting data.

    ``phrases[words] = readings``; ``longest`` is the longest phrase in words; ``sizes`` the
    lengths of the phrases starting with a word (shortest first); ``known`` every
    word of every phrase; ``names`` the province and power names indexed by the first three
    letters of their first word (for unique prefixes); ``vocabulary`` the single words
    (three letters or more) that a misspelling may be corrected to; ``own`` the single words
    of the language file, map ids only where the language reads them otherwise (for guessing
    the language); ``data`` the raw language file.
    """

    language: str
    name: str
    phrases: Mapping[tuple[str, ...], tuple[Reading, ...]]
    longest: int
    sizes: Mapping[str, tuple[int, ...]]
    known: frozenset[str]
    names: Mapping[str, tuple[Name, ...]]
    vocabulary: Mapping[str, tuple[Reading, ...]]
    own: frozenset[str]
    fillers: frozenset[str]
    data: Mapping[str, Any]


def singular(count: int, language: str) -> bool:
    """Does ``count`` take the singular in ``language``? One does; in French and Brazilian
    Portuguese zero does too ("0 ordre enregistré"), as the web page's plural rules say
    (``Intl.PluralRules``). A text with a count has its singular under ``key_one``: "1
    orden registrada", "2 órdenes registradas", not "orden(es) registrada(s)"."""
    return count == 1 or (count == 0 and language in ("fr", "pt"))


@cache
def language_data(language: str) -> Mapping[str, Any]:
    """The raw language file ``lexicon/<language>.json``."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    data: dict[str, Any] = read_json("notation", "lexicon", f"{language}.json")
    return data


@lru_cache(maxsize=64)
def province_entries(language: str, game_map: GameMap) -> Mapping[Province, Mapping[str, Any]]:
    """The language's province entries (short and long forms, article, aliases) as written
    on ``game_map``: the language file's ``provinces``, with its ``map_provinces`` of that
    board, or of a board it is derived from, where that board's book names a place otherwise
    (La Conquista's "Escocia" for Edinburgh); the names replaced stay readable as aliases."""
    data = language_data(language)
    entries: dict[Province, Mapping[str, Any]] = dict(data["provinces"])
    tables: Mapping[str, Any] = data.get("map_provinces", {})
    for map_name in reversed((game_map.name, *game_map.bases)):  # the nearest board wins
        for pid, own in tables.get(map_name, {}).items():
            old = entries[pid]
            new = {**old, **own}
            forms = [*old.get("aliases", ()), *(old[f] for f in ("short", "long") if f in old)]
            new["aliases"] = [
                a for a in dict.fromkeys(forms) if a not in (new.get("short"), new["long"])
            ]
            entries[pid] = MappingProxyType(new)
    return MappingProxyType(entries)


class _Builder:
    def __init__(self) -> None:
        self.table: dict[tuple[str, ...], dict[tuple[str, str], int]] = {}

    def add(self, phrase: str, cls: str, value: str, cost: int = 0) -> tuple[str, ...]:
        if phrase.startswith("~"):
            phrase, cost = phrase[1:], max(cost, WEAK)
        key = tuple(tokenize(phrase))
        if key:
            readings = self.table.setdefault(key, {})
            old = readings.get((cls, value))
            readings[(cls, value)] = cost if old is None else min(old, cost)
        return key


def _forms(entry: Mapping[str, Any], *fields: str) -> list[str]:
    out = [entry[f] for f in fields if entry.get(f)]
    return out + list(entry.get("aliases", ()))


def _language_words(b: _Builder, data: Mapping[str, Any]) -> None:
    for letter, entry in data["units"].items():
        for form in _forms(entry, "short", "long"):
            b.add(form, UNIT, letter)
    for form in _forms(data["unit"], "long"):  # "unit": a unit of no stated type
        b.add(form, UNIT, "")
    for code, entry in data["coasts"].items():
        for form in _forms(entry, "short", "long"):
            b.add(form, COAST, code)
    for power, entry in data["powers"].items():
        for form in _power_forms(entry):
            b.add(form, POWER, power)
    for verb, forms in data["verbs"].items():
        for form in forms:
            b.add(form, REMARK if verb == "remark" else VERB, verb)
    for word in data["fillers"]:
        b.add(word, FILLER, "")


def _power_forms(entry: Mapping[str, Any]) -> list[str]:
    return [entry["name"], *entry["adjective"].values(), *entry.get("aliases", ())]


def read_power(text: str) -> Power | None:
    """The power ``text`` names in any of the four languages, by its name or adjective, in
    any case, with or without accents ("Francia", "alemão", "Austria-Hungría"); ``None``
    if it names none."""
    wanted = tokenize(text)
    for language in LANGUAGES:
        for power, entry in language_data(language)["powers"].items():
            if any(tokenize(form) == wanted for form in _power_forms(entry)):
                return str(power)
    return None


def _phrases(b: _Builder) -> dict[tuple[str, ...], tuple[Reading, ...]]:
    phrases: dict[tuple[str, ...], tuple[Reading, ...]] = {}
    for key, table in b.table.items():
        meaningful = any(cls != FILLER for cls, _ in table)
        phrases[key] = tuple(
            sorted(
                Reading(cls, value, FILLER_COST if cls == FILLER and meaningful else cost)
                for (cls, value), cost in table.items()
            )
        )
    return phrases


@lru_cache(maxsize=64)
def load_lexicon(language: str, game_map: GameMap) -> Lexicon:
    """The lexicon of ``language`` ("en", "es", "fr", "pt") completed with ``game_map``."""
    data = language_data(language)
    b = _Builder()
    _language_words(b, data)
    own_places: dict[tuple[str, ...], str] = {}
    for pid, entry in province_entries(language, game_map).items():
        if pid in game_map.provinces:
            for form in _forms(entry, "short", "long"):
                own_places.setdefault(b.add(form, PROVINCE, pid), pid)
    # the language's own words; a map id counts only where the language reads it otherwise
    # (Spanish "gal" is Wales), for ids are everybody's
    ids = {tuple(tokenize(pid)): pid for pid in game_map.provinces}
    own = frozenset(
        key[0]
        for key, table in b.table.items()
        if len(key) == 1
        and (key not in ids or any(v != ids[key] for c, v in table if c == PROVINCE))
    )
    # the map's ids and English names: weaker where the language means another province
    for pid, info in game_map.provinces.items():
        for form in (pid, info.name):
            other = own_places.get(tuple(tokenize(form)))
            b.add(form, PROVINCE, pid, WEAK if other not in (None, pid) else 0)
    phrases = _phrases(b)
    names: dict[str, list[Name]] = {}
    vocabulary: dict[str, list[Reading]] = {}
    for key, readings in phrases.items():
        for r in readings:
            if r.cls in (PROVINCE, POWER):
                names.setdefault(key[0][:3], []).append(Name(key, r))
            if len(key) == 1 and len(key[0]) >= 3 and r.cls != FILLER:
                vocabulary.setdefault(key[0], []).append(r)
    return Lexicon(
        language=language,
        name=str(data["name"]),
        phrases=phrases,
        longest=max(len(k) for k in phrases),
        sizes=_sizes(phrases),
        known=frozenset(w for key in phrases for w in key),
        names={k: tuple(v) for k, v in names.items()},
        vocabulary={k: tuple(v) for k, v in vocabulary.items()},
        own=own,
        fillers=frozenset(
            k[0] for k, rs in phrases.items() if len(k) == 1 and any(r.cls == FILLER for r in rs)
        ),
        data=data,
    )


def _sizes(phrases: Mapping[tuple[str, ...], object]) -> dict[str, tuple[int, ...]]:
    sizes: dict[str, set[int]] = {}
    for key in phrases:
        sizes.setdefault(key[0], set()).add(len(key))
    return {word: tuple(sorted(found)) for word, found in sizes.items()}


__all__ = [
    "COAST",
    "FILLER",
    "LANGUAGES",
    "POWER",
    "PROVINCE",
    "REMARK",
    "UNIT",
    "VERB",
    "Lexicon",
    "Name",
    "Reading",
    "language_data",
    "load_lexicon",
    "normalize",
    "province_entries",
    "singular",
    "tokenize",
]
