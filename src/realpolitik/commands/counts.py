"""The commands' count options (``--games``, ``--years``, ``--seeds``, ``--workers``...):
refused by argparse, which names the option (``argument --max-years: must be a whole number
from 1, not '0'``), where the library's own check named its parameter (``max_years``)."""

from __future__ import annotations

import argparse


def count(text: str) -> int:
    """A count given on the command line: a whole number from 1."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, not {text!r}")
    return int(digits)
