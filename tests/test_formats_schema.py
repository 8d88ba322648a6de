"""The JSON shape checker: types, required keys, maps, lists and references, and the
place of the first problem in its message."""

from __future__ import annotations

import pytest

from realpolitik.errors import ShapeError
from realpolitik.formats.schema import check, packaged

SCHEMA = {
    "definitions": {"names": {"type": "array", "items": {"type": "string"}}},
    "type": "object",
    "required": ["a"],
    "properties": {
        "a": {"type": ["integer", "null"]},
        "b": {"type": "object", "additionalProperties": {"$ref": "names"}},
        "c": {"type": "number"},
    },
}


def test_good_data_passes() -> None:
    check({"a": 1, "b": {"x": ["y"]}, "c": 2}, SCHEMA)
    check({"a": None, "c": 2.5, "other": [1]}, SCHEMA)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "the file: expected an object, not a list"),
        ({}, "the file: missing 'a'"),
        ({"a": "1"}, "a: expected a whole number or null, not a string"),
        ({"a": True}, "a: expected a whole number or null, not true or false"),
        ({"a": 1, "b": {"x": [1]}}, "b.x[0]: expected a string, not a whole number"),
        ({"a": 1, "b": {"x": "y"}}, "b.x: expected a list, not a string"),
        ({"a": 1, "c": "2"}, "c: expected a number, not a string"),
    ],
)
def test_problems_are_named(data: object, message: str) -> None:
    with pytest.raises(ShapeError) as caught:
        check(data, SCHEMA)
    assert str(caught.value) == message


def test_the_saved_game_schema_is_packaged() -> None:
    schema = packaged("savegame")
    assert "history" in schema["required"] and "record" in schema["definitions"]
