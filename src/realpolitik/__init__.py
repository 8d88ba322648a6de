"""realpolitik: the game of Diplomacy, with an exact adjudicator.

>>> from realpolitik import Phase, Position, adjudicate, load_map, parse_order, rules_for
>>> m = load_map("standard")
>>> start = Position.initial(m)
>>> res = adjudicate(m, start, {"FRANCE": [parse_order("A PAR - BUR", game_map=m)]},
...                  rules_for("classic"), Phase.parse("S1901M"))
>>> res.outcomes[0].result.value
'succeeds'

A whole game, with players, phases and history, is a :class:`Game`:

>>> from realpolitik import Game
>>> game = Game.new(seed=1)
>>> sorted(game.legal_orders("FRANCE")["FRANCE"])  # FRANCE's units, each with its orders
['BRE', 'MAR', 'PAR']
"""

from realpolitik.adjudicator import OrderResult, Outcome, Reason, Resolution, adjudicate
from realpolitik.errors import (
    AmbiguousOrderError,
    BotError,
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    MapDataError,
    MilaError,
    OrderError,
    SaveGameError,
    ShapeError,
    SituationError,
    VariantError,
)
from realpolitik.game import Game
from realpolitik.game.editions import Edition, edition
from realpolitik.legal import legal_orders
from realpolitik.maps import BOARDS, GameMap, load_map
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
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, UnitType

__version__ = "0.1.0"

__all__ = [
    "ARMY",
    "BOARDS",
    "FLEET",
    "AmbiguousOrderError",
    "BotError",
    "Build",
    "Convoy",
    "Disband",
    "Dislodged",
    "Edition",
    "Game",
    "GameError",
    "GameMap",
    "Hold",
    "IllegalOrderError",
    "InvalidOrderError",
    "Location",
    "MapDataError",
    "MilaError",
    "Move",
    "Order",
    "OrderError",
    "OrderResult",
    "Outcome",
    "Phase",
    "PhaseKind",
    "Position",
    "Power",
    "Province",
    "Reason",
    "Resolution",
    "Retreat",
    "Rules",
    "SaveGameError",
    "Season",
    "ShapeError",
    "SituationError",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnitRef",
    "UnitType",
    "VariantError",
    "Waive",
    "__version__",
    "adjudicate",
    "edition",
    "format_order",
    "legal_orders",
    "load_map",
    "parse_order",
    "rules_for",
]
