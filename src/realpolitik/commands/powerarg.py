"""A power named on the command line (``orders game.json Francia``, ``render --sheet
França``, ``selfplay --power-bot Alemania=search``, ``tournament --seats France,Angleterre``):
read in any of the four languages, as every command reads it."""

from __future__ import annotations

from realpolitik.notation import read_power

POWER_HELP = "a power, in any of the four languages: FRANCE, Francia, França"


def power_name(text: str) -> str:
    """A power as the game names it (``FRANCE``) from its name in any of the four
    languages; text that names none is passed on upper-cased, for the game to name."""
    return read_power(text) or text.strip().upper()
