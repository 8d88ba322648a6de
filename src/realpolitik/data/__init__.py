"""The files shipped inside the package (boards, lexicons, drawings, editions, schemas,
game records, the web page), read as plain files from the installed package's directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``realpolitik`` package's directory."""


def shipped(*parts: str) -> Path:
    """A shipped file or directory by its path in the package:
    ``shipped("notation", "lexicon", "en.json")``."""
    return PACKAGE.joinpath(*parts)


def read_json(*parts: str) -> Any:
    """A shipped JSON file, decoded (:class:`FileNotFoundError` if there is none)."""
    return json.loads(shipped(*parts).read_text(encoding="utf-8"))
