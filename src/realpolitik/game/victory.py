"""How a game ends: a victory by the edition's condition, a draw, a concession, or the end
of an agreed last year (the shortened game of 1971 III and grow).

Pure functions of the position and who plays what; :class:`realpolitik.game.Game` calls
them after every processed phase and records the :class:`GameResult`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from realpolitik.game.calendar import ordinal
from realpolitik.game.editions import Victory
from realpolitik.maps.model import GameMap
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.vocab import Power

__all__ = ["Alliance", "GameResult", "check_victory", "form_alliances", "most_units"]


@dataclass(frozen=True, slots=True)
class Alliance:
    """A declared alliance (conquista): its members and the phase it was formed in."""

    members: tuple[Power, ...]
    formed: Phase

    def age_years(self, now: Phase) -> float:
        return (ordinal(now) - ordinal(self.formed)) / 2

    def to_json(self) -> dict[str, Any]:
        return {"members": list(self.members), "formed": str(self.formed)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Alliance:
        return cls(tuple(data["members"]), Phase.parse(data["formed"]))


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: ``kind`` is ``victory``, ``draw``, ``concession`` or ``shortened``;
    ``winners`` the powers that won or share the draw, ``players`` their players; ``phase``
    the last phase processed (or the current one for a draw or concession)."""

    kind: str
    winners: tuple[Power, ...]
    players: tuple[str, ...]
    phase: Phase
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winners": list(self.winners),
            "players": list(self.players),
            "phase": str(self.phase),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            str(data["kind"]),
            tuple(data["winners"]),
            tuple(data["players"]),
            Phase.parse(data["phase"]),
            str(data["reason"]),
        )


def _tally(victory: Victory, position: Position) -> Counter[Power]:
    """What the condition counts (units or supply centres), per power."""
    if victory.count == "units":
        return Counter(u.power for u in position.units.values())
    return Counter(position.centers.values())


def _count(tally: Mapping[Power, int], powers: Sequence[Power]) -> int:
    """The count of a candidate: the sum of its powers' counts (each power once)."""
    if len(powers) == 1:  # most candidates: no generator to run
        return tally.get(powers[0], 0)
    return sum(tally.get(p, 0) for p in set(powers))


def check_victory(
    victory: Victory,
    game_map: GameMap,
    position: Position,
    teams: Mapping[str, Sequence[Power]],
    alliances: Sequence[Alliance],
    phase: Phase,
) -> tuple[tuple[Power, ...], str] | None:
    """The winners and the reason, if the condition is met after ``phase``.

    ``teams``: for each player, the powers they play now (only played powers can win).
    Candidates are powers (``per == "power"``) or players' power sets, and old enough
    alliances; the biggest qualifying count wins, equal counts share."""
    needed = victory.needed(game_map)
    tally = _tally(victory, position)
    alone = victory.per != "player" and victory.alliance_years is None
    if alone and max(tally.values(), default=0) < needed:
        return None  # the usual case: no power has enough, whoever plays it
    what = "supply centres" if victory.count == "centers" else "units"
    candidates: list[tuple[tuple[Power, ...], str]] = []
    if victory.per == "player":
        candidates += [(tuple(ps), _player(name)) for name, ps in teams.items() if ps]
    else:
        candidates += [((p,), p) for ps in teams.values() for p in ps]
    if victory.alliance_years is not None:
        able = {p for ps in teams.values() for p in ps}  # a conceded member cannot win
        for alliance in alliances:
            if alliance.age_years(phase) >= victory.alliance_years and able.issuperset(
                alliance.members
            ):
                names = "+".join(alliance.members)
                candidates.append((alliance.members, f"the alliance {names}"))
    scored = [(_count(tally, ps), ps, name) for ps, name in candidates]
    qualified = [s for s in scored if s[0] >= needed]
    if not qualified:
        return None
    best = max(s[0] for s in qualified)
    top = [s for s in qualified if s[0] == best]
    winners = tuple(sorted({p for _, ps, _ in top for p in ps}))
    names = " and ".join(name for _, _, name in top)
    return winners, f"{names}: {best} {what} (needed {needed})"


def _player(name: str) -> str:
    """A player as a reason names them: "player bob"; a table dealt by count names its
    players "player 1", "player 2", which say it already."""
    return name if name.startswith("player ") else f"player {name}"


def most_units(
    position: Position, teams: Mapping[str, Sequence[Power]], per: str
) -> tuple[tuple[Power, ...], str]:
    """The shortened game's winners: most units on the board (per power or per player)."""
    groups = (
        [(tuple(ps), _player(name)) for name, ps in teams.items() if ps]
        if per == "player"
        else [((p,), p) for ps in teams.values() for p in ps]
    )
    counts = [(sum(1 for u in position.units.values() if u.power in g), g, n) for g, n in groups]
    if not counts:
        return (), "nobody is left"
    best = max(c for c, _, _ in counts)
    winners = tuple(sorted(p for c, g, _ in counts if c == best for p in g))
    names = " and ".join(sorted(n for c, _, n in counts if c == best))
    return winners, f"{names}: most units on the board at the agreed end ({best})"


def form_alliances(
    alliances: Sequence[Alliance], declared: Mapping[Power, tuple[Power, ...]], phase: Phase
) -> tuple[Alliance, ...]:
    """Conquista: the alliances after a phase's declarations. An alliance forms when each
    member declared exactly it; it replaces its members' old alliances; a power declaring
    no partners leaves (its alliance ends). An alliance declared again by the same members
    goes on from the turn it was formed: its age counts from then."""
    leaving = {p for p, members in declared.items() if not members}
    existing = {a.members: a for a in alliances}
    formed = sorted({m for m in declared.values() if m and all(declared.get(p) == m for p in m)})
    for members in formed:
        leaving |= set(members)
    kept = [a for a in alliances if not leaving & set(a.members)]
    return (*kept, *(existing.get(members) or Alliance(members, phase) for members in formed))
