"""``realpolitik render``: draw a game, a phase or a situation as SVG, PNG or a flip-book.

    realpolitik render GAME.json -o now.svg                 # the game's present position
    realpolitik render GAME.json --phase F1901M -o f1901.png
    realpolitik render GAME.json -o game.html               # every phase (flip-book)
    realpolitik render --example classic_1901_1902 -o game.html
    realpolitik render --situation situation.json -o out.png
    realpolitik render --sheet FRANCE -o france.svg          # an order sheet
    realpolitik render --pad -o pad.svg                      # a blank map pad

GAME.json is a saved game (``game_to_json(game)``) or a game record (``{"start", "phases"}``).
The output's extension picks the format (``.svg``, ``.png``, ``.html``); without ``-o`` the
SVG is written to standard output.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from realpolitik.commands import tell_reading
from realpolitik.commands.powerarg import power_name
from realpolitik.errors import SituationError
from realpolitik.formats import jsontext
from realpolitik.formats.replay import load_game_record
from realpolitik.formats.savegame import looks_like_mila, read_text
from realpolitik.game.editions import edition
from realpolitik.notation import LANGUAGES
from realpolitik.phase import Phase
from realpolitik.render.flipbook import flipbook_html
from realpolitik.render.frames import Frame, frame_from_situation, frames_from_json
from realpolitik.render.png import NEEDS_EXTRA, png_available, svg_to_png
from realpolitik.render.sheets import map_pad, order_sheet
from realpolitik.render.svg import render
from realpolitik.rules import PRESETS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("render", help="draw a game, a phase or a situation on the map")
    cmd.add_argument("game", nargs="?", help="a saved game or game record (JSON; - for stdin)")
    cmd.add_argument("--example", help="a packaged example game, e.g. classic_1901_1902")
    cmd.add_argument("--situation", help="a situation of `realpolitik adjudicate` (- for stdin)")
    cmd.add_argument("--rules", type=str.lower, choices=PRESETS, default=None,
                     help="for --situation: the edition, over the one it names")  # fmt: skip
    cmd.add_argument(
        "--phase", help="the phase to draw, or of --sheet and --pad (default: the present one)"
    )
    cmd.add_argument("--sheet", metavar="POWER", type=power_name,
                     help="an order sheet for POWER (in any of the four languages)")  # fmt: skip
    cmd.add_argument("--pad", action="store_true", help="a blank map pad")
    cmd.add_argument("--labels", choices=("short", "long"), default="short",
                     help="province names: short (PAR, the default) or long (Paris)")  # fmt: skip
    cmd.add_argument("--language", type=str.lower, choices=LANGUAGES, default=None,
                     help="the names and orders' language (default: a situation's own, "
                     "else en)")  # fmt: skip
    cmd.add_argument(
        "--scale",
        type=_scale,
        default=None,
        help=f"PNG scale (default 1; 2 for sharper; at most {MAX_SCALE:g}; PNG only)",
    )
    cmd.add_argument("-o", "--output", help="file to write: .svg, .png or .html")
    cmd.set_defaults(func=run)


MAX_SCALE = 4.0
"""The largest ``--scale``: a map 8,600 px wide, 200 MB to draw (at 100 the PNG converter
asked for 100 GB and aborted the process)."""


def _scale(text: str) -> float:
    """``--scale``: a positive number (the PNG converter's own error named its "zoom"), at
    most :data:`MAX_SCALE`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    if value > MAX_SCALE:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SCALE:g}, not {text}")
    return value


def _read(name: str, stdin: TextIO, what: str) -> Any:
    """A file's JSON (``-``: standard input's), read as a saved game's file is: one that is
    no text, or too large for one, is named and not read whole (``/dev/zero``). ``what``
    it is said, where the terminal waits for it and where the standard input is empty."""
    if name == "-":
        tell_reading("render", f"a {what}", stdin)
    try:
        text = stdin.read() if name == "-" else read_text(name)
        if name == "-" and not text.strip():
            raise SituationError(f"no {what}: the standard input is empty")
        return jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise SituationError(f"bad JSON in {name}: {exc}") from None


