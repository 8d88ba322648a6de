"""One driver for every data-driven adjudication case (DATC, rulebook diagrams).

A case is a position, orders and the expected results (see tests/data/datc/README.md);
``run_case`` adjudicates it (and its ``then`` retreat step) and returns a list of
differences, empty when the case passes, with a report of the position, orders and results.
A case naming an ``edition`` is played on that edition's board with its rules (conquista:
no retreats, its own geography); ``board`` names another board; ``set`` overrides single
rule choices (``{"support_reach": "borders"}``, as a table may), and a variant may ``set``
them instead of naming other rules. An order's ``text`` is the order as the book writes it,
in the case's ``language``: it must read as the order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from realpolitik import Phase, Position, adjudicate, parse_order, rules_for
from realpolitik.adjudicator.results import Resolution
from realpolitik.game.editions import edition, with_overrides
from realpolitik.maps import GameMap, load_map
from realpolitik.orders import Move, Order, Retreat
from realpolitik.rules import Rules

DATA = Path(__file__).parent / "data"


def load_cases(folder: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted((DATA / folder).glob("*.json")):
        cases.extend(json.loads(path.read_text(encoding="utf-8")))
    return cases


def with_variants(cases: list[dict[str, Any]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(test id, rules, case) for every case and every stated variant of it."""
    out = []
    for case in cases:
        out.append((case["id"], case["rules"], case))
        for variant in case.get("variants", []):
            rules = variant.get("rules", case["rules"])
            name = ",".join(f"{k}={v}" for k, v in variant.get("set", {}).items()) or rules
            out.append((f"{case['id']}[{name}]", rules, _apply(case, variant)))
    return out


def _apply(case: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    new: dict[str, Any] = json.loads(json.dumps(case))
    new.pop("variants", None)
    for index, expect in variant.get("expect_orders", {}).items():
        new["orders"][int(index)]["expect"] = expect
    if "expect" in variant:
        new["expect"] = {**new["expect"], **variant["expect"]}
    if "then" in variant:
        new["then"] = variant["then"]
    if "set" in variant:
        new["set"] = {**new.get("set", {}), **variant["set"]}
    return new


def as_phase_order(order: Order, phase: Phase) -> Order:
    """In a retreat phase ``A PAR - BUR`` means ``A PAR R BUR``."""
    if phase.is_retreats and isinstance(order, Move) and not order.via_convoy:
        return Retreat(order.unit, order.destination)
    return order


def _units(shape: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, unit) for power, units in shape.items() for unit in units}


def _dislodged(shape: dict[str, list[dict[str, Any]]], with_retreats: bool) -> set[Any]:
    out = set()
    for power, entries in shape.items():
        for e in entries:
            retreats = tuple(sorted(e.get("retreats", []))) if with_retreats else ()
            origin = e.get("attacker_from")
            out.add((power, e["unit"], origin and origin.split("/")[0], retreats))
    return out


def setting(case: dict[str, Any], rules_name: str) -> tuple[GameMap, Rules]:
    """The board and rules of a case: its edition's, or the standard map and the preset."""
    if "edition" in case:
        ed = edition(case["edition"])
        game_map, rules = load_map(case.get("board", ed.map)), ed.rules
    else:
        game_map, rules = load_map(case.get("board", "standard")), rules_for(rules_name)
    return game_map, with_overrides(rules, case.get("set", {}))


def _step(
    case: dict[str, Any], rules_name: str, phase: Phase, position: Position, step: dict[str, Any]
) -> tuple[Resolution, list[str], list[Order]]:
    game_map, rules = setting(case, rules_name)
    problems: list[str] = []
    orders: dict[str, list[Order]] = {}
    parsed: list[Order] = []
    for spec in step["orders"]:
        order = as_phase_order(parse_order(spec["order"], game_map=game_map), phase)
        short = spec.get("short")
        if short and as_phase_order(parse_order(short, game_map=game_map), phase) != order:
            problems.append(f"{spec['order']!r} and {spec['short']!r} parse differently")
        text = spec.get("text")  # the order as the book writes it, in the case's language
        language = case.get("language", "en")
        if text and parse_order(text, game_map=game_map, language=language) != order:
            problems.append(f"{spec['order']!r} and the book's {text!r} parse differently")
        orders.setdefault(spec["power"], []).append(order)
        parsed.append(order)
    resolution = adjudicate(game_map, position, orders, rules, phase)
    given = [o for o in resolution.outcomes if not o.implied]
    for spec, outcome in zip(step["orders"], given, strict=True):
        if "expect" in spec and outcome.datc() != spec["expect"]:
            problems.append(
                f"{spec['power']} {spec['order']}: expected {spec['expect']}, got {outcome.datc()}"
                f" ({outcome.reason})"
            )
    expect = step.get("expect", {})
    got = resolution.position.to_json()
    if "units" in expect and _units(expect["units"]) != _units(got["units"]):
        problems.append(f"units: expected {expect['units']}, got {got['units']}")
    if "dislodged" in expect:
        full = all("retreats" in e for es in expect["dislodged"].values() for e in es)
        want = _dislodged(expect["dislodged"], full)
        have = _dislodged(got["dislodged"], full)
        if want != have:
            problems.append(f"dislodged: expected {sorted(want)}, got {sorted(have)}")
    if "contested" in expect and sorted(expect["contested"]) != got["contested"]:
        problems.append(f"contested: expected {expect['contested']}, got {got['contested']}")
    if "civil_disorder_disbands" in expect:
        want_cd = _units(expect["civil_disorder_disbands"])
        have_cd = {(u.power, str(u)) for u in resolution.civil_disorder}
        if want_cd != have_cd:
            problems.append(f"civil disorder: expected {sorted(want_cd)}, got {sorted(have_cd)}")
    return resolution, problems, parsed


def run_case(case: dict[str, Any], rules_name: str) -> list[str]:
    """Adjudicate a case; an empty list means it passes, else the report lines."""
    game_map, _ = setting(case, rules_name)
    position = Position.from_json(
        {"units": case["units"], "centers": case.get("centers", {})}, game_map
    )
    phase = Phase.parse(case["phase"])
    resolution, problems, _ = _step(case, rules_name, phase, position, case)
    report = [f"{case['id']} ({rules_name}): {case.get('title', '')}"]
    report += _describe(position, resolution)
    if "then" in case and not problems:
        then = case["then"]
        after, more, _ = _step(
            case, rules_name, Phase.parse(then["phase"]), resolution.position, then
        )
        problems += more
        report += ["-- then " + then["phase"], *_describe(resolution.position, after)]
    if not problems:
        return []
    return [*report, "PROBLEMS:", *problems]


def _describe(position: Position, resolution: Resolution) -> list[str]:
    lines = [f"position: {json.dumps(position.to_json())}"]
    for o in resolution.outcomes:
        lines.append(f"  {o.power:8} {o.order!s:28} {'/'.join(o.datc()):20} {o.reason}")
    lines.append(f"after: {json.dumps(resolution.position.to_json())}")
    return lines
