"""The moderator's commands: a short game played from the CLI, and clean errors."""

from __future__ import annotations

import io
import itertools
import json
import os
import sys
from pathlib import Path

import pytest

from realpolitik.cli import build_parser, main
from realpolitik.formats.savegame import load_game, save_game
from realpolitik.game import Game


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def fails(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> str:
    code, _ = run(*argv, stdin=stdin)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("realpolitik: error: ") and "Traceback" not in err
    return err


def test_a_short_game_at_a_table(tmp_path: Path) -> None:
    game = str(tmp_path / "game.json")
    code, out = run("new", game, "--players", "ann,bob,cy", "--seed", "7")
    assert code == 0 and "ann: FRANCE, TURKEY" in out and "seed 7" in out
    assert "Clock: diplomacy 30 min, writing 5 min" in out
    code, out = run("orders", game, "france", stdin="A PAR - BUR\nA MAR S A PAR - BUR\n\n")
    assert code == 0 and "FRANCE: 2 orders recorded for Spring 1901" in out
    assert "A PAR" not in out  # private: the orders are not echoed
    code, out = run("orders", game, "GERMANY", "A MUN - BUR")
    code, out = run("orders", game, "FRANCE", "--list")
    assert "A MAR S A PAR - BUR" in out
    code, out = run("show", game)
    assert "FRANCE   F BRE, A MAR, A PAR" in out and "Waiting for orders from: AUSTRIA" in out
    assert "GERMANY" not in out.split("Waiting for orders from:")[1]
    assert "A MUN - BUR" not in out  # nobody else's orders before they are processed
    code, out = run("process", game)
    assert code == 0 and "=== Spring 1901 (S1901M) ===" in out
    assert "A PAR - BUR                succeeds" in out and "A MUN - BUR" in out
    assert "no order: holds" not in out and "(the other units hold)" in out
    assert "Now: Fall 1901 (F1901M)" in out and "Clock: diplomacy 15 min" in out
    code, out = run("history", game, "--phase", "S1901M")
    assert "A MUN - BUR" in out and "fails" in out
    code, out = run("history", game, "--json")
    assert json.loads(out)[0]["phase"] == "S1901M"
    code, out = run("show", game, "--power", "FRANCE", "--json")
    assert json.loads(out)["phase"] == "F1901M"
    code, out = run("legal", game, "FRANCE")
    assert "BUR: A BUR H; A BUR - BEL" in out
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        code, out = run("draw", game, power)
    assert "Game over: draw agreed" in out
    assert load_game(game).is_over


def germany_attacks_burgundy(tmp_path: Path) -> str:
    """A new game at Fall 1901, Germany's supported attack on France's army in Burgundy
    ordered (not yet processed); returns the game file."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1", "--no-clock")
    run("orders", game, "FRANCE", "A PAR - BUR", "A MAR - SPA")
    run("orders", game, "GERMANY", "A MUN - RUH", "A BER - MUN")
    run("process", game)
    run("orders", game, "GERMANY", "A RUH - BUR", "A MUN S A RUH - BUR")
    run("orders", game, "FRANCE", "A BUR H")
    return game


def test_retreats_builds_and_disorder(tmp_path: Path) -> None:
    game = germany_attacks_burgundy(tmp_path)
    code, out = run("disorder", game, "ITALY")
    assert "ITALY is in civil disorder" in out
    code, out = run("process", game)
    assert "Now: Fall 1901 retreats (F1901R)" in out and "Clock" not in out
    assert "  FRANCE   A BUR H                    dislodged\n" in out  # not "dislodged, dislodged"
    assert "Civil disorder:" in out
    code, out = run("show", game)
    assert "dislodged: A BUR (retreats: " in out
    run("orders", game, "FRANCE", "A BUR R PIC")
    code, out = run("process", game)
    assert "A BUR R PIC" in out and "Winter 1901 adjustments" in out
    assert "FRANCE builds 1" in out
    run("orders", game, "FRANCE", "A PAR B")
    code, out = run("disorder", game, "ITALY", "--off")
    assert "returns" in out
    code, out = run("concede", game, "TURKEY")
    assert "TURKEY concedes" in out
    code, out = run("rollback", game, "S1901M", str(tmp_path / "fork.json"))
    assert code == 0 and "Spring 1901" in out
    assert load_game(tmp_path / "fork.json").history == []


def test_conquista_leaving_and_conceding_say_there_is_no_civil_disorder(tmp_path: Path) -> None:
    """La Conquista has no civil disorder (RULES.md §5): ``disorder`` records that the player
    left and says what it means; ``show`` lists the power apart from civil disorder."""
    game = str(tmp_path / "g.json")
    run("new", game, "--edition", "conquista", "--seed", "1", "--no-clock")
    code, out = run("disorder", game, "ITALY")
    assert code == 0 and "ITALY's player leaves: conquista has no civil disorder" in out
    assert "its units hold without orders and its reinforcements stay due" in out
    code, out = run("concede", game, "TURKEY")
    assert code == 0 and "TURKEY concedes: conquista has no civil disorder" in out
    code, out = run("show", game)
    assert "Player left (units hold, no orders): ITALY, TURKEY" in out
    assert "Civil disorder" not in out
    assert "ITALY" not in out.split("Waiting for orders from:")[1]
    code, out = run("disorder", game, "ITALY", "--off")
    assert "ITALY's player returns" in out


def test_mila_export_and_import(tmp_path: Path) -> None:
    game, mila, back = (str(tmp_path / n) for n in ("g.json", "m.json", "b.json"))
    run("new", game, "--seed", "3")
    run("orders", game, "FRANCE", "A PAR - BUR")
    run("process", game)
    code, out = run("mila-export", game, mila)
    assert code == 0 and json.loads(Path(mila).read_text())["map"] == "standard"
    code, out = run("mila-import", mila, back)
    assert code == 0 and "now at Fall 1901 (F1901M)" in out
    assert load_game(back).position == load_game(game).position


def test_editions_tables_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.json")
    code, out = run("new", path, "--edition", "conquista", "--players", "2", "--seed", "4")
    assert code == 0 and "Spring 1914" in out
    path = str(tmp_path / "o.json")
    code, out = run("new", path, "--edition", "1971", "--players", "3", "--setup", "3b",
                    "--last-year", "1905", "--rule", "4.D.8=c")  # fmt: skip
    assert code == 0
    game = load_game(path)
    assert game.setup.id == "3b" and game.last_year == 1905 and game.rules.choice("4.D.8") == "c"
    path = str(tmp_path / "a.json")
    code, out = run("new", path, "--players", "ann,bob", "--assign", "ann=AUSTRIA+GERMANY+TURKEY")
    assert "ann: AUSTRIA, GERMANY, TURKEY" in out
    path = str(tmp_path / "k.json")
    run("new", path, "--edition", "conquista", "--seed", "1")
    code, out = run("orders", path, "TURKEY", "A CON H", "--accept", "A BUL", "--ally", "FRANCE")
    err = capsys.readouterr().err
    assert code == 2 and "no unit" in err  # nothing at BUL yet: the file is unchanged
    code, out = run("orders", path, "TURKEY", "A CON H", "--ally", "FRANCE")
    assert code == 0 and load_game(path).pending_declared() == {"TURKEY": ("FRANCE", "TURKEY")}


def test_errors_are_one_line_and_leave_the_file_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.json"
    run("new", str(game), "--seed", "1")
    before = game.read_bytes()
    assert "exists" in fails(capsys, "new", str(game))
    assert "belongs to GERMANY" in fails(capsys, "orders", str(game), "FRANCE", "A BER - KIE")
    assert "unknown word" in fails(capsys, "orders", str(game), "FRANCE", "A PAR flies to BUR")
    assert "unknown power" in fails(capsys, "orders", str(game), "PRUSSIA", "A BER H")
    assert "no say" not in fails(capsys, "draw", str(game), "ATLANTIS")
    assert "no processed phase" in fails(capsys, "history", str(game), "--phase", "F1950M")
    assert "bad phase 'X1901'" in fails(capsys, "history", str(game), "--phase", "X1901")
    assert "no phase" in fails(capsys, "rollback", str(game), "F1950M", str(tmp_path / "x"))
    assert "bad rule" in fails(capsys, "new", str(tmp_path / "n.json"), "--rule", "4.D.8")
    assert "2 to 7 players" in fails(capsys, "new", str(tmp_path / "n.json"), "--players", "9")
    err = fails(capsys, "new", str(tmp_path / "n.json"), "--players", "-3")
    assert "2 to 7 players, not -3" in err  # it read "-3" as one player's name: "not 1"
    # a return of a power whose player never left: "ENGLAND returns." before
    assert "not in civil disorder" in fails(capsys, "disorder", str(game), "ENGLAND", "--off")
    assert game.read_bytes() == before
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "realpolitik-game", "version": 1}')
    assert "damaged saved game" in fails(capsys, "show", str(bad))
    bad.write_text("[]")
    assert "not a realpolitik saved game" in fails(capsys, "process", str(bad))
    assert bad.read_text() == "[]"
    missing = tmp_path / "missing.json"  # the file first, as other commands say it
    assert fails(capsys, "show", str(missing)).endswith(f"{missing}: No such file or directory\n")
    broken = tmp_path / "m.json"
    broken.write_text("{")
    assert "not JSON" in fails(capsys, "mila-import", str(broken), str(tmp_path / "o.json"))
    broken.write_text("[" * 100_000 + "]" * 100_000)  # a RecursionError in Python's parser
    deep = fails(capsys, "mila-import", str(broken), str(tmp_path / "o.json"))
    assert "nested too deeply" in deep
    assert "nested too deeply" in fails(capsys, "show", str(broken))
    assert 'no "phases"' in fails(capsys, "mila-import", str(bad), str(tmp_path / "o.json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "game.json", "m.json"]


def test_orders_warns_about_illegal_orders(tmp_path) -> None:
    import io

    from realpolitik.cli import main

    path = str(tmp_path / "g.json")
    assert main(["new", path, "--players", "2", "--seed", "1"], stdout=io.StringIO()) == 0
    out = io.StringIO()
    code = main(["orders", path, "FRANCE", "A PAR - MUN", "A MAR - BUR"], stdout=out)
    assert code == 0
    text = out.getvalue()
    assert "warning: A PAR - MUN is illegal" in text
    assert "A MAR - BUR is illegal" not in text


def test_an_option_between_the_power_and_the_orders(tmp_path: Path) -> None:
    """``orders game.json FRANCE --language es "E Par - Bor"``: the orders after the
    option are read (they were refused as "unrecognized arguments" on Python 3.11)."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    code, out = run("orders", game, "FRANCE", "--language", "ES", "E Par - Bor", "F Bre - CMa")
    assert code == 0 and "Francia: 2 órdenes registradas" in out  # ES: any case
    assert [str(o) for o in load_game(game).orders("FRANCE")] == ["A PAR - BUR", "F BRE - ENG"]


def test_orders_are_written_back_in_the_notation_they_are_typed_in(tmp_path: Path) -> None:
    """A Spanish table types ``--language es``: the warnings, the pending orders and the
    legal orders are written in its notation, the reason in its words (they were English:
    "A PAR - MUN is illegal (MUN is not adjacent to PAR ...)")."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    code, out = run("orders", game, "Francia", "--language", "es", "E Par - Mun", "E Mar - Bor")
    assert code == 0
    assert (
        "  atención: E Par-Mun es ilegal (la unidad de París no puede llegar a Munich): "
        "la unidad se mantendrá\n" in out
    )
    assert "Mar-Bor" not in out  # (legal: no warning)
    code, out = run("orders", game, "FRANCE", "--list", "--language", "es")
    assert out.splitlines()[1:] == ["  E Par-Mun", "  E Mar-Bor"], out
    code, out = run("legal", game, "FRANCE", "--language", "fr")
    assert "\nPar: A Par (H); A Par-Bre;" in out, out  # the unit's place as French writes it
    code, out = run("legal", game, "FRANCE")
    assert "\nPAR: A PAR H; A PAR - BRE;" in out, out
    code, out = run("legal", game, "RUSSIA", "--language", "es")  # (it was "STP/SC: F CS SPt M")
    assert "\nCS SPt: F CS SPt M; " in out and "\nSeb: F Seb M; " in out, out


def test_a_power_is_named_in_any_of_the_four_languages(tmp_path: Path) -> None:
    """A Spanish player types ``orders g.json Francia``: it was 'unknown power FRANCIA'."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    code, out = run("orders", game, "Francia", "--language", "es", "E Par - Bor")
    assert code == 0 and "Francia: 1 orden registrada" in out
    code, out = run("legal", game, "alemão")
    assert code == 0 and "A MUN - BUR" in out
    code, out = run("draw", game, "Angleterre")
    assert code == 0 and out.startswith("ENGLAND votes for a draw"), out


def test_an_unknown_power_listed_prints_nothing_but_the_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    code, out = run("orders", game, "PRUSSIA", "--list")
    assert code == 2 and out == ""  # was "PRUSSIA, Spring 1901:" before the error
    assert "unknown power 'PRUSSIA'" in capsys.readouterr().err


def test_a_file_in_a_missing_folder_is_named_as_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "nowhere" / "g.json")
    err = fails(capsys, "new", target)
    assert err == f"realpolitik: error: {target}: No such file or directory\n"


