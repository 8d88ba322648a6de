"""A game's settings: edition, seats, deadlines, press rules, bots. Validated on creation
and kept as JSON with the game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from realpolitik.errors import VariantError
from realpolitik.game.editions import EDITIONS, VARIANTS, Edition, Setup, edition
from realpolitik.maps import load_map
from realpolitik.server.errors import BadRequest, Unprocessable

PRESS_RULES = ("full", "public", "none")
"""``full``: private, group and public messages; ``public``: public only; ``none``: no press."""

BOT_KINDS = ("search", "heuristic", "random")
"""The bots a game may use for empty seats (the first is the default; see realpolitik.bots)."""
DRAW_VOTES = ("public", "secret")
MAX_DEADLINE = 14 * 86400


def rulebook_deadlines(edition_name: str, players: int = 7) -> Deadlines:
    """The table's own clock (the 2000 rulebook: 30 minutes of diplomacy before the first
    turn, 15 before the others, 5 of order writing; retreats and adjustments written in the
    writing time; conquista's two players: no diplomacy, only the writing time)."""
    spec = edition(edition_name)
    clock = spec.clock_for(spec.setup(players)) if players in spec.tables() else spec.clock
    minutes = 60
    writing = (clock.writing or 0) * minutes
    return Deadlines(
        diplomacy=(clock.diplomacy or 0) * minutes,
        orders=writing,
        retreats=writing,
        adjustments=writing,
        first_diplomacy=(clock.first_diplomacy or 0) * minutes,
    )


DEADLINE_PRESETS: dict[str, dict[str, int]] = {
    # "rulebook" is the classic edition's clock; a game takes its own edition's clock.
    "rulebook": {
        "diplomacy": 15 * 60,
        "orders": 5 * 60,
        "retreats": 5 * 60,
        "adjustments": 5 * 60,
        "first_diplomacy": 30 * 60,
    },
    "daily": {
        "diplomacy": 86400,
        "orders": 0,
        "retreats": 86400,
        "adjustments": 86400,
        "first_diplomacy": 86400,
    },
    "none": {"diplomacy": 0, "orders": 0, "retreats": 0, "adjustments": 0, "first_diplomacy": 0},
}


@dataclass(frozen=True, slots=True)
class Deadlines:
    """Seconds for each part of a phase; 0 means no time limit (wait until all are ready).
    A movement phase lasts ``diplomacy`` (negotiation) then ``orders`` (order writing);
    ``diplomacy`` 0 with an ``orders`` time is a phase without negotiation, only the writing
    time (conquista's two-player table)."""

    diplomacy: int = 15 * 60
    orders: int = 5 * 60
    retreats: int = 5 * 60
    adjustments: int = 5 * 60
    first_diplomacy: int = 30 * 60


