"""Write orders, results and dates in a language, in the short or the long style.

``format_order(order, "es")`` gives the Spanish rulebook's notation (``E Par A E Mar-Bor``),
``format_order(order, "es", "long")`` a sentence ("El ejército de París apoya al ejército de
Marsella hacia Borgoña."). Every form is built from the language file's templates and parses
back to the same order (``parse_order(format_order(o, lang, style), game_map=m, language=lang)
== o``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from realpolitik.adjudicator.results import OrderResult
from realpolitik.maps.loader import load_map
from realpolitik.maps.model import GameMap
from realpolitik.notation.lexicon import language_data, province_entries
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
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.vocab import Location, Power, Province, UnitType, coast_of, province_of

Style = Literal["short", "long"]
STYLES: tuple[Style, ...] = ("short", "long")

_FIELD = re.compile(r"\{(\w+)(?::([^}]*))?\}")
_SPACES = re.compile(r"\s+")
_VOWELS = frozenset("aeiouyhàâéèêëîïôöûüAEIOUYHÀÂÉÈÊÎÔÛ")
_FAILING = frozenset(
    {
        OrderResult.FAILS,
        OrderResult.CUT,
        OrderResult.DISRUPTED,
        OrderResult.DISLODGED,
        OrderResult.DESTROYED,
        OrderResult.ILLEGAL,
        OrderResult.INVALID,
    }
)
_TEMPLATE = {
    Hold: "hold",
    Move: "move",
    SupportHold: "support_hold",
    SupportMove: "support_move",
    Convoy: "convoy",
    Retreat: "retreat",
    Disband: "disband",
    Build: "build",
    Waive: "waive",
}


def _contract(data: Mapping[str, Any], prep: str, article: str) -> str:
    """``prep`` and ``article`` as the language writes them together: "del", "à", "du"."""
    if not article:
        return prep
    if not prep:
        return article
    key = f"{prep} {article}"
    return str(data["contractions"].get(key, key))


def _after(
    data: Mapping[str, Any], prep: str, article: str, name: str, *, elide: bool = True
) -> str:
    """``name`` after ``prep`` and its ``article`` (``prep=""``: after its article alone, "la
    Bourgogne"), contracted or elided as the language writes them (``elide=False``: a name
    whose h is aspirated, "de Hollande")."""
    if elide and not article and prep in data.get("elide", ()) and name[:1].lower() in _VOWELS:
        return f"{prep[:-1]}'{name}"  # "d'Ankara"
    head = _contract(data, prep, article)
    if not head:
        return name
    return f"{head}{name}" if head.endswith("'") else f"{head} {name}"  # "l'Espagne"


class _Writer:
    """Renders one language's templates on one map."""

    def __init__(self, language: str, style: Style, game_map: GameMap) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r} (expected 'short' or 'long')")
        self.data: Mapping[str, Any] = language_data(language)
        self.style = style
        self.templates: Mapping[str, Any] = self.data[style]
        self.game_map = game_map
        self.provinces = province_entries(language, game_map)

    # --- pieces ------------------------------------------------------------------------
    def contract(self, prep: str, article: str) -> str:
        return _contract(self.data, prep, article)

    def province(self, prov: Province, style: Style | None = None) -> str:
        entry = self.provinces.get(prov)
        style = style or self.style
        if entry is None:
            info = self.game_map.provinces.get(prov)
            return prov if style == "short" or info is None else info.name
        if style == "short":
            return str(entry.get("short", prov))
        return str(entry["long"])

    def place(
        self,
        loc: Location,
        prep: str | None = None,
        style: Style | None = None,
        *,
        of_unit: bool = False,
    ) -> str:
        """A location in ``style``; with ``prep``: the preposition, the article, the place
        (with ``""``: the article and the place). ``of_unit``: the place names a unit, whose
        article a province's ``unit_article`` may drop ("l'armée de Bohême", as the French
        book writes "l'armée de Silésie", but "la côte de la Bulgarie")."""
        style = style or self.style
        prov, coast = province_of(loc), coast_of(loc)
        text = self.province(prov, style)
        if coast is not None:
            coast_entry = self.data["coasts"].get(coast)
            coast_text = coast if coast_entry is None else str(coast_entry[style])
            text = self.data[style]["place"].format(prov=text, coast=coast_text)
        if prep is None:
            return text
        entry = self.provinces.get(prov, {})
        article = str(entry.get("article", ""))
        if of_unit:
            article = str(entry.get("unit_article", article))
        return _after(self.data, prep, article, text, elide=bool(entry.get("elide", True)))

    def unit_entry(self, unit_type: UnitType | None) -> Mapping[str, Any]:
        if unit_type is None:
            return {"short": "", **self.data["unit"]}
        entry: Mapping[str, Any] = self.data["units"][unit_type.value]
        return entry

    def unit(self, ref: UnitRef, template: str) -> str:
        entry = self.unit_entry(ref.type)
        gender = str(entry["gender"])
        power: Mapping[str, Any] = self.data["powers"].get(ref.power, {}) if ref.power else {}

        def field(match: re.Match[str]) -> str:
            name, arg = match.group(1), match.group(2)
            if name == "type":
                return str(entry[self.style])
            if name == "adj":
                return str(power["adjective"][gender]) if power else ref.power or ""
            if name == "country":
                return str(power["name"]) if power else ref.power or ""
            if name == "art":
                return self.contract(arg or "", str(entry["article"]))
            if name == "indef":
                return str(entry["indefinite"])
            if name == "loc":
                return self.place(ref.location, arg, of_unit=True)
            raise KeyError(name)

        return _FIELD.sub(field, template)

    # --- whole orders ------------------------------------------------------------------
    def order(self, order: Order) -> str:
        t = self.templates
        unit = None if isinstance(order, Waive) else order.unit
        target: UnitRef | None = None
        if isinstance(order, SupportHold | SupportMove):
            target = order.supported
        elif isinstance(order, Convoy):
            target = order.convoyed
        dest: Location | None = None
        if isinstance(order, Move | SupportMove | Convoy | Retreat):
            dest = order.destination
        via = isinstance(order, Move) and order.via_convoy

        def field(match: re.Match[str]) -> str:
            name, arg = match.group(1), match.group(2)
            if name == "unit" and unit is not None:
                return self.unit(unit, t["unit"])
            if name == "new" and unit is not None:
                return self.unit(unit, t["new"])
            if name == "target" and target is not None:
                return self.unit(target, t["target"])
            if name == "dest" and dest is not None:
                return self.place(dest, arg)
            if name == "via":
                return str(t["via"]) if via else ""
            if name == "g" and arg:
                male, _, female = arg.partition("|")
                kind = None if unit is None else unit.type
                return male if self.unit_entry(kind)["gender"] == "m" else female
            raise KeyError(name)

        text = _FIELD.sub(field, str(t[_TEMPLATE[type(order)]]))
        return self.finish(text)

    def finish(self, text: str) -> str:
        text = _SPACES.sub(" ", text).replace("' ", "'").replace(" .", ".").strip()
        if self.templates.get("upper"):
            return text.upper()
        return text[:1].upper() + text[1:] if self.style == "long" else text


