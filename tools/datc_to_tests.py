#!/usr/bin/env python3
"""Convert the DATC 3.2 cases into the project's own test data.

Reads ``shared/datc/cases.json`` (the 176 cases of sections 6.A-6.J, see
``shared/datc/README.md``) and writes ``tests/data/datc/6A.json`` ... ``6J.json``,
one JSON list of cases per section, in the format described in
``tests/data/datc/README.md``. Only facts are kept: positions, orders, expected
results, short titles, short notes of our own, and the variants for the other
rule presets where the DATC states the result under their rule choice.

The output is self-contained: the tests never read ``shared/`` at run time.

Usage::

    python tools/datc_to_tests.py            # regenerate tests/data/datc/
    python tools/datc_to_tests.py --check    # fail if the files are out of date

Standard library only.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO.parent / "shared" / "datc" / "cases.json"
DEFAULT_OUT = REPO / "tests" / "data" / "datc"

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SEASONS = {"Spring": "S", "Fall": "F", "Autumn": "F", "Winter": "W"}
KINDS = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}
RESULTS = frozenset(
    {
        "stands", "dislodged", "destroyed", "succeeds", "fails", "illegal", "invalid",
        "given", "cut", "available", "disrupted",
    }
)  # fmt: skip
LINE_WIDTH = 120

Json = Any
UnitMap = dict[str, list[str]]
DislodgedMap = dict[str, list[dict[str, Json]]]


# ---------------------------------------------------------------------------
# Hand-written content: notes and rule-preset variants.
# ---------------------------------------------------------------------------

NOTES: dict[str, str] = {
    "6.A.5": "The move to its own province is illegal, so Liverpool's support of it is too.",
    "6.A.6": "The fleet in London is English, so Germany's order for it is illegal.",
    "6.A.7": "London holds a fleet, not the army the convoy order names.",
    "6.B.10": "The fleet stands on the south coast; its order names the north coast.",
    "6.B.11": "The fleet stands on the north coast, which does not border the Gulf of Lyon.",
    "6.B.14": "Russia owns St Petersburg and has no unit; a fleet built there needs a coast.",
    "6.D.8": (
        "Greece - Naples is legal (a convoy through the Ionian Sea is possible) but no convoy is "
        "ordered, so it gets no hold support; the DATC tags the army 'dislodged', but it has no "
        "retreat, so it is destroyed."
    ),
    "6.D.35": "The support names F Armenia, but Armenia holds an army: the wrong type is ignored.",
    "6.D.4": (
        "DATC erratum: A Berlin's support is attacked from Prussia, so it is cut (the DATC 3.2 "
        "text says 'given'); F Kiel's support still holds Berlin."
    ),
    "6.F.12": "The Irish Sea fleet is on no route from London to Belgium: its convoy is illegal.",
    "6.F.16": "Szykman rule: the paradox's convoying fleet does not convoy (disrupted).",
    "6.F.17": "Szykman rule: the convoy is disrupted, so F London is not dislodged.",
    "6.F.21": (
        "DATC erratum: F Clyde is marked only 'cut', but A Norway - Clyde succeeds, so the fleet "
        "is dislodged and, with no retreat, destroyed."
    ),
    "6.F.28": (
        "The DATC tags F Gulf of Bothnia and F Norwegian Sea 'dislodged'; neither has a retreat, "
        "so both are destroyed."
    ),
    "6.G.2": "A foreign fleet cannot convoy an army against its will: both moves bounce.",
    "6.G.7": "The Russian convoy order is illegal and shows no intent: a head-to-head battle.",
    "6.G.8": "No fall-back to the land route: with no convoy the 'via convoy' move is invalid.",
    "6.G.11": "No fall-back to the land route, so this is a simple convoy paradox.",
    "6.G.19": "The French convoy order is illegal and a foreign fleet shows no intent: no swap.",
    "6.G.20": "No fall-back to the land route when an explicit convoy is disrupted.",
    "6.H.11": "Rule 4.A.5 b: a unit dislodged by a convoyed army may retreat to the army's origin.",
    "6.H.12": "Rule 4.A.5 b: a unit dislodged by a convoyed army may retreat to the army's origin.",
    "6.H.15": (
        "The DATC tags F Portugal 'dislodged'; it has no retreat, so it is destroyed and its "
        "retreat order is illegal."
    ),
    "6.I.7": "Russia may build two units, but only one in Moscow.",
    "6.J.1": "France must remove one unit and has no fleet in the Gulf of Lyon.",
    "6.J.2": "France must remove two units; the second is chosen by the civil-disorder rule.",
    "6.J.3": "Livonia borders St Petersburg; Prussia is two steps from it.",
    "6.J.4": "Both armies border Moscow; Livonia comes first alphabetically.",
    "6.J.5": "North Atlantic is three steps from St Petersburg, Skagerrak two (via Norway).",
    "6.J.6": "Both fleets are three steps from Munich; Gulf of Bothnia comes first.",
    "6.J.7": "All are two steps from an owned centre; fleets first, North Sea before Skagerrak.",
    "6.J.8": "The army is three steps from Warsaw, the fleet two.",
    "6.J.9": "The Baltic fleet is two steps from St Petersburg (south coast); Albania is farther.",
    "6.J.10": "Skagerrak is two steps from St Petersburg (north coast); Albania is farther.",
    "6.J.11": "Counting sea provinces, Albania is two steps from Naples; Piedmont is three.",
    "6.J.12": "Distance is counted to owned centres (2023 rule): Tuscany is farthest from Warsaw.",
}


@dataclass(frozen=True)
class Variant:
    """The result of a case under another rule preset (only what differs is given here).

    ``orders`` maps an order index to its resolution under the preset; ``expect``
    replaces whole keys of the case's ``expect``. ``then_orders`` and ``then_expect``
    do the same for the retreat phase of a retreat case. The output variant carries a
    complete ``expect`` and, for a retreat case, a complete ``then``.
    """

    rules: str
    note: str
    orders: dict[int, list[str]] = field(default_factory=dict)
    expect: dict[str, Json] = field(default_factory=dict)
    then_orders: dict[int, list[str]] = field(default_factory=dict)
    then_expect: dict[str, Json] = field(default_factory=dict)


def _dis(unit: str, attacker_from: str, retreats: str) -> dict[str, Json]:
    entry: dict[str, Json] = {"unit": unit, "attacker_from": attacker_from}
    entry["retreats"] = sorted(retreats.split())
    if not retreats:
        entry["destroyed"] = True
    return entry


_SAME = "the DATC states the same result as under the preferred rules"
_NO_ANSWER = (
    "the DATC says the 2000 paradox rule gives no answer here; classic then applies Szykman, "
    "which gives the preferred result"
)
_A1 = "4.A.1 a: a multi-route convoy is disrupted when any route is, so A London stays home"
_A3 = (
    "4.A.3 a (1971 handling): the convoy is used only if the destination unit moves the "
    "opposite way"
)

VARIANTS: dict[str, list[Variant]] = {
    "6.F.9": [
        Variant(
            "1971",
            _A1,
            {2: ["fails"]},
            {
                "units": {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F BRE", "F ENG"]},
                "dislodged": {"ENGLAND": [_dis("F ENG", "MAO", "BEL IRI PIC WAL")]},
            },
        )
    ],
    "6.F.10": [
        Variant(
            "1971",
            _A1,
            {1: ["fails"]},
            {
                "units": {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F BRE", "F ENG"]},
                "dislodged": {"GERMANY": [_dis("F ENG", "MAO", "BEL IRI PIC WAL")]},
            },
        )
    ],
    "6.F.11": [
        Variant(
            "1971",
            _A1,
            {0: ["fails"]},
            {
                "units": {"ENGLAND": ["A LON"], "FRANCE": ["F BRE", "F ENG"], "RUSSIA": ["F NTH"]},
                "dislodged": {"GERMANY": [_dis("F ENG", "MAO", "BEL IRI PIC WAL")]},
            },
        )
    ],
    "6.F.12": [
        Variant("1971", "4.A.1 a: the Irish Sea fleet is on no route; the convoy still succeeds"),
    ],
    "6.F.14": [
        Variant("classic", "2000 paradox rule: " + _SAME),
        Variant("1971", "1971 paradox rule: " + _SAME),
    ],
    "6.F.16": [
        Variant(
            "classic",
            "2000 paradox rule: London's support is not cut and the convoy stays available",
            {3: ["available"]},
        ),
        Variant(
            "1971",
            "1971 paradox rule: London's support is not cut and the convoy stays available",
            {3: ["available"]},
        ),
    ],
    "6.F.17": [
        Variant(
            rules,
            f"{year} paradox rule: London's support is not cut, the convoy succeeds and A Brest "
            "dislodges F London, which has no retreat",
            {0: ["given", "destroyed"], 2: ["succeeds"], 3: ["available"]},
            {
                "units": {
                    "ENGLAND": ["F WAL"],
                    "FRANCE": ["F ENG", "A LON", "F YOR"],
                    "GERMANY": ["F BEL", "F NTH"],
                },
                "dislodged": {"ENGLAND": [_dis("F LON", "BRE", "")]},
            },
        )
        for rules, year in (("classic", "2000"), ("1971", "1971"))
    ],
    "6.F.18": [Variant("classic", _NO_ANSWER)],
    "6.F.19": [
        Variant("classic", "2000 paradox rule: " + _SAME),
        Variant(
            "1971",
            "4.A.1 a makes it a paradox; the 1971 rule keeps Naples' support, "
            "so F Rome dislodges F Tyrrhenian Sea",
            {1: ["disrupted", "dislodged"], 3: ["given"], 4: ["succeeds"]},
            {
                "units": {"FRANCE": ["F ION", "A TUN"], "ITALY": ["F NAP", "F TYS"]},
                "dislodged": {"FRANCE": [_dis("F TYS", "ROM", "LYO TUS WES")]},
            },
        ),
    ],
    "6.F.20": [Variant("classic", "2000 rules: " + _SAME)],
    "6.F.21": [
        Variant("classic", "all paradox rules but 1982's: " + _SAME),
        Variant("1971", "all paradox rules but 1982's: " + _SAME),
    ],
    "6.F.22": [Variant("classic", _NO_ANSWER)],
    "6.F.23": [Variant("classic", _NO_ANSWER)],
    "6.F.24": [Variant("classic", _NO_ANSWER)],
    "6.F.26": [
        Variant("classic", "all rulebooks: " + _SAME),
        Variant("1971", "all rulebooks: " + _SAME),
    ],
    "6.F.28": [Variant("classic", _NO_ANSWER)],
    "6.F.29": [
        Variant("classic", "no paradox, so every rulebook but 1982's: " + _SAME),
        Variant("1971", "no paradox, so every rulebook but 1982's: " + _SAME),
    ],
    "6.G.1": [
        Variant("classic", "all rulebooks: " + _SAME),
        Variant("1971", "all rulebooks: " + _SAME),
    ],
    "6.G.2": [
        Variant("classic", "2000 rules (4.A.3 c): no kidnapping; " + _SAME),
        Variant(
            "1971",
            _A3 + ": the army is kidnapped and swaps with the fleet",
            {0: ["succeeds"], 1: ["succeeds"]},
            {"units": {"ENGLAND": ["A SWE"], "GERMANY": ["F SKA"], "RUSSIA": ["F NWY"]}},
        ),
    ],
    "6.G.3": [
        Variant("classic", "2000 rules (4.A.3 c): the land route is used; " + _SAME),
        Variant("1971", _A3 + " and the convoy is not disrupted; " + _SAME),
    ],
    "6.G.4": [
        Variant("classic", "2000 rules (4.A.3 c): no kidnapping; " + _SAME),
        Variant("1971", _A3 + " and the convoy is not disrupted; " + _SAME),
    ],
    "6.G.5": [
        Variant("classic", "all rulebooks: " + _SAME),
        Variant("1971", "all rulebooks: " + _SAME),
    ],
    "6.G.6": [
        Variant("classic", "2000 rules: England shows intent; " + _SAME),
        Variant("1971", "1971 rules: intent does not matter; " + _SAME),
    ],
    "6.G.7": [
        Variant(
            "classic",
            "the DATC states the 2023 result (illegal orders show no intent), and the 2000 and "
            "2023 rulebooks agree on 4.A.3; " + _SAME,
        ),
        Variant(
            "1971",
            "1971 rules: intent does not matter, the units swap",
            {1: ["succeeds"], 2: ["succeeds"]},
            {"units": {"ENGLAND": ["F SKA", "F SWE"], "RUSSIA": ["F BOT", "A NWY"]}},
        ),
    ],
    "6.G.9": [
        Variant("classic", "all rulebooks: the army is convoyed; " + _SAME),
        Variant("1971", "all rulebooks: the army is convoyed; " + _SAME),
    ],
    "6.G.11": [
        Variant(
            "1971",
            _A3 + ": Norway does not move, so A Sweden takes the land route and dislodges F Norway",
            {0: ["cut", "dislodged"], 1: ["fails"], 2: ["succeeds"], 3: ["available"]},
            {
                "units": {"ENGLAND": ["F NTH"], "RUSSIA": ["F BAR", "A NWY", "F SKA"]},
                "dislodged": {"ENGLAND": [_dis("F NWY", "SWE", "NWG STP/NC")]},
            },
        )
    ],
    "6.G.13": [
        Variant("classic", "Brannan's rule is not adopted by any rulebook; " + _SAME),
        Variant("1971", _A3 + ", so the army moves over land; " + _SAME),
    ],
    "6.G.19": [
        Variant(
            "classic",
            "the DATC states the 2023 result (illegal orders and foreign fleets show no intent), "
            "and the 2000 and 2023 rulebooks agree on 4.A.3; " + _SAME,
        ),
        Variant(
            "1971",
            "1971 rules: intent does not matter, the units swap",
            {0: ["succeeds"], 3: ["succeeds"]},
            {"units": {"FRANCE": ["A SPA", "F WES"], "ITALY": ["F LYO", "A MAR"]}},
        ),
    ],
    "6.H.11": [
        Variant(
            rules,
            note,
            {},
            {"dislodged": {"ITALY": [_dis("A MAR", "GAS", "PIE SPA")]}},
            {0: ["illegal"]},
            {
                "units": {"FRANCE": ["A BUR", "F LYO", "F MAO", "A MAR", "F WES"]},
                "disbanded": {"ITALY": ["A MAR"]},
            },
        )
        for rules, note in (
            ("classic", "4.A.5 a: a dislodged unit never retreats to the attacker's origin"),
            (
                "1971",
                _A3 + ", so the army moves over land and Marseilles may not retreat to Gascony",
            ),
        )
    ],
    "6.J.12": [
        Variant(
            rules,
            f"4.D.8 {choice}: distance is counted from the {origin}, so A Warsaw is removed",
            {},
            {"units": {"ITALY": ["A TUS"]}, "civil_disorder_disbands": {"ITALY": ["A WAR"]}},
        )
        for rules, choice, origin in (
            ("classic", "b", "home country"),
            ("1971", "a", "home centres"),
        )
    ],
}


# ---------------------------------------------------------------------------
# Conversion.
# ---------------------------------------------------------------------------


class DatcError(ValueError):
    """The source data does not fit the expected shape, or a check failed."""


def power_name(name: str) -> str:
    upper = name.upper()
    if upper not in POWERS:
        raise DatcError(f"unknown power {name!r}")
    return upper


def province(location: str) -> str:
    """``"spa/nc"`` -> ``"SPA"``."""
    return location.split("/", maxsplit=1)[0].upper()


def unit_text(unit: dict[str, Json]) -> str:
    return f"{unit['type']} {unit['location'].upper()}"


def unit_sort_key(unit: str) -> tuple[str, str]:
    kind, location = unit.split(" ")
    return location, kind


def units_by_power(units: list[dict[str, Json]]) -> UnitMap:
    grouped: UnitMap = {}
    for unit in units:
        grouped.setdefault(power_name(unit["power"]), []).append(unit_text(unit))
    return {power: sorted(grouped[power], key=unit_sort_key) for power in sorted(grouped)}


def dislodged_by_power(entries: list[dict[str, Json]]) -> DislodgedMap:
    grouped: DislodgedMap = {}
    for entry in entries:
        if entry["destroyed"] != (not entry["retreat_options"]):
            raise DatcError(f"destroyed flag does not match retreats: {entry}")
        item: dict[str, Json] = {
            "unit": unit_text(entry),
            "attacker_from": entry["attacker_from"].upper(),
            "retreats": sorted(option.upper() for option in entry["retreat_options"]),
        }
        if entry["destroyed"]:
            item["destroyed"] = True
        grouped.setdefault(power_name(entry["power"]), []).append(item)
    return {
        power: sorted(grouped[power], key=lambda item: unit_sort_key(item["unit"]))
        for power in sorted(grouped)
    }


def phase_code(phase: dict[str, Json]) -> str:
    return f"{SEASONS[phase['season']]}{phase['year']}{KINDS[phase['type']]}"


_PROPER_NAMES = {"pandin's": "Pandin's", "dad's army": "Dad's Army"}


def sentence_case(title: str) -> str:
    """``"DAD'S ARMY CONVOY"`` -> ``"Dad's Army convoy"``."""
    text = title.lower()
    for lower, proper in _PROPER_NAMES.items():
        text = text.replace(lower, proper)
    return text[:1].upper() + text[1:]


def _order_tail(parsed: dict[str, Json]) -> str:
    """What follows the unit in the short notation of a movement-phase order."""
    action = parsed["action"]
    if action == "hold":
        return "H"
    if action == "move":
        return f"- {parsed['destination']}" + (" VIA" if parsed["via_convoy"] else "")
    if action == "support":
        tail = f"S {parsed['supported_type']} {parsed['supported_location']}"
        destination = parsed["supported_destination"]
        return f"{tail} - {destination}" if destination else tail
    if action == "convoy":
        return (
            f"C {parsed['convoyed_type']} {parsed['convoyed_location']}"
            f" - {parsed['convoyed_destination']}"
        )
    raise DatcError(f"unknown order action {action!r}")


def short_order(order: dict[str, Json]) -> str:
    """The project's short notation, built from ``parsed`` and checked against ``normalized``.

    ``F nth C A lon - hol`` -> ``F NTH C A LON - HOL``; ``Build F stp`` -> ``F STP B``;
    ``Disband A pru`` -> ``A PRU D``; a retreat ``F nth - hol`` -> ``F NTH R HOL``.
    """
    parsed = order["parsed"]
    if parsed["action"] == "waive":
        return "WAIVE"
    unit = f"{parsed['unit_type']} {parsed['location']}"
    if parsed["action"] == "build":
        expected, short = f"Build {unit}", f"{unit} B"
    elif parsed["action"] == "disband":
        expected, short = f"Disband {unit}", f"{unit} D"
    elif parsed["action"] == "retreat":
        expected = f"{unit} - {parsed['destination']}"
        short = f"{unit} R {parsed['destination']}"
    else:
        expected = short = f"{unit} {_order_tail(parsed)}"
    if order["normalized"].upper() != expected.upper():
        raise DatcError(f"normalized {order['normalized']!r} does not match parsed {parsed}")
    return short.upper()


@dataclass
class Log:
    """What the conversion changed or noticed, for the summary."""

    lines: list[str] = field(default_factory=list)

    def add(self, case_id: str, text: str) -> None:
        self.lines.append(f"{case_id}: {text}")


# Results of the DATC 3.2 text that contradict its own rules (see NOTES).
ERRATA: dict[tuple[str, str], list[str]] = {
    ("6.D.4", "A BER S F KIE"): ["cut"],
}


def match_dislodged(
    case_id: str,
    source: list[dict[str, Json]],
    orders: list[dict[str, Json]],
    dislodged: list[dict[str, Json]],
    log: Log,
) -> None:
    """Make each dislodged unit's own order say ``dislodged`` or ``destroyed``, as its entry does.

    The DATC tags a few units ``dislodged`` that have no retreat (``destroyed``), and
    6.F.21 omits the dislodgement of F Clyde (an erratum); the lists are made to agree.
    """
    by_place = {(power_name(d["power"]), province(d["location"])): d for d in dislodged}
    for original, order in zip(source, orders, strict=True):
        parsed = original["parsed"]
        if parsed["action"] in ("build", "disband", "waive", "retreat"):
            continue
        entry = by_place.get((order["power"], province(parsed["location"])))
        result = order["expect"]
        tagged = [tag for tag in result if tag in ("dislodged", "destroyed")]
        if entry is None:
            if tagged:
                raise DatcError(f"{case_id}: {order['short']} is tagged {tagged} but not dislodged")
            continue
        want = "destroyed" if entry["destroyed"] else "dislodged"
        if tagged == [want]:
            continue
        fixed = [tag for tag in result if tag not in ("dislodged", "destroyed")] + [want]
        log.add(case_id, f"{order['short']}: DATC {result} -> {fixed}")
        order["expect"] = fixed


def convert_orders(orders: list[dict[str, Json]]) -> list[dict[str, Json]]:
    converted = []
    for order in orders:
        for tag in order["resolution"]:
            if tag not in RESULTS:
                raise DatcError(f"unknown resolution {tag!r} in {order}")
        converted.append(
            {
                "power": power_name(order["power"]),
                "order": order["text"],
                "short": short_order(order),
                "expect": list(order["resolution"]),
            }
        )
    return converted


def movement_expect(phase: dict[str, Json]) -> dict[str, Json]:
    return {
        "units": units_by_power(phase["poststate"]),
        "dislodged": dislodged_by_power(phase["poststate_dislodged"]),
        "contested": sorted(place.upper() for place in phase.get("contested") or []),
    }


def convert_case(case: dict[str, Json], log: Log) -> dict[str, Json]:
    case_id = case["id"]
    kind = case["phase"]["type"]
    out: dict[str, Json] = {"id": case_id, "title": sentence_case(case["title"])}
    if case_id in NOTES:
        out["note"] = NOTES[case_id]
    out["rules"] = "datc"
    first = case["previous_phase"] if kind == "Retreat" else case
    out["phase"] = phase_code(first["phase"])
    out["units"] = units_by_power(first["prestate"])
    if case.get("supply_centers"):
        out["centers"] = {
            power_name(power): sorted(place.upper() for place in places)
            for power, places in sorted(case["supply_centers"].items())
        }
    out["orders"] = convert_orders(first["orders"])
    out["expect"] = movement_expect(first)
    for order in out["orders"]:
        fix = ERRATA.get((case_id, order["short"]))
        if fix is not None:
            log.add(case_id, f"{order['short']}: DATC {order['expect']} -> {fix} (erratum)")
            order["expect"] = fix
    if kind == "Movement":
        match_dislodged(case_id, first["orders"], out["orders"], first["poststate_dislodged"], log)
    elif kind == "Adjustment":
        disbands = units_by_power(case.get("civil_disorder_disbands") or [])
        if disbands:
            out["expect"]["civil_disorder_disbands"] = disbands
    else:
        previous = case["previous_phase"]
        match_dislodged(
            case_id, previous["orders"], out["orders"], previous["poststate_dislodged"], log
        )
        if case["prestate_dislodged"] != previous["poststate_dislodged"]:
            log.add(case_id, "prestate_dislodged differs from the previous phase's dislodged units")
        if units_by_power(case["prestate"]) != units_by_power(previous["poststate"]):
            log.add(case_id, "prestate differs from the previous phase's poststate")
        then: dict[str, Json] = {
            "phase": phase_code(case["phase"]),
            "orders": convert_orders(case["orders"]),
            "expect": movement_expect(case),
        }
        # The source repeats the movement phase's standoffs; after retreats none remain.
        then["expect"]["contested"] = []
        disbanded = units_by_power(case.get("disbanded_in_retreat") or [])
        if disbanded:
            then["expect"]["disbanded"] = disbanded
        out["then"] = then
    variants = [apply_variant(out, variant) for variant in VARIANTS.get(case_id, [])]
    if variants:
        out["variants"] = variants
    return out


def apply_variant(case: dict[str, Json], variant: Variant) -> dict[str, Json]:
    out: dict[str, Json] = {"rules": variant.rules, "note": variant.note}
    out["expect_orders"] = {str(index): result for index, result in sorted(variant.orders.items())}
    expect = copy.deepcopy(case["expect"])
    expect.update(copy.deepcopy(variant.expect))
    out["expect"] = expect
    if "then" in case:
        then_expect = copy.deepcopy(case["then"]["expect"])
        then_expect.update(copy.deepcopy(variant.then_expect))
        then = copy.deepcopy(case["then"])
        for index, result in variant.then_orders.items():
            then["orders"][index]["expect"] = result
        then["expect"] = then_expect
        out["then"] = then
    elif variant.then_orders or variant.then_expect:
        raise DatcError(f"{case['id']}: a variant for the retreat phase of a non-retreat case")
    return out


# ---------------------------------------------------------------------------
# Checks: the expected positions follow from the orders and their results.
# ---------------------------------------------------------------------------


_LOC = r"[A-Z]{3}(?:/(?:NC|SC|EC))?"
LOCATION_RE = re.compile(_LOC)
UNIT_RE = re.compile(rf"[AF] {_LOC}")
SHORT_RE = re.compile(
    rf"WAIVE|[AF] {_LOC}(?: H| - {_LOC}(?: VIA)?| S [AF] {_LOC}(?: - {_LOC})?"
    rf"| C [AF] {_LOC} - {_LOC}| R {_LOC}| D| B)"
)

MOVE_RE = re.compile(rf"[AF] (?P<origin>{_LOC}) [-R] (?P<destination>{_LOC})(?: VIA)?")

Placed = dict[str, tuple[str, str]]  # province -> (power, unit type)


def _check_units(units: UnitMap, what: str) -> None:
    if list(units) != sorted(units):
        raise DatcError(f"{what}: powers not sorted")
    for power, unit_list in units.items():
        if power not in POWERS or not unit_list:
            raise DatcError(f"{what}: bad power {power} or empty list")
        if unit_list != sorted(unit_list, key=unit_sort_key):
            raise DatcError(f"{what}: units of {power} not sorted")
        for unit in unit_list:
            if not UNIT_RE.fullmatch(unit):
                raise DatcError(f"{what}: bad unit {unit!r}")


def _check_locations(places: list[str], what: str) -> None:
    if places != sorted(places):
        raise DatcError(f"{what}: not sorted")
    for place in places:
        if not LOCATION_RE.fullmatch(place):
            raise DatcError(f"{what}: bad location {place!r}")


def check_expect_notation(expect: dict[str, Json]) -> None:
    """Powers and provinces upper case, lists sorted, units in ``A LON`` / ``F SPA/NC`` form."""
    for key in ("units", "civil_disorder_disbands", "disbanded"):
        if key in expect:
            _check_units(expect[key], key)
    _check_locations(expect["contested"], "contested")
    for power, entries in expect["dislodged"].items():
        _check_units({power: [entry["unit"] for entry in entries]}, "dislodged")
        for entry in entries:
            _check_locations([entry["attacker_from"]], "attacker_from")
            _check_locations(entry["retreats"], "retreats")
            if entry.get("destroyed", False) != (not entry["retreats"]):
                raise DatcError(f"destroyed flag of {entry} does not match its retreats")


def check_orders_notation(orders: list[dict[str, Json]]) -> None:
    for order in orders:
        if (
            order["power"] not in POWERS
            or not SHORT_RE.fullmatch(order["short"])
            or not set(order["expect"]) <= RESULTS
        ):
            raise DatcError(f"bad order {order}")


def placed(units: UnitMap) -> Placed:
    flat: Placed = {}
    for power, unit_list in units.items():
        for unit in unit_list:
            kind, location = unit.split(" ")
            if province(location) in flat:
                raise DatcError(f"two units in {province(location)}")
            flat[province(location)] = (power, kind)
    return flat


def successful_moves(orders: list[dict[str, Json]], results: list[list[str]]) -> dict[str, str]:
    """Origin province -> destination province of each move or retreat that succeeds."""
    moves = {}
    for order, result in zip(orders, results, strict=True):
        match = MOVE_RE.fullmatch(order["short"])
        if match and "succeeds" in result:
            moves[province(match["origin"])] = province(match["destination"])
    return moves


def check_movement(
    units: UnitMap, orders: list[dict[str, Json]], results: list[list[str]], expect: dict[str, Json]
) -> None:
    """Moved units stand at their destinations, the others at home or in ``dislodged``."""
    before, after = placed(units), placed(expect["units"])
    moves = successful_moves(orders, results)
    dislodged = {
        province(entry["unit"].split(" ")[1]): entry
        for entries in expect["dislodged"].values()
        for entry in entries
    }
    wanted: Placed = {}
    for place, unit in before.items():
        if place in moves:
            wanted[moves[place]] = unit
        elif place not in dislodged:
            wanted[place] = unit
    if wanted != after:
        raise DatcError(f"units {after} do not follow from the moves ({wanted})")
    for place, entry in dislodged.items():
        if moves.get(province(entry["attacker_from"])) != place or place in moves:
            raise DatcError(f"no attack on {entry['unit']} from {entry['attacker_from']}")
        for option in entry["retreats"]:
            if province(option) in after or province(option) in expect["contested"]:
                raise DatcError(f"retreat {option} of {entry['unit']} is not free")
    for place in expect["contested"]:
        if place in after:
            raise DatcError(f"contested {place} is occupied")
    tags = {
        (power, province(entry["unit"].split(" ")[1])): entry.get("destroyed", False)
        for power, entries in expect["dislodged"].items()
        for entry in entries
    }
    for order, result in zip(orders, results, strict=True):
        destroyed = tags.get((order["power"], province(order["short"].split(" ")[1])))
        tagged = [tag for tag in result if tag in ("dislodged", "destroyed")]
        wanted_tag = [] if destroyed is None else ["destroyed" if destroyed else "dislodged"]
        if tagged != wanted_tag or (tagged and result[-1] != tagged[0]):
            raise DatcError(f"{order['short']}: {result} does not match its dislodgement")


def check_retreat(
    units: UnitMap,
    dislodged: DislodgedMap,
    orders: list[dict[str, Json]],
    results: list[list[str]],
    expect: dict[str, Json],
) -> None:
    """Units stay; dislodged units land where their retreat succeeds, else are disbanded."""
    retreating: Placed = {}
    for power, entries in dislodged.items():
        for entry in entries:
            kind, location = entry["unit"].split(" ")
            retreating[province(location)] = (power, kind)
    moves = successful_moves(orders, results)
    wanted = placed(units)
    for origin, destination in moves.items():
        if origin not in retreating or destination in wanted:
            raise DatcError(f"retreat from {origin} to {destination} cannot succeed")
        wanted[destination] = retreating[origin]
    if placed(expect["units"]) != wanted:
        raise DatcError("units do not follow from the retreats")
    gone = {place for place in retreating if place not in moves}
    listed = set(placed(expect.get("disbanded", {})))
    if gone != listed:
        raise DatcError(f"disbanded {sorted(listed)}, expected {sorted(gone)}")


def check_adjustment(
    units: UnitMap, orders: list[dict[str, Json]], results: list[list[str]], expect: dict[str, Json]
) -> None:
    """Units are the old ones less the disbanded ones plus the successful builds."""
    wanted = placed(units)
    for order, result in zip(orders, results, strict=True):
        kind, location, action = order["short"].split(" ")
        if "succeeds" not in result:
            continue
        if action == "B":
            wanted[province(location)] = (order["power"], kind)
        elif wanted.pop(province(location), None) is None:
            raise DatcError(f"no unit to disband for {order['short']}")
    for place in placed(expect.get("civil_disorder_disbands", {})):
        del wanted[place]
    if placed(expect["units"]) != wanted:
        raise DatcError("units do not follow from the builds and disbands")
    if expect["dislodged"] or expect["contested"]:
        raise DatcError("an adjustment leaves no dislodged unit and no contested province")


def _results(orders: list[dict[str, Json]], overrides: dict[str, list[str]]) -> list[list[str]]:
    for key, result in overrides.items():
        if not 0 <= int(key) < len(orders) or not set(result) <= RESULTS:
            raise DatcError(f"bad variant result {key}: {result}")
    return [overrides.get(str(index), order["expect"]) or [] for index, order in enumerate(orders)]


def check_first_phase(case: dict[str, Json], overrides: dict[str, list[str]], expect: Json) -> None:
    check_expect_notation(expect)
    results = _results(case["orders"], overrides)
    if case["phase"].endswith("A"):
        check_adjustment(case["units"], case["orders"], results, expect)
    else:
        check_movement(case["units"], case["orders"], results, expect)


def check_case(case: dict[str, Json]) -> None:
    """Check notation and that every expected position follows from the expected results."""
    _check_units(case["units"], "units")
    for power, places in case.get("centers", {}).items():
        _check_units({power: ["A " + place for place in places]}, "centers")
    check_orders_notation(case["orders"])
    variants = case.get("variants", [])
    check_first_phase(case, {}, case["expect"])
    for variant in variants:
        if variant["rules"] not in ("classic", "1971"):
            raise DatcError(f"unknown preset {variant['rules']}")
        check_first_phase(case, variant["expect_orders"], variant["expect"])
    if "then" not in case:
        return
    then = case["then"]
    check_orders_notation(then["orders"])
    for first, second in [(case, then), *((v, v["then"]) for v in variants)]:
        if second["phase"] != then["phase"] or len(second["orders"]) != len(then["orders"]):
            raise DatcError("a variant's retreat phase differs from the case's")
        check_orders_notation(second["orders"])
        check_expect_notation(second["expect"])
        results = _results(second["orders"], {})
        expect = first["expect"]
        check_retreat(
            expect["units"], expect["dislodged"], second["orders"], results, second["expect"]
        )


def check_case_safely(case: dict[str, Json]) -> None:
    try:
        check_case(case)
    except DatcError as error:
        raise DatcError(f"{case['id']}: {error}") from error


# ---------------------------------------------------------------------------
# Output.
# ---------------------------------------------------------------------------


def _inline(value: Json) -> str:
    return json.dumps(value, separators=(", ", ": "))


def to_json(value: Json, indent: int = 0, column: int = 0) -> str:
    """JSON with 2-space indent; orders and dislodged entries and short lists stay on one line."""
    flat = _inline(value)
    always = isinstance(value, dict) and ("order" in value or "unit" in value)
    if always or not isinstance(value, (dict, list)) or column + len(flat) <= LINE_WIDTH:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            prefix = f"{pad}{json.dumps(key)}: "
            items.append(prefix + to_json(item, indent + 2, len(prefix)))
        body, open_, close = ",\n".join(items), "{", "}"
    else:
        body = ",\n".join(pad + to_json(item, indent + 2, len(pad)) for item in value)
        open_, close = "[", "]"
    return f"{open_}\n{body}\n{' ' * indent}{close}"


def build(source: Path) -> tuple[dict[str, str], Log]:
    """Return {file name: JSON text} and the conversion log."""
    cases = json.loads(source.read_text(encoding="utf-8"))
    log = Log()
    sections: dict[str, list[dict[str, Json]]] = {}
    for case in cases:
        converted = convert_case(case, log)
        check_case_safely(converted)
        sections.setdefault(case["section"].replace(".", "") + ".json", []).append(converted)
    unused = set(VARIANTS) - {case["id"] for case in cases}
    if unused:
        raise DatcError(f"variants for unknown cases: {sorted(unused)}")
    return {name: to_json(items) + "\n" for name, items in sorted(sections.items())}, log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Convert the DATC cases into tests/data/datc.")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="DATC cases.json")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument("--check", action="store_true", help="fail if the files are out of date")
    parser.add_argument("--verbose", action="store_true", help="list what the conversion changed")
    args = parser.parse_args(argv)
    files, log = build(args.source)
    stale = []
    for name, text in files.items():
        path = args.out / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(name)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    counts = Counter({name: len(json.loads(text)) for name, text in files.items()})
    summary = ", ".join(f"{name[:-5]} {count}" for name, count in sorted(counts.items()))
    print(f"{sum(counts.values())} cases: {summary}")
    if args.verbose:
        for line in log.lines:
            print(line)
    if args.check and stale:
        print(f"out of date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
