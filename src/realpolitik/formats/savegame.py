"""The native saved game: the whole :class:`~realpolitik.game.Game` as versioned JSON.

Written by :func:`game_to_json`, read back by :func:`game_from_json` (the game layer does
not know its formats: a :class:`Game` has no ``to_json``). Lossless:
``game_to_json(game_from_json(game_to_json(game))) == game_to_json(game)``. The file holds
the setup (variant, edition, table, rules, seed, players, agreed last year), the current
phase and position, pending orders, the status (civil disorder, concessions, alliances, coin
toss), messages, every processed phase (position before, orders, outcomes) and the result::

    {"format": "realpolitik-game", "version": 1, "edition": "classic", "setup": "7", ...,
     "history": [{"phase": "S1901M", "position": {...}, "orders": {"FRANCE": ["A PAR - BUR"]},
                  "outcomes": [{"power": "FRANCE", "order": "A PAR - BUR",
                                "result": "succeeds", "reason": ""}]}, ...]}

Orders are written in the English short notation, with a supported or convoyed unit's
nationality when the order named it (``A BUD S TURKEY A SER``). A file that is not a saved
game, or is damaged, raises :class:`SaveGameError` (a ``ValueError``) saying what is wrong.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome
from realpolitik.errors import SaveGameError, ShapeError
from realpolitik.formats import jsontext, schema
from realpolitik.game import Game
from realpolitik.game.calendar import play
from realpolitik.game.editions import edition
from realpolitik.game.records import CoinToss, Event, EventKind, Message, PhaseRecord, Status
from realpolitik.game.victory import Alliance, GameResult
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import UnitType

__all__ = [
    "FORMAT",
    "VERSION",
    "SaveGameError",
    "check_position",
    "editing",
    "game_from_json",
    "game_to_json",
    "load_game",
    "order_from_text",
    "read_text",
    "record_to_json",
    "save_game",
]

FORMAT = "realpolitik-game"
VERSION = 1


# --- orders as text: str(order), nationality included, read back exactly -----------------
class _Words:
    def __init__(self, text: str) -> None:
        self.words = text.split()
        self.k = 0
        self.text = text

    def next(self) -> str:
        if self.k >= len(self.words):
            raise SaveGameError(f"incomplete order {self.text!r}")
        word = self.words[self.k]
        self.k += 1
        return word

    def peek(self) -> str | None:
        return self.words[self.k] if self.k < len(self.words) else None

    def ref(self) -> UnitRef:
        word = self.next()
        power = None
        if len(word) > 3 and "/" not in word:
            power, word = word, self.next()
        utype = None
        if word in ("A", "F"):
            utype, word = UnitType(word), self.next()
        return UnitRef(utype, word, power)


@lru_cache(maxsize=4096)  # a long game gives the same orders again and again (see _parse)
def order_from_text(text: str) -> Order:
    """Read ``str(order)``'s notation back (exactly: no lexicon, no guessing)."""
    if text == "WAIVE":
        return Waive()
    w = _Words(text)
    unit = w.ref()
    verb = w.next()
    order: Order
    if verb == "H":
        order = Hold(unit)
    elif verb == "-":
        dest = w.next()
        via = w.peek() == "VIA"
        if via:
            w.next()
        order = Move(unit, dest, via)
    elif verb in ("S", "C"):
        other = w.ref()
        if w.peek() is None and verb == "S":
            order = SupportHold(unit, other)
        else:
            if w.next() != "-":
                raise SaveGameError(f"bad order {text!r}")
            dest = w.next()
            order = SupportMove(unit, other, dest) if verb == "S" else Convoy(unit, other, dest)
    elif verb == "R":
        order = Retreat(unit, w.next())
    elif verb in ("D", "B"):
        order = Disband(unit) if verb == "D" else Build(unit)
    else:
        raise SaveGameError(f"bad order {text!r}")
    if w.peek() is not None:
        raise SaveGameError(f"bad order {text!r}")
    return order


# --- writing --------------------------------------------------------------------------------
def _outcome(outcome: Outcome) -> dict[str, Any]:
    return {"power": outcome.power, **outcome.to_json(str(outcome.order))}


def _status(status: Status) -> dict[str, Any]:
    toss = status.coin_toss
    return {
        "civil_disorder": sorted(status.disorder),
        "conceded": sorted(status.conceded),
        "missed": sorted(status.missed),
        "alliances": [a.to_json() for a in status.alliances],
        "coin_toss": None
        if toss is None
        else {
            "power": toss.power,
            "player": toss.player,
            "phase": str(toss.phase),
            "from": toss.from_year,
        },
    }


