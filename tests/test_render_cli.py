"""``realpolitik render`` on the command line."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from realpolitik.cli import main


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_example_phase_to_stdout() -> None:
    code, out = run("render", "--example", "classic_1901_1902", "--phase", "F1901M")
    assert code == 0
    assert out.startswith("<svg") and "Fall 1901" in out


def test_situation_to_png(tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    situation = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
    }
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(situation))
    out = tmp_path / "out.png"
    code, _ = run("render", "--situation", str(path), "-o", str(out))
    assert code == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_situation_from_stdin_to_svg(tmp_path: Path) -> None:
    out = tmp_path / "out.svg"
    stdin = json.dumps({"phase": "S1901M", "units": {"ITALY": ["A ROM"]}, "orders": {}})
    code, _ = run("render", "--situation", "-", "-o", str(out), stdin=stdin)
    assert code == 0
    assert "<svg" in out.read_text()


def test_saved_game_flipbook_and_sheet(tmp_path: Path) -> None:
    from realpolitik.formats.savegame import game_to_json
    from realpolitik.game import Game

    game = Game.new(seed=3)
    game.process()
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game_to_json(game)))
    html = tmp_path / "game.html"
    assert run("render", str(saved), "-o", str(html))[0] == 0
    assert html.read_text().count('class="frame"') == 2
    sheet = tmp_path / "sheet.svg"
    assert run("render", str(saved), "--sheet", "TURKEY", "-o", str(sheet))[0] == 0
    assert "Turkey" in sheet.read_text()
    grow = tmp_path / "grow.json"
    grow.write_text(json.dumps(game_to_json(Game.new(edition="grow", players=4, seed=3))))
    assert run("render", str(grow), "--sheet", "FRANCE", "-o", str(sheet))[0] == 0
    assert ">SUMMER ADJUSTMENTS<" in sheet.read_text()  # the game's edition's year
    conquista = tmp_path / "conquista.json"
    conquista.write_text(json.dumps(game_to_json(Game.new(edition="conquista", seed=3))))
    code, pad = run("render", str(conquista), "--pad")
    assert code == 0 and "Conquista" in pad
    assert "dislodged (dotted: retreats)" not in pad  # its key: no retreats in conquista
    code, out = run("render", "--pad")
    assert code == 0 and "Season" in out


def test_a_picture_is_drawn_in_the_language_asked_or_the_situations_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command drew every picture in English (the library takes a language): a Spanish
    game's map said 'Moscow' and 'Spring'."""
    code, out = run("render", "--example", "classic_1901_1902", "--language", "es")
    assert code == 0 and "Moscú" in out and "Moscow" not in out
    assert "Moscou" in run("render", "--pad", "--language", "FR")[1]
    situation = {"phase": "S1901M", "language": "pt", "units": {"FRANCE": ["A PAR"]},
                 "orders": {"FRANCE": ["E Par - Bor"]}}  # fmt: skip
    code, out = run("render", "--situation", "-", stdin=json.dumps(situation))
    assert code == 0 and "Borgonha" in out and "Burgundy" not in out
    code, out = run("render", "--situation", "-", "--language", "en", stdin=json.dumps(situation))
    assert "Burgundy" in out
    assert run("render", "--sheet", "FRANCE", "--language", "es")[0] == 2
    assert "an order sheet is written in English only" in capsys.readouterr().err


@pytest.mark.parametrize(("language", "illegal"), [("en", "illegal"), ("fr", "illégal")])
def test_an_order_the_situation_gives_that_cannot_be_read_is_listed_illegal(
    language: str, illegal: str
) -> None:
    """``adjudicate`` reports an order it cannot read as illegal; its picture left it out,
    the unit holding as if given no order."""
    situation = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"], "ITALY": ["A VEN"]},
        "orders": {"FRANCE": ["A MAR - PIE", "A PAR - XYZ"], "ITALY": ["A VEN - <XYZ & Q>"]},
    }
    code, out = run("render", "--situation", "-", "--language", language,
                    stdin=json.dumps(situation))  # fmt: skip
    assert code == 0
    order_or_result = r'<text x="[\d.]+" y="[\d.]+" font-size="(?:10\.5|9\.5)"[^>]*>([^<]*)<'
    legend = re.findall(order_or_result, out)
    assert legend[-4:] == ["A PAR - XYZ", illegal, "A VEN - &lt;XYZ &amp; Q&gt;", illegal]