def format_order(
    order: Order, language: str = "en", style: Style = "short", *, game_map: GameMap | None = None
) -> str:
    """``order`` in ``language``'s notation: ``style="short"`` (the rulebook's abbreviations,
    ``E Par-Bor``) or ``"long"`` (a sentence). English short is ``str(order)``, which
    :func:`~realpolitik.notation.parse_order` reads back (a nationality as the power:
    ``A BUD S TURKEY A SER``).

    >>> from realpolitik.notation import parse_order
    >>> format_order(parse_order("F LON - NTH", game_map=load_map("standard")), "es", "long")
    'La flota de Londres se mueve al Mar del Norte.'
    """
    if language == "en" and style == "short":  # one English writer: the order's own
        return str(order)
    return _Writer(language, style, game_map or load_map("standard")).order(order)


def format_unit(ref: UnitRef, language: str = "en", *, game_map: GameMap | None = None) -> str:
    """A unit in ``language``'s short notation, as its orders name it: ``"E Par"``,
    ``"F StP/cs"``; English, as the game writes it (``"A PAR"``).

    >>> from realpolitik.vocab import ARMY
    >>> format_unit(UnitRef(ARMY, "PAR"), "es")
    'E Par'
    """
    if language == "en":
        return str(ref)
    w = _Writer(language, "short", game_map or load_map("standard"))
    return w.finish(w.unit(ref, str(w.templates["unit"])))


def format_place(loc: Location, language: str = "en", *, game_map: GameMap | None = None) -> str:
    """A province (with its coast) in ``language``'s short notation: ``"Bor"``; English,
    as the game writes it (``"BUR"``)."""
    if language == "en":
        return loc
    w = _Writer(language, "short", game_map or load_map("standard"))
    return w.finish(w.place(loc))