def _orders(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[str]]:
    return {p: [str(o) for o in os] for p, os in sorted(orders.items())}


def record_to_json(record: PhaseRecord) -> dict[str, Any]:
    """A processed phase as the saved game's ``history`` holds it (JSON-able)."""
    return {
        "phase": str(record.phase),
        "position": record.position.to_json(),
        "orders": _orders(record.orders),
        "outcomes": [_outcome(o) for o in record.outcomes],
        "skipped": record.skipped,
        "civil_disorder": sorted(record.disorder),
        "accepted": sorted([p, prov] for p, prov in record.accepted),
        "declared": {p: list(m) for p, m in sorted(record.declared.items())},
        "status": _status(record.status),
        "events": [e.to_json() for e in record.events],
    }


def game_to_json(game: Game) -> dict[str, Any]:
    """The saved game of ``game`` (JSON-able)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant,
        "edition": game.edition.name,
        "setup": game.setup.id,
        "rules": {f.name: getattr(game.rules, f.name) for f in fields(Rules)},
        "seed": game.seed,
        "players": {name: list(powers) for name, powers in game.assignment.items()},
        "last_year": game.last_year,
        "clock": game.clock,
        "phase": str(game.phase),
        "position": game.position.to_json(),
        **(
            {} if game.start == Position.initial(game.game_map) else {"start": game.start.to_json()}
        ),
        "status": _status(game.status),
        "pending": {
            "orders": _orders(game.pending_orders()),
            "accepted": {p: sorted(v) for p, v in sorted(game.pending_accepted().items())},
            "declared": {p: list(m) for p, m in sorted(game.pending_declared().items())},
            "votes": dict(sorted(game.votes.items())),
        },
        "messages": [
            {"phase": str(m.phase), "sender": m.sender, "recipient": m.recipient, "text": m.text}
            for m in game.messages
        ],
        "history": [record_to_json(r) for r in game.history],
        "result": None if game.result is None else game.result.to_json(),
    }


# --- reading --------------------------------------------------------------------------------
def _read_status(data: Mapping[str, Any]) -> Status:
    toss = data.get("coin_toss")
    return Status(
        disorder=frozenset(data.get("civil_disorder", ())),
        conceded=frozenset(data.get("conceded", ())),
        missed=frozenset(data.get("missed", ())),
        alliances=tuple(Alliance.from_json(a) for a in data.get("alliances", ())),
        coin_toss=None
        if toss is None
        else CoinToss(toss["power"], toss["player"], Phase.parse(toss["phase"]), int(toss["from"])),
    )


def _read_orders(data: Mapping[str, Any]) -> dict[str, tuple[Order, ...]]:
    return {str(p): tuple(order_from_text(t) for t in texts) for p, texts in data.items()}


def _read_outcome(entry: Mapping[str, Any]) -> Outcome:
    fate = entry.get("unit")
    return Outcome(
        entry["power"],
        order_from_text(entry["order"]),
        OrderResult(entry["result"]),
        Reason.parse(str(entry.get("reason", ""))),
        None if fate is None else OrderResult(fate),
        bool(entry.get("implied", False)),
    )


# an event as saved before events had kinds: its English text
_EVENT_TEXTS = (
    (EventKind.CIVIL_DISORDER, re.compile(r"civil disorder \(no orders\): (?P<powers>.+)"), ", "),
    (EventKind.ALLIANCE_FORMED, re.compile(r"alliance formed: (?P<powers>.+)"), "+"),
    (EventKind.ALLIANCE_ENDED, re.compile(r"alliance ended: (?P<powers>.+)"), "+"),
    (
        EventKind.COIN_TOSS,
        re.compile(r"coin toss: (?P<powers>\S+) goes to (?P<player>.+) from (?P<year>\d+)"),
        "",
    ),
    (EventKind.GAME_OVER, re.compile(r"game over: (?P<reason>.*)"), ""),
)


def _read_event(data: Mapping[str, Any] | str) -> Event:
    if not isinstance(data, str):
        return Event.from_json(data)
    for kind, pattern, joint in _EVENT_TEXTS:
        if found := pattern.fullmatch(data):
            named = found.groupdict()
            powers = named.get("powers")
            return Event(
                kind,
                () if powers is None else tuple(powers.split(joint) if joint else [powers]),
                named.get("player", ""),
                int(named.get("year", 0)),
                named.get("reason", ""),
            )
    raise SaveGameError(f"unknown event {data!r}")


def read_votes(data: Mapping[str, Any]) -> dict[str, bool]:
    """The draw votes of a saved game (``pending.votes``), without reading the rest."""
    return {p: bool(v) for p, v in data.get("pending", {}).get("votes", {}).items()}


def looks_like_mila(data: Any) -> bool:
    """Is ``data``, given as a saved game, a saved game of the MILA ``diplomacy`` package
    (:mod:`realpolitik.formats.mila` reads those)? Said in the refusal, with what reads it."""
    return isinstance(data, Mapping) and "format" not in data and {"map", "phases"} <= set(data)


def game_from_json(data: Any) -> Game:
    """Rebuild a game from its saved JSON; :class:`SaveGameError` if it is not one."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        mila = looks_like_mila(data)
        hint = "; it is a MILA saved game, which 'realpolitik mila-import' reads" if mila else ""
        raise SaveGameError(f'not a realpolitik saved game (no "format": "{FORMAT}"){hint}')
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise SaveGameError(f"saved game version {version!r}: this program reads up to {VERSION}")
    try:
        schema.check(data, schema.packaged("savegame"))
    except ShapeError as exc:
        raise SaveGameError(f"damaged saved game: {exc}") from None
    try:
        return _read(data)
    except SaveGameError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        raise SaveGameError(f"damaged saved game: {detail}") from None


