"""JSON text as the commands read it, from a file or the standard input."""

from __future__ import annotations

import json
from typing import Any


def loads(text: str) -> Any:
    """``json.loads``, with text nested too deeply for Python's parser (it recurses: some
    thousands of brackets) refused as bad JSON, a :class:`json.JSONDecodeError` (a
    ``ValueError``, which the commands report in one line), not a ``RecursionError``.

    >>> loads('{"phase": "S1901M"}')
    {'phase': 'S1901M'}
    >>> loads("[" * 100_000)
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: nested too deeply: line 1 column 1 (char 0)
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
