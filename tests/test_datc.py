"""All 176 DATC 3.2 cases under the ``datc`` rules, and the results the DATC states for
other rule choices under the presets that make them (``classic``, ``1971``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.casedriver import load_cases, run_case, with_variants

CASES = load_cases("datc")
PARAMS = with_variants(CASES)


def test_all_176_cases_are_present() -> None:
    assert len(CASES) == 176
    assert len({c["id"] for c in CASES}) == 176
    assert all(c["rules"] == "datc" for c in CASES)


@pytest.mark.parametrize(
    ("rules", "case"), [(r, c) for _, r, c in PARAMS], ids=[i for i, _, _ in PARAMS]
)
def test_datc_case(rules: str, case: dict[str, Any]) -> None:
    problems = run_case(case, rules)
    assert not problems, "\n".join(problems)
