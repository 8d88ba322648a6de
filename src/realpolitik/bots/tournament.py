"""The bot tournament: one bot in each seat in turn against copies of a baseline bot,
compared with the baseline bot in the same seat against the same opponents.

For each seed, one game of the baseline bot in every seat (it gives the baseline of every
seat at once), then for each seat a game with the tested bot there and the same baseline
bots (same seeds) elsewhere. Games are played through :class:`~realpolitik.game.Game`,
so the edition's calendar and victory apply, to the end of a given year or a win. Every
order a bot gives is checked (:func:`checked`: among its unit's legal orders, one per
unit, no more adjustments than due); one that is not is counted and dropped. Games run in
parallel processes.

    >>> table = run(Config(bot="search", seeds=1, years=1, seats=("FRANCE",), jobs=1))
    >>> table.illegal
    0
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from realpolitik.bots import make_bot
from realpolitik.bots.base import Bot, LegalOrders, bot_orders
from realpolitik.bots.workers import worker_pool
from realpolitik.errors import OrderError, whole_number
from realpolitik.game import Game
from realpolitik.legal import WAIVE
from realpolitik.notation import parse_order
from realpolitik.orders import Order, order_unit
from realpolitik.vocab import Power, province_of

_T975 = (12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.20, 2.18, 2.16, 2.14, 2.13)
"""Student's t, two-sided 95%, for 1 to 15 degrees of freedom (more: 2.0 down to 1.96)."""
_BOOTSTRAP = 2000
"""Resamples for the confidence interval of the ratio of the means."""


@dataclass(frozen=True, slots=True)
class Config:
    """What to play: ``bot`` in each of ``seats`` (default every power someone plays at
    the table: not a 5- or 6-player table's powers left out) against
    ``baseline`` bots (:func:`~realpolitik.bots.make_bot`'s kinds: your own as
    ``module:name``), for seeds 1 to ``seeds``, ``years`` years from the edition's first,
    at the table of ``players`` (or ``setup``: an option, 1971's ``3b``), as
    :meth:`Game.new` takes them."""

    bot: str = "search"
    baseline: str = "heuristic"
    seeds: int = 10
    years: int = 10
    seats: tuple[Power, ...] = ()
    edition: str = "classic"
    players: int | None = None
    setup: str | None = None
    strength: int | None = None
    jobs: int = 2


@dataclass(frozen=True, slots=True)
class Trial:
    """One game of the tournament (a game's own result is
    :class:`~realpolitik.game.victory.GameResult`): the seat of the tested bot (``None``:
    baseline bots everywhere), the centres of every power at the end, the winners, the
    illegal orders given (how many, and ``said``: which, a line per phase and power), and the
    tested bot's decisions: how many, the seconds they took in all and at most, and how many
    took more than a second."""

    seat: Power | None
    seed: int
    centres: Mapping[Power, int]
    winners: tuple[Power, ...]
    illegal: int
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    over_a_second: int = 0
    said: tuple[str, ...] = ()


def play_trial(
    config: Config, seat: Power | None, seed: int, progress: Callable[[str], None] | None = None
) -> Trial:
    """One game of ``config`` with the tested bot in ``seat`` (``None``: nowhere);
    ``progress`` hears each phase's illegal orders as they are given."""
    game = Game.new(edition=config.edition, players=config.players, setup=config.setup, seed=seed)
    bots: dict[Power, Bot] = {}
    for k, power in enumerate(game.powers):
        kind = config.bot if power == seat else config.baseline
        strength = config.strength if kind == "search" else None
        bots[power] = make_bot(kind, seed=seed * 1000 + k, strength=strength)
    illegal = decisions = over_a_second = 0
    said: list[str] = []
    seconds = slowest = 0.0
    last_year = game.phase.year + config.years - 1
    while not game.is_over and game.phase.year <= last_year:
        for power, legal in game.legal_orders().items():
            if not legal:
                continue
            started = time.perf_counter()
            orders = bot_orders(bots[power], game, power, legal)
            if power == seat:
                took = time.perf_counter() - started
                decisions, seconds, slowest = decisions + 1, seconds + took, max(slowest, took)
                over_a_second += took > 1.0
            kept, bad = checked(game, power, legal, orders)
            illegal += len(bad)
            if bad:
                said.append(f"illegal orders of {power} in {game.phase}: {', '.join(bad)}")
                if progress is not None:
                    progress(said[-1])
            game.submit(power, kept)
        game.process()
    centres = {p: len(game.position.centers_of(p)) for p in game.powers}
    return Trial(
        seat,
        seed,
        centres,
        tuple(game.winners),
        illegal,
        decisions,
        seconds,
        slowest,
        over_a_second,
        tuple(said),
    )


