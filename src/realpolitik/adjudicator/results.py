"""What adjudication returns: an :class:`OrderResult` per order, with a
:class:`~realpolitik.adjudicator.reasons.Reason` where it needs one, as data.

The words are the DATC 3.2 vocabulary: a hold *stands* or is *dislodged* (*destroyed* when it
has nowhere to retreat); a move, retreat, build or disband *succeeds* or *fails*; a support is
*given* or *cut*; a convoy is *available* or *disrupted*; an order is *illegal* (the rules
forbid it on this board; the unit holds) or *invalid* (legal, but it matches no other order).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from realpolitik.adjudicator.reasons import Reason
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.vocab import Power, Unit


class OrderResult(Enum):
    """What became of one order, in the DATC 3.2 word (the value, as the JSON contract
    writes it): see the module's docstring for which orders take which words."""

    STANDS = "stands"
    DISLODGED = "dislodged"
    DESTROYED = "destroyed"
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    GIVEN = "given"
    CUT = "cut"
    AVAILABLE = "available"
    DISRUPTED = "disrupted"
    ILLEGAL = "illegal"
    INVALID = "invalid"

    def __str__(self) -> str:
        return self.value


class Outcome(NamedTuple):
    """The result of one order, and why when it needs saying (a bounce, a cut support, an
    illegal order...; ``str(reason)`` is the English). ``fate`` is DISLODGED or DESTROYED
    when the ordered unit was dislodged in a movement phase (``None`` otherwise);
    ``implied`` marks the hold given to a unit that had no order."""

    power: Power
    order: Order
    result: OrderResult
    reason: Reason | None = None
    fate: OrderResult | None = None
    implied: bool = False

    def to_json(self, order_text: str | None = None) -> dict[str, Any]:
        """The result in the ``adjudicate`` contract's shape: ``order``, ``result``,
        ``reason`` (English, ``""`` for none), and ``unit`` / ``implied`` when they apply.
        ``order_text`` replaces the
        English short notation (e.g. the order written in another language)."""
        entry: dict[str, Any] = {
            "order": str(self.order) if order_text is None else order_text,
            "result": self.result._value_,  # ``value`` is a Python property: one per order
            "reason": "" if self.reason is None else str(self.reason),
        }
        if self.fate is not None:
            entry["unit"] = self.fate._value_
        if self.implied:
            entry["implied"] = True
        return entry

    def datc(self) -> list[str]:
        """The DATC 3.2 resolution list, e.g. ``["fails", "dislodged"]``."""
        if self.fate is not None:
            if self.result in (OrderResult.STANDS, OrderResult.DISLODGED, OrderResult.DESTROYED):
                return [self.fate.value]
            return [self.result.value, self.fate.value]
        return [self.result.value]


class Resolution(NamedTuple):
    """A processed phase: outcomes in the order given (implied holds last) and the position
    after it. ``removed`` lists units disbanded by the rules (no retreat possible, failed or
    missing retreat, civil-disorder removal)."""

    phase: Phase
    outcomes: tuple[Outcome, ...]
    position: Position
    removed: tuple[Unit, ...] = ()
    civil_disorder: tuple[Unit, ...] = ()

    def outcome_of(self, order: Order) -> Outcome:
        for outcome in self.outcomes:
            if outcome.order == order:
                return outcome
        raise KeyError(f"no outcome for {order}")
