"""Declared variants and editions: boards, starts, rules and each edition's specials, as data.

The registry is ``data/variants.json``; boards are map data files, either complete or
derived from another board (provinces added, removed or cut off, coasts named, edges added
or removed, starts changed; ``readings`` says where a book is silent and what was chosen),
all loaded by :func:`realpolitik.maps.load_map`. Nothing here is Python-coded geography::

    >>> ed = edition("grow")
    >>> ed.setup(4).map, ed.phase_name(Phase.parse("S1901M"))
    ('grow_4', 'Winter 1901')
    >>> len(load_map("conquista").centers)
    36

An :class:`Edition` is one rulebook: its rule choices (:class:`~realpolitik.rules.Rules`),
board, first year, season names, when centres change owner, when adjustments come, the
victory condition, what missed orders and a player who leaves mean (civil disorder, or only
a power without orders), the order in
which the table reads the orders out, the phase clock, and one :class:`Setup` per table
(player count and option: who plays what, who is out, a reduced board, a neutral power and
its coin toss).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any, Literal, get_args

from realpolitik.data import read_json
from realpolitik.errors import VariantError
from realpolitik.maps.loader import load_map
from realpolitik.maps.model import GameMap
from realpolitik.phase import Phase
from realpolitik.readonly import frozen_mapping
from realpolitik.rules import Rules, rules_for
from realpolitik.vocab import Power

__all__ = [
    "EDITIONS",
    "MAX_GAME_YEARS",
    "VARIANTS",
    "AdjustmentTime",
    "CentersChange",
    "Clock",
    "Edition",
    "Leaving",
    "MissedOrders",
    "Neutral",
    "Setup",
    "Victory",
    "VictoryCount",
    "VictoryPer",
    "edition",
]

MAX_GAME_YEARS = 100
"""A shortened game's agreed last year is at most this many years after its first."""

# An edition's choices, each named for what it decides (the values are those of
# data/variants.json, checked when an edition is loaded; mypy checks every comparison)
CentersChange = Literal["fall", "every_turn"]
"""When centres change owner: after a Fall turn, or after every turn (conquista)."""
AdjustmentTime = Literal["after_fall", "before_spring"]
"""When builds and removals come: in Winter, or before the Spring turn (conquista's
reinforcements)."""
MissedOrders = Literal["disorder", "hold"]
"""A power without orders: in civil disorder, or its units only hold."""
Leaving = Literal["disorder", "hold"]
"""A player who leaves or concedes: the power in civil disorder, or a power without orders
(its units hold, its reinforcements stay due: conquista)."""
VictoryCount = Literal["centers", "units"]
"""What a victory counts: supply centres, or units on the board."""
VictoryPer = Literal["power", "player"]
"""Whose count it is: each power's, or each player's over the powers played."""


@dataclass(frozen=True, slots=True)
class Victory:
    """What wins: ``count`` (``"centers"`` or ``"units"``) reaching ``threshold`` (``None``:
    more than half the board's centres), counted ``per`` power or per player;
    ``alliance_years``: a declared alliance at least that old may win together (conquista)."""

    count: VictoryCount = "centers"
    threshold: int | None = 18
    per: VictoryPer = "power"
    alliance_years: int | None = None

    def needed(self, game_map: GameMap) -> int:
        return self.threshold if self.threshold is not None else len(game_map.centers) // 2 + 1

    def describe(self, game_map: GameMap) -> str:
        what = "supply centres" if self.count == "centers" else "units on the board"
        who = "a player (over the powers played)" if self.per == "player" else "a power"
        text = f"{self.needed(game_map)} {what} for {who}"
        if self.alliance_years:
            text += f", or for a declared alliance at least {self.alliance_years} years old"
        return text


@dataclass(frozen=True, slots=True)
class Neutral:
    """A power nobody plays at first (Italy in the two-player game): its provinces are cut
    off (board ``map``) until the year ``until``; a coin toss before then gives it to a
    player, who plays it from ``until`` on."""

    power: Power
    map: str
    until: int


@dataclass(frozen=True, slots=True)
class Clock:
    """The moderator's clock, in minutes: diplomacy before the first turn and before each
    later one, and order writing (``None``: no limit)."""

    first_diplomacy: int | None
    diplomacy: int | None
    writing: int | None

    def for_phase(self, phase: Phase, first: bool) -> dict[str, int | None]:
        """The periods of a phase: diplomacy and writing before a movement phase, writing
        only before retreats and adjustments (no negotiation then)."""
        if phase.is_movement:
            talk = self.first_diplomacy if first else self.diplomacy
            return {"diplomacy": talk, "writing": self.writing}
        return {"diplomacy": None, "writing": self.writing}