def checked(
    game: Game, power: Power, legal: LegalOrders, orders: Sequence[Order | str]
) -> tuple[list[Order], list[str]]:
    """The orders a bot gave that the game takes (each a legal order of its unit or build
    site, as listed or in another spelling the adjudicator takes, one per unit, no more
    adjustments than due, as the server takes them; text read on the board as the game
    reads it), and the others as text, with the reason
    where the reader or the adjudicator gives one: counted as illegal and dropped, so that
    a bot's mistake costs it its orders, not the tournament."""
    where = {o: _unit_key(key) for key, options in legal.items() for o in options}
    kept: list[Order] = []
    bad: list[str] = []
    used: set[str] = set()
    for given in orders:
        if isinstance(given, str):
            try:
                order = parse_order(
                    given, game_map=game.game_map, position=game.position, power=power,
                    phase=game.phase, rules=game.rules,
                )  # fmt: skip
            except OrderError as exc:
                bad.append(f"{given} ({exc})")
                continue
        else:
            order = given
        key = where.get(order)
        if key is None:  # legal all the same in another spelling ("A LON - BEL" by convoy)?
            key, why = _unlisted(game, power, order)
            if key is None:
                bad.append(f"{order} ({why})")
                continue
        if key in used:
            bad.append(f"{order} (a second order)")
            continue
        if key != "WAIVE":  # each build due may be waived
            used.add(key)
        kept.append(order)
    if game.phase.is_adjustments:  # the count due: the adjudicator's own verdict
        refused = game.illegal_orders(power, kept)
        bad += [f"{kept[k]} ({reason})" for k, reason in sorted(refused.items())]
        kept = [o for k, o in enumerate(kept) if k not in refused]
    return kept, bad


def _unit_key(key: str) -> str:
    """One key per unit or build site: its province (``STP`` for ``STP/SC``), or WAIVE."""
    return key if key == WAIVE else province_of(key)


def _unlisted(game: Game, power: Power, order: Order) -> tuple[str | None, str]:
    """The key of an order the legal listing writes in another spelling (``A LON - BEL``
    for its ``A LON - BEL VIA``, a support naming the coast), legal as the game reads it
    and the adjudicator judges it, as the server takes orders; else ``None`` and why."""
    try:
        (read,) = game.copy().submit(power, [order])  # the game's checks: whose unit, kind
    except OrderError as exc:
        return None, str(exc)
    refused = game.illegal_orders(power, [read])
    if refused:
        return None, str(refused[0])
    unit = order_unit(read)
    return (WAIVE if unit is None else province_of(unit.location)), ""


@dataclass(frozen=True, slots=True)
class Row:
    seat: Power
    bot: tuple[int, ...]
    baseline: tuple[int, ...]
    bot_wins: int
    baseline_wins: int