def unit_phrase(
    ref: UnitRef,
    language: str,
    *,
    game_map: GameMap | None = None,
    indefinite: bool = False,
    prep: str = "",
) -> str:
    """A unit in words: "el ejército de París" (or "un ejército" with ``indefinite``); with
    ``prep``, after that preposition: "del ejército de París"."""
    w = _Writer(language, "long", game_map or load_map("standard"))
    template = "{indef} {type}" if indefinite else str(w.templates["unit"])
    text = w.unit(ref, template.replace("{art}", f"{{art:{prep}}}") if prep else template)
    return _SPACES.sub(" ", text).replace("' ", "'").strip()


def place_name(
    loc: Location, language: str, *, game_map: GameMap | None = None, prep: str | None = None
) -> str:
    """A province (with its coast) by its full name in ``language``: "San Petersburgo (costa
    norte)"; with ``prep``, after that preposition and the province's article: "al Mar del
    Norte" (``prep=""``: after its article alone, "el Mar del Norte")."""
    text = _Writer(language, "long", game_map or load_map("standard")).place(loc, prep)
    return text.replace("' ", "'")  # "l'Espagne"


def coast_name(coast: str, language: str) -> str:
    """A coast by its full name: ``coast_name("NC", "fr") == "côte nord"``."""
    entry = language_data(language)["coasts"].get(coast)
    return coast if entry is None else str(entry["long"])


def power_name(power: Power, language: str, *, prep: str | None = None) -> str:
    """A power's name in ``language``: ``power_name("GERMANY", "pt") == "Alemanha"``; with
    ``prep``, after that preposition and the power's article: ``"da Alemanha"`` (``prep=""``:
    after its article alone, "a Alemanha")."""
    data = language_data(language)
    entry = data["powers"].get(power)
    name = power.title() if entry is None else str(entry["name"])
    if prep is None:
        return name
    return _after(data, prep, "" if entry is None else str(entry.get("article", "")), name)


def result_name(result: OrderResult | str, language: str) -> str:
    """A DATC result word in ``language``: ``result_name("fails", "es") == "fracasa"``."""
    value = result.value if isinstance(result, OrderResult) else result
    return str(language_data(language)["results"].get(value, value))


def underline(text: str) -> str:
    """``text`` underlined (combining low line), as the rulebooks mark failed orders."""
    return "".join(c + "\u0332" if not c.isspace() else c for c in text)


def format_result(
    order: Order,
    result: OrderResult | str,
    language: str = "en",
    style: Style = "short",
    *,
    marked: bool = True,
    game_map: GameMap | None = None,
) -> str:
    """An order and its result: ``"E Par-Bor (fracasa)"``; with ``marked`` a failing order
    (failed, cut, disrupted, dislodged, destroyed, illegal, invalid) is underlined, as the
    rulebooks print it."""
    text = format_order(order, language, style, game_map=game_map)
    value = OrderResult(result) if isinstance(result, str) else result
    if marked and value in _FAILING:
        text = underline(text)
    return f"{text} ({result_name(value, language)})"


def season_names(language: str, edition: str | None = None) -> dict[Season, list[str]]:
    """Season words: Spanish Primavera/Otoño (the adjustments: Otoño, as the books end the
    Fall turn with them); Portuguese ``grow`` Inverno/Verão."""
    seasons: Mapping[str, Any] = language_data(language)["seasons"]
    table = seasons.get(edition or "default", seasons["default"])
    return {Season[name]: list(words) for name, words in table.items()}


def phase_kind_word(phase: Phase, language: str = "en", edition: str | None = None) -> str:
    """The word for a phase's kind: ``"retiradas"``, ``"ajustes"``; an edition's own where
    it names it otherwise (conquista's adjustments are its reinforcements, ``"refuerzos"``);
    a movement's is empty."""
    data = language_data(language)
    own: Mapping[str, Any] = data.get("edition_phase_kinds", {}).get(edition or "", {})
    return str(own.get(phase.kind.value, data["phase_kinds"][phase.kind.value]))


def format_date(phase: Phase, language: str = "en", edition: str | None = None) -> str:
    """``"Primavera de 1901"``, ``"Automne 1901 (retraites)"``, ``"Inverno de 1901"`` (grow)."""
    data = language_data(language)
    season = season_names(language, edition)[phase.season][0]
    text = str(data["date"]).format(season=season, year=phase.year)
    kind = phase_kind_word(phase, language, edition)
    return f"{text} ({kind})" if kind and phase.kind is not PhaseKind.MOVEMENT else text


__all__ = [
    "STYLES",
    "Style",
    "coast_name",
    "format_date",
    "format_order",
    "format_place",
    "format_result",
    "format_unit",
    "phase_kind_word",
    "place_name",
    "power_name",
    "result_name",
    "season_names",
    "underline",
    "unit_phrase",
]