def test_the_warning_says_what_becomes_of_an_illegal_order(tmp_path: Path) -> None:
    """An illegal retreat disbands the unit and an illegal adjustment is dropped: the
    warning said "the unit will hold" in every phase."""
    game = germany_attacks_burgundy(tmp_path)
    run("process", game)
    code, out = run("orders", game, "FRANCE", "A BUR R RUH")
    assert code == 0 and "A BUR R RUH is illegal" in out
    warning = out.split("A BUR R RUH is illegal", 1)[1].split("\n")[0]
    assert warning.endswith(": the unit will be disbanded")
    run("orders", game, "FRANCE", "A BUR R PIC")
    code, out = run("process", game)
    assert "Winter 1901 adjustments" in out and "FRANCE builds 1" in out
    code, out = run("orders", game, "FRANCE", "WAIVE", "WAIVE")
    assert "warning: WAIVE is illegal (only 1 adjustment due): it will be ignored" in out
    assert "hold" not in out


def test_a_rule_or_an_assignment_given_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rule 4.A.2=a --rule 4.A.2=b`` kept the last choice without a word."""
    game = str(tmp_path / "g.json")
    err = fails(capsys, "new", game, "--rule", "4.A.2=a", "--rule", "4.A.2=b")
    assert "rule '4.A.2' given twice" in err
    twice = ["--assign", "ann=ENGLAND+FRANCE+RUSSIA", "--assign", "ann=AUSTRIA+GERMANY+TURKEY"]
    err = fails(capsys, "new", game, "--players", "ann,bob", *twice)
    assert "assignment 'ann' given twice" in err
    assert not (tmp_path / "g.json").exists()


def test_an_empty_entry_is_refused_and_keeps_the_orders_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty stdin (or an empty line typed first) recorded "0 order(s)", replacing the
    orders given before; no orders at all are given on purpose with ``""``."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    run("orders", game, "FRANCE", "A PAR - BUR")
    for stdin in ("", "\n", "  \n\n"):
        err = fails(capsys, "orders", game, "FRANCE", stdin=stdin)
        assert "FRANCE: no orders read (empty input); nothing recorded" in err
    assert [str(o) for o in load_game(game).orders("FRANCE")] == ["A PAR - BUR"]
    code, out = run("orders", game, "FRANCE", "")
    assert code == 0 and "FRANCE: 0 orders recorded" in out
    assert load_game(game).orders("FRANCE") == [] and "FRANCE" not in load_game(game).waiting_for()


def test_an_alliance_or_acceptance_alone_keeps_the_orders(tmp_path: Path) -> None:
    """``orders --ally FRANCE`` with no orders declares the alliance and keeps the orders
    given before (before the empty entry was refused it replaced them with none)."""
    game = str(tmp_path / "g.json")
    run("new", game, "--edition", "conquista", "--seed", "1")
    run("orders", game, "ENGLAND", "F EDI - NTH")
    code, out = run("orders", game, "ENGLAND", "--ally", "FRANCE")
    assert code == 0 and "ENGLAND: 1 order kept for Spring 1914." in out
    saved = load_game(game)
    assert [str(o) for o in saved.orders("ENGLAND")] == ["F EDI - NTH"]
    assert saved.pending_declared()["ENGLAND"] == ("ENGLAND", "FRANCE")


def test_legal_in_a_finished_game_says_it_is_over(tmp_path: Path) -> None:
    """It printed nothing at all (and, before builds_due knew the end, the winner's builds)."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        run("draw", game, power)
    code, out = run("legal", game, "FRANCE")
    assert code == 0 and out.startswith("Game over: draw agreed by AUSTRIA, ENGLAND")


def test_the_readme_session_prints_what_the_readme_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's moderator session, typed as written: each command's output is the one
    printed under it (a command shown without output is not checked)."""
    import shlex

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    session = readme.split("```console\n", 1)[1].split("```", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in session.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    monkeypatch.chdir(tmp_path)
    for command, shown in steps:
        stdin = ""
        if " | " in command:  # printf '...' | realpolitik ...
            feed, command = command.split(" | ", 1)
            stdin = shlex.split(feed)[1].encode().decode("unicode_escape")
        argv = shlex.split(command)
        assert argv[0] == "realpolitik"
        code, out = run(*argv[1:], stdin=stdin)
        assert code == 0, command
        if shown:
            assert out.splitlines() == shown, command


def test_a_written_file_never_replaces_a_game_unasked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rollback``, ``mila-export`` and ``mila-import`` write a new file: one that exists
    is kept unless ``--force`` (as ``new``), and the game read is never its own output.
    ``rollback game.json S1901M game.json`` wrote the fork over the game (its history lost,
    though the help says the original is unchanged); ``mila-export game.json game.json``
    left a MILA file where the game was."""
    game, mila, other = (tmp_path / n for n in ("game.json", "m.json", "other.json"))
    run("new", str(game), "--seed", "3")
    run("orders", str(game), "FRANCE", "A PAR - BUR")
    run("process", str(game))
    run("mila-export", str(game), str(mila))
    before = game.read_bytes()
    other.write_text("keep me")
    for command, source in (
        (("rollback", str(game), "S1901M"), game),
        (("mila-export", str(game)), game),
        (("mila-import", str(mila)), mila),
    ):
        kept = source.read_bytes()
        err = fails(capsys, *command, str(source), "--force")
        assert f"{source} is the file it reads: write to another file" in err
        assert f"{other} exists (use --force to overwrite it)" in fails(
            capsys, *command, str(other)
        )
        assert source.read_bytes() == kept and other.read_text() == "keep me"
    assert game.read_bytes() == before
    assert run("rollback", str(game), "S1901M", str(other), "--force")[0] == 0
    assert load_game(other).history == []
    assert run("mila-import", str(mila), str(other), "--force")[0] == 0
    assert load_game(other).position == load_game(game).position
    assert run("mila-export", str(game), str(other), "--force")[0] == 0
    assert json.loads(other.read_text())["map"] == "standard"


def test_a_shortened_game_says_its_final_year(tmp_path: Path) -> None:
    """``new --last-year 1903`` and ``show`` said nothing of the agreed end: the game just
    stopped after 1903 ("Game over: ... most units on the board at the agreed end")."""
    path = str(tmp_path / "g.json")
    code, out = run("new", path, "--edition", "1971", "--players", "4", "--last-year", "1903")
    assert code == 0 and "Final year: 1903 (at its end the most units win)" in out
    assert "Final year: 1903" in run("show", path)[1]
    run("process", path)
    assert "Final year: 1903" in run("process", path)[1]
    plain = str(tmp_path / "p.json")
    assert "Final year" not in run("new", plain, "--edition", "1971", "--players", "4")[1]


def test_nothing_to_list_is_said_not_left_blank(tmp_path: Path) -> None:
    """``history`` of a new game printed nothing at all, ``orders --list`` of a power
    without orders a bare header, and a phase in which nobody gave an order '(the other
    units hold)' under no unit."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1", "--no-clock")
    assert run("history", path) == (0, "No phase has been processed yet.\n")
    assert run("orders", path, "FRANCE", "--list") == (0, "FRANCE, Spring 1901:\n  (no orders)\n")
    code, out = run("process", path)
    assert code == 0 and "=== Spring 1901 (S1901M) ===\n  (every unit holds)\n" in out
    assert "the other units" not in out


def test_legal_says_when_a_power_has_nothing_to_order(tmp_path: Path) -> None:
    """``legal`` of a power without a choice in this phase (no build nor removal due in
    an adjustment phase, no dislodged unit in a retreat phase) printed nothing at all."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1", "--no-clock")
    run("orders", path, "RUSSIA", "A WAR - GAL", "F SEV - RUM")
    run("process", path)
    run("orders", path, "RUSSIA", "A GAL H")
    assert "Now: Winter 1901 adjustments" in run("process", path)[1]
    assert run("legal", path, "AUSTRIA") == (
        0, "AUSTRIA has nothing to order in Winter 1901 adjustments.\n"
    )  # fmt: skip
    assert "RUSSIA builds 1" in run("legal", path, "RUSSIA")[1]