@dataclass
class Table:
    """The tournament's results; ``centres``: the supply centres of the table's board, the
    most a power can end with (the top of every interval)."""

    config: Config
    centres: int
    rows: list[Row] = field(default_factory=list)
    illegal: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    over_a_second: int = 0

    def ratio(self) -> float:
        bot = sum(sum(r.bot) for r in self.rows)
        base = sum(sum(r.baseline) for r in self.rows)
        return bot / base if base else math.inf

    def ratio_interval(self) -> tuple[float, float]:
        """95% bootstrap interval of the ratio (resampling seeds within each seat)."""
        rng = random.Random(0)
        ratios: list[float] = []
        for _ in range(_BOOTSTRAP):
            bot = base = 0
            for r in self.rows:
                for _ in r.bot:
                    k = rng.randrange(len(r.bot))
                    bot += r.bot[k]
                    base += r.baseline[k]
            ratios.append(bot / base if base else math.inf)
        ratios.sort()
        return ratios[int(0.025 * _BOOTSTRAP)], ratios[int(0.975 * _BOOTSTRAP) - 1]

    def render(self) -> str:
        c = self.config
        head = f"{c.bot} vs {c.baseline}"
        w = max(22, len(c.bot) + 8, len(c.baseline) + 8)  # a bot of one's own may be named long
        lines = [
            f"{head}: {c.edition}{'' if c.setup is None else f' (table {c.setup})'}, "
            f"{_count(c.seeds, 'seed')} per seat, {_count(c.years, 'year')}"
            f"{'' if c.strength is None else f', strength {c.strength}'}",
            "mean supply centres at the end, 95% confidence intervals; wins = solo victories",
            f"{'seat':<10} {c.bot + ' centres':>{w}} {c.baseline + ' centres':>{w}} "
            f"{'ratio':>6} {'wins':>9}",
        ]
        most = self.centres
        every_bot: list[int] = []
        every_base: list[int] = []
        for r in self.rows:
            every_bot += r.bot
            every_base += r.baseline
            ratio = _ratio(statistics.fmean(r.bot), statistics.fmean(r.baseline))
            lines.append(
                f"{r.seat:<10} {_mean_ci(r.bot, most):>{w}} {_mean_ci(r.baseline, most):>{w}} "
                f"{ratio:>6} {r.bot_wins:>4}/{r.baseline_wins:<4}"
            )
        wins = sum(r.bot_wins for r in self.rows), sum(r.baseline_wins for r in self.rows)
        lines.append(
            f"{'all':<10} {_mean_ci(every_bot, most):>{w}} {_mean_ci(every_base, most):>{w}} "
            f"{_ratio(sum(every_bot), sum(every_base)):>6} {wins[0]:>4}/{wins[1]:<4}"
        )
        ratio = f"ratio of the means: {self.ratio():.2f}"
        if all(len(r.bot) < 2 for r in self.rows):  # one game a seat: nothing to resample
            lines.append(f"{ratio} (one seed per seat: no interval)")
        else:
            low, high = self.ratio_interval()
            lines.append(f"{ratio}, 95% CI [{low:.2f}, {high:.2f}]")
        lines.append(f"illegal orders: {self.illegal}")
        if self.decisions:
            mean = self.seconds / self.decisions
            lines.append(
                f"{c.bot}: {_count(self.decisions, 'decision')}, {_duration(mean)} on average, "
                f"the slowest {_duration(self.slowest)}, {self.over_a_second} over 1 s"
            )
        return "\n".join(line.rstrip() for line in lines)


def _ratio(bot: float, baseline: float) -> str:
    """A ratio as its column writes it: ``inf`` over a baseline of no centres, ``-`` when
    neither has any."""
    if baseline:
        return f"{bot / baseline:.2f}"
    return "inf" if bot else "-"


def _duration(seconds: float) -> str:
    """A decision's time as people read it: ``0.300 s``, ``0.0213 ms`` (a fast bot's would
    read ``0.000 s``)."""
    if seconds >= 0.01:
        return f"{seconds:.3f} s"
    return f"{seconds * 1000:.3g} ms"


def _count(number: int, noun: str) -> str:
    """``number`` of ``noun`` in English: "1 seed", "2 seeds"."""
    return f"{number} {noun}{'s' * (number != 1)}"


