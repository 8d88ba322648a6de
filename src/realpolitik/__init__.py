"""realpolitik: the game of Diplomacy, with an exact adjudicator.

>>> from realpolitik import load_map, Position, parse_order, adjudicate, rules_for, Phase
>>> m = load_map("standard")
>>> start = Position.initial(m)
>>> res = adjudicate(m, start, {"FRANCE": [parse_order("A PAR - BUR")]},
...                  rules_for("classic"), Phase.parse("S1901M"))
>>> res.outcomes[0].result.value
'succeeds'
"""

from realpolitik.adjudicator import OrderResult, Outcome, Resolution, adjudicate
from realpolitik.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    SituationError,
)
from realpolitik.maps import GameMap, load_map
from realpolitik.notation import format_order, parse_order
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.position import Dislodged, Position
from realpolitik.rules import Rules, rules_for
from realpolitik.vocab import ARMY, FLEET, Unit, UnitType

__version__ = "0.1.0"

__all__ = [
    "ARMY",
    "FLEET",
    "AmbiguousOrderError",
    "Build",
    "Convoy",
    "Disband",
    "Dislodged",
    "GameMap",
    "Hold",
    "IllegalOrderError",
    "InvalidOrderError",
    "Move",
    "Order",
    "OrderError",
    "OrderResult",
    "Outcome",
    "Phase",
    "PhaseKind",
    "Position",
    "Resolution",
    "Retreat",
    "Rules",
    "Season",
    "SituationError",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnitRef",
    "UnitType",
    "Waive",
    "__version__",
    "adjudicate",
    "format_order",
    "load_map",
    "parse_order",
    "rules_for",
]