def test_a_mila_game_given_as_a_saved_game_says_to_import_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``show m.json`` on the file ``mila-export`` wrote said only 'not a realpolitik saved
    game (no "format": "realpolitik-game")'."""
    game, mila = str(tmp_path / "g.json"), str(tmp_path / "m.json")
    run("new", game, "--seed", "3")
    run("mila-export", game, mila)
    for command in ("show", "process", "history"):
        err = fails(capsys, command, mila)
        assert "not a realpolitik saved game" in err
        assert "; it is a MILA saved game, which 'realpolitik mila-import' reads" in err


def test_show_lists_the_alliances_standing(tmp_path: Path) -> None:
    """Conquista's alliances (an alliance at least two years old wins with 18 centres) were
    in ``show --json`` but not in ``show``: the moderator could not see them."""
    path = str(tmp_path / "g.json")
    run("new", path, "--edition", "conquista", "--seed", "1", "--no-clock")
    assert "Alliances" not in run("show", path)[1]
    run("orders", path, "FRANCE", "A PAR H", "--ally", "ENGLAND")
    run("orders", path, "ENGLAND", "A LVP H", "--ally", "FRANCE")
    assert "* alliance formed: ENGLAND+FRANCE" in run("process", path)[1]
    assert "Alliances: ENGLAND+FRANCE (formed in Spring 1914)\n" in run("show", path)[1]


def test_the_ally_is_named_in_the_players_language(tmp_path: Path) -> None:
    """Seed 004 is Spanish: "los jugadores que la integran deben darlo a conocer junto con
    las instrucciones para sus ejércitos". ``orders g.json Francia --ally Inglaterra`` was
    'unknown power INGLATERRA' (the power was read in any language, its ally was not), and
    the orders given with it were lost."""
    path = str(tmp_path / "g.json")
    run("new", path, "--edition", "conquista", "--seed", "1", "--no-clock")
    code, out = run(
        "orders", path, "Francia", "--language", "es", "E Par M", "--ally", "Inglaterra"
    )
    assert code == 0 and "Francia: 1 orden registrada" in out
    code, _ = run("orders", path, "Inglaterra", "--language", "es", "E Liv M", "--ally", "francia")
    assert code == 0
    assert "* alliance formed: ENGLAND+FRANCE" in run("process", path)[1]


