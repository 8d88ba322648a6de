"""The action space: one order index per province, sampled under a two-dimensional mask."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.spaces import MultiDiscrete
from numpy.typing import NDArray


class OrderSpace(MultiDiscrete):
    """``MultiDiscrete([choices] * provinces)``: entry ``k`` of an action is the index of the
    order chosen for province ``k`` (see :mod:`realpolitik.env`).

    :meth:`sample` also takes the observation's ``action_mask`` as it is, an ``int8`` array of
    shape ``(provinces, choices)``, besides gymnasium's tuple of one mask per province: each
    entry is drawn uniformly among its allowed indices (index 0 when none is allowed)."""

    def __init__(self, provinces: int, choices: int, seed: int | None = None) -> None:
        super().__init__(np.full(provinces, choices, dtype=np.int64), dtype=np.int64, seed=seed)
        self.provinces, self.choices = provinces, choices

    def sample(
        self,
        mask: Any = None,
        probability: Any = None,
    ) -> NDArray[np.int64]:
        if isinstance(mask, np.ndarray) and mask.ndim == 2:
            if mask.shape != (self.provinces, self.choices):
                raise ValueError(
                    f"action mask of shape {mask.shape}; expected {(self.provinces, self.choices)}"
                )
            # a uniform draw per row among its allowed entries: one random number a row (a
            # key per entry, the largest winning, drew 257 a row and cost more than the step)
            allowed = np.flatnonzero(mask != 0)  # row-major: each row's entries in order
            counts = np.bincount(allowed // self.choices, minlength=self.provinces)
            firsts = np.cumsum(counts) - counts
            picks = (self.np_random.random(self.provinces) * counts).astype(np.int64)
            found: NDArray[np.int64] = np.zeros(self.provinces, np.int64)
            some = counts > 0
            found[some] = allowed[(firsts + picks)[some]] % self.choices
            return found
        drawn: NDArray[np.int64] = super().sample(mask=mask, probability=probability)
        return drawn