@dataclass(frozen=True, slots=True)
class Setup:
    """One table of an edition: ``groups[k]`` are the powers the k-th player plays; ``out``
    powers are played by nobody (civil disorder all game); ``map`` replaces the edition's
    board; ``victory`` and ``start_year`` replace the edition's; an ``extra`` table is not
    in the edition's book (grow's ``2-extra``): it is played only when named by its id;
    ``clock`` replaces the edition's, and ``press`` false makes a table without diplomacy
    (conquista's two players: "sin Diplomacia y de pura Guerra")."""

    id: str
    players: int
    groups: tuple[tuple[Power, ...], ...]
    out: tuple[Power, ...] = ()
    map: str | None = None
    start_year: int | None = None
    neutral: Neutral | None = None
    victory: Victory | None = None
    title: str = ""
    extra: bool = False  # not in the edition's book: only when asked for by its id
    clock: Clock | None = None  # replaces the edition's (conquista's 2 players: no diplomacy)
    press: bool = True  # False: a table without diplomacy (no negotiation, no messages)

    def played(self) -> frozenset[Power]:
        """The powers someone plays at this table: each player's group, and the neutral
        power (played after the coin toss gives it to a player); never those ``out``."""
        powers = {p for group in self.groups for p in group}
        if self.neutral is not None:
            powers.add(self.neutral.power)
        return frozenset(powers)

    def default_names(self) -> list[str]:
        """Players named after their power (one power each), else ``player 1``..."""
        if all(len(g) == 1 for g in self.groups):
            return [g[0] for g in self.groups]
        return [f"player {k}" for k in range(1, self.players + 1)]

    def deal(
        self,
        names: Sequence[str],
        chosen: Mapping[str, Power | Sequence[Power]],
        seed: int,
        *,
        by_power: bool = False,
    ) -> dict[str, tuple[Power, ...]]:
        """Give each player one of the groups: the ``chosen`` ones, the others at random
        from ``seed`` (``by_power``: players named after the powers keep their own)."""
        groups = {frozenset(g): g for g in self.groups}
        dealt: dict[str, tuple[Power, ...]] = {}
        for name, powers in chosen.items():
            if name not in names:
                raise VariantError(f"unknown player {name!r} in the assignment")
            items = [powers] if isinstance(powers, str) else list(powers)
            wanted = frozenset(p.upper() for p in items)
            if wanted not in groups:
                options = "; ".join("+".join(g) for g in self.groups)
                given = "+".join(sorted(wanted))
                raise VariantError(f"{name}: {given} is not a group of this table ({options})")
            if groups[wanted] in dealt.values():
                raise VariantError(f"{'+'.join(sorted(wanted))} is assigned twice")
            dealt[name] = groups[wanted]
        if by_power and not chosen:
            return dict(zip(names, self.groups, strict=True))
        rest = [g for g in self.groups if g not in dealt.values()]
        random.Random(seed).shuffle(rest)
        dealt.update(zip([n for n in names if n not in dealt], rest, strict=True))
        return {name: dealt[name] for name in names}