def test_a_phase_not_in_the_game_is_said_with_the_names_of_those_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Grow's first turn is its Winter, written S1901M: asked for W1901M (Winter 1901),
    the error listed the codes alone, 'S1901M, F1901M, W1901A, ...'."""
    assert run("render", "--example", "grow_1901_1902", "--phase", "W1901M")[0] == 2
    err = capsys.readouterr().err
    assert "no phase W1901M in this game (it has S1901M (Winter 1901), " in err
    assert "S1901M (Winter 1901), F1901M (Summer 1901), W1901A (Summer 1901 adjustments)" in err


def test_errors_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("render", "--example", "classic_1901_1902", "--phase", "S1950M")[0] == 2
    assert "no phase S1950M" in capsys.readouterr().err
    assert run("render")[0] == 2
    assert run("render", "--pad", "-o", "x.pdf")[0] == 2
    capsys.readouterr()
    assert run("render", "--pad", "--sheet", "FRANCE")[0] == 2  # it drew the sheet alone
    assert "give one of --sheet and --pad" in capsys.readouterr().err


def test_input_nested_too_deeply_is_bad_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """100,000 brackets (a RecursionError in Python's parser): a one-line error, exit 2."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for argv in (["render", str(deep)], ["render", "--situation", str(deep)]):
        assert run(*argv)[0] == 2
        err = capsys.readouterr().err
        assert "bad JSON" in err and "nested too deeply" in err and "Traceback" not in err


def test_a_file_that_is_no_text_or_too_large_is_named_not_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A binary file said "'utf-8' codec can't decode byte 0xff", naming no file, and
    ``/dev/zero`` was read until the memory ran out (a MemoryError traceback): they are read
    as a saved game's file is, to its size limit."""
    from realpolitik.formats import savegame

    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\xff\xfe\x00{}")
    large = tmp_path / "large.json"
    large.write_text(" " * 100 + "{}")
    monkeypatch.setattr(savegame, "MAX_FILE_BYTES", 64)
    for path, said in ((binary, "not a text file"), (large, "over 64 bytes")):
        for argv in (["render", str(path)], ["render", "--situation", str(path)]):
            assert run(*argv)[0] == 2
            assert f"{path}: {said}" in capsys.readouterr().err


def test_an_unknown_example_is_named_with_those_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said "No such file or directory: .../data/games/nope.json"."""
    assert run("render", "--example", "nope")[0] == 2
    err = capsys.readouterr().err
    assert "no example game 'nope' (examples: classic_1901_1902, grow_1901_1902)" in err
    assert "data/games" not in err


@pytest.mark.parametrize("scale", ["0", "-2", "nan", "big"])
def test_a_scale_that_is_no_positive_number_is_named(
    scale: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It reached the PNG converter, whose error named its "zoom"."""
    with pytest.raises(SystemExit) as exit_:
        run("render", "--pad", "--scale", scale, "-o", "pad.png")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scale:" in err and "zoom" not in err


def test_a_scale_too_large_for_memory_is_refused_before_the_picture_is_drawn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scale 100`` asked the PNG converter for a 100 GB image: it aborted the process
    (exit 134) with a Rust panic and a backtrace."""
    from realpolitik.commands import render as command

    def converter(svg: str, *, scale: float = 1.0, background: str | None = None) -> bytes:
        raise AssertionError(f"the converter was asked for a PNG at scale {scale}")

    monkeypatch.setattr(command, "svg_to_png", converter)
    monkeypatch.setattr(command, "png_available", lambda: True)
    with pytest.raises(SystemExit) as exit_:
        run("render", "--pad", "--scale", "100", "-o", "pad.png")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scale: must be at most 4, not 100" in err


@pytest.mark.parametrize("output", [(), ("-o", "pad.svg"), ("-o", "pad.html")])
def test_a_scale_is_refused_where_the_picture_is_no_png(
    output: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scale 2`` was taken and dropped without a word for an SVG or a flip-book."""
    written = [str(tmp_path / o) if o.startswith("pad") else o for o in output]
    code, out = run("render", "--pad", "--scale", "2", *written)
    assert code == 2 and out == ""
    suffix = Path(written[-1]).suffix if written else ".svg"
    err = capsys.readouterr().err
    assert f"--scale is for PNG output (-o FILE.png), not {suffix}" in err
    assert not any(Path(w).exists() for w in written[1:])


def test_a_grow_game_is_drawn_with_its_season_words(tmp_path: Path) -> None:
    """Grow's turns are Winter and Summer: the saved game's picture and flip-book said
    Spring and Fall (the frames did not carry the edition)."""
    game = str(tmp_path / "g.json")
    run("new", game, "--edition", "grow", "--players", "3", "--seed", "1")
    code, svg = run("render", game)
    assert code == 0 and "Winter 1901" in svg and "Spring 1901" not in svg
    page = tmp_path / "g.html"
    assert run("render", game, "-o", str(page))[0] == 0
    assert "Winter 1901" in page.read_text(encoding="utf-8")


def test_conquista_reinforcements_in_the_legend(tmp_path: Path) -> None:
    """The legend's builds and removals follow the edition: La Conquista reinforces
    (foreign centres, capped by empty homes) and never removes; it showed the classic
    upkeep (FRANCE −1, GERMANY nothing)."""
    situation = {
        "edition": "conquista",
        "phase": "S1915A",
        "units": {"GERMANY": ["A HOL", "F DEN", "A RUH", "A BOH", "A PRU", "F BAL"],
                  "FRANCE": ["A PAR", "A MAR", "F BRE/SC", "A BUR"]},
        "centers": {"GERMANY": ["BER", "KIE", "MUN", "SIL", "HOL", "DEN"],
                    "FRANCE": ["PAR", "MAR", "BRE"]},
    }  # fmt: skip
    code, svg = run("render", "--situation", "-", stdin=json.dumps(situation))
    assert code == 0
    assert re.findall(r">([+−]\d+)<", svg) == ["+2"]


def test_a_file_given_as_the_wrong_kind_says_how_to_draw_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A situation given as GAME was 'not a realpolitik saved game (no "format": ...)', a
    saved game given to --situation 'unknown key(s) in situation: clock, format, history,
    ...' (15 keys), a MILA game 'not a realpolitik saved game': none said what to do."""
    situation, saved, mila = (tmp_path / n for n in ("s.json", "g.json", "m.json"))
    situation.write_text(json.dumps({"phase": "S1901M", "units": {"ITALY": ["A ROM"]}}))
    assert run("new", str(saved), "--seed", "1")[0] == 0
    assert run("mila-export", str(saved), str(mila))[0] == 0
    capsys.readouterr()
    assert run("render", str(situation))[0] == 2
    err = capsys.readouterr().err
    assert f"{situation} is a situation, not a saved game: draw it with --situation" in err
    assert run("render", "--situation", str(saved))[0] == 2
    err = capsys.readouterr().err
    assert f"{saved} is a saved game, not a situation: give it without --situation" in err
    assert run("render", str(mila))[0] == 2
    err = capsys.readouterr().err
    assert f"{mila} is a MILA saved game: read it with 'realpolitik mila-import'" in err
    assert run("render", "--situation", str(mila))[0] == 2
    assert "is a MILA saved game" in capsys.readouterr().err


def test_png_without_the_render_extra_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the ``render`` extra (a plain ``pip install realpolitik``), ``-o x.png``
    ended in a RuntimeError traceback, exit status 1."""
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # its import fails, as if absent
    out = tmp_path / "x.png"
    assert run("render", "--pad", "-o", str(out))[0] == 2
    err = capsys.readouterr().err
    assert err == (
        "realpolitik: error: PNG export needs the 'render' extra: "
        "pip install 'realpolitik[render]'\n"
    )
    assert not out.exists()


@pytest.mark.parametrize(("edition", "players", "apart"), [
    ("classic", "5", ["Germany", "Italy"]),
    ("classic", "2", ["Italy"]),
    ("grow", "3", []),
])  # fmt: skip
def test_a_saved_game_s_legend_sets_apart_the_powers_nobody_plays(
    tmp_path: Path, edition: str, players: str, apart: list[str]
) -> None:
    """A five-player classic game leaves Germany and Italy out, a two-player game Italy
    neutral: the picture's legend listed them as powers in play. Grow's three players
    have a board of their three powers: nothing to set apart."""
    game = str(tmp_path / "g.json")
    assert run("new", game, "--edition", edition, "--players", players, "--seed", "1")[0] == 0
    code, svg = run("render", game)
    assert code == 0
    legend = svg[svg.index('id="legend"') :]
    if not apart:
        assert "not played" not in legend
        return
    after = legend[legend.index("not played: their units only hold") :]
    assert re.findall(r'font-size="14"[^>]*font-weight="bold">([A-Z][a-z]+)<', after) == apart


def test_a_sheet_or_pad_of_a_game_is_of_the_phase_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sheet`` and ``--pad`` drew the game's present and said nothing of ``--phase``:
    the sheet of Spring 1901 listed the units of Fall. Without a game to pick a phase of,
    ``--phase`` is refused, not ignored."""
    from realpolitik.formats.savegame import game_to_json
    from realpolitik.game import Game

    game = Game.new(seed=3)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.process()
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game_to_json(game)))
    code, now = run("render", str(saved), "--sheet", "FRANCE")
    assert code == 0 and ">A BUR<" in now and ">A PAR<" not in now
    code, spring = run("render", str(saved), "--sheet", "FRANCE", "--phase", "S1901M")
    assert code == 0 and ">A PAR<" in spring and ">A BUR<" not in spring
    assert run("render", str(saved), "--pad", "--phase", "F1905M")[0] == 2
    assert "no phase F1905M in this game" in capsys.readouterr().err
    for kind in (["--pad"], ["--sheet", "FRANCE"]):
        assert run("render", *kind, "--phase", "S1901M")[0] == 2
        assert "--phase picks a phase of GAME, --example or --situation" in capsys.readouterr().err