def _frames(args: argparse.Namespace, stdin: TextIO) -> tuple[list[Frame], str | None]:
    """The frames to draw, and the language a situation is written in (if it says)."""
    sources = [x for x in (args.game, args.example, args.situation) if x is not None]
    if len(sources) > 1:
        raise ValueError("give one of GAME, --example and --situation")
    if args.rules is not None and args.situation is None:  # (else not read, and unsaid)
        raise ValueError(
            "--rules is for --situation: a game or example is drawn with its own edition, "
            "and a sheet or pad with the game's given (e.g. render game.json --pad)"
        )
    if args.situation is not None:
        data = _read(args.situation, stdin, "situation")
        _check_kind(args.situation, data, "situation")
        said = data.get("language") if isinstance(data, dict) else None
        return [frame_from_situation(data, args.rules)], said if said in LANGUAGES else None
    if args.example is not None:
        return frames_from_json(load_game_record(args.example)), None
    if args.game is not None:
        data = _read(args.game, stdin, "saved game")
        _check_kind(args.game, data, "saved game")
        return frames_from_json(data), None
    return [], None


def _check_kind(name: str, data: Any, wanted: str) -> None:
    """Say how to draw a file given as the wrong kind: a situation as GAME, a saved game
    to ``--situation``, a MILA game to either (anything else: its reading says what is
    wrong)."""
    if not isinstance(data, dict):
        return
    if "format" in data or ("start" in data and "phases" in data):
        kind = "saved game"
    elif looks_like_mila(data):
        raise ValueError(f"{name} is a MILA saved game: read it with 'realpolitik mila-import'")
    else:
        kind = "situation" if "phase" in data else wanted
    if kind != wanted:
        how = "draw it with --situation" if kind == "situation" else "give it without --situation"
        raise ValueError(f"{name} is a {kind}, not a {wanted}: {how}")


def _pick(frames: list[Frame], phase: str | None) -> Frame:
    if phase is None:
        return frames[-1]
    wanted = Phase.parse(phase)
    for frame in frames:
        if frame.phase == wanted:
            return frame
    have = ", ".join(f"{f.phase} ({_phase_name(f)})" for f in frames)
    raise ValueError(f"no phase {wanted} in this game (it has {have})")


def _phase_name(frame: Frame) -> str:
    """A frame's phase as its edition names it: grow's S1901M is its Winter 1901."""
    name = "classic" if frame.edition in (None, "datc") else frame.edition
    return edition(name).phase_name(frame.phase)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    frames, written_in = _frames(args, stdin)
    suffix = Path(args.output).suffix.lower() if args.output else ".svg"
    if suffix not in (".svg", ".png", ".html"):
        raise ValueError(f"unknown output format {suffix!r}: use .svg, .png or .html")
    if suffix == ".png" and not png_available():  # said before the drawing, not a traceback
        raise ValueError(NEEDS_EXTRA)
    if args.scale is not None and suffix != ".png":  # (an SVG has no pixels to scale)
        raise ValueError(f"--scale is for PNG output (-o FILE.png), not {suffix}")
    if args.pad and args.sheet:
        raise ValueError("give one of --sheet and --pad")
    language = args.language or written_in or "en"
    if args.sheet and language != "en":
        raise ValueError("an order sheet is written in English only: leave out --language")
    if args.pad or args.sheet:
        if args.phase is not None and not frames:
            raise ValueError("--phase picks a phase of GAME, --example or --situation: give one")
        shown = _pick(frames, args.phase) if frames else None
        game_map = shown.game_map if shown else None
        edition = shown.edition if shown else None
        if args.sheet:
            position = shown.position if shown else None
            year = shown.phase.year if shown else None
            text = order_sheet(
                args.sheet, game_map=game_map, position=position, year=year, edition=edition
            )
        else:
            text = map_pad(
                game_map=game_map, labels=args.labels, language=language, edition=edition
            )
    elif not frames:
        raise ValueError("nothing to draw: give GAME, --example, --situation, --sheet or --pad")
    elif suffix == ".html":
        chosen = frames if args.phase is None else [_pick(frames, args.phase)]
        title = Path(args.game or args.example or args.situation or "game").stem
        text = flipbook_html(
            chosen, title=title, labels=args.labels, edition=chosen[-1].edition, language=language
        )
    else:
        frame = _pick(frames, args.phase)
        text = render(
            frame.position,
            game_map=frame.game_map,
            orders=frame.orders,
            results=frame.resolution,
            phase=frame.phase,
            labels=args.labels,
            edition=frame.edition,
            language=language,
            unplayed=frame.unplayed,
            unread=frame.unread,
            alliances=frame.alliances,
        )
    if suffix == ".png":
        if not args.output:
            raise ValueError("PNG output needs -o FILE.png")
        Path(args.output).write_bytes(svg_to_png(text, scale=args.scale or 1.0))
    elif args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        stdout.write(text)
    return 0