def test_orders_read_from_a_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """A file of orders saved as 'UTF-8 with BOM' (Windows' Notepad) and piped in failed
    with 'unknown word "\\ufeffa" in order "\\ufeffA PAR - BUR"', the mark unseen."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1")
    code, out = run("orders", path, "FRANCE", stdin="\ufeffA PAR - BUR\nA MAR - SPA\n")
    assert code == 0 and "FRANCE: 2 orders recorded" in out


class _Terminal(io.StringIO):
    """Standard input as a terminal: the orders are typed at the prompt."""

    def isatty(self) -> bool:
        return True


def _typing(monkeypatch: pytest.MonkeyPatch, *keys: str | type[BaseException]) -> None:
    """The prompt gets these lines, or raises these exceptions (Ctrl-D, Ctrl-C), in turn."""
    typed = iter(keys)

    def prompt(text: str) -> str:
        key = next(typed)
        if isinstance(key, str):
            return key
        raise key

    monkeypatch.setattr("getpass.getpass", prompt)


def test_ctrl_d_at_the_order_prompt_ends_the_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-D (end of input) after the orders typed at the prompt ended in an EOFError
    traceback, exit status 1, nothing recorded."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1")
    _typing(monkeypatch, "A PAR - BUR", "A MAR - SPA", EOFError)
    out = io.StringIO()
    code = main(["orders", path, "FRANCE"], stdin=_Terminal(), stdout=out)
    assert code == 0 and "FRANCE: 2 orders recorded" in out.getvalue()


def test_ctrl_c_is_one_line_and_leaves_the_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C at the order prompt (or in any long command) printed a KeyboardInterrupt
    traceback."""
    path = tmp_path / "g.json"
    run("new", str(path), "--seed", "1")
    before = path.read_bytes()
    _typing(monkeypatch, "A PAR - BUR", KeyboardInterrupt)
    code = main(["orders", str(path), "FRANCE"], stdin=_Terminal(), stdout=io.StringIO())
    assert code == 130 and capsys.readouterr().err == "\nrealpolitik: interrupted\n"
    assert path.read_bytes() == before


def _prompts(monkeypatch: pytest.MonkeyPatch, *keys: str | type[BaseException]) -> list[str]:
    """As :func:`_typing`; returns the prompts shown, as they are shown."""
    shown: list[str] = []
    typed = iter(keys)

    def prompt(text: str) -> str:
        shown.append(text)
        key = next(typed)
        if isinstance(key, str):
            return key
        raise key

    monkeypatch.setattr("getpass.getpass", prompt)
    return shown


