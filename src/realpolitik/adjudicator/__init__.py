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
from realpolitik.errors import expect
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
    "check_arguments",
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
    try:
        kind = phase.kind
        if kind is PhaseKind.MOVEMENT:
            return adjudicate_movement(
                game_map, position, orders, rules, phase, disorder=disorder, accepted=accepted
            )
        if kind is PhaseKind.RETREATS:
            return adjudicate_retreats(game_map, position, orders, rules, phase)
        return adjudicate_adjustments(game_map, position, orders, rules, phase)
    except (AttributeError, TypeError):  # an argument of the wrong kind? (checked only now:
        check_arguments(game_map, position, phase, rules)  # 3% of a retreat phase)
        expect(orders, Mapping, "orders", "lists of orders by power")
        raise


def check_arguments(game_map: object, position: object, phase: object, rules: object) -> None:
    """Raise a ``TypeError`` naming the first of the core's arguments that is not its kind
    (JSON or text where the core takes a value), and how one is made. The core calls it
    when it fails on an ``AttributeError`` or ``TypeError``, not on every call."""
    expect(game_map, GameMap, "game_map", "load_map('standard')")
    expect(position, Position, "position", "Position.from_json(data, game_map)")
    expect(phase, Phase, "phase", "Phase.parse('S1901M')")
    expect(rules, Rules, "rules", "rules_for('classic')")
