"""Lexicons: the words of one language's order notation, loaded from ``lexicon/<lang>.json``.

A lexicon maps phrases (already normalised: lower case, no accents) to their meaning: unit
types, order verbs, coasts, powers, provinces (on top of the map's own ids and English
names), and filler words that carry no meaning ("the", "of").
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from realpolitik.maps.model import GameMap

UNIT, VERB, COAST, POWER, PROVINCE, FILLER = "unit", "verb", "coast", "power", "province", "filler"


def normalize(text: str) -> str:
    """Lower case, accents removed, punctuation spaced: the form lexicon keys are in."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    for dash in ("\u2013", "\u2014", "\u2212"):
        text = text.replace(dash, "-")
    for mark in "(),;":
        text = text.replace(mark, " ")
    return text.replace("/", " / ").replace("->", " -> ").replace("=>", " => ")


def tokenize(text: str) -> list[str]:
    """Split normalised text into words; a ``-`` between words is a word of its own."""
    tokens: list[str] = []
    for word in normalize(text).split():
        if word in ("->", "=>", "-"):
            tokens.append(word)
            continue
        word = word.rstrip(".") or word
        parts = word.split("-")
        for k, part in enumerate(parts):
            if k:
                tokens.append("-")
            if part:
                tokens.append(part.rstrip(".") or part)
    return tokens


@dataclass(frozen=True)
class Lexicon:
    """Phrase table of one language: ``phrases[tuple of tokens] = (class, value)``."""

    language: str
    name: str
    phrases: dict[tuple[str, ...], tuple[str, str]]
    longest: int


@lru_cache(maxsize=32)
def load_lexicon(language: str, game_map: GameMap) -> Lexicon:
    """The lexicon of ``language`` ("en", ...) completed with ``game_map``'s ids and names."""
    try:
        raw = resources.files("realpolitik.notation").joinpath("lexicon", f"{language}.json")
        data = json.loads(raw.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"unknown language {language!r}") from None
    phrases: dict[tuple[str, ...], tuple[str, str]] = {}

    def add(phrase: str, cls: str, value: str) -> None:
        key = tuple(tokenize(phrase))
        if key:
            phrases.setdefault(key, (cls, value))

    for word in data.get("fillers", []):
        add(word, FILLER, "")
    for section, cls in (("units", UNIT), ("verbs", VERB), ("coasts", COAST), ("powers", POWER)):
        for phrase, value in data.get(section, {}).items():
            add(phrase, cls, value)
    for phrase, value in data.get("provinces", {}).items():
        add(phrase, PROVINCE, value)
    for pid, info in game_map.provinces.items():
        add(pid, PROVINCE, pid)
        add(info.name, PROVINCE, pid)
    longest = max(len(k) for k in phrases)
    return Lexicon(data["language"], data.get("name", language), phrases, longest)
