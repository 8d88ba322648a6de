"""The random bot: one legal order per unit, chosen uniformly (the tournament's baseline)."""

from __future__ import annotations

import random

from realpolitik.bots.base import LegalOrders, PowerView
from realpolitik.orders import Order


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        if view.phase.is_adjustments:
            due = view.due()
            keys = [k for k in legal if k != "WAIVE" and legal[k]]
            self._rng.shuffle(keys)
            return [self._rng.choice(list(legal[k])) for k in keys[: abs(due)]]
        return [self._rng.choice(list(options)) for options in legal.values() if options]
