"""The ``realpolitik`` command: every subcommand is found, and a subcommand loads only its
own module."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

import pytest

import realpolitik
from realpolitik.cli import build_parser, main
from realpolitik.commands import MODULES


def _choices(parser: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_module_registers_the_subcommands_listed_for_it() -> None:
    every = {c for commands in MODULES.values() for c in commands}
    assert _choices(build_parser()) == every
    for commands in MODULES.values():
        assert _choices(build_parser(commands[0])) == set(commands)
    assert _choices(build_parser("no-such-command")) == every


def test_adjudicate_starts_without_the_renderer_bots_or_server() -> None:
    code = (
        "import sys; from realpolitik.cli import build_parser; build_parser('adjudicate'); "
        "print(sorted(m for m in sys.modules if m.startswith(('realpolitik.render', "
        "'realpolitik.bots', 'realpolitik.server'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_python_m_realpolitik_is_the_command() -> None:
    situation = (
        '{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}}'
    )
    done = subprocess.run(
        [sys.executable, "-m", "realpolitik", "adjudicate"],
        input=situation,
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"result": "succeeds"' in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "realpolitik", "no-such"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "realpolitik: error" in bad.stderr


def test_the_version_is_asked_as_of_any_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"realpolitik {realpolitik.__version__}\n"


@pytest.mark.parametrize("command", ["new", "selfplay"])
def test_the_setup_help_names_every_edition_with_an_option(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--setup`` said 'e.g. 3b (1971, conquista)': grow's two-player table, which can
    be had only as ``--setup 2-extra`` (the README), was not named."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--setup SETUP a table option: 3b (1971, conquista), 2-extra (grow)" in help_text


def test_every_option_with_a_default_says_it_in_its_help() -> None:
    """A user reads what an option left out does from ``--help``: ``selfplay`` played 20
    years, ``serve`` listened on 127.0.0.1, ``tournament`` compared with the heuristic bot,
    and their help did not say so."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    silent = [
        f"{name} {action.option_strings[-1]}"
        for name, command in sub.choices.items()
        for action in command._actions
        if action.option_strings
        and not any(action.default is nothing for nothing in (None, False, argparse.SUPPRESS))
        and action.default != []  # (0, as selfplay's --seed, is one)
        and "default" not in (action.help or "")
    ]
    assert not silent, silent


def test_each_command_s_help_says_what_it_does_and_what_each_argument_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``realpolitik demo --help`` said only ``usage: realpolitik demo [-h]``: a command's
    help repeated none of the line the command list gives it, and ``history --json``,
    ``rollback``'s phase, the game files of ``orders``, ``show``... said nothing."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    silent = [
        f"{name} {action.dest}"
        for name, command in sub.choices.items()
        for action in command._actions
        if not action.help
    ]
    assert not silent, silent
    for name, command in sub.choices.items():
        with pytest.raises(SystemExit):
            main([name, "--help"])
        said = " ".join(capsys.readouterr().out.split())
        assert command.description and " ".join(command.description.split()) in said, name
    assert sub.choices["demo"].description == "Replay the rulebook's example game."


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["render", "a.json", "b.json"], "usage: realpolitik render "),
        (["show", "game.json", "--bogus"], "usage: realpolitik show "),
        (["demo", "extra"], "usage: realpolitik demo "),
    ],
)
def test_an_argument_too_many_is_said_with_its_command_s_usage(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was said with the top parser's usage, ``usage: realpolitik [-h] [--version]
    {render} ...``, which names no option of the command."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage)
    assert f"realpolitik {argv[0]}: error: unrecognized arguments: {argv[-1]}" in err


@pytest.mark.parametrize(
    ("argv", "option", "given"),
    [
        (["selfplay", "--games", "0", "--out", "x"], "--games", "0"),
        (["selfplay", "--games", "1", "--out", "x", "--max-years", "0"], "--max-years", "0"),
        (["selfplay", "--games", "1", "--out", "x", "--workers", "-2"], "--workers", "-2"),
        (["tournament", "--seeds", "0"], "--seeds", "0"),
        (["tournament", "--years", "ten"], "--years", "ten"),
        (["tournament", "--jobs", "0"], "--jobs", "0"),
        (["serve", "--workers", "0"], "--workers", "0"),
    ],
)
def test_a_count_option_out_of_range_is_named_by_its_option(
    argv: list[str], option: str, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``selfplay --max-years 0`` said 'max_years must be a whole number from 1', the
    library's parameter, not the option typed."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: must be a whole number from 1, not {given!r}" in err, err


def test_every_edition_option_lists_the_editions(capsys: pytest.CaptureFixture[str]) -> None:
    """``tournament --help`` showed ``--edition EDITION default classic``, naming none of
    them, where ``new``, ``selfplay`` and ``mila-import`` list the four."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    unlisted = [
        name
        for name, command in sub.choices.items()
        for action in command._actions
        if "--edition" in action.option_strings
        and set(action.choices or ()) != {"classic", "1971", "grow", "conquista"}
    ]
    assert not unlisted, unlisted


class _Endless(io.StringIO):
    """An input that never ends (``< /dev/zero``): reading it whole runs out of memory."""

    def read(self, size: int | None = -1) -> str:
        raise MemoryError


def test_running_out_of_memory_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``realpolitik adjudicate < /dev/zero`` (or ``render -``) ended in a MemoryError
    traceback, exit status 1."""
    assert main(["adjudicate"], stdin=_Endless(), stdout=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == "realpolitik: error: out of memory (is the input too large?)\n"


def test_ctrl_c_while_the_command_loads_is_said_as_an_interruption(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C pressed as a command starts, while its modules load (about half of a
    command's first second), printed a Python traceback ending in KeyboardInterrupt; it is
    said as at any other time, 'interrupted', with the shell's status for it."""

    def interrupted(name: str) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("realpolitik.commands.import_module", interrupted)
    code = main(["show", "game.json"], stdin=io.StringIO(), stdout=io.StringIO())
    assert code == 130 and capsys.readouterr().err == "\nrealpolitik: interrupted\n"
