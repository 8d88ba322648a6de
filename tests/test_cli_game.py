"""The moderator's commands: a short game played from the CLI, and clean errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from realpolitik.cli import main
from realpolitik.formats.savegame import load_game


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
    assert code == 0 and "FRANCE: 2 order(s) recorded for Spring 1901" in out
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


def test_retreats_builds_and_disorder(tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    run("new", game, "--seed", "1", "--no-clock")
    run("orders", game, "FRANCE", "A PAR - BUR", "A MAR - SPA")
    run("orders", game, "GERMANY", "A MUN - RUH", "A BER - MUN")
    run("process", game)
    run("orders", game, "GERMANY", "A RUH - BUR", "A MUN S A RUH - BUR")
    run("orders", game, "FRANCE", "A BUR H")
    code, out = run("disorder", game, "ITALY")
    assert "ITALY is in civil disorder" in out
    code, out = run("process", game)
    assert "Now: Fall 1901 retreats (F1901R)" in out and "Clock" not in out
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
    assert code == 0 and "now at F1901M" in out
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
    assert "no phase" in fails(capsys, "rollback", str(game), "F1950M", str(tmp_path / "x"))
    assert "bad rule" in fails(capsys, "new", str(tmp_path / "n.json"), "--rule", "4.D.8")
    assert "2 to 7 players" in fails(capsys, "new", str(tmp_path / "n.json"), "--players", "9")
    assert game.read_bytes() == before
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "realpolitik-game", "version": 1}')
    assert "damaged saved game" in fails(capsys, "show", str(bad))
    bad.write_text("[]")
    assert "not a realpolitik saved game" in fails(capsys, "process", str(bad))
    assert bad.read_text() == "[]"
    assert "No such file" in fails(capsys, "show", str(tmp_path / "missing.json"))
    broken = tmp_path / "m.json"
    broken.write_text("{")
    assert "not JSON" in fails(capsys, "mila-import", str(broken), str(tmp_path / "o.json"))
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
