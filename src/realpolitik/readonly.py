"""Read-only mappings: the mappings held by immutable values (positions, boards, editions,
processed phases), so that nothing shared between games can be changed by one of them.

    >>> from realpolitik.readonly import frozen_mapping
    >>> seasons = frozen_mapping({"S": "Spring"})
    >>> seasons["S"] = "Summer"
    Traceback (most recent call last):
    ...
    TypeError: an immutable value's mapping cannot be changed: build a new value
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ReadOnlyDict(dict[Any, Any]):
    """A dictionary that refuses every change. Read as fast as a dictionary, hashed by its
    items (a position is a value: a set's member, a dict's key), and shared between values
    without a copy (nothing can change it)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("an immutable value's mapping cannot be changed: build a new value")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # a dict has none: it can change
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:  # copied and pickled whole, not item by item
        return (ReadOnlyDict, (dict(self),))


EMPTY: Mapping[Any, Any] = ReadOnlyDict()
"""The shared empty read-only mapping."""


def frozen_mapping(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only copy of ``mapping`` (still a ``dict`` to read, to compare and to write
    as JSON), or ``mapping`` itself when it is read-only already."""
    if type(mapping) is ReadOnlyDict:
        return mapping
    return ReadOnlyDict(mapping) if mapping else EMPTY
