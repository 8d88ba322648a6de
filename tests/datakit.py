"""Helpers for the tests of the data files: their strings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def strings(value: Any, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    """Every string in ``value`` (a data file's JSON), keys named in ``skip`` left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from strings(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, skip)
