"""Every refusal the server names by a code has the page's words for it, in each language
(the page shows ``error_<code>``; without it, the server's English)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from realpolitik.server.app import web_dir

SERVER = Path(__file__).resolve().parents[2] / "src" / "realpolitik" / "server"
NEVER_SHOWN = {
    "too_many_streams": "asked by the browser's EventSource, which shows no answer: the page polls",
}
"""Codes the page never shows, and why."""


def _codes() -> dict[str, set[str]]:
    """Each code the server's modules refuse with, and the names of the values sent with it."""
    found: dict[str, set[str]] = {}
    for module in sorted(SERVER.glob("*.py")):
        text = module.read_text()
        for match in re.finditer(r'code="([a-z_]+)"(?:,\s*values=\{([^}]*)\})?', text):
            names = set(re.findall(r'"(\w+)":', match.group(2) or ""))
            found.setdefault(match.group(1), set()).update(names)
    return found


CODES = _codes()
WORDS = json.loads((web_dir() / "i18n.json").read_text())


def test_the_codes_are_found() -> None:
    assert {"username_taken", "too_many_attempts", "too_many_requests"} <= set(CODES)
    assert CODES["recipient_not_played"] == {"powers"}


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_every_code_has_words_that_use_only_what_is_sent(language: str) -> None:
    missing, unknown = [], []
    for code, values in sorted(CODES.items()):
        if code in NEVER_SHOWN:
            continue
        words = WORDS[language].get(f"error_{code}")
        if words is None:
            missing.append(code)
            continue
        unknown += [(code, name) for name in re.findall(r"\{(\w+)\}", words) if name not in values]
    assert not missing, f"no words in {language} for: {', '.join(missing)}"
    assert not unknown, f"words naming a value the server does not send: {unknown}"
