"""Check JSON data against a schema written in a small subset of JSON Schema: ``type``
(one name or a list), ``required``, ``properties``, ``additionalProperties`` (the schema of
every other value), ``items`` and ``$ref`` (a name under the schema's ``definitions``).
The first problem found is raised as a :class:`ShapeError` naming where it is
(``history[3].outcomes[1].power: expected a string, not an object``)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from realpolitik.data import read_json
from realpolitik.errors import ShapeError

_NAMES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


@cache
def packaged(name: str) -> dict[str, Any]:
    """A schema shipped in ``realpolitik/data`` (e.g. ``"savegame"``)."""
    data: dict[str, Any] = read_json("data", f"{name}.schema.json")
    return data


def check(data: Any, schema: Mapping[str, Any]) -> None:
    """Raise :class:`ShapeError` if ``data`` is not of ``schema``'s shape."""
    try:
        _check(data, schema, schema.get("definitions", {}))
    except _Misfit as misfit:
        where = "".join(reversed(misfit.path)).lstrip(".") or "the file"
        raise ShapeError(f"{where}: {misfit.problem}") from None


class _Misfit(Exception):
    """A value not of its schema's shape: the ``problem``, and the ``path`` to it from the
    innermost step out (written only when there is a problem: a sandbox's saved game of
    190 phases is checked twice as fast as with a path written at every value)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self.path: list[str] = []


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _check(value: Any, schema: Mapping[str, Any], defs: Mapping[str, Any]) -> None:
    ref = schema.get("$ref")
    if ref is not None:
        schema = defs[ref]
    wanted = schema.get("type")
    if wanted is not None:
        kinds = [wanted] if isinstance(wanted, str) else list(wanted)
        kind = _kind(value)
        if kind not in kinds and not (kind == "integer" and "number" in kinds):
            expected = " or ".join(_NAMES[k] for k in kinds)
            raise _Misfit(f"expected {expected}, not {_NAMES.get(kind, kind)}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                raise _Misfit(f"missing {key!r}")
        properties = schema.get("properties", {})
        others = schema.get("additionalProperties")
        for key, item in value.items():
            inner = properties.get(key, others)
            if inner is not None:
                try:
                    _check(item, inner, defs)
                except _Misfit as misfit:
                    misfit.path.append(f".{key}")
                    raise
    elif isinstance(value, list):
        items = schema.get("items")
        if items is not None:
            for k, item in enumerate(value):
                try:
                    _check(item, items, defs)
                except _Misfit as misfit:
                    misfit.path.append(f"[{k}]")
                    raise