def _read(data: Mapping[str, Any]) -> Game:
    spec = edition(data["edition"])
    setup = spec.setup(None, data["setup"])
    # a rule saved before it existed (grow's support_cut) takes the edition's choice
    rules = Rules(**({f.name: getattr(spec.rules, f.name) for f in fields(Rules)} | data["rules"]))
    players = {str(n): tuple(ps) for n, ps in data["players"].items()}
    if sorted(map(frozenset, players.values()), key=sorted) != sorted(
        map(frozenset, setup.groups), key=sorted
    ):
        raise SaveGameError("the players' powers do not match the setup's groups")
    game = Game(
        spec,
        setup,
        rules,
        int(data["seed"]),
        players,
        variant=data.get("variant", spec.variant),
        last_year=data.get("last_year"),
        clock=bool(data.get("clock", True)),
    )
    game.phase = Phase.parse(data["phase"])
    first = spec.first_year(setup)  # (the server ends a game of bots alone so in any edition)
    if game.last_year is not None and game.last_year < first:
        raise SaveGameError(f"the last year {game.last_year} is before the first ({first})")
    game.position = Position.from_json(data["position"], game.game_map)
    if "start" in data:
        game.start = Position.from_json(data["start"], game.game_map)
    history = list(data.get("history", ()))
    phases = [Phase.parse(raw["phase"]) for raw in history]
    positions = [
        Position.from_json(raw["position"], game.map_for(phase))
        for raw, phase in zip(history, phases, strict=True)
    ]
    afters = [*positions[1:], game.position][: len(positions)]  # the next phase's start
    for raw, phase, position, after in zip(history, phases, positions, afters, strict=True):
        game.history.append(
            PhaseRecord(
                phase=phase,
                position=position,
                orders=_read_orders(raw.get("orders", {})),
                outcomes=tuple(_read_outcome(o) for o in raw.get("outcomes", ())),
                after=after,
                skipped=bool(raw.get("skipped", False)),
                disorder=frozenset(raw.get("civil_disorder", ())),
                accepted=frozenset((p, prov) for p, prov in raw.get("accepted", ())),
                declared={p: tuple(m) for p, m in raw.get("declared", {}).items()},
                status=_read_status(raw.get("status", {})),
                events=tuple(_read_event(e) for e in raw.get("events", ())),
            )
        )
    game.status = _read_status(data.get("status", {}))
    pending = data.get("pending", {})
    game.restore_pending(
        _read_orders(pending.get("orders", {})),
        {p: frozenset(v) for p, v in pending.get("accepted", {}).items()},
        {p: tuple(m) for p, m in pending.get("declared", {}).items()},
        read_votes(data),
    )
    game.messages = [
        Message(Phase.parse(m["phase"]), m["sender"], m["recipient"], m["text"])
        for m in data.get("messages", ())
    ]
    result = data.get("result")
    game.result = None if result is None else GameResult.from_json(result)
    return game


# --- files -----------------------------------------------------------------------------------
def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    """Write the saved game atomically: a temporary file beside ``path``, then a rename, so
    a crash never leaves a half-written game."""
    write_json_atomic(game_to_json(game), path)


