"""The moderator's commands for a game at a table, kept in a saved-game file::

    realpolitik new game.json --edition classic --players ann,bob,cy --seed 7
    realpolitik orders game.json FRANCE            # the player types the orders, privately
    realpolitik orders game.json ITALY --bot search   # a bot writes them
    realpolitik show game.json                     # board, centres, whose orders are missing
    realpolitik process game.json                  # adjudicate; results and the next phase
    realpolitik history game.json
    realpolitik draw game.json FRANCE              # one power's draw vote

and ``concede``, ``disorder`` (a player leaves or returns), ``legal``, ``rollback`` (a
what-if copy), ``mila-export`` / ``mila-import``. Every change is written atomically (a
temporary file, flushed to the disk, then a rename): a bad command leaves the file as it
was. A command that changes the file holds it from reading to saving; another one waits
(and says so), so commands typed at once in several terminals lose nothing. Every
command prints in ``--language en|es|fr|pt`` (:mod:`realpolitik.commands.printout`).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial, wraps
from pathlib import Path
from typing import Any, TextIO

from realpolitik.bots import make_bot, submit_bot_orders
from realpolitik.commands.botarg import HELP, bot_kind
from realpolitik.commands.powerarg import POWER_HELP, power_name
from realpolitik.commands.printout import Printout, refusal
from realpolitik.errors import GameError, InvalidOrderError, OrderError
from realpolitik.formats import jsontext
from realpolitik.formats.mila import COMPLETED, from_mila, to_mila
from realpolitik.formats.savegame import (
    editing,
    load_game,
    read_text,
    save_game,
    write_json_atomic,
)
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS
from realpolitik.notation import LANGUAGES, order_each, parse_order
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind
from realpolitik.vocab import PROVINCE, Unit

GAME_FILE = "the game file (as `realpolitik new` writes it)"
LANGUAGE_HELP = (
    "the language of the printout (phases, powers, results, reasons): en (default), es, fr, pt"
)


def _language(cmd: argparse.ArgumentParser, what: str = LANGUAGE_HELP) -> None:
    """``--language``: what the command prints (and, for orders, reads) in that language."""
    cmd.add_argument("--language", default="en", type=str.lower, choices=LANGUAGES, help=what)


_Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def _at_table(handler: _Handler) -> _Handler:
    """``handler``, what the game refuses (a :class:`GameError` with its sentence: a power
    nobody plays, one that conceded, the game over...) said in the table's ``--language``."""

    @wraps(handler)
    def said(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
        try:
            return handler(args, stdin, out)
        except GameError as exc:
            if not exc.key or args.language == "en":
                raise
            raise GameError(refusal(exc, args.language)) from None

    return said


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("new", help="start a game at a table (writes the game file)")
    cmd.add_argument("file", help="the game file to create")
    cmd.add_argument(
        "--edition", type=str.lower, choices=EDITIONS, default="classic", help="default classic"
    )
    cmd.add_argument("--players", help="names, comma-separated, or a count (default: 7)")
    cmd.add_argument("--setup", help="a table option: 3b (1971, conquista), 2-extra (grow)")
    cmd.add_argument("--seed", type=int, help="the random seed for dealing the powers")
    cmd.add_argument(
        "--assign", action="append", default=[], metavar="PLAYER=POWER[+POWER]",
        help="give a player their powers instead of dealing them (in any of the four languages)",
    )  # fmt: skip
    cmd.add_argument("--rule", action="append", default=[], metavar="ISSUE=CHOICE",
                     help="override one rule choice, e.g. 4.D.8=c")  # fmt: skip
    cmd.add_argument("--last-year", type=int, help="the agreed last year (1971, grow)")
    cmd.add_argument("--no-clock", action="store_true", help="do not show the phase clock")
    cmd.add_argument("--force", action="store_true", help="overwrite an existing file")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_new))

    cmd = sub.add_parser("orders", help="enter one power's orders (replaces earlier ones)")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("power", type=power_name, help=POWER_HELP)
    cmd.add_argument(
        "orders", nargs="*", default=[], help="orders; none: read them from stdin, one a line"
    )  # (default: not said to be required)
    _language(
        cmd, "the order notation (read and written) and the printout: en (default), es, fr, pt"
    )
    cmd.add_argument("--accept", action="append", default=[], metavar="UNIT",
                     help="conquista: accept the support of this foreign unit (written as "
                     "the orders are, in --language)")  # fmt: skip
    cmd.add_argument("--ally", action="append", default=[], metavar="POWER", type=power_name,
                     help="conquista: declare an alliance with this power (in any of the "
                     "four languages)")  # fmt: skip
    cmd.add_argument("--list", action="store_true", help="show the power's pending orders")
    cmd.add_argument("--bot", type=bot_kind, metavar="BOT",
                     help=f"a bot writes the orders: {HELP}")  # fmt: skip
    cmd.set_defaults(func=_at_table(_orders))

    cmd = sub.add_parser("process", help="adjudicate the phase and move on")
    cmd.add_argument("file", help=GAME_FILE)
    _language(cmd)
    cmd.set_defaults(func=_at_table(_process))

    cmd = sub.add_parser("show", help="the board, centres and whose orders are missing")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("--power", type=power_name,
                     help="show what this power sees (its pending orders)")  # fmt: skip
    cmd.add_argument("--json", action="store_true", help="the view as JSON")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_show))

    cmd = sub.add_parser("history", help="every processed phase and its results")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("--phase", help="only this phase (e.g. F1901M)")
    cmd.add_argument("--json", action="store_true", help="the phases as JSON")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_history))

    cmd = sub.add_parser("draw", help="record a power's vote for a draw")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("power", type=power_name, help=POWER_HELP)
    cmd.add_argument("--no", action="store_true", help="vote against (withdraw the vote)")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_draw))

    cmd = sub.add_parser("concede", help="a power concedes and leaves the game")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("power", type=power_name, help=POWER_HELP)
    _language(cmd)
    cmd.set_defaults(func=_at_table(_concede))

    cmd = sub.add_parser(
        "disorder",
        help="a power's player leaves (civil disorder; conquista: no orders) or returns",
    )
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("power", type=power_name, help=POWER_HELP)
    cmd.add_argument("--off", action="store_true", help="the player returns")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_disorder))

    cmd = sub.add_parser("legal", help="the legal orders of a power in this phase")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("power", type=power_name, help=POWER_HELP)
    _language(cmd, "the order notation and the printout: en (default), es, fr, pt")
    cmd.set_defaults(func=_at_table(_legal))

    cmd = sub.add_parser("rollback", help="copy the game as it was at an earlier phase")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("phase", help="the phase to go back to, e.g. F1901M (its orders given again)")
    cmd.add_argument("out", help="the new game file (the original is unchanged)")
    cmd.add_argument("--force", action="store_true", help="overwrite an existing file")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_rollback))

    cmd = sub.add_parser("mila-export", help="write the game in the MILA saved-game format")
    cmd.add_argument("file", help=GAME_FILE)
    cmd.add_argument("out", help="the MILA file to write")
    cmd.add_argument("--force", action="store_true", help="overwrite an existing file")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_mila_export))

    cmd = sub.add_parser("mila-import", help="read a MILA saved game (replayed here)")
    cmd.add_argument("mila_file", help="a saved game of the PyPI diplomacy package (JSON)")
    cmd.add_argument("out", help="the game file to write")
    cmd.add_argument(
        "--edition", type=str.lower, choices=EDITIONS, default="classic",
        help="the edition it is replayed under (default classic)",
    )  # fmt: skip
    cmd.add_argument("--force", action="store_true", help="overwrite an existing file")
    _language(cmd)
    cmd.set_defaults(func=_at_table(_mila_import))


