"""A tiny SVG writer: elements as values, attributes escaped, ``None`` attributes left out."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""The characters XML 1.0 cannot hold, even escaped (control characters, a surrogate alone:
a text given, such as an order that could not be read, may have them)."""


def xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def esc(text: str) -> str:
    """``text`` escaped for element content."""
    return escape(xml_text(text))


class Element:
    """``Element("circle", cx="3", stroke_width="2", class_="unit")`` writes
    ``<circle cx="3" stroke-width="2" class="unit"/>``; ``text`` is escaped content and
    ``children`` are already-written SVG strings."""

    def __init__(
        self,
        tag: str,
        *,
        text: str | None = None,
        children: list[str] | None = None,
        **attrs: str | None,
    ) -> None:
        self.tag = tag
        self.text = text
        self.children = list(children or [])
        self.attrs: dict[str, str] = {}
        self.set(**attrs)

    def set(self, **attrs: str | None) -> Element:
        """Add attributes (``stroke_width`` is written ``stroke-width``, ``class_``
        ``class``); ``None`` values are left out."""
        for key, value in attrs.items():
            if value is not None:
                self.attrs[key.rstrip("_").replace("_", "-")] = value
        return self

    def svg(self) -> str:
        attrs = "".join(f" {k}={quoteattr(xml_text(v))}" for k, v in self.attrs.items())
        if self.text is None and not self.children:
            return f"<{self.tag}{attrs}/>"
        inner = (esc(self.text) if self.text is not None else "") + "".join(self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"
