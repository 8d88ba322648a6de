"""Order notation: ``parse_order(text, language)`` and ``format_order(order)``."""

from realpolitik.notation.parser import format_order, parse_order

__all__ = ["format_order", "parse_order"]
