"""The words printed on the picture, in the chosen language: province names, dates, power
names, orders and results (from the notation lexicons), and the legend's own words and the
boards' titles (``data/legend_words.json``)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from realpolitik.adjudicator.results import OrderResult
from realpolitik.data import read_json
from realpolitik.maps import GameMap
from realpolitik.notation import (
    format_date,
    format_order,
    language_data,
    phase_kind_word,
    power_name,
    province_entries,
    result_name,
)
from realpolitik.notation.formatter import unit_phrase
from realpolitik.orders import Order, UnitRef
from realpolitik.phase import Phase, PhaseKind
from realpolitik.vocab import Power, Province


class Words:
    """Words of one language (``"en"``, ``"es"``, ``"fr"``, ``"pt"``); ``names`` (province
    id to name) overrides the province names of the lexicon."""

    def __init__(
        self,
        language: str = "en",
        *,
        game_map: GameMap | None = None,
        names: Mapping[Province, str] | None = None,
        edition: str | None = None,
    ) -> None:
        self.language = language
        self.data = language_data(language)  # raises ValueError for an unknown language
        self.game_map = game_map
        self.names = dict(names or {})
        self.edition = edition

    def province(self, pid: Province, style: str) -> str:
        """``"LON"`` / ``"London"`` in English; the lexicon's short or long name otherwise."""
        if pid in self.names:
            return self.names[pid]
        entries = self.data["provinces"]
        if self.game_map is not None:  # a board's own names (La Conquista's "Escocia")
            entries = province_entries(self.language, self.game_map)
        entry = entries.get(pid, {})
        if style == "short":
            return pid if self.language == "en" else str(entry.get("short", pid))
        if "long" in entry:
            return str(entry["long"])
        if self.game_map is not None and pid in self.game_map.provinces:
            return self.game_map.name_of(pid)
        return pid

    def date(self, phase: Phase) -> str:
        """``"Spring 1901"``, ``"Primavera de 1901"``."""
        plain = Phase(phase.year, phase.season, PhaseKind.MOVEMENT)
        return format_date(plain, self.language, self.edition)

    def kind(self, phase: Phase) -> str:
        """``"Retreats"``, ``"Adjustments"``; movement: ``"Movement"`` in English only."""
        word = phase_kind_word(phase, self.language, self.edition)
        if not word and self.language == "en":
            word = "movement"
        return word[:1].upper() + word[1:]

    def power(self, power: Power) -> str:
        return power_name(power, self.language)

    def order(self, order: Order) -> str:
        if self.language == "en":
            return str(order)
        return format_order(order, self.language, game_map=self.game_map)

    def unit(self, unit: UnitRef) -> str:
        """A unit in words: ``"the army in Paris"``, ``"l'armée de Paris"``."""
        return unit_phrase(unit, self.language, game_map=self.game_map)

    def result(self, result: OrderResult) -> str:
        return result_name(result, self.language)

    def legend(self, key: str, **values: object) -> str:
        """A word of the legend (``"power"``: ``"Potencia"``), ``values`` filled in."""
        return str(_legend_words()[self.language][key]).format(**values)

    def title(self, game_map: GameMap) -> str:
        """The board's title in the language (the map's own, English, where it has none)."""
        return str(_legend_words()[self.language]["titles"].get(game_map.name, game_map.title))


@cache
def _legend_words() -> Mapping[str, Mapping[str, Any]]:
    words: dict[str, Mapping[str, Any]] = read_json("render", "data", "legend_words.json")
    return words
