"""The pure adjudicator: ``adjudicate(map, position, orders, rules, phase) -> Resolution``.

No I/O, no clock, no randomness; inputs are not changed. The phase's kind picks the step:
movement (:mod:`.movement`), retreats (:mod:`.retreats`), adjustments (:mod:`.adjustments`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.adjustments import adjudicate_adjustments, builds_due
from realpolitik.adjudicator.movement import adjudicate_movement
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.adjudicator.retreats import adjudicate_retreats, retreat_options
from realpolitik.maps.model import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import Power, Province

__all__ = [
    "OrderResult",
    "Outcome",
    "Reason",
    "Resolution",
    "adjudicate",
    "builds_due",
    "retreat_options",
]


def adjudicate(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
    *,
    disorder: Collection[Power] = (),
    accepted: Collection[tuple[Power, Province]] = (),
) -> Resolution:
    """Resolve one phase. Units without an order hold (movement) or are disbanded (retreats);
    missing removals follow the civil-disorder rule (adjustments).

    ``disorder``: powers in civil disorder (DATC 4.D.9 a: their units get no hold support).
    ``accepted``: ``(power, province)`` pairs, the supports of the unit in ``province`` that
    ``power`` accepts for its units (``rules.foreign_support == "acknowledged"``)."""
    kind = phase.kind
    if kind is PhaseKind.MOVEMENT:
        return adjudicate_movement(
            game_map, position, orders, rules, phase, disorder=disorder, accepted=accepted
        )
    if kind is PhaseKind.RETREATS:
        return adjudicate_retreats(game_map, position, orders, rules, phase)
    return adjudicate_adjustments(game_map, position, orders, rules, phase)