def _mean_ci(xs: Sequence[int], most: int) -> str:
    """The mean of counts of centres and its 95% interval, kept within what a power can
    hold: from no centres to ``most``, every centre of the board (few seeds: a wide t)."""
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{mean:.2f}"
    df = len(xs) - 1
    t = _T975[df - 1] if df <= len(_T975) else 1.96 + 2.4 / df
    half = t * statistics.stdev(xs) / math.sqrt(len(xs))
    low, high = max(0.0, mean - half), min(float(most), mean + half)
    return f"{mean:5.2f} [{low:5.2f}, {high:5.2f}]"


def _task(args: tuple[Config, Power | None, int]) -> Trial:
    return play_trial(*args)


def run(config: Config, progress: Callable[[str], None] | None = None) -> Table:
    """Play every game of ``config`` (in ``config.jobs`` processes) and tabulate them."""
    for name in ("seeds", "years", "jobs"):
        whole_number(getattr(config, name), name, least=1)
    make_bot(config.bot)  # a ValueError now, not in every game, for an unknown bot
    make_bot(config.baseline)
    if config.strength is not None and "search" not in (config.bot, config.baseline):
        raise ValueError(
            f"strength is the search bot's budget, and neither {config.bot} nor "
            f"{config.baseline} is it"
        )
    game = Game.new(edition=config.edition, players=config.players, setup=config.setup, seed=1)
    played = [p for p in game.powers if p in game.setup.played()]
    seats = tuple(dict.fromkeys(config.seats)) or tuple(played)  # a seat named twice: once
    unknown = [s for s in seats if s not in game.powers]
    if unknown:
        named = f"unknown seat{'s' * (len(unknown) > 1)} {', '.join(unknown)}"
        raise ValueError(f"{named}; powers: {', '.join(game.powers)}")
    nobodys = [s for s in seats if s not in played]
    if nobodys:
        named = f"seat{'s' * (len(nobodys) > 1)} {', '.join(nobodys)}"
        verb = "are" if len(nobodys) > 1 else "is"
        raise ValueError(
            f"{named} {verb} played by nobody at this table; seats: {', '.join(played)}"
        )
    seeds = range(1, config.seeds + 1)
    tasks = [(config, None, s) for s in seeds] + [(config, p, s) for p in seats for s in seeds]
    results: list[Trial] = []
    if config.jobs == 1:
        outcomes: Iterable[Trial] = map(_task, tasks)
        for result in outcomes:
            results.append(result)
            _report(progress, result, len(results), len(tasks))
    else:
        with worker_pool(config.jobs) as pool:
            for result in pool.imap(_task, tasks):
                results.append(result)
                _report(progress, result, len(results), len(tasks))
    return tabulate(config, seats, results)


def _report(progress: Callable[[str], None] | None, result: Trial, done: int, total: int) -> None:
    if progress is not None:
        who = result.seat or "baseline"
        progress(f"[{done}/{total}] {who} seed {result.seed}: {dict(result.centres)}")
        for line in result.said:
            progress(f"  {line}")


def tabulate(config: Config, seats: Sequence[Power], results: Sequence[Trial]) -> Table:
    base = {r.seed: r for r in results if r.seat is None}
    game = Game.new(edition=config.edition, players=config.players, setup=config.setup, seed=1)
    table = Table(
        config,
        len(game.game_map.centers),
        illegal=sum(r.illegal for r in results),
        decisions=sum(r.decisions for r in results),
        seconds=sum(r.seconds for r in results),
        slowest=max((r.slowest for r in results), default=0.0),
        over_a_second=sum(r.over_a_second for r in results),
    )
    for seat in seats:
        games = sorted((r for r in results if r.seat == seat), key=lambda r: r.seed)
        table.rows.append(
            Row(
                seat,
                tuple(r.centres[seat] for r in games),
                tuple(base[r.seed].centres[seat] for r in games),
                sum(seat in r.winners for r in games),
                sum(seat in base[r.seed].winners for r in games),
            )
        )
    return table