@dataclass(frozen=True, slots=True)
class GameSettings:
    variant: str = "standard"
    edition: str = "classic"
    players: int = 7
    setup: str | None = None
    """The edition's table for ``players`` where it has several (its id); None: the first."""
    deadlines: Deadlines = field(default_factory=Deadlines)
    press: str = "full"
    press_anytime: bool = False
    """Allow messages outside the diplomacy part of movement phases."""
    bots: str | None = BOT_KINDS[0]
    """The bot that fills empty seats at the start (``None``: every seat needs a person)."""
    replace_leavers: bool = True
    """A player who leaves a started game is replaced by the bot (else civil disorder;
    conquista, which has none: the powers have no orders)."""
    public: bool = True
    """Listed in the lobby; anyone may join. Otherwise only with the invitation link."""
    show_names: bool = False
    """Show the players' usernames to everyone (else only to the game's members)."""
    draw_votes: str = "public"
    """``public``: everyone sees who votes for a draw; ``secret``: each sees only their own."""
    last_year: int | None = None
    """The year the players agreed to end the game in (a shortened game: 1971 and grow;
    the power with most units then wins); None: the game is played to its victory."""
    sandbox: bool = False
    """A what-if board: its creator holds every seat, alone (see :data:`SANDBOX`), and may
    take the game back to an earlier phase (:mod:`.sandbox`)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        raw = dict(data)
        raw["deadlines"] = Deadlines(**raw.get("deadlines", {}))
        return cls(**raw)

    def validate(self) -> GameSettings:
        if self.edition not in EDITIONS:
            raise BadRequest(
                f"unknown edition {self.edition!r} (expected one of {', '.join(EDITIONS)})"
            )
        if self.variant not in VARIANTS:
            raise BadRequest(
                f"unknown variant {self.variant!r} (expected one of {', '.join(VARIANTS)})"
            )
        spec = edition(self.edition)
        if spec.variant != self.variant:
            raise BadRequest(
                f"the {self.edition} edition is played on {spec.variant}, not {self.variant!r}"
            )
        tables = spec.tables()
        if self.players not in tables:
            raise BadRequest(
                f"the {self.edition} edition has tables for {', '.join(map(str, tables))} "
                f"players, not {self.players}"
            )
        if self.press not in PRESS_RULES:
            raise BadRequest(f"press must be one of {', '.join(PRESS_RULES)}, not {self.press!r}")
        try:
            table = spec.setup(self.players, self.setup)
        except VariantError as e:
            raise BadRequest(str(e)) from None
        if table.extra:
            raise BadRequest(f"setup {self.setup!r} is not one of the {self.edition} tables")
        if not table.press and self.press != "none":
            raise BadRequest(
                f"the {self.edition} edition for {self.players} players is played without "
                f"diplomacy ({table.title}): press must be none, not {self.press!r}"
            )
        if self.draw_votes not in DRAW_VOTES:
            raise BadRequest(f"draw_votes must be one of {', '.join(DRAW_VOTES)}")
        if self.bots is not None and self.bots not in BOT_KINDS:
            raise BadRequest(f"bots must be one of {', '.join(BOT_KINDS)} or null")
        for name, value in asdict(self.deadlines).items():
            if not 0 <= value <= MAX_DEADLINE:
                raise BadRequest(
                    f"deadline {name} must be 0 (none) to {MAX_DEADLINE} seconds, not {value}",
                    code="deadline_range",
                    values={"hours": MAX_DEADLINE // 3600, "days": MAX_DEADLINE // 86400},
                )
        if self.last_year is not None:
            self._check_last_year(spec, table)
        if self.sandbox:
            clashes = [
                f"{name} must be {_said(value)}, not {_said(getattr(self, name))}"
                for name, value in SANDBOX.items()
                if getattr(self, name) != value
            ]
            if clashes:
                raise BadRequest(f"a sandbox is played alone: {'; '.join(clashes)}")
        return self

    def _check_last_year(self, spec: Edition, table: Setup) -> None:
        year = self.last_year
        if not isinstance(year, int) or isinstance(year, bool):
            raise Unprocessable(f"last_year must be a year, not {_said(year)}")
        try:
            spec.check_last_year(year, table)
        except ValueError as exc:
            years = spec.last_years(table)
            if not years:
                raise Unprocessable(f"{exc}: last_year must be null") from None
            raise Unprocessable(
                f"last_year: {exc}", code="last_year_range",
                values={"first": years[0], "last": years[-1]},
            ) from None  # fmt: skip

    def phase_times(
        self, phase: str, now: float, *, first: bool
    ) -> tuple[float | None, float | None]:
        """``(press_until, deadline_at)`` of a phase starting ``now``; ``None`` = no limit."""
        d = self.deadlines
        kind = phase[-1]
        if kind == "M":
            if d.diplomacy == 0 and d.orders == 0:  # no limit: until everyone is ready
                return None, None
            talk = d.first_diplomacy if first and d.first_diplomacy else d.diplomacy
            return now + talk, now + talk + d.orders
        limit = d.retreats if kind == "R" else d.adjustments
        return now, (now + limit if limit else None)


SANDBOX: dict[str, Any] = {
    "bots": None,
    "public": False,
    "press": "none",
    "press_anytime": False,
    "replace_leavers": False,
    "deadlines": Deadlines(0, 0, 0, 0, 0),
}
"""A sandbox's settings: no bots (its creator holds every seat), unlisted, no press, no
deadline (a phase is processed when its creator has said every power is ready)."""


def _said(value: Any) -> str:
    if isinstance(value, Deadlines):
        return "none" if not any(asdict(value).values()) else "a time limit"
    return "null" if value is None else json.dumps(value)


def who_plays(spec: Edition, table: Setup) -> dict[str, Any]:
    """Who plays what at ``table``: ``players``, ``groups`` (one player's powers each),
    ``out`` (played by nobody: their units only hold) and ``absent`` (not on the table's
    board: grow's smaller maps)."""
    present = {p for g in table.groups for p in g} | set(table.out)
    if table.neutral is not None:
        present.add(table.neutral.power)
    return {
        "players": table.players,
        "groups": [list(g) for g in table.groups],
        "out": list(table.out),
        "absent": [p for p in load_map(spec.map).powers if p not in present],
    }


def table_of(settings: Mapping[str, Any]) -> dict[str, Any] | None:
    """:func:`who_plays` for a game's stored settings (``None`` if they name no table)."""
    try:
        spec = edition(str(settings.get("edition", "classic")))
        return who_plays(spec, spec.setup(settings.get("players"), settings.get("setup")))
    except ValueError:
        return None