# --- handlers --------------------------------------------------------------------------------
def _players(text: str | None) -> int | list[str] | None:
    if text is None:
        return None
    if text.strip().lstrip("+-").isdigit():  # a count, even a wrong one ("-3")
        return int(text)
    return [name.strip() for name in text.split(",")]


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise GameError(f"bad {what} {item!r}: expected KEY=VALUE")
        if key.strip() in out:  # the last would silently win
            raise GameError(f"{what} {key.strip()!r} given twice")
        out[key.strip()] = value.strip()
    return out


def _group(item: str, text: str) -> list[str]:
    """The powers of an assignment, ``FRANCE+ENGLAND``, each named in any language."""
    names = [name.strip() for name in text.split("+")]
    if not all(names):
        raise GameError(f"bad assignment {item!r}: a power is missing")
    return [power_name(name) for name in names]


def _writable(out: str, force: bool, source: str | None = None) -> Path:
    """The file a command creates: not one that exists unless ``force``, never the file
    the command reads (a rollback or an export written over the game would lose it)."""
    path = Path(out)
    if not path.exists():
        return path
    if source is not None and Path(source).exists() and path.samefile(source):
        raise GameError.said("file_it_reads", out=out)
    if not force:
        raise GameError.said("exists", out=out)
    return path


