"""Order notation in English, Spanish, French and Portuguese: parse, guess, format.

>>> from realpolitik.maps import load_map
>>> from realpolitik.notation import parse_order, format_order
>>> order = parse_order("E Par A E Mar-Bor", game_map=load_map("standard"), language="es")
>>> format_order(order), format_order(order, "fr"), format_order(order, "pt")
('A PAR S A MAR - BUR', 'A Par (S) A Mar-Bur', 'E de Par. apoia E de Mar. para Bur.')
"""

from realpolitik.notation.formatter import (
    STYLES,
    Style,
    coast_name,
    format_date,
    format_order,
    format_place,
    format_result,
    format_unit,
    phase_kind_word,
    place_name,
    power_name,
    result_name,
    season_names,
    unit_phrase,
)
from realpolitik.notation.lexicon import (
    LANGUAGES,
    language_data,
    load_lexicon,
    province_entries,
    read_power,
)
from realpolitik.notation.parser import (
    candidates,
    guess_language,
    order_each,
    parse_order,
    parse_orders,
    read_all,
    read_guessed,
    read_order,
    read_written,
    split_orders,
)
from realpolitik.notation.reasons import explain

__all__ = [
    "LANGUAGES",
    "STYLES",
    "Style",
    "candidates",
    "coast_name",
    "explain",
    "format_date",
    "format_order",
    "format_place",
    "format_result",
    "format_unit",
    "guess_language",
    "language_data",
    "load_lexicon",
    "order_each",
    "parse_order",
    "parse_orders",
    "phase_kind_word",
    "place_name",
    "power_name",
    "province_entries",
    "read_all",
    "read_guessed",
    "read_order",
    "read_power",
    "read_written",
    "result_name",
    "season_names",
    "split_orders",
    "unit_phrase",
]
