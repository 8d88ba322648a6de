"""The browser tests' users: one server is shared by the tests of a worker (which tests
share it depends on how pytest-xdist deals them out), so two tests signing up the same name
fail only now and then, the second waiting for a lobby that never comes."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

# the helpers that create an account, and the position of the username among their arguments
SIGN_UPS = {
    "sign_up": 2,
    "register_and_create": 2,
    "host_a_table": 2,
    "guest_joins": 2,
    "sign_up_invited": 2,
    "account": 0,  # a test's own helper signing up over the API (test_web_game)
}


def test_no_two_browser_tests_sign_up_the_same_user() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for path in sorted(Path(__file__).parent.glob("test_web_*.py")):
        for test in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(test, ast.FunctionDef):
                continue
            names: set[str] = set()
            for call in ast.walk(test):
                if not isinstance(call, ast.Call):
                    continue
                if isinstance(call.func, ast.Name):  # a helper that signs up
                    at = SIGN_UPS.get(call.func.id)
                elif isinstance(call.func, ast.Attribute) and call.func.attr == "fill":
                    typed = call.args[0] if call.args else None  # the name typed in the form
                    at = (
                        1
                        if isinstance(typed, ast.Constant) and typed.value == "#auth-user"
                        else None
                    )
                else:
                    at = None
                if at is None or len(call.args) <= at:
                    continue
                given = call.args[at]
                if isinstance(given, ast.Constant) and isinstance(given.value, str):
                    names.add(given.value)
            for name in names:
                places[name].append(f"{path.name}::{test.name}")
    assert len(places) > 50  # (the helpers are found: most tests sign someone up)
    shared = {name: where for name, where in places.items() if len(where) > 1}
    assert not shared, shared
