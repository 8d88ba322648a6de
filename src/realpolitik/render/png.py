"""PNG export of the SVG picture, with resvg (the ``render`` extra: ``pip install
'realpolitik[render]'``; system fonts are used for the names)."""

from __future__ import annotations

import importlib
from typing import Any

NEEDS_EXTRA = "PNG export needs the 'render' extra: pip install 'realpolitik[render]'"
"""What is said where PNG export is asked for without its renderer."""


def _resvg() -> Any:
    try:
        return importlib.import_module("resvg_py")
    except ImportError:
        raise RuntimeError(NEEDS_EXTRA) from None


def png_available() -> bool:
    """Is the PNG renderer installed?"""
    try:
        _resvg()
    except RuntimeError:
        return False
    return True


def svg_to_png(svg: str, *, scale: float = 1.0, background: str | None = None) -> bytes:
    """Rasterise SVG text to PNG bytes (``scale`` 2.0 for a sharper, twice larger image)."""
    resvg = _resvg()
    kwargs: dict[str, Any] = {"svg_string": svg}
    if scale != 1.0:
        kwargs["zoom"] = scale
    if background is not None:
        kwargs["background"] = background
    return bytes(resvg.svg_to_bytes(**kwargs))
