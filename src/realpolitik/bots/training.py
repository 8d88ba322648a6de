"""Self-play at scale: many games of bots, on every core or on a Ray cluster, written as
training data.

Game ``k`` of a run with seed ``s`` is played with the seed ``s + k`` (the deal of the
powers, the coin toss, every bot's choices), through :class:`~realpolitik.game.Game`: the
edition's calendar, rules and victory. The games are the same however many processes play
them, and on a Ray cluster (:func:`run` with ``ray_address``); they are written in game
order:

* ``jsonl``: ``phases.jsonl``, one processed phase per line (``game``, ``phase``, the
  ``position`` before it in the ``adjudicate`` contract's shape, the ``orders`` and their
  ``results`` by power, the ``next`` phase, ``skipped`` when nobody had a choice), and
  ``games.jsonl``, one line per game (seed, table, bots, phases, result, centres);
* ``saved``: one saved game per game (``game-<seed>.json``, :mod:`realpolitik.formats.savegame`:
  ``realpolitik show`` and the server read it), and ``games.jsonl``.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, TextIO

from realpolitik.bots import make_bot
from realpolitik.bots.base import submit_bot_orders
from realpolitik.bots.workers import worker_pool
from realpolitik.errors import whole_number
from realpolitik.formats.savegame import game_to_json
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS
from realpolitik.game.views import results_by_power

FORMATS = ("jsonl", "saved")


@dataclass(frozen=True)
class Plan:
    """What to play: ``games`` games from ``seed`` on, of the table (``edition``,
    ``players`` or ``setup``), each power played by the bot ``bots[power]`` or else
    ``bot`` (:func:`~realpolitik.bots.make_bot`'s kinds: your own as ``module:name``),
    for at most ``max_years`` years; written as ``format``."""

    games: int
    seed: int = 0
    edition: str = "classic"
    players: int | None = None
    setup: str | None = None
    bot: str = "random"
    bots: Mapping[str, str] = field(default_factory=dict)
    max_years: int = 20
    format: str = "jsonl"

    def __post_init__(self) -> None:
        whole_number(self.games, "games", least=1)
        whole_number(self.max_years, "max_years", least=1)
        if self.edition not in EDITIONS:
            raise ValueError(f"unknown edition {self.edition!r}; editions: {', '.join(EDITIONS)}")
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r}; formats: {', '.join(FORMATS)}")
        for kind in {self.bot, *self.bots.values()}:
            make_bot(kind)  # a ValueError naming an unknown bot
        game = new_game(self, self.seed)  # the table and the powers named must exist
        unknown = sorted(set(self.bots) - set(game.powers))
        if unknown:
            raise ValueError(f"no power {', '.join(unknown)}; powers: {', '.join(game.powers)}")
        played = game.setup.played()
        nobodys = sorted(set(self.bots) - played)
        if nobodys:
            verb = "are" if len(nobodys) > 1 else "is"
            raise ValueError(
                f"{', '.join(nobodys)} {verb} played by nobody at this table; "
                f"powers played: {', '.join(p for p in game.powers if p in played)}"
            )


@dataclass(frozen=True)
class Played:
    """One game as written: its seed, its lines (or saved game), its phase count."""

    seed: int
    summary: str
    phases: int
    lines: str = ""
    saved: str = ""


def new_game(plan: Plan, seed: int) -> Game:
    """A new game at the plan's table."""
    return Game.new(edition=plan.edition, players=plan.players, setup=plan.setup, seed=seed)


def bot_seed(seed: int, power: str) -> int:
    """A bot's seed: the game's and the power's, the same in every process."""
    return zlib.crc32(f"{seed}/{power}".encode())


def play_game(plan: Plan, seed: int) -> Game:
    """One game of ``plan`` with this seed, to its end or the year limit."""
    game = new_game(plan, seed)
    bots = {  # a search bot without its clock: the same orders on any machine
        p: make_bot(plan.bots.get(p, plan.bot), seed=bot_seed(seed, p), time_limit=None)
        for p in game.powers
    }
    last = game.phase.year + plan.max_years - 1
    while not game.is_over and game.phase.year <= last:
        for power, legal in game.legal_orders().items():
            submit_bot_orders(bots[power], game, power, legal)
        game.process()
    return game


def record(plan: Plan, seed: int) -> Played:
    """Play game ``seed`` and write it out (in the worker: the text is what travels)."""
    game = play_game(plan, seed)
    centres = {p: len(game.position.centers_of(p)) for p in game.powers}
    result = game.result
    summary = {
        "game": seed,
        "edition": plan.edition,
        "setup": game.setup.id,
        "players": {name: list(powers) for name, powers in game.players.items()},
        "bots": {p: plan.bots.get(p, plan.bot) for p in game.powers if p in game.setup.played()},
        "phases": len(game.history),
        "end": str(game.phase),
        "result": None
        if result is None
        else {"kind": result.kind, "winners": list(result.winners), "reason": result.reason},
        "centres": {p: n for p, n in centres.items() if n},
    }
    played = Played(seed, json.dumps(summary, separators=(",", ":")), len(game.history))
    if plan.format == "saved":
        return Played(**{**asdict(played), "saved": json.dumps(game_to_json(game), indent=1)})
    lines = []
    for k, rec in enumerate(game.history):
        after = game.history[k + 1].phase if k + 1 < len(game.history) else game.phase
        line = {
            "game": seed,
            "phase": str(rec.phase),
            "position": rec.position.to_json(),
            "orders": {p: [str(o) for o in orders] for p, orders in rec.orders.items()},
            "results": results_by_power(rec.outcomes),
            "next": str(after),
        }
        if rec.skipped:
            line["skipped"] = True
        lines.append(json.dumps(line, separators=(",", ":")))
    return Played(**{**asdict(played), "lines": "\n".join(lines) + "\n"})


def _record_many(plan: Plan, seeds: Sequence[int]) -> list[Played]:
    return [record(plan, s) for s in seeds]


# --- running: one process, many, or a Ray cluster ------------------------------------------------
def _local(plan: Plan, workers: int) -> Iterator[Played]:
    seeds = range(plan.seed, plan.seed + plan.games)
    if workers <= 1:
        for seed in seeds:
            yield record(plan, seed)
        return
    with worker_pool(workers) as pool:
        # games come back in order; small chunks keep every process busy to the end
        chunk = max(1, min(8, plan.games // (workers * 4)))
        yield from pool.imap(_Recorder(plan), seeds, chunksize=chunk)


class _Recorder:
    """``record`` bound to a plan, picklable for the worker processes."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan

    def __call__(self, seed: int) -> Played:
        return record(self.plan, seed)


def _on_ray(plan: Plan, address: str) -> Iterator[Played]:
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'realpolitik[ray]'") from None
    started = not ray.is_initialized()
    if started:
        _answering(address)
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    try:
        remote = ray.remote(_record_many)
        seeds = list(range(plan.seed, plan.seed + plan.games))
        # about four tasks per core of the cluster, at most 64 games each
        cores = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call, unused-ignore]
        batch = max(1, min(64, plan.games // (4 * max(cores, 1))))
        refs = [remote.remote(plan, seeds[k : k + batch]) for k in range(0, len(seeds), batch)]
        for ref in refs:  # in game order
            yield from ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def _answering(address: str) -> None:
    """Refuse a cluster's ``HOST:PORT`` (or ``ray://HOST:PORT``) that nothing answers:
    ``ray.init`` retries one for ever. Other forms ("auto", a malformed one) Ray refuses
    itself."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise ValueError(f"no Ray cluster answers at {address}: {why}") from None


def run(
    plan: Plan,
    out: Path,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: TextIO | None = None,
) -> dict[str, Any]:
    """Play ``plan`` into the directory ``out`` (created; the files of an earlier run are
    replaced once the first game is played: its games.jsonl, phases.jsonl and the saved
    games it names) on ``workers`` processes (default: one per core) or on the Ray cluster at
    ``ray_address`` (in tasks of a few games, about four per core of the cluster); report
    progress on ``progress``. Returns the run's figures."""
    workers = (os.cpu_count() or 1) if workers is None else workers
    whole_number(workers, "workers", least=1)
    out.mkdir(parents=True, exist_ok=True)
    bar = _Progress(plan.games, progress)
    played = _on_ray(plan, ray_address) if ray_address is not None else _local(plan, workers)
    first = next(played)  # a run that cannot start (no Ray, no cluster) changes no file
    _clear_earlier_run(out)
    games = phases = 0
    with (out / "games.jsonl").open("w", encoding="utf-8") as summaries:
        phase_file = (
            (out / "phases.jsonl").open("w", encoding="utf-8") if plan.format == "jsonl" else None
        )
        try:
            for game in chain((first,), played):
                summaries.write(game.summary + "\n")
                if phase_file is not None:
                    phase_file.write(game.lines)
                else:
                    (out / f"game-{game.seed}.json").write_text(game.saved + "\n", encoding="utf-8")
                games += 1
                phases += game.phases
                bar.update(games, phases)
        finally:
            if phase_file is not None:
                phase_file.close()
    seconds = bar.done(games, phases)
    where: dict[str, Any] = {"ray": ray_address} if ray_address else {"workers": workers}
    return {"games": games, "phases": phases, "seconds": seconds, **where}


def _clear_earlier_run(out: Path) -> None:
    """Remove what an earlier run wrote in ``out``: its phases, and the saved games its
    ``games.jsonl`` names (a game of it left beside this run's would read as one of it).
    Other files stay."""
    summaries = out / "games.jsonl"
    if summaries.exists():
        for line in summaries.read_text(encoding="utf-8").splitlines():
            try:
                seed = json.loads(line)["game"]
            except (ValueError, KeyError, TypeError):
                continue
            if isinstance(seed, int) and not isinstance(seed, bool):
                (out / f"game-{seed}.json").unlink(missing_ok=True)
    (out / "phases.jsonl").unlink(missing_ok=True)


class _Progress:
    """A one-line progress bar on a text stream (rewritten at most every 0.2 s)."""

    def __init__(
        self, total: int, stream: TextIO | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.total, self.stream, self.clock = total, stream, clock
        self.start = self.last = clock()

    def _line(self, games: int, phases: int) -> str:
        seconds = max(self.clock() - self.start, 1e-9)
        filled = 30 * games // self.total
        bar = "#" * filled + "." * (30 - filled)
        return (
            f"\rselfplay [{bar}] {games}/{self.total} games, {phases} phases, "
            f"{phases / seconds:,.0f} phases/s"
        )

    def update(self, games: int, phases: int) -> None:
        now = self.clock()
        if self.stream is not None and games < self.total and now - self.last >= 0.2:
            self.last = now
            self.stream.write(self._line(games, phases))
            self.stream.flush()

    def done(self, games: int, phases: int) -> float:
        if self.stream is not None:
            self.stream.write(self._line(games, phases) + "\n")
            self.stream.flush()
        return self.clock() - self.start
