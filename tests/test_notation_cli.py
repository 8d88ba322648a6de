"""``realpolitik adjudicate --lang`` and the situation's ``language``: orders in, texts out."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from realpolitik.cli import main
from realpolitik.errors import SituationError
from realpolitik.formats.situation import adjudicate_situation

OPENING: dict[str, Any] = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]},
}


def run(situation: Any, *args: str) -> tuple[int, Any]:
    out = io.StringIO()
    code = main(["adjudicate", *args], stdin=io.StringIO(json.dumps(situation)), stdout=out)
    return code, json.loads(out.getvalue()) if out.getvalue() else None


def texts(result: dict[str, Any], power: str) -> dict[str, str]:
    return {entry["order"]: entry["result"] for entry in result["orders"][power]}


def test_spanish_orders_and_results() -> None:
    situation = {
        **OPENING,
        "orders": {"FRANCE": ["E Par-Bor", "E Mar A E Par-Bor"], "GERMANY": ["E Mun-Bor"]},
        "language": "es",
    }
    code, result = run(situation)
    assert code == 0
    assert texts(result, "FRANCE") == {
        "E Par-Bor": "succeeds",
        "E Mar A E Par-Bor": "given",
        "F Bre M": "stands",
    }
    assert texts(result, "GERMANY") == {"E Mun-Bor": "fails"}
    assert result["units"]["FRANCE"] == ["F BRE", "A BUR", "A MAR"]


def test_lang_sets_the_default_language_and_the_language_of_the_results() -> None:
    situation = {**OPENING, "orders": {"FRANCE": ["A Par-Bur", "A Mar (S) A Par-Bur"]}}
    code, result = run(situation, "--lang", "fr")
    assert code == 0
    assert texts(result, "FRANCE") == {
        "A Par-Bur": "succeeds",
        "A Mar (S) A Par-Bur": "given",
        "F Bre (H)": "stands",
    }
    english = {**situation, "language": "en", "orders": {"FRANCE": ["A PAR - BUR"]}}
    code, result = run(english, "--lang", "pt")
    assert texts(result, "FRANCE")["E de Par. para Bur."] == "succeeds"


def test_auto_guesses_each_order() -> None:
    situation = {
        **OPENING,
        "orders": {"FRANCE": ["E Par-Bor", "A Mar soutient A Par-Bur", "A de Bre. permanece"]},
        "language": "auto",
    }
    code, result = run(situation)
    assert code == 0
    assert texts(result, "FRANCE") == {
        "A PAR - BUR": "succeeds",
        "A MAR S A PAR - BUR": "given",
        "F BRE H": "stands",
    }


def test_a_bad_order_is_reported_in_its_language() -> None:
    situation = {**OPENING, "orders": {"FRANCE": ["E Par-Xyz"]}, "language": "es"}
    code, result = run(situation)
    assert code == 0
    bad = result["orders"]["FRANCE"][-1]
    assert bad["order"] == "E Par-Xyz" and bad["result"] == "illegal"
    assert 'palabra desconocida "xyz"' in bad["reason"]


def test_unknown_language() -> None:
    with pytest.raises(SituationError, match="unknown language 'de'"):
        adjudicate_situation({**OPENING, "language": "de"})
    code, _ = run({**OPENING, "language": "de"})
    assert code == 2


def test_english_stays_byte_stable() -> None:
    situation = {**OPENING, "orders": {"FRANCE": ["A PAR - BUR"]}}
    assert adjudicate_situation(situation) == adjudicate_situation(situation, language="en")
    assert texts(adjudicate_situation(situation), "FRANCE")["A PAR - BUR"] == "succeeds"