@dataclass(frozen=True)
class Edition:
    """One rulebook as data (see the module docstring)."""

    name: str
    title: str
    source: str
    variant: str
    rules: Rules
    map: str
    start_year: int
    seasons: Mapping[str, str]
    kinds: Mapping[str, str]
    centers: CentersChange
    adjustment_time: AdjustmentTime
    victory: Victory
    shortened_game: bool
    missed_orders: MissedOrders
    leaving: Leaving
    clock: Clock
    setups: tuple[Setup, ...]
    reading_order: tuple[Power, ...] = ()  # the powers' orders read out in this order

    def __post_init__(self) -> None:
        # read-only: an edition is shared by every game of the process
        object.__setattr__(self, "seasons", frozen_mapping(self.seasons))
        object.__setattr__(self, "kinds", frozen_mapping(self.kinds))

    def reading(self, powers: Iterable[Power]) -> list[Power]:
        """``powers`` in the order the table reads their orders out (grow: England, then
        clockwise to France); without a reading order, alphabetical."""
        rank = {power: i for i, power in enumerate(self.reading_order)}
        return sorted(powers, key=lambda p: (rank.get(p, len(rank)), p))

    def setup(self, players: int | None = None, setup_id: str | None = None) -> Setup:
        """The setup with this id, or the first one for this many players (7 by default)."""
        if setup_id is not None:
            for setup in self.setups:
                if setup.id == setup_id:
                    if players is not None and setup.players != players:
                        raise VariantError(
                            f"setup {setup_id!r} of {self.name} is for {setup.players} players, "
                            f"not {players}"
                        )
                    return _checked(self, setup)
            known = ", ".join(s.id for s in self.setups)
            raise VariantError(f"{self.name} has no setup {setup_id!r} (setups: {known})")
        count = 7 if players is None else players
        for setup in self.setups:
            if setup.players == count and not setup.extra:
                return _checked(self, setup)
        counts = self.tables()
        extras = [s.id for s in self.setups if s.extra and s.players == count]
        hint = f" (an extra table, not in its book: setup {extras[0]})" if extras else ""
        raise VariantError(
            f"{self.name} is played by {counts[0]} to {counts[-1]} players, not {count}{hint}"
        )

    def tables(self) -> list[int]:
        """The player counts of the edition's own tables (extras left out)."""
        return sorted({s.players for s in self.setups if not s.extra})

    def map_name(self, setup: Setup) -> str:
        """The name of the map ``setup`` is played on (its own, else the edition's)."""
        return setup.map or self.map

    def first_year(self, setup: Setup) -> int:
        return setup.start_year or self.start_year

    def last_years(self, setup: Setup) -> range:
        """The years a shortened game (1971 III, grow: the players agree a last year, and
        then the most units win) may end with: from the first year (a game of one year) to
        :data:`MAX_GAME_YEARS` on; empty in an edition without a shortened game."""
        if not self.shortened_game:
            return range(0)
        first = self.first_year(setup)
        return range(first, first + MAX_GAME_YEARS + 1)

    def check_last_year(self, year: int, setup: Setup) -> None:
        """Raise :class:`ValueError` naming what is wrong with ``year`` as the agreed last
        year of a game of ``setup`` (see :meth:`last_years`)."""
        years = self.last_years(setup)
        if not years:
            raise ValueError(f"the {self.name} edition has no shortened game (1971 and grow do)")
        if year not in years:
            raise ValueError(f"the last year must be from {years[0]} to {years[-1]}, not {year}")

    def victory_for(self, setup: Setup) -> Victory:
        return setup.victory or self.victory

    def clock_for(self, setup: Setup) -> Clock:
        return setup.clock or self.clock

    def phase_name(self, phase: Phase) -> str:
        """``"Spring 1901"``, ``"Summer 1901 adjustments"`` (grow), ``"Spring 1915
        reinforcements"`` (conquista)."""
        name = f"{self.seasons[phase.season.value]} {phase.year}"
        kind = self.kinds[phase.kind.value]
        return f"{name} {kind}" if kind else name


# --- the registry ---------------------------------------------------------------------------
def _victory(raw: Mapping[str, Any]) -> Victory:
    victory = Victory(
        count=raw.get("count", "centers"),
        threshold=raw.get("threshold", 18),
        per=raw.get("per", "power"),
        alliance_years=raw.get("alliance_years"),
    )
    if victory.count not in get_args(VictoryCount) or victory.per not in get_args(VictoryPer):
        raise VariantError(f"bad victory declaration {dict(raw)!r}")
    return victory


def _setup(raw: Mapping[str, Any]) -> Setup:
    groups = tuple(tuple(g) for g in raw["groups"])
    neutral = raw.get("neutral")
    return Setup(
        id=str(raw["id"]),
        players=int(raw.get("players", len(groups))),
        groups=groups,
        out=tuple(raw.get("out", ())),
        map=raw.get("map"),
        start_year=raw.get("start_year"),
        neutral=None if neutral is None else Neutral(**neutral),
        victory=None if raw.get("victory") is None else _victory(raw["victory"]),
        title=raw.get("title", ""),
        extra=bool(raw.get("extra", False)),
        clock=None if raw.get("clock") is None else Clock(**raw["clock"]),
        press=bool(raw.get("press", True)),
    )