def write_json_atomic(data: Any, path: str | os.PathLike[str]) -> None:
    """Write JSON to ``path`` all or nothing: a temporary file beside it, flushed to the
    disk, then renamed over it. The file keeps its mode (a new one gets the umask's)."""
    target = Path(path)
    folder = target.parent
    tmp = folder / f".{target.name}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:  # named as the file asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        with suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(target.stat().st_mode))
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where a folder can be opened and synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temporaries(target: Path) -> list[Path]:
    """Temporary files of :func:`write_json_atomic` for ``target`` (left by a kill)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[0-9a-f]{{8}}\.tmp")
    return [p for p in target.parent.glob(f".{target.name}.*.tmp") if pattern.fullmatch(p.name)]


@contextmanager
def editing(
    path: str | os.PathLike[str], *, on_wait: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold the saved game at ``path`` for a read-change-write: another holder (another
    command, another thread) waits until this one has saved (``on_wait`` is called once
    if it must wait). Save once, at the end: the lock is on the file that was there when
    it was taken. Temporary files a killed writer left behind are removed."""
    target = Path(path)
    try:
        import fcntl
    except ImportError:  # no POSIX locks here: commands are not protected from each other
        yield
        return
    while True:
        fd = os.open(target, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if on_wait is not None:
                    on_wait()
                    on_wait = None
                fcntl.flock(fd, fcntl.LOCK_EX)
            held, now = os.fstat(fd), _stat(target)
        except BaseException:
            os.close(fd)
            raise
        if now is not None and (now.st_ino, now.st_dev) == (held.st_ino, held.st_dev):
            break
        os.close(fd)  # replaced while we waited: take the lock of the new file
    try:
        for stale in _temporaries(target):
            stale.unlink(missing_ok=True)
        yield
    finally:
        os.close(fd)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None


MAX_FILE_BYTES = 256 * 1024 * 1024
"""No saved game is larger (600 phases take 2.2 MB): a larger file is not read whole."""


def read_text(path: str | os.PathLike[str]) -> str:
    """A game file's text (:class:`SaveGameError` if it is not UTF-8 text, or is over
    :data:`MAX_FILE_BYTES`: ``/dev/zero`` given by mistake is not read until the memory
    runs out)."""
    with open(path, "rb") as file:
        raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise SaveGameError(f"{path}: over {MAX_FILE_BYTES} bytes: not a game file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveGameError(f"{path}: not a text file") from None


def load_game(path: str | os.PathLike[str]) -> Game:
    """Read a saved game file (:class:`SaveGameError` if it is not one, or is damaged:
    its shape is checked against ``data/savegame.schema.json``, and its position against
    its history)."""
    text = read_text(path)
    try:
        data = jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveGameError(f"{path}: not JSON ({exc})") from None
    try:
        game = game_from_json(data)
    except SaveGameError as exc:
        raise SaveGameError(f"{path}: {exc}") from None
    check_position(game, str(path))
    return game


def check_position(game: Game, name: str = "saved game") -> None:
    """Every processed phase must lead where the file says: replayed from its position and
    orders, it gives its outcomes (reasons aside: wording may change) and the next phase's
    position, the last one the game's phase and position; the first starts from the
    game's start. A unit, centre, order, result or phase changed by hand, or a phase
    dropped, is damage (:class:`SaveGameError`)."""
    position = game.start
    for k, record in enumerate(game.history):
        if record.position != position:
            source = f"what {game.history[k - 1].phase} led to" if k else "the starting position"
            raise SaveGameError(
                f"{name}: damaged history at {record.phase}: its position is not {source}"
            )
        try:
            turn = play(
                game.edition,
                game.map_for(record.phase),
                game.rules,
                record.phase,
                record.position,
                record.orders,
                disorder=record.disorder,
                accepted=record.accepted,
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise SaveGameError(f"{name}: damaged history at {record.phase}: {exc}") from None
        if [_substance(o) for o in turn.resolution.outcomes] != [
            _substance(o) for o in record.outcomes
        ]:
            raise SaveGameError(
                f"{name}: damaged history at {record.phase}: its results are not what its"
                " orders give"
            )
        following = game.history[k + 1].phase if k + 1 < len(game.history) else game.phase
        if following != turn.following:
            raise SaveGameError(
                f"{name}: damaged: the phase after {record.phase} is {following},"
                f" not {turn.following}"
            )
        position = turn.after
    if game.position != position:
        source = (
            f"what {game.history[-1].phase} led to" if game.history else "the starting position"
        )
        changed = [
            power
            for power in game.powers
            if position.units_of(power) != game.position.units_of(power)
            or position.centers_of(power) != game.position.centers_of(power)
        ]
        raise SaveGameError(
            f"{name}: damaged: the position is not {source}"
            + (f" (changed: {', '.join(changed)})" if changed else "")
        )


def _substance(outcome: Outcome) -> Outcome:
    """What an outcome says happened: all but its reason, whose wording may change."""
    return outcome._replace(reason=None)
