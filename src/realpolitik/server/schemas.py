"""Wire schemas of the JSON API (kept apart from the engine's types)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

NUL = "\x00"


PowerName = Annotated[str, Field(min_length=1, max_length=20)]
"""A power's name (``FRANCE``): one longer than any is refused by its length, never said
back whole in an error."""

UnitName = Annotated[str, Field(min_length=1, max_length=40)]
"""A unit as a player names it (``A GAL``, ``GAL``, ``F Stp/cs``)."""


class Strict(BaseModel):
    """A request body: no field but those named, each of its own JSON type (``true`` is no
    number of seconds, ``"3"`` no count of players); no text holding the NUL character
    (PostgreSQL cannot store one, and no name, order or message needs it), nor a lone
    surrogate (``"\\udcff"`` in JSON: no unicode text, it cannot be stored either)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(text, str) and NUL in text for text in texts):
            raise ValueError("text may not hold the NUL character (U+0000)")
        if any(isinstance(text, str) and not _unicode(text) for text in texts):
            raise ValueError("text must be unicode: it may not hold a lone surrogate")
        return value


def _unicode(text: str) -> bool:
    """Whether ``text`` is unicode text (no lone surrogate: UTF-8 cannot write one)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class AccountIn(Strict):
    username: str = Field(min_length=1, max_length=60, examples=["alice"])
    password: str = Field(min_length=1, max_length=400)
    language: Literal["en", "es", "fr", "pt"] = "en"


class LoginIn(Strict):
    username: str = Field(min_length=1, max_length=60)
    password: str = Field(min_length=1, max_length=400)


class PasswordIn(Strict):
    current_password: str = Field(min_length=1, max_length=400)
    new_password: str = Field(min_length=1, max_length=400)


class LanguageIn(Strict):
    language: Literal["en", "es", "fr", "pt"]


TimeZone = Annotated[
    str | None,
    Field(
        max_length=100,
        examples=["Europe/Madrid"],
        description="the IANA time zone deadlines in mail are written in (the browser's; "
        "null: as it is; one the server does not know: 400)",
    ),
]


class EmailIn(Strict):
    email: str | None = Field(
        max_length=1000,
        examples=["alice@example.org"],
        description="null or empty: no address (checked: at most 254 characters; one @; "
        "before it letters, digits and RFC 5322's marks; after it names with a dot between)",
    )
    time_zone: TimeZone = None


class ConfirmIn(Strict):
    token: str = Field(min_length=1, max_length=100)


class NoticesIn(Strict):
    """Turn a kind of notice on or off (null: as it is)."""

    phase: bool | None = None
    deadline: bool | None = None
    time_zone: TimeZone = None


class UserOut(BaseModel):
    id: int
    username: str
    language: str


class NoticesOut(BaseModel):
    phase: bool
    deadline: bool


class MeOut(UserOut):
    """The user, with what only they see: their address and their notices; ``mail``:
    whether the server sends mail at all (else it offers no address)."""

    mail: bool

    email: str | None
    email_confirmed: bool
    notices: NoticesOut
    time_zone: str | None = Field(description="the zone deadlines in mail are in (null: UTC)")


class SessionOut(BaseModel):
    token: str
    user: UserOut


class DeadlinesIn(Strict):
    """Seconds; 0 = no time limit."""

    diplomacy: int = Field(default=15 * 60, ge=0)
    orders: int = Field(default=5 * 60, ge=0)
    retreats: int = Field(default=5 * 60, ge=0)
    adjustments: int = Field(default=5 * 60, ge=0)
    first_diplomacy: int = Field(default=30 * 60, ge=0)


class GameIn(Strict):
    name: str = Field(
        examples=["Friday game"],
        description="refused, with a code the page says, if empty, too long or holding a"
        " tab, line break or invisible character",
    )
    variant: str = Field(default="standard", max_length=20)
    edition: str = Field(default="classic", max_length=20)
    players: int = Field(default=7, ge=2, le=7)
    setup: str | None = Field(
        default=None,
        max_length=20,
        examples=["3b"],
        description="the edition's table for this many players where it has more than one "
        "(/api/meta 'setups': 1971's and conquista's 3b); null: the first",
    )
    deadlines: DeadlinesIn | Literal["rulebook", "daily", "none"] = "rulebook"
    press: Literal["full", "public", "none"] | None = Field(
        default=None,
        description="null: the table's own (full; none for a table without diplomacy)",
    )
    press_anytime: bool = False
    bots: Literal["search", "heuristic", "random"] | None = "search"
    replace_leavers: bool = True
    public: bool = True
    show_names: bool = False
    """Show the players' usernames to everyone (else only to the game's members)."""
    draw_votes: Literal["public", "secret"] = "public"
    """Who sees the draw votes: everyone, or each player only their own."""
    join: bool = True
    start: bool = False
    """Start at once (bots take the empty seats)."""
    last_year: int | None = Field(
        default=None,
        examples=[1910],
        description="a shortened game (1971 and grow): the year agreed as the last; at its "
        "end the power with most units wins. From the table's first year (a game of one "
        "year) to 100 years on; "
        "null: played to victory",
    )
    sandbox: bool = Field(
        default=False,
        description="a what-if board: the creator holds every power alone and may go back "
        "to an earlier phase; it starts at once, unlisted, without bots, press or deadlines "
        "(options left out take these values; one given that contradicts them: 400)",
    )


class JoinIn(Strict):
    code: str | None = Field(default=None, max_length=60)
    power: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        examples=["FRANCE"],
        description="a started game: take the seat that plays this power, a bot's or one"
        " left empty (its other powers too); none: a free seat",
    )


class OrdersIn(Strict):
    power: str = Field(min_length=1, max_length=20)
    orders: list[str] = Field(
        examples=[["A PAR - BUR", "F BRE - MAO"]],
        description="refused, with a code the page says, past the most orders given at once;"
        " a line of several orders as the rulebooks print them ('E Par-Bor; E Mar-Esp') is"
        " read order by order",
    )
    language: Literal["en", "es", "fr", "pt"] = "en"
    merge: bool = False
    """Replace only the orders of the units named (else all of the power's orders)."""
    ready: bool | None = None
    phase: str | None = Field(
        default=None,
        max_length=10,
        examples=["S1901M"],
        description="the phase these orders are for: if the game has moved on (a late "
        "submission), 409 and nothing stored, instead of judging them against the next phase",
    )
    accept: list[UnitName] | None = Field(
        default=None,
        max_length=34,
        examples=[["A GAL"]],
        description="Conquista: the other powers' units whose support this power accepts "
        "this phase ('A GAL' or 'GAL'); replaces the list given before; null: keep it.",
    )
    ally: list[PowerName] | None = Field(
        default=None,
        max_length=7,
        examples=[["FRANCE"]],
        description="Conquista: declare, with this phase's orders, an alliance with these "
        "powers ([]: leave one's alliance); null: keep what was declared.",
    )


class ReadyIn(Strict):
    power: str = Field(min_length=1, max_length=20)
    ready: bool = True
    phase: str | None = Field(
        default=None,
        max_length=10,
        examples=["S1901M"],
        description="the phase the player says ready for: if the game has moved on (a late "
        "click), 409 and nothing changed, instead of marking the next phase ready",
    )


class MessageIn(Strict):
    sender: str = Field(min_length=1, max_length=20)
    recipients: list[PowerName] = Field(default_factory=list, max_length=7)
    """Empty: a public message."""
    body: str = Field(min_length=1, max_length=10000)


class DrawIn(Strict):
    power: str = Field(min_length=1, max_length=20)
    agree: bool = True


class RollbackIn(Strict):
    phase: str = Field(
        min_length=1,
        max_length=10,
        examples=["F1901M"],
        description="a phase of the game's history (or the current one): play it again",
    )


class ForkIn(Strict):
    phase: str | None = Field(
        default=None,
        min_length=1,
        max_length=10,
        examples=["F1903M"],
        description="a phase of the game's history or the current one (default): the "
        "sandbox starts at its position",
    )


class PowerIn(Strict):
    power: str = Field(min_length=1, max_length=20)
