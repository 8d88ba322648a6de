"""What one power (or an observer) may see of a game, as JSON-able data.

Everything on the board and in the processed history is public; a power's pending orders,
accepted supports, alliance declaration, draw vote and messages are seen by that power only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from realpolitik.adjudicator.results import Outcome

if TYPE_CHECKING:
    from realpolitik.game import Game
    from realpolitik.game.editions import Edition
    from realpolitik.game.records import PhaseRecord

__all__ = ["game_view", "outcome_view", "record_view"]


def outcome_view(outcome: Outcome) -> dict[str, Any]:
    """One order's result in the shape of the ``adjudicate`` contract."""
    return outcome.to_json()


def results_by_power(
    outcomes: Iterable[Outcome], edition: Edition | None = None
) -> dict[str, list[dict[str, Any]]]:
    """The results per power, the powers in the order ``edition``'s table reads them out
    (without one, alphabetical)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for outcome in outcomes:
        out.setdefault(outcome.power, []).append(outcome_view(outcome))
    powers = sorted(out) if edition is None else edition.reading(out)
    return {power: out[power] for power in powers}


def record_view(game: Game, record: PhaseRecord) -> dict[str, Any]:
    """A processed phase: its orders and results are public."""
    return {
        "phase": str(record.phase),
        "name": game.phase_name(record.phase),
        "skipped": record.skipped,
        "orders": {p: [str(o) for o in orders] for p, orders in record.orders.items()},
        "results": results_by_power(record.outcomes, game.edition),
        "civil_disorder": sorted(record.disorder),
        "events": [e.to_json() for e in record.events],
    }


def game_view(game: Game, power: str | None) -> dict[str, Any]:
    shape = game.position.to_json()
    status = game.status
    game_map = game.game_map
    neutral = game.setup.neutral
    toss = status.coin_toss
    first = not any(r.phase.is_movement for r in game.history)
    view: dict[str, Any] = {
        "variant": game.variant,
        "edition": game.edition.name,
        "title": game.edition.title,
        "setup": game.setup.id,
        "rules": game.rules.name,
        "map": game_map.name,
        "phase": str(game.phase),
        "phase_name": game.phase_name(),
        "power": power,
        "player": None if power is None else game.controller(power),
        "players": {name: list(powers) for name, powers in game.players.items()},
        "powers": list(game.powers),
        "units": shape["units"],
        "centers": shape["centers"],
        "dislodged": shape["dislodged"],
        "contested": shape["contested"],
        "center_counts": {p: len(game.position.centers_of(p)) for p in game.powers},
        "adjustments": game.builds_due(),
        "submitted": sorted(game.pending_orders()),
        "waiting_for": game.waiting_for(),
        "civil_disorder": sorted(game.civil_disorder),
        "out": list(game.setup.out),
        "neutral": neutral.power if neutral and game.controller(neutral.power) is None else None,
        "coin_toss": None if toss is None else {"power": toss.power, "player": toss.player,
                                                "phase": str(toss.phase), "from": toss.from_year},
        "alliances": [a.to_json() for a in status.alliances],
        "victory": game.edition.victory_for(game.setup).describe(game_map),
        "last_year": game.last_year,
        "clock": game.edition.clock_for(game.setup).for_phase(game.phase, first) if game.clock
        else None,
        "press": game.setup.press,  # False: a table without diplomacy
        "history": [record_view(game, r) for r in game.history],
        "is_over": game.is_over,
        "winners": list(game.winners),
        "result": None if game.result is None else game.result.to_json(),
    }  # fmt: skip
    if power is not None:
        view["orders"] = {power: [str(o) for o in game.orders(power)]}
        view["accepted"] = sorted(game.pending_accepted().get(power, ()))
        view["declared"] = list(game.pending_declared().get(power, ()))
        view["draw_vote"] = game.votes.get(power)
    else:
        view["orders"] = {}
    view["messages"] = [
        {"phase": str(m.phase), "sender": m.sender, "recipient": m.recipient, "text": m.text}
        for m in game.messages
        if m.recipient == "GLOBAL" or (power is not None and power in (m.sender, m.recipient))
    ]
    return view
