"""The JSON contract of ``realpolitik adjudicate``: shape, chaining, errors, --jsonl."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from realpolitik.cli import main


def run(situation: Any, *args: str) -> tuple[int, Any]:
    text = situation if isinstance(situation, str) else json.dumps(situation)
    out = io.StringIO()
    code = main(["adjudicate", *args], stdin=io.StringIO(text), stdout=out)
    return code, json.loads(out.getvalue()) if out.getvalue() and "--jsonl" not in args else out


OPENING = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]},
    "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
}


def test_result_shape() -> None:
    code, result = run(OPENING)
    assert code == 0
    assert set(result) == {
        "phase", "orders", "units", "dislodged", "contested", "centers", "next_phase"
    }  # fmt: skip
    france = {e["order"]: e["result"] for e in result["orders"]["FRANCE"]}
    assert france == {
        "A PAR - BUR": "succeeds",
        "A MAR S A PAR - BUR": "given",
        "F BRE H": "stands",
    }
    assert result["orders"]["GERMANY"][0]["result"] == "fails"
    assert result["units"]["FRANCE"] == ["F BRE", "A BUR", "A MAR"]
    assert result["next_phase"] == "F1901M"


def test_lower_case_input_and_coasts() -> None:
    situation = {
        "phase": "s1901m",
        "units": {"russia": ["f stp/sc"], "england": ["f nwy"]},
        "orders": {"russia": ["f stp/sc - bot"], "england": ["F NWY - STP(NC)"]},
    }
    code, result = run(situation)
    assert code == 0
    assert result["units"] == {"ENGLAND": ["F STP/NC"], "RUSSIA": ["F BOT"]}


def test_results_chain_through_retreats_and_adjustments() -> None:
    movement = {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A BEL", "A MUN"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["BEL", "MUN"]},
        "orders": {"FRANCE": ["A PIC - BEL", "A BUR S A PIC - BEL"], "GERMANY": ["A MUN H"]},
    }
    _, first = run(movement)
    assert first["dislodged"] == {
        "GERMANY": [{"unit": "A BEL", "attacker_from": "PIC", "retreats": ["HOL", "RUH"]}]
    }
    assert first["next_phase"] == "F1901R"
    assert first["centers"]["GERMANY"] == ["BEL", "MUN"]  # changes only after the retreats
    retreat = {
        "phase": first["next_phase"],
        **{k: first[k] for k in ("units", "centers", "dislodged", "contested")},
        "orders": {"GERMANY": ["A BEL R RUH"]},
    }
    _, second = run(retreat)
    assert second["units"]["GERMANY"] == ["A MUN", "A RUH"]
    assert second["centers"] == {"FRANCE": ["BEL", "PAR"], "GERMANY": ["MUN"]}
    assert second["next_phase"] == "W1901A"
    adjust = {
        "phase": second["next_phase"],
        "units": second["units"],
        "centers": second["centers"],
        "orders": {"GERMANY": []},
    }
    _, third = run(adjust)
    removed = [e for e in third["orders"]["GERMANY"] if e.get("implied")]
    assert len(removed) == 1 and removed[0]["reason"] == "civil disorder"
    assert third["next_phase"] == "S1902M"


@pytest.mark.parametrize(
    ("language", "builds", "removal", "hold"),
    [
        ("en", ["F Bre", "A Par"], "A Ruh", "A Mar H"),
        ("es", ["F Bre", "E Par"], "E Ruh", "E Mar M"),  # the 2000 book's example game
        ("fr", ["F Bre", "A Par"], "A Ruh", "A Mar (H)"),
        ("pt", ["A Bre", "E Par"], "E Ruh", "E Mar permanece"),  # Portuguese A: a fleet
    ],
)
def test_adjustments_written_as_the_books_write_them(
    language: str, builds: list[str], removal: str, hold: str
) -> None:
    """The books write a build as the bare unit ("Inglaterra construye ... ("F Edi")") and a
    removal as the unit ("Rusia retira "E Gal""), as a game reads them; with the language
    given (not guessed: ``auto`` read them so) they were read as holds, every one illegal,
    and the removal left to the civil-disorder rule (A KIE went, not the A RUH ordered)."""
    situation = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH", "A KIE"]},
        "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "BER"]},
        "orders": {"FRANCE": [*builds, hold], "GERMANY": [removal]},
        "language": language,
    }
    code, result = run(situation)
    assert code == 0
    results = [e["result"] for e in result["orders"]["FRANCE"]]
    assert results == ["succeeds", "succeeds", "illegal"]  # a hold said in words is no build
    assert [e["result"] for e in result["orders"]["GERMANY"]] == ["succeeds"]
    assert result["units"] == {"FRANCE": ["F BRE", "A BUR", "A PAR"], "GERMANY": ["A KIE", "A MUN"]}


def test_bad_orders_are_reported_not_raised() -> None:
    situation = {**OPENING, "orders": {"FRANCE": ["A PAR - MUN", "gibberish here"]}}
    code, result = run(situation)
    assert code == 0
    entries = {e["order"]: e for e in result["orders"]["FRANCE"]}
    assert entries["A PAR - MUN"]["result"] == "illegal"
    assert entries["gibberish here"]["result"] == "illegal"
    assert "gibberish" in entries["gibberish here"]["reason"]
    assert "A PAR" in result["units"]["FRANCE"]


def test_unreadable_orders_keep_the_readable_ones_around_them() -> None:
    texts = ["zz top", "A PAR - BUR", "gibberish here", "A MAR S A PAR - BUR"]
    situation = {**OPENING, "orders": {"FRANCE": texts, "GERMANY": ["A MUN H"]}}
    code, result = run(situation)
    assert code == 0
    entries = {e["order"]: e["result"] for e in result["orders"]["FRANCE"]}
    assert entries == {
        "zz top": "illegal",
        "gibberish here": "illegal",
        "A PAR - BUR": "succeeds",
        "A MAR S A PAR - BUR": "given",
        "F BRE H": "stands",  # no order
    }
    assert "A BUR" in result["units"]["FRANCE"]


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ("{not json", "bad JSON"),
        ("[" * 100_000 + "]" * 100_000, "bad JSON: nested too deeply"),  # not RecursionError
        ("", "the input is empty"),
        (" \n", "the input is empty"),
        ({"units": {}}, "no 'phase'"),
        ({"phase": "S1901X"}, "bad phase"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}, "unknown province"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F PAR"]}}, "an army|fleet cannot"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}}, "two units"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}, "army cannot stand"),
        ({"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}}, "must name its coast"),
        ({"phase": "S1901M", "centers": {"FRANCE": ["BUR"]}}, "not a supply centre"),
        ({"phase": "S1901M", "units": {"SPAIN": ["A PAR"]}}, "units: unknown power 'SPAIN'"),
        ({"phase": "S1901M", "centers": {"frnace": ["PAR"]}}, "centers: unknown power 'FRNACE'"),
        (
            {"phase": "S1901R", "dislodged": {"PRUSSIA": [{"unit": "A PAR"}]}},
            "dislodged: unknown power 'PRUSSIA'",
        ),
        ({"phase": "S1901M", "bogus": 1}, "unknown key"),
        (  # the unit vanished from the result, unseen
            {"phase": "S1901M", "dislodged": {"FRANCE": [{"unit": "A PAR"}]}},
            "dislodged units \\(A PAR\\) given in S1901M: only a retreat phase has them",
        ),
        (
            {"phase": "W1901A", "dislodged": {"FRANCE": [{"unit": "A PAR"}]}},
            "dislodged units \\(A PAR\\) given in W1901A",
        ),
        (  # a misspelt attacker_from was dropped: the unit could retreat where it came from
            {"phase": "S1901R", "dislodged": {"FRANCE": [{"unit": "A PAR", "atacker": "BUR"}]}},
            "unknown key\\(s\\) in the dislodged A PAR of FRANCE: atacker "
            "\\(known: attacker_from, retreats, unit\\)",
        ),
        (  # the place was named as a unit: "unknown province 'XXX' in unit 'A XXX' of FRANCE"
            {"phase": "S1901R", "dislodged": {"FRANCE": [{"unit": "A PAR", "retreats": ["XXX"]}]}},
            "unknown province 'XXX' in the retreats of the dislodged A PAR of FRANCE$",
        ),
        (  # "an army cannot stand in NTH (North Sea): 'A NTH' of FRANCE"
            {"phase": "S1901R", "dislodged": {"FRANCE": [{"unit": "A PIC", "retreats": ["NTH"]}]}},
            "'NTH' in the retreats of the dislodged A PIC of FRANCE: an army cannot stand there$",
        ),
        (
            {"phase": "S1901R", "dislodged": {"FRANCE": [{"unit": "F MAO", "retreats": ["SPA"]}]}},
            "'SPA' in the retreats of the dislodged F MAO of FRANCE: a fleet cannot stand there$",
        ),
        (
            {
                "phase": "S1901R",
                "dislodged": {"FRANCE": [{"unit": "A PIC", "retreats": ["spa/nc"]}]},
            },
            "'spa/nc' in the retreats of the dislodged A PIC of FRANCE: an army has no coast$",
        ),
        ({"phase": "S1901M", "orders": ["A PAR H"]}, "orders"),
        ({"phase": "S1901M", "orders": {"FRANCE": "A PAR H"}}, "orders of FRANCE must be a list"),
        ({"phase": "S1901M", "orders": {"FRANCE": ["A PAR H", 3]}}, "must be a list of strings"),
        ({"phase": "S1901M", "orders": {"FRANCE": ["zz top", 3]}}, "must be a list of strings"),
        ({"phase": "S1901M", "orders": {"FRANCE": [["A PAR H"]]}}, "must be a list of strings"),
        (  # was a new power of the result, its orders judged illegal, and exit status 0
            {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRNACE": ["A PAR H"]}},
            "orders: unknown power 'FRNACE' \\(powers: AUSTRIA, ENGLAND, FRANCE",
        ),
        (  # a power of another board: Italy is not on Grow's three-player one
            {"phase": "S1901M", "map": "grow_3", "orders": {"ITALY": ["A ROM H"]}},
            "orders: unknown power 'ITALY' \\(powers: ENGLAND, FRANCE, GERMANY\\)",
        ),
    ],
)
def test_malformed_situation_exits_2(situation: Any, message: str, capsys) -> None:
    code, _ = run(situation) if isinstance(situation, str) else (None, None)
    if code is None:
        out = io.StringIO()
        code = main(["adjudicate"], stdin=io.StringIO(json.dumps(situation)), stdout=out)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("realpolitik: error:")
    import re

    assert re.search(message, err), err


def test_non_string_orders_with_guessed_languages_exit_2(capsys) -> None:
    situation = {"phase": "S1901M", "orders": {"FRANCE": ["A PAR H", 3]}}
    out = io.StringIO()
    code = main(
        ["adjudicate", "--lang", "auto"], stdin=io.StringIO(json.dumps(situation)), stdout=out
    )
    assert code == 2
    assert "orders of FRANCE must be a list of strings" in capsys.readouterr().err


def test_a_text_of_two_readings_is_the_one_the_board_allows() -> None:
    """English "F Edi - Nor" reads as Norway or the Norwegian Sea; a fleet in Edinburgh
    reaches only the sea, so the order is carried out there, as ``Game.submit`` and the web
    page read it (seed 000: a miswritten order with one possible meaning). Its neighbour,
    unreadable, is still reported with its reason."""
    situation = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F EDI", "A LVP"]},
        "orders": {"ENGLAND": ["F Edi - Nor", "A Lvp - Xyz"]},
        "language": "en",
    }
    code, result = run(situation)
    assert code == 0
    read = {e["order"]: e["result"] for e in result["orders"]["ENGLAND"]}
    assert read == {"F EDI - NWG": "succeeds", "A LVP H": "stands", "A Lvp - Xyz": "illegal"}
    assert result["units"] == {"ENGLAND": ["A LVP", "F NWG"]}


def test_a_huge_order_text_is_reported_too_long_by_its_beginning() -> None:
    """An order of 30 000 characters (one glued word, whose reading cost its length squared:
    12 s at 300 000) is too long, reported illegal with a reason of a line, not echoed whole;
    the unit holds and its neighbour is carried out."""
    huge = "F Edi - " + "Nor" * 10_000
    situation = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F EDI", "A LVP"]},
        "orders": {"ENGLAND": [huge, "A Lvp - Yor"]},
        "language": "en",
    }
    code, result = run(situation)
    assert code == 0
    read = {e["order"]: (e["result"], e["reason"]) for e in result["orders"]["ENGLAND"]}
    said = 'order "F Edi - NorNorNorNorNorNorNorNorNorNorNo…" is too long'
    assert read[huge] == ("illegal", said)
    assert read["A LVP - YOR"] == ("succeeds", "")
    assert sorted(result["units"]["ENGLAND"]) == ["A YOR", "F EDI"]


@pytest.mark.parametrize("how", ["situation", "option"])
def test_guessed_languages_prefer_a_legal_reading(how: str) -> None:
    """ "F Edi - Nor" reads cheapest in Spanish (Norway, which Edinburgh does not border);
    its English reading (the Norwegian Sea) is the legal one. Spanish, French and Portuguese
    orders beside it keep their languages."""
    situation: dict[str, Any] = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F EDI", "A LVP"], "FRANCE": ["A PAR", "A MAR"]},
        "orders": {
            "ENGLAND": ["F Edi - Nor", "E de Liv. para Yor."],
            "FRANCE": ["E Par - Bor", "A Mar soutient A Par-Bou"],
        },
    }
    if how == "situation":
        code, result = run({**situation, "language": "auto"})
    else:
        code, result = run(situation, "--lang", "auto")
    assert code == 0
    assert set(result) == {
        "phase", "orders", "units", "dislodged", "contested", "centers", "next_phase"
    }  # fmt: skip
    read = {e["order"]: e["result"] for entries in result["orders"].values() for e in entries}
    assert read == {
        "F EDI - NWG": "succeeds",
        "A LVP - YOR": "succeeds",
        "A PAR - BUR": "succeeds",
        "A MAR S A PAR - BUR": "given",
    }


def test_a_guessed_language_reads_the_legal_one_of_its_readings() -> None:
    """The Spanish book's "F Mar Negro CA Ankara-Sevastopol" reads cheapest in Portuguese,
    where "A" is a fleet: "F BLA C F ANK - SEV". With the army in Ankara, the order is
    the reading the board allows (it was written back convoying a fleet)."""
    situation = {
        "phase": "S1901M",
        "units": {"TURKEY": ["F BLA", "A ANK"]},
        "orders": {"TURKEY": ["F Mar Negro CA Ankara-Sevastopol", "A Ankara-Sevastopol"]},
    }
    code, result = run(situation, "--lang", "auto")
    assert code == 0
    read = {e["order"]: e["result"] for e in result["orders"]["TURKEY"]}
    assert read == {"F BLA C A ANK - SEV": "available", "A ANK - SEV": "succeeds"}


def test_jsonl_one_result_per_line() -> None:
    lines = [json.dumps(OPENING), "{broken", json.dumps({**OPENING, "phase": "F1901M"})]
    out = io.StringIO()
    code = main(["adjudicate", "--jsonl"], stdin=io.StringIO("\n".join(lines)), stdout=out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 2
    assert len(results) == 3
    assert results[0]["phase"] == "S1901M" and results[2]["phase"] == "F1901M"
    assert results[1]["error"].startswith("line 2: bad JSON: "), results[1]  # as a whole input


def test_jsonl_a_line_nested_too_deeply_is_that_line_s_error() -> None:
    """Python's parser gives up on 100,000 brackets with a RecursionError: that line is
    refused as bad JSON, and the lines after it are still adjudicated."""
    lines = ["[" * 100_000 + "]" * 100_000, json.dumps(OPENING)]
    out = io.StringIO()
    code = main(["adjudicate", "--jsonl"], stdin=io.StringIO("\n".join(lines)), stdout=out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 2
    assert results[0]["error"].startswith("line 1: bad JSON: nested too deeply"), results[0]
    assert results[1]["phase"] == "S1901M"


def test_rules_option_changes_the_result() -> None:
    # DATC 6.H.11: a unit dislodged by a convoyed army may retreat to the army's origin
    # under the DATC's choice (4.A.5 b), not under the 2000 rulebook (classic, 4.A.5 a).
    situation = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR", "A GAS", "F LYO", "F MAO", "F WES"], "ITALY": ["A MAR"]},
        "orders": {"FRANCE": ["A GAS - MAR VIA", "A BUR S A GAS - MAR", "F MAO C A GAS - MAR",
                              "F WES C A GAS - MAR", "F LYO C A GAS - MAR"]},
    }  # fmt: skip
    _, datc = run(situation, "--rules", "datc")
    _, classic = run(situation, "--rules", "classic")
    assert "GAS" in datc["dislodged"]["ITALY"][0]["retreats"]
    assert "GAS" not in classic["dislodged"]["ITALY"][0]["retreats"]


def test_console_script_exit_status() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "realpolitik.cli", "adjudicate"],
        input='{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}',
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "XYZ" in proc.stderr and "Traceback" not in proc.stderr


CONTRACT = Path(__file__).parent / "data" / "contract"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_jsonl_results_are_byte_for_byte_the_contract(language: str) -> None:
    # movement (a convoy, dislodgements), retreats, adjustments (builds, removals), orders
    # that cannot be read, a malformed situation and a line that is not JSON: the results
    # as the contract writes them, key order and spacing included
    situations = (CONTRACT / "situations.jsonl").read_text(encoding="utf-8")
    out = io.StringIO()
    args = ["adjudicate", "--jsonl", "--rules", "datc", "--lang", language]
    code = main(args, stdin=io.StringIO(situations), stdout=out)
    assert code == 2  # the malformed lines
    expected = (CONTRACT / f"results.{language}.jsonl").read_text(encoding="utf-8")
    assert out.getvalue() == expected


@pytest.mark.parametrize("language", ["en", "fr"])
def test_jsonl_the_same_order_text_gets_each_line_its_own_result(language: str) -> None:
    # the writer remembers each order's entries: one order text, read once and shared,
    # succeeds, then fails against another move, then succeeds again
    alone = {**OPENING, "orders": {"FRANCE": ["A PAR - BUR"]}}
    lines = [alone, OPENING, {**OPENING, "orders": {"GERMANY": ["A MUN - BUR"]}}, alone]
    text = "\n".join(json.dumps(line) for line in lines)
    code, out = run(text, "--jsonl", "--lang", language)
    assert code == 0
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    for result, situation in zip(results, lines, strict=True):
        code, single = run(situation, "--lang", language)
        assert result == single
    moves = [
        {e["result"] for e in r["orders"][power] if e["result"] != "stands"}
        for r, power in zip(results, ["FRANCE", "FRANCE", "GERMANY", "FRANCE"], strict=True)
    ]
    assert moves == [{"succeeds"}, {"succeeds", "given"}, {"succeeds"}, {"succeeds"}]
    assert results[1]["orders"]["GERMANY"][0]["result"] == "fails"
    assert results[0] == results[3]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_written_result_is_the_shapes_encoded(language: str) -> None:
    # result_text writes by hand what Outcome.to_json and Position.to_json shape (the saved
    # games' shapes too): the same bytes as json.dumps of those shapes
    from realpolitik.errors import SituationError
    from realpolitik.formats import situation as contract
    from realpolitik.game.calendar import play
    from realpolitik.game.editions import edition
    from realpolitik.notation import format_order

    lines = (CONTRACT / "situations.jsonl").read_text(encoding="utf-8").splitlines()
    written = implied = fates = 0
    dislodging = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR"]},
        "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H"]},
    }
    # OPENING: F BRE's implied hold; dislodging: A BUR's entry names its fate
    for line in [*lines, json.dumps(OPENING), json.dumps(dislodging)]:
        try:
            data = json.loads(line)
            name, rules = contract.situation_edition(data, "datc")
            board = contract.situation_board(data, name)
            phase, position = contract.read_situation(data, board)
            orders, failed = contract.read_orders(data.get("orders"), "en", board)
        except (ValueError, SituationError):
            continue  # the malformed lines
        turn = play(edition("classic"), board, rules, phase, position, orders, skip_idle=True)
        entries: dict[str, list[dict[str, Any]]] = {}
        for outcome in turn.resolution.outcomes:
            text = str(outcome.order) if language == "en" else format_order(outcome.order, "fr")
            entries.setdefault(outcome.power, []).append(outcome.to_json(text))
        for power, bad in failed.items():
            for text, reason in bad:
                entries.setdefault(power, []).append(
                    {"order": text, "result": "illegal", "reason": reason}
                )
        shape = turn.after.to_json()
        expected = {
            "phase": str(turn.phase),
            "orders": dict(sorted(entries.items())),
            **{key: shape[key] for key in ("units", "dislodged", "contested", "centers")},
            "next_phase": str(turn.following),
        }
        assert contract.result_text(turn, failed, language, board) == json.dumps(expected)
        written += 1
        implied += any(outcome.implied for outcome in turn.resolution.outcomes)
        fates += any(outcome.fate for outcome in turn.resolution.outcomes)
    assert written >= 6 and implied and fates


def test_the_readme_situation_gives_the_readme_result() -> None:
    """The README's contract section: its situation, run as written, gives its result, and
    the retreat phase it describes chains on (the situation once exited 2: a unit both on
    the board and dislodged)."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The JSON contract", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in section.split("```json\n")[1:]]
    situation, expected = (json.loads(b) for b in blocks)
    code, result = run(situation)
    assert code == 0 and result == expected
    retreat = {key: result[key] for key in ("units", "dislodged", "contested", "centers")}
    retreat |= {"phase": "F1901R", "orders": {"RUSSIA": ["A NWY R FIN"]}}
    code, after = run(retreat)
    assert code == 0 and "A FIN" in after["units"]["RUSSIA"]
    assert "NWY" in after["centers"]["ENGLAND"] and "SWE" in after["centers"]["RUSSIA"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("jsonl", [False, True])
def test_at_a_terminal_it_says_it_reads_the_standard_input(
    jsonl: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """``realpolitik adjudicate`` typed without ``< situation.json`` waited silently, as if
    hung; piped input is read as before, with nothing on stderr."""
    args = ["adjudicate", "--jsonl"] if jsonl else ["adjudicate"]
    text = json.dumps(OPENING) + "\n"
    assert main(args, stdin=_Terminal(text), stdout=io.StringIO()) == 0
    what = "situations, one a line" if jsonl else "a situation"
    assert capsys.readouterr().err == (
        f"realpolitik adjudicate: reading {what} (JSON) from the standard input; Ctrl-D ends it\n"
    )
    assert main(args, stdin=io.StringIO(text), stdout=io.StringIO()) == 0
    assert capsys.readouterr().err == ""


def test_rules_option_wins_over_the_situations_edition_as_help_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--rules`` overrides a situation's ``"edition"`` (the README); ``--help`` said the
    opposite ("unless the situation names one")."""
    situation = {
        "edition": "conquista",
        "phase": "F1914M",
        "units": {"ENGLAND": ["F NTH", "F NWG"], "RUSSIA": ["A NWY"]},
        "orders": {"ENGLAND": ["F NTH - NWY", "F NWG S F NTH - NWY"]},
    }
    _, own = run(situation)
    _, classic = run(situation, "--rules", "classic")
    assert own["orders"]["RUSSIA"][0]["result"] == "destroyed"  # conquista: no retreats
    assert classic["orders"]["RUSSIA"][0]["result"] == "dislodged"
    with pytest.raises(SystemExit):
        main(["adjudicate", "--help"], stdin=io.StringIO(""), stdout=io.StringIO())
    said = " ".join(capsys.readouterr().out.split())
    assert "over the one the situation names" in said, said
    assert "unless the situation names one" not in said


@pytest.mark.parametrize("written", ["ES", "Es", "AUTO"])
def test_the_language_is_read_in_any_case_as_the_other_commands_read_it(written: str) -> None:
    """``--lang ES`` was refused (invalid choice), where ``orders``, ``show`` and ``render``
    take ``--language ES``; the result is the one of the lower-case name."""
    situation = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"]},
        "orders": {"FRANCE": ["E Par - Bor", "E Mar A E Par - Bor"]},
    }
    assert run(situation, "--lang", written) == run(situation, "--lang", written.lower())
    assert run(situation, "--lang", written)[0] == 0
