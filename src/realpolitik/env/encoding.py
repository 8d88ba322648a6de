"""A board as arrays: the observation of a position, the action mask of a power's legal
orders, and actions back to orders (the layout is documented in :mod:`realpolitik.env`)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from struct import pack
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from realpolitik.env.spaces import OrderSpace
from realpolitik.errors import whole_number
from realpolitik.maps.model import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.position import Position
from realpolitik.vocab import ARMY, Location, Power, Province, Unit

SEASONS = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}
KINDS = {PhaseKind.MOVEMENT: 0, PhaseKind.RETREATS: 1, PhaseKind.ADJUSTMENTS: 2}
Slots = dict[int, Sequence[Order]]
"""A power's legal orders by province index (only the provinces it may order)."""


class Encoding:
    """The arrays of one board: provinces in sorted order (index ``k`` is
    ``provinces[k]``), powers numbered from 1 in the board's order (0: nobody), and order
    lists cut at ``max_orders`` (index 0 of a province is *no order*, index ``i`` its
    ``i``-th legal order)."""

    def __init__(self, game_map: GameMap, agents: Sequence[Power], max_orders: int) -> None:
        max_orders = whole_number(max_orders, "max_orders", least=1)
        self.game_map = game_map
        self.provinces: tuple[Province, ...] = tuple(sorted(game_map.provinces))
        self.powers: tuple[Power, ...] = tuple(game_map.powers)
        self.agents = tuple(agents)
        self.max_orders = max_orders
        self.choices = max_orders + 1
        self.index = {p: k for k, p in enumerate(self.provinces)}
        self.code = {p: k + 1 for k, p in enumerate(self.powers)}
        self.where: dict[Location, tuple[int, int]] = {}  # location: (province index, coast)
        for prov, info in game_map.provinces.items():
            self.where[prov] = (self.index[prov], 0)
            for c, coast in enumerate(info.coasts, start=1):
                self.where[f"{prov}/{coast}"] = (self.index[prov], c)
        n = len(self.provinces)
        self._centres = bytes(0 if game_map.provinces[p].center else 255 for p in self.provinces)
        mask = bytearray(n * self.choices)
        mask[:: self.choices] = b"\x01" * n  # no order: always allowed
        self._mask = bytes(mask)
        self._ones = b"\x01" * self.choices
        self._counts = array("h", bytes(2 * n))
        codes = len(self.powers)
        unit_space = spaces.Box(0, max(codes, 2, self._most_coasts()), (n, 3), np.int8)
        self.observation_space = spaces.Dict(
            {
                "units": unit_space,
                "dislodged": unit_space,
                "centres": spaces.Box(-1, codes, (n,), np.int8),
                "phase": spaces.Box(np.array([0, 0, 0]), np.array([9999, 2, 2]), (3,), np.int16),
                "adjustments": spaces.Box(-n, n, (codes,), np.int8),
                "power": spaces.Discrete(codes + 1),
                "action_mask": spaces.MultiBinary((n, self.choices)),
                "orders": spaces.Box(0, max_orders, (n,), np.int16),
            }
        )
        self.action_space = OrderSpace(n, self.choices)

    def _most_coasts(self) -> int:
        return max((len(i.coasts) for i in self.game_map.provinces.values()), default=0)

    # --- observations --------------------------------------------------------------------------
    def shared_arrays(
        self, phase: Phase, position: Position, due: Mapping[Power, int]
    ) -> dict[str, NDArray[np.int8] | NDArray[np.int16]]:
        """What every power sees alike (read-only arrays, shared by the powers'
        observations): units, dislodged units, centres, phase, adjustments due."""
        n = len(self.provinces)
        units = self._units(position.units.values(), n)
        dislodged = self._units([d.unit for d in position.dislodged.values()], n)
        centres = bytearray(self._centres)
        index, code = self.index, self.code
        for prov, owner in position.centers.items():
            centres[index[prov]] = code.get(owner, 0)
        adjust = bytearray(len(self.powers))
        for power, count in due.items():
            if power in code:
                adjust[code[power] - 1] = count & 255  # as int8
        when = pack("=3h", phase.year, SEASONS[phase.season], KINDS[phase.kind])
        return {
            "units": units,
            "dislodged": dislodged,
            "centres": np.frombuffer(bytes(centres), np.int8),
            "phase": np.frombuffer(when, np.int16),
            "adjustments": np.frombuffer(bytes(adjust), np.int8),
        }

    def _units(self, units: Iterable[Unit], n: int) -> NDArray[np.int8]:
        cells = bytearray(n * 3)
        where, code = self.where, self.code
        for unit in units:
            k, coast = where[unit.location]
            k *= 3
            cells[k] = code.get(unit.power, 0)
            cells[k + 1] = 1 if unit.type is ARMY else 2
            cells[k + 2] = coast
        return np.frombuffer(bytes(cells), np.int8).reshape(n, 3)

    # --- actions -------------------------------------------------------------------------------
    def slots(self, keyed: Mapping[str, Sequence[Order]]) -> Slots:
        """A power's legal orders (``Game.legal_orders``' shape) by province index, each list
        cut at ``max_orders`` (the waive of an adjustment phase is *no order*)."""
        where, cut = self.where, self.max_orders
        return {
            where[key][0]: orders if len(orders) <= cut else orders[:cut]
            for key, orders in keyed.items()
            if orders and key != "WAIVE"
        }

    def mask(self, slots: Slots) -> tuple[NDArray[np.int8], NDArray[np.int16]]:
        """The action mask of these slots (row ``k`` allows 0 and the indices of province
        ``k``'s orders) and the count of orders per province."""
        cells = bytearray(self._mask)
        counts = array("h", self._counts)
        width, ones = self.choices, self._ones
        for k, orders in slots.items():
            start, listed = k * width, len(orders)
            cells[start : start + listed + 1] = ones[: listed + 1]
            counts[k] = listed
        mask = np.frombuffer(cells, np.int8).reshape(len(self.provinces), width)
        return mask, np.frombuffer(counts, np.int16)

    def decode(
        self, power: Power, slots: Slots, action: object, strict: bool = True
    ) -> list[Order]:
        """The orders an action picks: a ``ValueError`` naming the province for an index
        that is not allowed (not ``strict``: read as 0), and for an action of the wrong
        shape."""
        given = _indices(power, action, len(self.provinces))
        out: list[Order] = []
        picks = given.tolist()
        for k in given.nonzero()[0].tolist():
            orders = slots.get(k)
            i = picks[k]
            if not strict and (orders is None or not 0 < i <= len(orders)):
                continue
            if orders is None:
                raise ValueError(
                    f"{power}: order index {i} for {self.provinces[k]}: no order there"
                )
            if not 0 < i <= len(orders):
                raise ValueError(
                    f"{power}: order index {i} for {self.provinces[k]}, which has "
                    f"{len(orders)} legal orders (0: no order)"
                )
            out.append(orders[i - 1])
        return out

    def encode(self, slots: Slots, orders: Sequence[Order]) -> NDArray[np.int64]:
        """The action that gives ``orders`` (each one of the slots' orders; others are left
        out: ``0``)."""
        action = np.zeros(len(self.provinces), np.int64)
        wanted = set(orders)
        for k, listed in slots.items():
            for i, order in enumerate(listed, start=1):
                if order in wanted:
                    action[k] = i
                    break
        return action


def _indices(power: Power, action: object, n: int) -> NDArray[np.integer[Any]]:
    try:
        given = np.asarray(action)
    except (TypeError, ValueError):
        raise ValueError(f"{power}: an action is {n} order indices, not {action!r}") from None
    if given.shape != (n,) or given.dtype.kind not in "iu":
        raise ValueError(
            f"{power}: an action is {n} integer order indices (one per province), "
            f"not an array of shape {given.shape} and type {given.dtype}"
        )
    return given