def test_a_conquista_game_s_picture_lists_its_alliances(tmp_path: Path) -> None:
    """La Conquista: the legend lists the alliances standing as the phase drawn starts,
    their centres together ("18 centros ... por una potencia o por una alianza") and since
    when, in the picture's language; a phase before the alliance was formed has none."""
    from realpolitik.formats.savegame import game_to_json
    from realpolitik.game import Game

    game = Game.new(edition="conquista", seed=1)
    for power, partner in (("FRANCE", "ENGLAND"), ("ENGLAND", "FRANCE")):
        game.submit(power, [])
        game.declare_alliance(power, [partner])
    game.process()  # formed in Spring 1914
    saved = tmp_path / "conquista.json"
    saved.write_text(json.dumps(game_to_json(game)))
    code, now = run("render", str(saved), "--language", "es")
    assert code == 0
    together = len(game.position.centers_of("ENGLAND")) + len(game.position.centers_of("FRANCE"))
    legend = re.sub(r"<[^>]+>", "|", now[now.index('id="legend"') :]).replace("\n", "")
    assert "|Alianzas|" in legend
    assert f"|Inglaterra + Francia||{together}||desde Primavera de 1914|" in legend
    code, before = run("render", str(saved), "--phase", "S1914M")
    assert code == 0 and "Alliances" not in before and "alliance" not in before