def test_a_bad_order_typed_at_the_prompt_is_asked_again_and_the_others_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Orders typed privately at the prompt were all lost for one typo among them: the
    entry ended with the error, nothing recorded, every order to be typed again. Each
    order is now read as it is typed: a bad one is said at once and typed again."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1")
    shown = _prompts(
        monkeypatch, "A PAR - BUR", "A MAR - XXX", "A PAR H", "A MAR - SPA", "F BRE - MAO", ""
    )
    out = io.StringIO()
    code = main(["orders", path, "FRANCE"], stdin=_Terminal(), stdout=out)
    err = capsys.readouterr().err
    assert code == 0 and "FRANCE: 3 orders recorded" in out.getvalue(), err
    assert len(shown) == 6
    assert 'unknown word "xxx" in order "A MAR - XXX"' in err and "type it again" in err
    assert "a second order for PAR" in err and err.count("\n") == 2, err
    orders = [str(o) for o in load_game(path).orders("FRANCE")]
    assert orders == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("NARNIA",), "unknown power 'NARNIA'"),
        (("FRANCE", "--file", "none.json"), "none.json"),
    ],
)
def test_what_refuses_the_orders_is_said_before_they_are_typed(
    argv: tuple[str, ...],
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An unknown power or a game file that is not there was said only after the player
    had typed every order at the prompt, which were lost."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1")
    if "--file" in argv:
        path, argv = str(tmp_path / "none.json"), argv[:1]
    shown = _prompts(monkeypatch, "A PAR - BUR", "")
    code = main(["orders", path, *argv], stdin=_Terminal(), stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and said in err and err.count("\n") == 1, err
    assert shown == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ": cannot be changed here (its folder is not writable)"),
        ("es", ": no se puede cambiar aquí (no se puede escribir en su carpeta)"),
        ("fr", " : ne peut pas être modifié ici (son dossier n'est pas accessible en écriture)"),
        ("pt", ": não pode ser alterado aqui (não se pode escrever na sua pasta)"),
    ],
)
def test_a_game_file_that_cannot_be_saved_is_said_before_the_orders_are_typed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    language: str,
    said: str,
) -> None:
    """A game in a folder the player may not write to (another user's) was read, the
    orders typed privately at the prompt, and then lost to 'Permission denied'; said in
    the language of the orders."""
    path = tmp_path / "g.json"
    run("new", str(path), "--seed", "1")
    writable = os.access
    monkeypatch.setattr(
        "os.access", lambda where, mode: Path(where) != tmp_path and writable(where, mode)
    )
    shown = _prompts(monkeypatch, "A PAR - BUR", "")
    argv = ["orders", str(path), "FRANCE", "--language", language]
    code = main(argv, stdin=_Terminal(), stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and shown == [], err
    assert err == f"realpolitik: error: {path}{said}\n"


@pytest.mark.parametrize(
    ("language", "prompt", "again"),
    [
        ("en", "order (an empty line ends): ", "type it again"),
        ("es", "orden (una línea vacía termina): ", "escríbala de nuevo"),
        ("fr", "ordre (une ligne vide termine) : ", "tapez-le à nouveau"),
        ("pt", "ordem (uma linha vazia termina): ", "digite-a de novo"),
    ],
)
def test_the_order_prompt_is_in_the_language_of_the_orders(
    language: str,
    prompt: str,
    again: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``orders --language es`` read Spanish orders at an English prompt."""
    path = str(tmp_path / "g.json")
    run("new", path, "--seed", "1")
    shown = _prompts(monkeypatch, "xyzzy", "")
    main(
        ["orders", path, "FRANCE", "--language", language], stdin=_Terminal(), stdout=io.StringIO()
    )
    assert shown == [prompt, prompt] and again in capsys.readouterr().err


def test_orders_without_a_power_names_only_the_power_as_required(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``realpolitik orders game.json`` said "the following arguments are required:
    power, orders", though orders may be left out (then read from the standard input)."""
    with pytest.raises(SystemExit) as exit_:
        main(["orders", str(tmp_path / "g.json")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.endswith("realpolitik orders: error: the following arguments are required: power\n")


def test_mila_export_and_import_count_what_they_did(tmp_path: Path) -> None:
    """``mila-export`` said '1 phases in the MILA format' for a file of 2 (the present
    phase is written too; a phase skipped here is not), and both said 'phases' for one."""
    game, mila, back = (str(tmp_path / n) for n in ("g.json", "m.json", "b.json"))
    run("new", game, "--seed", "3")
    run("orders", game, "FRANCE", "A PAR - BUR")
    run("process", game)
    out = run("mila-export", game, mila)[1]
    assert len(json.loads(Path(mila).read_text())["phases"]) == 2
    assert out == f"{mila}: 2 phases in the MILA format, to Fall 1901 (F1901M)\n"
    out = run("mila-import", mila, back)[1]
    assert out == f"{back}: 1 phase replayed, now at Fall 1901 (F1901M)\n"


def test_mila_export_of_a_finished_game_names_the_phase_it_ended_in(tmp_path: Path) -> None:
    """A finished game's file ends in MILA's ``COMPLETED``, which is no phase: the export
    counted it as one ('3 phases' for two) and did not say the game had ended."""
    game, mila = str(tmp_path / "g.json"), str(tmp_path / "m.json")
    run("new", game, "--seed", "3")
    run("process", game)
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        run("concede", game, power)
    out = run("mila-export", game, mila)[1]
    phases = json.loads(Path(mila).read_text())["phases"]
    assert [p["name"] for p in phases] == ["S1901M", "F1901M", "COMPLETED"]
    assert out == (
        f"{mila}: 2 phases in the MILA format, to Fall 1901 (F1901M), where the game ended\n"
    )
    out = run("mila-export", game, mila, "--force", "--language", "es")[1]
    assert out == (
        f"{mila}: 2 fases en el formato MILA, hasta Otoño de 1901 (F1901M),"
        " donde terminó la partida\n"
    )


def test_orders_list_shows_the_acceptances_and_the_alliance_declared(tmp_path: Path) -> None:
    """Conquista's ``--accept`` and ``--ally`` go with the orders, but ``orders --list``
    showed only the orders: what was accepted or declared could not be checked."""
    path = str(tmp_path / "g.json")
    run("new", path, "--edition", "conquista", "--seed", "1", "--no-clock")
    run("orders", path, "AUSTRIA", "A VIE H", "--accept", "A WAR", "--ally", "RUSSIA")
    assert run("orders", path, "AUSTRIA", "--list")[1] == (
        "AUSTRIA, Spring 1914:\n  A VIE H\n"
        "  accepts the support of the units in: WAR\n"
        "  declares an alliance: AUSTRIA+RUSSIA\n"
    )
    assert "accepts" not in run("orders", path, "RUSSIA", "--list")[1]


def test_a_bot_writes_a_powers_orders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game at the table had no way to seat a bot: every power's orders were typed."""
    game = str(tmp_path / "game.json")
    run("new", game, "--seed", "3")
    code, out = run("orders", game, "FRANCE", "--bot", "heuristic")
    assert code == 0 and "FRANCE: 3 orders recorded for Spring 1901 (the bot heuristic)" in out
    assert "A PAR" not in out  # private, as typed orders
    saved = load_game(game)
    legal = {o for options in saved.legal_orders("FRANCE")["FRANCE"].values() for o in options}
    assert len(saved.orders("FRANCE")) == 3 and set(saved.orders("FRANCE")) <= legal
    run("orders", game, "FRANCE", "--bot", "random")
    again = tmp_path / "again.json"
    run("rollback", game, "S1901M", str(again))
    run("orders", str(again), "FRANCE", "--bot", "random")
    # the bot's seed comes from the game's, the phase and the power: the same orders
    assert load_game(str(again)).orders("FRANCE") == load_game(game).orders("FRANCE")
    # one's own bot, from the current folder; one that writes text
    (tmp_path / "tablebots.py").write_text(
        "class Waiting:\n"
        "    name = 'waiting'\n"
        "    def __init__(self, seed=None): pass\n"
        "    def orders(self, view, legal):\n"
        "        return [f'{unit.type.value} {unit.location} H'\n"
        "                for unit in view.position.units_of(view.power)]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(sys.path))  # the command adds the current folder
    monkeypatch.delitem(sys.modules, "tablebots", raising=False)
    code, out = run("orders", game, "ITALY", "--bot", "tablebots:Waiting", "--language", "es")
    assert code == 0 and [str(o) for o in load_game(game).orders("ITALY")] == [
        "F NAP H",
        "A ROM H",
        "A VEN H",
    ]  # fmt: skip  (the bot's text is English, whatever --language says)
    assert "both" in fails(capsys, "orders", game, "RUSSIA", "A MOS H", "--bot", "random")
    with pytest.raises(SystemExit):
        run("orders", game, "RUSSIA", "--bot", "clever")
    assert "unknown bot 'clever'" in capsys.readouterr().err


def test_a_bots_order_that_the_game_refuses_names_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``orders --bot mybots:X`` with a bot that orders a unit twice said the game's error
    alone ("FRANCE: F BRE - ENG: a second order for BRE"), as if the player had typed it;
    it names the bot, the phase and the game, as self-play's and the tournament's do.
    Nothing is recorded."""
    game = str(tmp_path / "game.json")
    run("new", game, "--seed", "3")
    (tmp_path / "slipbots.py").write_text(
        "class Doubling:\n"
        "    name = 'doubling'\n"
        "    def __init__(self, seed=None): pass\n"
        "    def orders(self, view, legal):\n"
        "        return [o for options in legal.values() for o in options[:2]]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(sys.path))  # the command adds the current folder
    monkeypatch.delitem(sys.modules, "slipbots", raising=False)
    err = fails(capsys, "orders", game, "FRANCE", "--bot", "slipbots:Doubling")
    assert err == (
        "realpolitik: error: the bot 'doubling' gave FRANCE's orders for S1901M (game seed 3)"
        " that the game refuses: FRANCE: F BRE - ENG: a second order for BRE\n"
    )
    assert load_game(game).orders("FRANCE") == []


def test_orders_notes_a_unit_named_with_another_type(tmp_path: Path) -> None:
    """A unit named with the other type (a Portuguese "A" is a fleet, "Armada"; a French "A"
    an army) is legal, its type ignored (DATC 4.C.2 b), but the player is told which unit
    the order is read for; a unit named rightly is not remarked on."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1", "--no-clock")
    _, out = run("orders", game, "ITALY", "--language", "pt", "A Ven - Tir", "A Nap - Jon")
    said = "nota: A de Ven. para Tir. nomeia outro tipo de unidade: a ordem vale para a unidade"
    assert f"  {said} E de Ven. do tabuleiro\n" in out, out
    assert out.count("nota:") == 1, out  # Naples' fleet, "A" in Portuguese, named rightly
    _, out = run("orders", game, "FRANCE", "F PAR - BUR", "A BRE - MAO", "A MAR - SPA")
    assert out.splitlines()[1:3] == [
        "  note: F PAR - BUR names another type of unit: the order is read for the A PAR on"
        " the board",
        "  note: A BRE - MAO names another type of unit: the order is read for the F BRE on"
        " the board",
    ], out
    assert "A MAR" not in out
    _, out = run("orders", game, "GERMANY", "A MUN - BUR", "F KIE - HOL")
    assert "note" not in out, out


def test_the_search_bot_orders_alike_on_a_slower_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``orders --bot search`` is seeded by the game's seed, the phase and the power, "the
    same bot in the same phase of the same game orders alike"; its time limit (0.4 s) cut
    the search short on a slower or busier machine and it ordered otherwise. It searches
    by its strength alone."""
    game, again = str(tmp_path / "game.json"), str(tmp_path / "again.json")
    run("new", game, "--seed", "5")
    for power in ("ENGLAND", "GERMANY", "RUSSIA"):
        run("orders", game, power, "--bot", "search")
    run("rollback", game, "S1901M", again)
    clock = itertools.count(step=10.0)  # each reading of the clock 10 s on
    monkeypatch.setattr("realpolitik.bots.search.time.perf_counter", lambda: next(clock))
    for power in ("ENGLAND", "GERMANY", "RUSSIA"):
        run("orders", again, power, "--bot", "search")
    first, second = load_game(game), load_game(again)
    for power in ("ENGLAND", "GERMANY", "RUSSIA"):
        assert second.orders(power) == first.orders(power), power


def test_an_assignment_reads_powers_as_the_other_arguments_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--assign ann=Francia+Inglaterra+Rusia`` was refused where ``orders game.json
    Francia`` is read, and ``--assign ann=FRANCE+`` was said as "+FRANCE is not a group"."""
    path = str(tmp_path / "g.json")
    code, out = run(
        "new", path, "--players", "ann,bob", "--assign", "ann=Francia+inglaterra+RÚSSIA"
    )
    assert code == 0 and "ann: ENGLAND, FRANCE, RUSSIA" in out
    err = fails(capsys, "new", path, "--force", "--players", "ann,bob", "--assign", "ann=FRANCE+")
    assert err == "realpolitik: error: bad assignment 'ann=FRANCE+': a power is missing\n"


def test_orders_piped_in_beyond_any_power_s_are_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``orders game.json FRANCE < /dev/zero`` read one endless line until the memory ran
    out (a MemoryError traceback): more than any power's orders is refused, unread."""
    path = tmp_path / "g.json"
    run("new", str(path), "--seed", "1")
    before = path.read_bytes()
    err = fails(capsys, "orders", str(path), "FRANCE", stdin="\0" * (3 * 1024 * 1024))
    assert err == (
        "realpolitik: error: FRANCE: over 1 MB on the standard input: not orders; "
        "nothing recorded\n"
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "extra", [("A PAR - PIC",), ("--bot", "random"), ("--ally", "ENGLAND"), ("--accept", "A MUN")]
)
def test_orders_given_with_list_are_refused_not_dropped(
    extra: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``orders game.json FRANCE "A PAR - PIC" --list`` listed the orders and dropped the
    one given, without a word: it was never recorded."""
    path = tmp_path / "g.json"
    run("new", str(path), "--seed", "1")
    before = path.read_bytes()
    err = fails(capsys, "orders", str(path), "FRANCE", "--list", *extra)
    assert "--list" in err and "nothing recorded" in err and err.count("\n") == 1, err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "argv",
    [
        ("new", "g.json", "--edition", "GROW"),
        ("mila-import", "m.json", "g.json", "--edition", "Classic"),
        ("selfplay", "--games", "1", "--out", "d", "--edition", "CONQUISTA"),
        ("tournament", "--edition", "Grow", "--bot", "random"),
        ("adjudicate", "--rules", "DATC"),
        ("render", "--situation", "s.json", "--rules", "1971", "--out", "x.svg"),
    ],
)
def test_an_edition_is_read_in_any_case_as_a_language_is(argv: tuple[str, ...]) -> None:
    """``--edition GROW`` was refused (invalid choice) where ``--language ES`` is read."""
    flag = argv.index("--edition") if "--edition" in argv else argv.index("--rules")
    args = build_parser().parse_args(argv)
    assert getattr(args, argv[flag][2:]) == argv[flag + 1].lower()


@pytest.mark.parametrize(
    ("edition", "power", "language", "line", "orders"),
    [
        # seed 000, the example game's first line: "Austria: E Vie—Tri, E Bud—Gli, F Tri—Alb"
        ("classic", "AUSTRIA", "es", "Austria: E Vie—Tri, E Bud—Gli, F Tri—Alb",
         ["A VIE - TRI", "A BUD - GAL", "F TRI - ALB"]),
        # seed 003, the example game: "E de Liv. para Yor.; A de Lon. para Mar do Norte; ..."
        ("grow", "ENGLAND", "pt",
         "E de Liv. para Yor.; A de Lon. para Mar do Norte; A de Edi. para Mar da Nor.;",
         ["A LVP - YOR", "F LON - NTH", "F EDI - NWG"]),
        # seed 001 writes a power's orders so: "Angleterre : F Den-Kie; F Nth-Den; ..."
        ("1971", "ENGLAND", "fr", "ANGLETERRE : A Lvp-Yor; F Lon-Nth; F Edi-nrs",
         ["A LVP - YOR", "F LON - NTH", "F EDI - NWG"]),
    ],
)  # fmt: skip
def test_a_line_of_orders_as_the_books_print_it_is_read_order_by_order(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    edition: str,
    power: str,
    language: str,
    line: str,
    orders: list[str],
) -> None:
    """The books list a power's orders on one line, between commas or semicolons; the
    command line reads such a line order by order, as the server does, given as an argument,
    piped in or typed at the prompt."""
    game = str(tmp_path / "game.json")
    assert run("new", game, "--edition", edition, "--seed", "1")[0] == 0
    for argv, stdin in (((line,), ""), ((), line + "\n")):
        code, out = run("orders", game, power, "--language", language, *argv, stdin=stdin)
        assert code == 0, out
        assert [str(o) for o in load_game(game).orders(power)] == orders
    run("orders", game, power, "")  # none: the typed ones are recorded anew
    _typing(monkeypatch, line, EOFError)
    code = main(["orders", game, power, "--language", language], stdin=_Terminal())
    assert code == 0 and [str(o) for o in load_game(game).orders(power)] == orders


def test_a_return_is_refused_for_what_keeps_the_power_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``disorder POWER --off`` of a power that conceded, or that nobody plays at this
    table, says so; it said "its player has not left" of both (a conceded power is shown
    in civil disorder, and a power nobody plays never had a player)."""
    game = str(tmp_path / "g.json")
    run("new", game, "--players", "5", "--seed", "1")
    run("concede", game, "TURKEY")
    assert "TURKEY has conceded" in fails(capsys, "disorder", game, "TURKEY", "--off")
    said = fails(capsys, "disorder", game, "ITALY", "--off")
    assert "ITALY is played by nobody in this game" in said
    assert "not in civil disorder" in fails(capsys, "disorder", game, "ENGLAND", "--off")


@pytest.mark.parametrize(
    ("language", "text", "hint"),
    [
        ("en", "E Par - Bor", "(it reads as an order with --language es)"),
        ("en", "E de Par. para Bur.", "(it reads as an order with --language pt)"),
        ("es", "A Par-Bou", "(se lee como una orden con --language fr)"),
    ],
)
def test_an_order_in_another_notation_is_refused_with_the_option_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, text: str, hint: str
) -> None:
    """A table that forgot ``--language es`` was told 'unknown word "e" in order "E Par -
    Bor"', and no more: the refusal now names the option under which the order reads."""
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1")
    err = fails(capsys, "orders", game, "FRANCE", "--language", language, text)
    assert err.rstrip("\n").endswith(hint), err
    err = fails(capsys, "orders", game, "FRANCE", "--language", language, "zz top")
    assert "--language" not in err  # (no notation reads it)


_ALL_SIX: list[tuple[str, ...]] = [
    ("draw", p) for p in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY")
]
_TABLE_ERRORS: dict[str, tuple[list[str], list[tuple[str, ...]], tuple[str, ...], str]] = {
    # name: (the game's `new` options, commands before, the command, its stdin)
    "nobody": (["--players", "6"], [], ("orders", "ITALY", "A VEN H"), ""),
    "conceded": ([], [("concede", "TURKEY")], ("orders", "TURKEY", "A CON H"), ""),
    "disorder": ([], [("disorder", "FRANCE")], ("orders", "FRANCE", "A PAR H"), ""),
    "left": (["--edition", "conquista"], [("disorder", "ITALY")], ("orders", "ITALY", ""), ""),
    "over": (["--players", "6"], _ALL_SIX, ("orders", "FRANCE", "A PAR H"), ""),
    "unknown": ([], [], ("orders", "PRUSSIA", "A BER H"), ""),
    "not_in_disorder": ([], [], ("disorder", "ENGLAND", "--off"), ""),
    "no_processed_phase": ([], [], ("history", "--phase", "F1950M"), ""),
    "rollback_none": ([], [], ("rollback", "F1950M", "out.json"), ""),
    "rollback": ([], [("process",)], ("rollback", "F1950M", "out.json"), ""),
    "list": ([], [], ("orders", "FRANCE", "A PAR H", "--list"), ""),
    "bot": ([], [], ("orders", "FRANCE", "A PAR H", "--bot", "random"), ""),
    "empty": ([], [], ("orders", "FRANCE"), ""),
    "too_much": ([], [], ("orders", "FRANCE"), "x" * (2**20 + 1)),
    "accept_phase": ([], [], ("orders", "FRANCE", "", "--accept", "A MAR"), ""),
    "exists": ([], [("mila-export", "out.json")], ("rollback", "S1901M", "out.json"), ""),
    "file_it_reads": ([], [], ("rollback", "S1901M", "g.json"), ""),
    "accept_unnamed": (["--edition", "conquista"], [], ("orders", "TURKEY", "", "--accept"), ""),
    "accept_no_unit": (["--edition", "conquista"], [], ("orders", "TURKEY", "", "--accept"), ""),
    "accept_own": (["--edition", "conquista"], [], ("orders", "TURKEY", "", "--accept"), ""),
    "no_alliance": ([], [], ("orders", "FRANCE", "", "--ally", "ENGLAND"), ""),
    "alliance_alone": (["--edition", "conquista"], [], ("orders", "TURKEY", "", "--ally"), ""),
    "alliance_phase": (  # Russia takes Rumania: its reinforcement in the spring
        ["--edition", "conquista"],
        [
            ("orders", "RUSSIA", "A WAR - GAL"),
            ("process",),
            ("orders", "RUSSIA", "A GAL - RUM"),
            ("process",),
        ],
        ("orders", "TURKEY", "", "--ally", "RUSSIA"),
        "",
    ),
    "one_player": (
        ["--edition", "conquista", "--players", "3"],
        [],
        ("orders", "TURKEY", "", "--ally"),
        "",
    ),
}
_ACCEPTED = {  # the unit --accept names, as each language writes it
    "accept_unnamed": {"en": "A XYZ", "es": "E Xyz", "fr": "A Xyz", "pt": "E de Xyz."},
    "accept_no_unit": {"en": "A RUM", "es": "E Rum", "fr": "A Rou", "pt": "E de Rum."},
    "accept_own": {"en": "A CON", "es": "E Con", "fr": "A Con", "pt": "E de Con."},
    "alliance_alone": {"en": "TURKEY", "es": "Turquía", "fr": "Turquie", "pt": "Turquia"},
    "one_player": {"en": "FRANCE", "es": "Francia", "fr": "France", "pt": "França"},
}
_EMPTY = 'To give no orders, pass an empty one: realpolitik orders {game} FRANCE ""'
_SAID: dict[str, dict[str, str]] = {
    "nobody": {
        "en": "ITALY is played by nobody in this game",
        "es": "Italia no la juega nadie en esta partida",
        "fr": "Italie n'est jouée par personne dans cette partie",
        "pt": "Itália não é jogada por ninguém nesta partida",
    },
    "conceded": {
        "en": "TURKEY has conceded",
        "es": "Turquía se ha rendido",
        "fr": "Turquie a abandonné",
        "pt": "Turquia desistiu",
    },
    "disorder": {
        "en": "FRANCE is in civil disorder: its player must return first",
        "es": "Francia está en desorden civil: su jugador debe volver antes",
        "fr": "France est en désordre civil : son joueur doit d'abord revenir",
        "pt": "França está em desordem civil: o seu jogador precisa voltar antes",
    },
    "left": {
        "en": "ITALY's player has left: it must return first",
        "es": "el jugador de Italia se ha ido: debe volver antes",
        "fr": "le joueur de l'Italie est parti : il doit d'abord revenir",
        "pt": "o jogador da Itália saiu: precisa voltar antes",
    },
    "over": {
        "en": "the game is over: draw agreed by AUSTRIA, ENGLAND, FRANCE, GERMANY, RUSSIA, TURKEY",
        "es": "Partida terminada · Tablas: Austria, Inglaterra, Francia, Alemania, Rusia, Turquía",
        "fr": "Partie terminée · Partie nulle : Autriche, Angleterre, France, Allemagne, Russie, "
        "Turquie",
        "pt": "Fim de jogo · Empate: Áustria, Inglaterra, França, Alemanha, Rússia, Turquia",
    },
    "unknown": {
        "en": "unknown power 'PRUSSIA'; powers: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, "
        "TURKEY",
        "es": "potencia desconocida 'PRUSSIA'; potencias: Austria, Inglaterra, Francia, Alemania, "
        "Italia, Rusia, Turquía",
        "fr": "puissance inconnue 'PRUSSIA' ; puissances : Autriche, Angleterre, France, "
        "Allemagne, Italie, Russie, Turquie",
        "pt": "potência desconhecida 'PRUSSIA'; potências: Áustria, Inglaterra, França, Alemanha, "
        "Itália, Rússia, Turquia",
    },
    "not_in_disorder": {
        "en": "ENGLAND is not in civil disorder: its player has not left",
        "es": "Inglaterra no está en desorden civil: su jugador no se ha ido",
        "fr": "Angleterre n'est pas en désordre civil : son joueur n'est pas parti",
        "pt": "Inglaterra não está em desordem civil: o seu jogador não saiu",
    },
    "no_processed_phase": {
        "en": "no processed phase F1950M",
        "es": "no hay ninguna fase F1950M procesada",
        "fr": "aucune phase F1950M jouée",
        "pt": "nenhuma fase F1950M processada",
    },
    "rollback_none": {
        "en": "no phase F1950M to roll back to (phases: none)",
        "es": "no hay ninguna fase F1950M a la que volver (fases: ninguna)",
        "fr": "aucune phase F1950M où revenir (phases : aucune)",
        "pt": "nenhuma fase F1950M para onde voltar (fases: nenhuma)",
    },
    "rollback": {
        "en": "no phase F1950M to roll back to (phases: S1901M)",
        "es": "no hay ninguna fase F1950M a la que volver (fases: S1901M)",
        "fr": "aucune phase F1950M où revenir (phases : S1901M)",
        "pt": "nenhuma fase F1950M para onde voltar (fases: S1901M)",
    },
    "list": {
        "en": "FRANCE: --list shows the orders given; give orders without it (nothing recorded)",
        "es": "Francia: --list muestra las órdenes dadas; dé las órdenes sin él (nada registrado)",
        "fr": "France : --list montre les ordres donnés ; donnez les ordres sans lui (rien "
        "d'enregistré)",
        "pt": "França: --list mostra as ordens dadas; dê as ordens sem ele (nada registrado)",
    },
    "bot": {
        "en": "FRANCE: give orders or --bot random, not both",
        "es": "Francia: dé órdenes o --bot random, no ambos",
        "fr": "France : donnez des ordres ou --bot random, pas les deux",
        "pt": "França: dê ordens ou --bot random, não ambos",
    },
    "empty": {
        "en": f"FRANCE: no orders read (empty input); nothing recorded. {_EMPTY}",
        "es": "Francia: no se leyó ninguna orden (entrada vacía); nada registrado. Para no dar "
        'órdenes, pase una vacía: realpolitik orders {game} FRANCE ""',
        "fr": "France : aucun ordre lu (entrée vide) ; rien d'enregistré. Pour ne donner aucun "
        'ordre, passez-en un vide : realpolitik orders {game} FRANCE ""',
        "pt": "França: nenhuma ordem lida (entrada vazia); nada registrado. Para não dar ordens, "
        'passe uma vazia: realpolitik orders {game} FRANCE ""',
    },
    "too_much": {
        "en": "FRANCE: over 1 MB on the standard input: not orders; nothing recorded",
        "es": "Francia: más de 1 MB en la entrada estándar: no son órdenes; nada registrado",
        "fr": "France : plus de 1 Mo sur l'entrée standard : ce ne sont pas des ordres ; rien "
        "d'enregistré",
        "pt": "França: mais de 1 MB na entrada padrão: não são ordens; nada registrado",
    },
    "accept_phase": {
        "en": "supports are accepted only in movement phases of conquista",
        "es": "los apoyos solo se aceptan en las fases de movimiento de La Conquista",
        "fr": "les soutiens ne s'acceptent qu'aux phases de mouvement de La Conquista",
        "pt": "os apoios só são aceitos nas fases de movimento de La Conquista",
    },
    "exists": {
        "en": "{out} exists (use --force to overwrite it)",
        "es": "{out} ya existe (use --force para sobrescribirlo)",
        "fr": "{out} existe déjà (utilisez --force pour l'écraser)",
        "pt": "{out} já existe (use --force para sobrescrevê-lo)",
    },
    "file_it_reads": {
        "en": "{game} is the file it reads: write to another file",
        "es": "{game} es el archivo que se lee: escriba en otro archivo",
        "fr": "{game} est le fichier lu : écrivez dans un autre fichier",
        "pt": "{game} é o arquivo lido: escreva em outro arquivo",
    },
    "accept_unnamed": {
        "en": "TURKEY: 'A XYZ' names no province (a unit to accept is written as the board has "
        "it: 'A GAL' or 'GAL')",
        "es": "Turquía: 'E Xyz' no nombra ninguna provincia (una unidad a aceptar se escribe "
        "como en las órdenes: 'E Bud')",
        "fr": "Turquie : 'A Xyz' ne nomme aucune province (une unité à accepter s'écrit comme "
        "dans les ordres : 'A Bud')",
        "pt": "Turquia: 'E de Xyz.' não nomeia nenhuma província (uma unidade a aceitar se "
        "escreve como nas ordens: 'E de Bud.')",
    },
    "accept_no_unit": {
        "en": "TURKEY: there is no unit in 'A RUM' to accept support from",
        "es": "Turquía: no hay ninguna unidad en 'E Rum' cuyo apoyo aceptar",
        "fr": "Turquie : aucune unité en 'A Rou' dont accepter le soutien",
        "pt": "Turquia: não há nenhuma unidade em 'E de Rum.' cujo apoio aceitar",
    },
    "accept_own": {
        "en": "TURKEY: A CON is its own unit: no acceptance needed",
        "es": "Turquía: 'E Con' es una unidad propia: no hace falta aceptarla",
        "fr": "Turquie : 'A Con' est une de ses unités : inutile de l'accepter",
        "pt": "Turquia: 'E de Con.' é uma unidade própria: não é preciso aceitá-la",
    },
    "no_alliance": {
        "en": "classic has no alliance victory",
        "es": "la edición clásica no tiene victoria por alianza",
        "fr": "l'édition classique n'a pas de victoire par alliance",
        "pt": "a edição clássica não tem vitória por aliança",
    },
    "alliance_phase": {
        "en": "alliances are declared with the orders of a movement phase",
        "es": "las alianzas se declaran con las órdenes de una fase de movimiento",
        "fr": "les alliances se déclarent avec les ordres d'une phase de mouvement",
        "pt": "as alianças são declaradas com as ordens de uma fase de movimento",
    },
    "alliance_alone": {
        "en": "TURKEY cannot declare an alliance with itself alone",
        "es": "Turquía no puede declarar una alianza consigo misma",
        "fr": "Turquie ne peut pas déclarer une alliance avec elle seule",
        "pt": "Turquia não pode declarar uma aliança consigo mesma",
    },
    "one_player": {
        "en": "FRANCE and TURKEY are both played by player 1: an alliance is made between players",
        "es": "Francia + Turquía: las juega todas player 1: una alianza se hace entre jugadores",
        "fr": "France + Turquie : toutes jouées par player 1 : une alliance se fait entre joueurs",
        "pt": "França + Turquia: todas jogadas por player 1: uma aliança se faz entre jogadores",
    },
}


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
@pytest.mark.parametrize("name", list(_TABLE_ERRORS))
def test_an_error_at_the_table_is_said_in_the_tables_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, language: str
) -> None:
    """What the game refuses (a power nobody plays, one that conceded, a game over...) was
    said in English at a Spanish, French or Portuguese table; English is unchanged."""
    options, before, (command, *rest), stdin = _TABLE_ERRORS[name]
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1", "--no-clock", *options)
    for step, *more in before:
        assert run(step, game, *[str(tmp_path / a) if a == "out.json" else a for a in more])[0] == 0
    more = [_ACCEPTED[name][language]] if name in _ACCEPTED else []
    files = ("out.json", "g.json")
    argv = [command, game, *[str(tmp_path / a) if a in files else a for a in rest], *more]
    err = fails(capsys, *argv, "--language", language, stdin=stdin)
    said = _SAID[name][language].format(game=game, out=tmp_path / "out.json")
    assert err == f"realpolitik: error: {said}\n"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "ITALY has no units left: it has no say in a draw"),
        ("es", "Italia no tiene unidades: no vota en unas tablas"),
        ("fr", "Italie n'a plus d'unités : pas de voix pour la nulle"),
        ("pt", "Itália não tem mais unidades: não vota no empate"),
    ],
)
def test_a_draw_vote_without_units_is_refused_in_the_tables_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, said: str
) -> None:
    """Italy keeps Rome but has lost its units: it has no say in a draw, said in English
    at every table before."""
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}
    centres = {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ITALY": ["ROM"]}
    game = tmp_path / "g.json"
    save_game(Game.from_position({"units": units, "centers": centres}, "S1905M"), game)
    err = fails(capsys, "draw", str(game), "ITALY", "--language", language)
    assert err == f"realpolitik: error: {said}\n"


def test_show_of_a_finished_game_lists_no_pending_orders(tmp_path: Path) -> None:
    """A game drawn with FRANCE's orders given still listed them under ``show --power
    FRANCE`` ("Orders of FRANCE: A PAR - BUR"), though a finished game has no orders to
    come: it says the game is over, and how it ended."""
    game = str(tmp_path / "g.json")
    run("new", game, "--players", "3", "--seed", "1", "--no-clock")
    run("orders", game, "FRANCE", "A PAR - BUR")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        run("draw", game, power)
    for language, orders in (("en", "Orders of"), ("pt", "Ordens")):
        out = run("show", game, "--power", "FRANCE", "--language", language)[1]
        assert orders not in out, out
    out = run("show", game, "--power", "FRANCE")[1]
    assert out.endswith("Game over: draw agreed by AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY,"
                        " RUSSIA, TURKEY\n")  # fmt: skip


def test_mila_import_of_a_finished_game_says_how_it_ended(tmp_path: Path) -> None:
    """``mila-import`` of a drawn game said 'now at Fall 1901 (F1901M)', as of a game going
    on: it names the phase the game ended in, and how it ended (the draw and its powers)."""
    game, mila, back = (str(tmp_path / n) for n in ("g.json", "m.json", "b.json"))
    run("new", game, "--seed", "3", "--players", "ann,bob,cy")
    run("process", game)
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        run("draw", game, power)
    run("mila-export", game, mila)
    out = run("mila-import", mila, back)[1]
    assert out == (
        f"{back}: 1 phase replayed, to Fall 1901 (F1901M), where the game ended\n"
        "Game over: draw agreed by AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY\n"
    )
    out = run("mila-import", mila, back, "--force", "--language", "pt")[1]
    assert out == (
        f"{back}: 1 fase reproduzida, até Outono de 1901 (F1901M), onde a partida terminou\n"
        "Fim de jogo · Empate: Áustria, Inglaterra, França, Alemanha, Itália, Rússia, Turquia\n"
    )


def test_rollback_gives_the_orders_of_the_phase_back(tmp_path: Path) -> None:
    """``rollback`` to a processed phase gave it back with no orders: every power had to
    type them again to try one other. They are given again, each to change."""
    game, fork = str(tmp_path / "g.json"), str(tmp_path / "f.json")
    run("new", game, "--seed", "3", "--no-clock")
    run("orders", game, "FRANCE", "A PAR - BUR", "A MAR S A PAR - BUR")
    run("process", game)
    run("rollback", game, "S1901M", fork)
    out = run("orders", fork, "FRANCE", "--list")[1]
    assert "A PAR - BUR" in out and "A MAR S A PAR - BUR" in out, out
    run("process", fork)
    assert load_game(fork).position == load_game(game).position  # the same phase again