def _edition(name: str, raw: Mapping[str, Any]) -> Edition:
    rules_raw = raw["rules"]
    rules = rules_for(rules_raw["preset"], **rules_raw.get("set", {}))
    ed = Edition(
        name=name,
        title=raw["title"],
        source=raw.get("source", ""),
        variant=raw["variant"],
        rules=rules,
        map=raw["map"],
        start_year=int(raw["start_year"]),
        seasons=dict(raw["seasons"]),
        kinds=dict(raw["kinds"]),
        centers=raw["centers"],
        adjustment_time=raw["adjustment_time"],
        victory=_victory(raw["victory"]),
        shortened_game=bool(raw.get("shortened_game", False)),
        missed_orders=raw.get("missed_orders", "disorder"),
        leaving=raw.get("leaving", "disorder"),
        clock=Clock(**raw["clock"]),
        setups=tuple(_setup(s) for s in raw["setups"]),
        reading_order=tuple(raw.get("reading_order", ())),
    )
    for field, choices in _CHOICES.items():
        value = getattr(ed, field)
        if value not in choices:
            expected = ", ".join(map(repr, choices))
            raise VariantError(f"{name}: {field} {value!r}? (expected {expected})")
    if ed.missed_orders == "disorder" and ed.leaving != "disorder":
        raise VariantError(f"{name}: missed orders are civil disorder, so is leaving")
    if len(set(ed.reading_order)) != len(ed.reading_order):
        raise VariantError(f"{name}: a power twice in the reading order {ed.reading_order}")
    return ed


_CHOICES: Mapping[str, tuple[str, ...]] = {
    "centers": get_args(CentersChange),
    "adjustment_time": get_args(AdjustmentTime),
    "missed_orders": get_args(MissedOrders),
    "leaving": get_args(Leaving),
}
"""The edition's choices, by field: the values it may take (its type's)."""


def _checked(ed: Edition, setup: Setup) -> Setup:
    """``setup``, once its maps are known to fit it: every power of the map is played,
    out or neutral, exactly once. Checked when a setup is chosen, so that a game loads only
    the maps it is played on (the tests choose every setup of every edition)."""
    game_map = load_map(ed.map_name(setup))
    named = [p for g in setup.groups for p in g] + list(setup.out)
    if setup.neutral is not None:
        named.append(setup.neutral.power)
        load_map(setup.neutral.map)
    if sorted(named) != sorted(game_map.powers) or len(setup.groups) != setup.players:
        raise VariantError(
            f"{ed.name} setup {setup.id}: the groups, out and neutral powers must name each "
            f"power of {game_map.name} once ({', '.join(game_map.powers)})"
        )
    unread = set(game_map.powers) - set(ed.reading_order)
    if ed.reading_order and unread:
        raise VariantError(f"{ed.name}: {', '.join(sorted(unread))} not in the reading order")
    return setup


@lru_cache(maxsize=1)
def _declarations() -> Mapping[str, Any]:
    """``data/variants.json``: the variants and the editions as declared (read once, never
    changed)."""
    data: dict[str, Any] = read_json("data", "variants.json")
    return data


@cache  # made whole on first use, one edition at a time (a new game needs one)
def edition(name: str) -> Edition:
    """A declared edition by name: ``classic``, ``1971``, ``grow``, ``conquista``."""
    declared = _declarations()
    raw = declared["editions"].get(name)
    if raw is None:
        raise VariantError(f"unknown edition {name!r}; editions: {', '.join(EDITIONS)}")
    ed = _edition(name, raw)
    if ed.variant not in declared["variants"]:
        raise VariantError(f"edition {ed.name}: unknown variant {ed.variant!r}")
    return ed


def variant_title(name: str) -> str:
    """The title of a declared variant (a board family: ``standard``)."""
    found = _declarations()["variants"].get(name)
    if found is None:
        raise VariantError(f"unknown variant {name!r}; variants: {', '.join(VARIANTS)}")
    return str(found["title"])


EDITIONS: tuple[str, ...] = ("classic", "1971", "grow", "conquista")
VARIANTS: tuple[str, ...] = ("standard",)


def with_overrides(rules: Rules, overrides: Mapping[str, str]) -> Rules:
    """``rules`` with single choices replaced: keys are DATC issue ids (``"4.D.8"``) or
    :class:`Rules` field names (``"dislodged"``)."""
    if not isinstance(overrides, Mapping):
        raise VariantError(
            "rules are a Rules (rules_for('1971')) or single choices "
            f"({{'4.D.8': 'c'}}), not {overrides!r}"
        )
    for key, value in overrides.items():
        if key[:1].isdigit():
            rules = rules.with_choice(key, value)
        elif key in Rules.__dataclass_fields__ and key != "name":
            changed: dict[str, Any] = {key: value}  # made the member in Rules.__post_init__
            rules = replace(rules, name=f"{rules.name}+{key}={value}", **changed)
        else:
            raise VariantError(f"unknown rule option {key!r}")
    return rules