class _Terminal(io.StringIO):
    """Standard input as a terminal: what is typed there, then Ctrl-D."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("option", [(), ("--situation",)])
def test_an_empty_standard_input_is_said_empty_and_a_terminal_is_told_what_to_type(
    option: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """``render -`` typed without ``< game.json`` waited at the terminal without a word,
    and Ctrl-D then said "bad JSON in -: Expecting value: line 1 column 1 (char 0)"."""
    code = main(["render", *option, "-"], stdin=_Terminal(""), stdout=io.StringIO())
    err = capsys.readouterr().err
    what = "a situation" if option else "a saved game"
    assert err.splitlines() == [
        f"realpolitik render: reading {what} (JSON) from the standard input; Ctrl-D ends it",
        f"realpolitik: error: no {what[2:]}: the standard input is empty",
    ]
    assert code == 2


@pytest.mark.parametrize(
    "argv", [("--pad",), ("--sheet", "FRANCE"), ("--example", "classic_1901_1902")]
)
def test_rules_without_a_situation_are_refused_not_ignored(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """``render --pad --rules grow`` drew classic's pad (Spring and Fall, no Winter or
    Summer) without a word: --rules is read only with --situation."""
    code = main(["render", *argv, "--rules", "grow"], stdin=io.StringIO(), stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "--rules is for --situation" in err and err.count("\n") == 1, err