def _write(path: Path, write: Callable[[Path], object]) -> None:
    """``write(path)``, a file a command creates; one written over (``--force``) is held
    as the commands that change a game hold it: a command already changing it finishes
    first, else its save would put the old game back over the new file."""
    if not path.exists():
        write(path)
        return
    with _changing(str(path)):
        write(path)


def _new(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    path = _writable(args.file, args.force)
    assignment = {
        player: _group(f"{player}={powers}", powers)
        for player, powers in _pairs(args.assign, "assignment").items()
    }
    game = Game.new(
        edition=args.edition,
        players=_players(args.players),
        seed=args.seed,
        assignment=assignment or None,
        rules=_pairs(args.rule, "rule") or None,
        setup=args.setup,
        last_year=args.last_year,
        clock=not args.no_clock,
    )
    _write(path, partial(save_game, game))
    say = Printout(game, args.language)
    title = say.title()
    out.write(f"{say.text('new', title=title, path=path, seed=game.seed)}\n")
    for player, powers in game.players.items():
        out.write(f"  {player}: {say.powers(powers)}\n")
    say.status(out)
    return 0


@contextmanager
def _changing(path: str) -> Iterator[None]:
    """Hold the game file while a command reads, changes and saves it (saying so when
    another command holds it): concurrent commands never lose each other's changes."""

    def waiting() -> None:
        print(f"realpolitik: waiting for another command to finish with {path}", file=sys.stderr)

    with editing(path, on_wait=waiting):
        yield


def _orders(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    power = args.power.upper()
    if args.list:
        if args.orders or args.bot or args.accept or args.ally:  # else dropped unsaid
            raise GameError.said("list_and_orders", power=power)
        game = load_game(args.file)
        pending = game.orders(power)  # an unknown power is refused before anything is written
        say = Printout(game, args.language)
        out.write(f"{say.power(power)}, {say.phase()}:\n")
        for order in pending:
            out.write(f"  {say.order(order)}\n")
        if not pending:
            out.write(f"  {say.text('no_orders')}\n")
        accepted = sorted(game.pending_accepted().get(power, ()))  # conquista only
        if accepted:
            units = ", ".join(map(say.place, accepted))
            out.write(f"  {say.text('accepts', units=units)}\n")
        declared = game.pending_declared().get(power)
        if declared is not None:
            alliance = say.powers(declared, "+") or say.text("no_alliance")
            out.write(f"  {say.text('declares', alliance=alliance)}\n")
        return 0
    if args.bot is not None and args.orders:
        raise GameError.said("bot_and_orders", power=power, bot=args.bot)
    texts = list(args.orders) or ([] if args.bot is not None else _read_orders(stdin, args))
    if not texts and not (args.accept or args.ally or args.bot):  # no orders is said with ""
        command = f'realpolitik orders {args.file} {power} ""'
        raise GameError.said("no_orders_read", power=power, command=command)
    with _changing(args.file):
        game = load_game(args.file)
        if args.bot is not None:  # its text, if it writes any, is English
            orders: list[Order] | None = _by_bot(game, power, args.bot)
        else:  # an empty entry with --accept or --ally changes only those: the orders stay
            try:
                listed = order_each(texts, language=args.language, game_map=game.game_map)
                orders = game.submit(power, listed, language=args.language) if texts else None
            except InvalidOrderError as exc:
                raise _other_notation(exc, game, power, args.language) from None
        if args.accept:
            game.accept_support(power, args.accept, language=args.language)
        if args.ally:
            game.declare_alliance(power, args.ally)
        save_game(game, args.file)
    say = Printout(game, args.language)
    named = {"power": say.power(power), "phase": say.phase()}
    if orders is None:
        orders = game.orders(power)
        out.write(f"{say.text('kept', count=len(orders), **named)}\n")
    else:
        by = "" if args.bot is None else say.text("by_bot", bot=args.bot)
        out.write(f"{say.text('recorded', count=len(orders), by=by, **named)}\n")
    # an illegal order's fate, by the kind of phase: a movement's unit holds, a retreat
    # phase disbands a unit without a legal retreat, an adjustment phase drops the order
    fate = say.text(f"fate_{game.phase.kind.value}")
    illegal = game.illegal_orders(power, orders)
    for k, order in enumerate(orders):
        if k in illegal:
            warning = say.text(
                "illegal", order=say.order(order), reason=say.reason(illegal[k]), fate=fate
            )
            out.write(f"  {warning}\n")
            continue
        for unit in _misnamed(game, order):  # legal: the type named is ignored (DATC 4.C.2)
            note = say.text("other_type", order=say.order(order), unit=say.unit(str(unit)))
            out.write(f"  {note}\n")
    waiting = game.waiting_for()
    done = say.text("still_waiting", powers=say.powers(waiting)) if waiting else say.text("all_in")
    out.write(f"{done}\n")
    return 0


def _other_notation(
    error: InvalidOrderError, game: Game, power: str, language: str
) -> InvalidOrderError:
    """``error``, an order not understood, with the ``--language`` under which it reads as
    an order the board allows, if one does ("E Par - Bor" given without ``--language es``)."""
    text = error.text
    for other in LANGUAGES:
        if other == language:
            continue
        try:
            parse_order(
                text, game_map=game.game_map, language=other, position=game.position,
                power=power, phase=game.phase, rules=game.rules,
            )  # fmt: skip
        except OrderError:
            continue
        hint = Printout(game, language).text("other_notation", language=other)
        return InvalidOrderError(f"{error} ({hint})", text)
    return error


def _misnamed(game: Game, order: Order) -> list[Unit]:
    """The units on the board that ``order`` names with another type (a Portuguese "A" is
    a fleet, a French "A" an army): ``A VEN`` for a fleet in Venice."""
    units = game.position.units
    if game.phase.kind is PhaseKind.RETREATS:  # the unit ordered is a dislodged one
        units = {**units, **{p: d.unit for p, d in game.position.dislodged.items()}}
    named = [getattr(order, field, None) for field in ("unit", "supported", "convoyed")]
    found = [(ref, units.get(PROVINCE[ref.location])) for ref in named if ref is not None]
    return [unit for ref, unit in found if unit is not None and ref.type not in (None, unit.type)]


def _by_bot(game: Game, power: str, kind: str) -> list[Order]:
    """The orders the bot ``kind`` gives ``power`` now, submitted (one the game refuses: a
    ``BotError`` naming the bot), seeded by the game's seed, the phase and the power: the
    same bot in the same phase of the same game orders alike (the search bot without its
    clock, on any machine)."""
    seed = zlib.crc32(f"{game.seed}/{game.phase}/{power}".encode())
    bot = make_bot(kind, seed=seed, time_limit=None)
    return submit_bot_orders(bot, game, power, game.legal_orders(power)[power])


def _read_orders(stdin: TextIO, args: argparse.Namespace) -> list[str]:
    """The orders, one a line; typed at a terminal they are not echoed (a private entry).
    A file's byte order mark (Windows' 'UTF-8 with BOM') is not part of the first order."""
    if not stdin.isatty():
        text = stdin.read(MAX_PIPED + 1)  # (not an endless input whole: < /dev/zero)
        if len(text) > MAX_PIPED:
            raise GameError.said("too_much_input", power=args.power.upper(), mb=MAX_PIPED // 2**20)
        return [t for line in text.splitlines() if (t := line.strip().lstrip("\ufeff").strip())]
    return _typed_orders(args.file, args.power.upper(), args.language)


MAX_PIPED = 2**20
"""The most orders read from the standard input, in characters: no power's orders come
near (a few dozen, of at most 200 characters each)."""


def _typed_orders(path: str, power: str, language: str) -> list[str]:
    """The orders typed at the prompt, each read as it is typed against the game as it is
    (refused: said at once, to be typed again; the others stay), after the game file and
    the power are checked: nothing typed is lost to an error found at the end."""
    game = load_game(path)
    game.submit(power, [], language=language)  # an unknown power, one out, a game over
    if not os.access(Path(path).absolute().parent, os.W_OK):  # (the save's new file is there)
        raise GameError.said("not_writable", path=path)
    say = Printout(game, language)
    texts: list[str] = []
    while True:
        try:
            line = getpass.getpass(say.text("order_prompt")).strip()
        except EOFError:  # Ctrl-D: the end of the entry, as an empty line
            print(file=sys.stderr)  # the terminal's line, left after the prompt
            break
        if not line:
            break
        try:
            each = order_each([*texts, line], language=language, game_map=game.game_map)
            try:
                game.submit(power, each, language=language)  # (this copy is not saved)
            except InvalidOrderError as exc:
                raise _other_notation(exc, game, power, language) from None
        except ValueError as exc:
            print(f"realpolitik: {say.text('type_again', error=exc)}", file=sys.stderr)
            continue
        texts.append(line)
    return texts


def _process(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    with _changing(args.file):
        game = load_game(args.file)
        done = len(game.history)
        game.process()
        save_game(game, args.file)
    say = Printout(game, args.language)
    for record in game.history[done:]:
        say.record(record, out)
    say.status(out)
    return 0


def _show(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game = load_game(args.file)
    view = game.view(args.power)
    if args.json:
        json.dump(view, out, indent=1)
        out.write("\n")
        return 0
    Printout(game, args.language).show(view, out)
    return 0


def _history(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game = load_game(args.file)
    wanted = None if args.phase is None else Phase.parse(args.phase)  # names a bad one
    records = [r for r in game.history if wanted is None or r.phase == wanted]
    if args.phase is not None and not records:
        raise GameError.said("no_processed_phase", phase=args.phase)
    if args.json:
        json.dump([game.view()["history"][game.history.index(r)] for r in records], out, indent=1)
        out.write("\n")
        return 0
    say = Printout(game, args.language)
    if not records:
        out.write(f"{say.text('no_history')}\n")
    for record in records:
        say.record(record, out)
    if game.result is not None:
        out.write(f"{say.game_over()}\n")
    return 0


def _draw(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    with _changing(args.file):
        game = load_game(args.file)
        drawn = game.vote_draw(args.power, agree=not args.no)
        save_game(game, args.file)
    say = Printout(game, args.language)
    power = say.power(args.power.upper())
    out.write(f"{say.text('votes_against' if args.no else 'votes_for', power=power)}\n")
    if drawn:
        out.write(f"{say.game_over()}\n")
    else:
        missing = [p for p in game.voters() if not game.votes.get(p)]
        out.write(f"{say.text('draw_needs', powers=say.powers(missing))}\n")
    return 0


def _concede(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    with _changing(args.file):
        game = load_game(args.file)
        ended = game.concede(args.power)
        save_game(game, args.file)
    say = Printout(game, args.language)
    power = say.power(args.power.upper())
    if game.edition.leaving == "disorder" or ended:
        out.write(f"{say.text('concedes', power=power)}\n")
    else:
        out.write(f"{say.text('concedes_no_disorder', power=power, why=say.no_disorder())}\n")
    if ended and game.result is not None:
        out.write(f"{say.game_over()}\n")
    return 0


def _disorder(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    with _changing(args.file):
        game = load_game(args.file)
        power = args.power.upper()
        away = game.status.disorder | game.status.missed
        game.set_civil_disorder(power, on=not args.off)  # (says if it conceded, or nobody plays it)
        if args.off and power not in away:  # (the change is not saved)
            raise GameError.said("not_in_disorder", power=power)
        save_game(game, args.file)
    say = Printout(game, args.language)
    named = {"power": say.power(power), "of_power": say.of_power(power)}
    if args.off:
        out.write(f"{say.text('returns', **named)}\n")
    elif game.edition.leaving == "disorder":
        out.write(f"{say.text('in_disorder', **named)}\n")
    else:
        out.write(f"{say.text('player_leaves', why=say.no_disorder(), **named)}\n")
    return 0


def _legal(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game = load_game(args.file)
    power = args.power.upper()
    legal = game.legal_orders(power)[power]  # an unknown power is refused
    say = Printout(game, args.language)
    if game.result is not None:  # nothing to order: say why rather than print nothing
        out.write(f"{say.game_over()}\n")
        return 0
    if not legal:
        out.write(f"{say.text('nothing_to_order', power=say.power(power), phase=say.phase())}\n")
    for key, orders in legal.items():  # by unit, its place as the language writes it
        label = say.order(orders[0]) if key == "WAIVE" else say.place(key)
        out.write(f"{label}: {'; '.join(map(say.order, orders))}\n")
    due = game.builds_due().get(power)
    if due:
        out.write(f"{say.builds(power, due)}\n")
    return 0


def _rollback(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game = load_game(args.file)
    fork = game.rollback(args.phase, orders=True)  # its orders again, to change one
    _write(_writable(args.out, args.force, args.file), partial(save_game, fork))
    say = Printout(fork, args.language)
    out.write(f"{say.text('rollback', out=args.out, phase=say.phase(), code=fork.phase)}\n")
    return 0


def _mila_export(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    game = load_game(args.file)
    mila = to_mila(game)
    _write(_writable(args.out, args.force, args.file), partial(write_json_atomic, mila))
    say = Printout(game, args.language)
    # a finished game's file ends in MILA's COMPLETED, no phase: told by the last phase
    # written, the one the game ended in (the game's next phase is not written)
    written = [p["name"] for p in mila["phases"] if p["name"] != COMPLETED]
    last = Phase.parse(written[-1])
    where = {"phase": say.phase(last), "code": last, "out": args.out}
    key = "mila_export" if game.result is None else "mila_export_end"
    out.write(f"{say.text(key, count=len(written), **where)}\n")
    return 0


def _mila_import(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    try:
        data: Any = jsontext.loads(read_text(args.mila_file))
    except json.JSONDecodeError as exc:
        raise GameError(f"{args.mila_file}: not JSON ({exc})") from None
    game = from_mila(data, edition=args.edition)
    _write(_writable(args.out, args.force, args.mila_file), partial(save_game, game))
    say = Printout(game, args.language)
    if game.result is None:
        where = {"phase": say.phase(), "code": game.phase, "out": args.out}
        out.write(f"{say.text('mila_import', count=len(game.history), **where)}\n")
        return 0
    ended = game.result.phase  # (the game stays at the phase that would have come next)
    where = {"phase": say.phase(ended), "code": ended, "out": args.out}
    out.write(f"{say.text('mila_import_end', count=len(game.history), **where)}\n")
    out.write(f"{say.game_over()}\n")
    return 0
