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
    _check(data, schema, schema.get("definitions", {}), "")


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


def _where(at: str) -> str:
    return at.lstrip(".") or "the file"


def _check(value: Any, schema: Mapping[str, Any], defs: Mapping[str, Any], at: str) -> None:
    ref = schema.get("$ref")
    if ref is not None:
        schema = defs[ref]
    wanted = schema.get("type")
    if wanted is not None:
        kinds = [wanted] if isinstance(wanted, str) else list(wanted)
        kind = _kind(value)
        if kind not in kinds and not (kind == "integer" and "number" in kinds):
            expected = " or ".join(_NAMES[k] for k in kinds)
            raise ShapeError(f"{_where(at)}: expected {expected}, not {_NAMES.get(kind, kind)}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                raise ShapeError(f"{_where(at)}: missing {key!r}")
        properties = schema.get("properties", {})
        others = schema.get("additionalProperties")
        for key, item in value.items():
            inner = properties.get(key, others)
            if inner is not None:
                _check(item, inner, defs, f"{at}.{key}")
    elif isinstance(value, list):
        items = schema.get("items")
        if items is not None:
            for k, item in enumerate(value):
                _check(item, items, defs, f"{at}[{k}]")
