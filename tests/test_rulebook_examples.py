"""The rulebooks' worked examples: seed 000's 32 diagrams (classic), seed 001's 13
examples and the other orders its text plays out (1971), seed 003's examples (grow, on its
boards for fewer players too, with the orders as the book writes them in Portuguese) and
seed 004's examples on its own board (conquista), each under its own edition, through the
same driver as the DATC. Each seed 003 and 004 case quotes the book ("book").
A case marked ``pending`` states the book's result for a rule not implemented yet: it is
expected to fail, and flags the day it passes."""

from __future__ import annotations

from typing import Any

import pytest

from realpolitik import ARMY, FLEET, load_map
from tests.casedriver import load_cases, run_case, with_variants

CASES = load_cases("rulebook")
PARAMS = with_variants(CASES)


def test_every_diagram_and_example_is_present() -> None:
    ids = {c["id"] for c in CASES}
    assert {f"000-D{n}" for n in range(1, 33)} <= ids
    assert {f"001-E{n}" for n in range(1, 14)} <= ids
    text_1971 = {"VII.1", "VII.3b", "IX.1", "IX.6", "IX.6b", "XII.1", "XII.2", "XIV.4", "XIV.4b"}
    assert {f"001-{section}" for section in (*text_1971, "XIV.4c")} <= ids
    assert {f"003-E{n}" for n in range(1, 16)} <= ids
    assert {f"004-E{n}" for n in range(1, 29)} <= ids
    assert all("book" in c for c in CASES if c["id"][:4] in ("003-", "004-"))


def _marked(rules: str, case: dict[str, Any]) -> Any:
    if "pending" not in case:
        return pytest.param(rules, case)
    return pytest.param(rules, case, marks=pytest.mark.xfail(strict=True, reason=case["pending"]))


@pytest.mark.parametrize(
    ("rules", "case"), [_marked(r, c) for _, r, c in PARAMS], ids=[i for i, _, _ in PARAMS]
)
def test_rulebook_case(rules: str, case: dict[str, Any]) -> None:
    problems = run_case(case, rules)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", [c for c in CASES if "legal_moves" in c], ids=lambda c: c["id"])
def test_diagram_moves(case: dict[str, Any]) -> None:
    game_map = load_map("standard")
    spec = case["legal_moves"]
    kind, loc = spec["unit"].split()
    utype = ARMY if kind == "A" else FLEET
    reachable = {p for p in game_map.provinces if game_map.can_reach(utype, loc, p)}
    assert reachable == set(spec["moves"])
    assert not reachable & set(spec.get("not_moves", []))
