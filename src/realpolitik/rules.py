"""Rule choices as data: every DATC chapter-4 issue is an option, editions are presets.

``Rules`` holds one choice per issue, an enum named after what it decides
(``ConvoyParadox.SZYKMAN``) whose value is the DATC's letter (``"f"``): the letters are
the ids presets, :meth:`Rules.with_choice`, the CLI and saved games use. Presets:

* ``datc``: the DATC 3.2 preferred choices (passes all 176 DATC cases);
* ``classic`` (default): the 2000 Avalon Hill rulebook (seed 000);
* ``1971``: the French rules of the 1971 edition (seed 001);
* ``grow``: as ``classic``, but any attack on a supporting unit cuts its support (Grow's
  "BLOQUEIO DE APOIO");
* ``conquista``: as ``classic``, but 4.A.1 a (a dislodged fleet on any route stops the
  army), dislodged units destroyed, foreign supports acknowledged, reinforcements. Its
  book's reach of supports (any province a unit's own borders, "y viceversa": an army a
  fleet at sea) is an option, ``support_reach="borders"``: RULES.md §1, which wins where
  it and a book disagree, keeps classic's reach for every edition.

``rules_for("classic").with_choice("4.D.8", "c")`` overrides one choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any


# --- the choices, named after what they decide (the values are the DATC letters) -----------
class MultiRouteConvoy(StrEnum):
    """4.A.1: when a convoy with several routes is disrupted."""

    ANY_ROUTE = "a"  # disrupted if any route is (1971)
    ALL_ROUTES = "b"  # disrupted only if all routes are


class ConvoyParadox(StrEnum):
    """4.A.2: how a convoy disruption paradox is settled."""

    RULE_1971 = "a"  # then Szykman
    RULE_1982 = "b"
    RULE_2000 = "c"  # then Szykman
    ALL_HOLD = "d"  # all moves of the paradox hold
    SZYKMAN = "f"  # the paradox's fleets hold


class AdjacentConvoy(StrEnum):
    """4.A.3: when an army's move to an adjacent province goes by convoy."""

    ONLY_TO_SWAP = "a"  # 1971
    OWN_ORDERS_SHOW_INTENT = "b"  # 1982
    OWN_FLEET_OR_VIA_WITH_FALLBACK = "c"  # 2000: the land route if the convoy fails
    OWN_FLEET_OR_VIA = "d"  # 2025


class ConvoyedAttackOrigin(StrEnum):
    """4.A.4: does a convoyed attack on a supporter cut a support into its own origin?"""

    NOT_CUT = "a"
    CUT = "b"


class RetreatAfterConvoy(StrEnum):
    """4.A.5: may a unit retreat to where a convoyed attacker came from?"""

    NEVER = "a"
    AFTER_A_CONVOY = "b"


class ConvoyPath(StrEnum):
    """4.A.6: a path named in a move order."""

    IGNORED = "a"


class DislodgedOrigin(StrEnum):
    """4.A.7: may a dislodged unit affect the province its attacker came from?"""

    NEVER = "a"
    UNLESS_HEAD_TO_HEAD = "b"  # only when beaten in a head-to-head battle


class OmittedCoast(StrEnum):
    """4.B.2: a move that omits the coast when only one can be reached."""

    THAT_COAST = "a"
    FAILS = "b"


class ImpossibleCoast(StrEnum):
    """4.B.3: a move to a coast the fleet cannot reach."""

    IGNORED = "a"
    ILLEGAL = "b"


class SupportCoast(StrEnum):
    """4.B.4: a coast named in a support order."""

    IGNORED = "a"
    ALLY_NAMES_IT = "b"  # a given coast must match; an ally's support must name it
    MUST_MATCH = "c"  # legal for either coast; a given coast must match


class WrongUnitCoast(StrEnum):
    """4.B.5: an order naming the wrong coast of its fleet."""

    ILLEGAL = "a"
    IGNORED = "b"


class UnknownCoast(StrEnum):
    """4.B.6: a coast the province does not have, or an army's move naming one."""

    ILLEGAL = "a"
    IGNORED = "b"


class MissingUnitType(StrEnum):
    """4.C.1: an order without the unit's type."""

    ILLEGAL = "a"
    LEGAL = "b"


class WrongUnitType(StrEnum):
    """4.C.2: an order with the wrong unit type."""

    ILLEGAL = "a"
    IGNORED = "b"


class FleetBuildInland(StrEnum):
    """4.C.4: a fleet built in an inland province."""

    FAILS = "a"
    ARMY_BUILT = "b"


class MissingNationality(StrEnum):
    """4.C.5: a support or convoy of another power's unit without its nationality."""

    ILLEGAL = "a"
    LEGAL = "b"


class WrongNationality(StrEnum):
    """4.C.6: a support or convoy naming the wrong nationality."""

    ILLEGAL = "a"
    IGNORED = "b"


class DuplicateOrders(StrEnum):
    """4.D.3: several orders to one unit."""

    FIRST = "a"
    LAST = "b"
    NONE = "c"  # all illegal: the unit holds


class TooManyBuilds(StrEnum):
    """4.D.4: more build orders than builds due."""

    ALL_FAIL = "a"
    FIRST = "b"
    LAST = "c"


class DoubleBuild(StrEnum):
    """4.D.5: two builds in one province."""

    BOTH_FAIL = "a"
    FIRST = "b"
    LAST = "c"


class TooManyDisbands(StrEnum):
    """4.D.6: more disband orders than removals due."""

    CIVIL_DISORDER = "a"  # the civil-disorder rule chooses
    FIRST = "b"
    LAST = "c"


class Waiving(StrEnum):
    """4.D.7: may builds be waived?"""

    ALLOWED = "a"
    NOT_ALLOWED = "b"


class CivilDisorderRemoval(StrEnum):
    """4.D.8: which units a power in civil disorder loses."""

    FROM_NEAREST_HOME = "a"  # 1971/1982: farthest from the nearest home centre
    FROM_HOME_COUNTRY = "b"  # 2000: farthest from the home country
    OFF_CENTRE_FIRST = "c"  # 2023: off-centre first, farthest from an owned centre


class DisorderHoldSupport(StrEnum):
    """4.D.9: a hold support for a unit of a power in civil disorder."""

    FAILS = "a"
    SUCCEEDS = "b"


class Dislodging(StrEnum):
    """What becomes of a dislodged unit (conquista destroys it)."""

    RETREAT = "retreat"
    DESTROYED = "destroyed"


class ForeignSupport(StrEnum):
    """Whether another power's support counts without being accepted (conquista: not)."""

    FREE = "free"
    ACKNOWLEDGED = "acknowledged"


class Adjustments(StrEnum):
    """How builds and removals are counted (conquista: reinforcements)."""

    UPKEEP = "upkeep"
    REINFORCEMENTS = "reinforcements"


class SupportReach(StrEnum):
    """Where a unit may support into (the conquista book's reading, an option: any province
    its own borders)."""

    CAN_MOVE = "can_move"  # a province the supporter could move to
    BORDERS = "borders"  # a province the supporter's province borders, by any edge


class SupportCut(StrEnum):
    """Which attacks cut a support (Grow: any)."""

    CLASSIC = "classic"
    ANY_ATTACK = "any_attack"


@dataclass(frozen=True, slots=True)
class Issue:
    """One DATC chapter-4 issue: its id, the ``Rules`` field, and the choices allowed."""

    id: str
    field: str
    title: str
    choices: dict[str, str]


ISSUES: tuple[Issue, ...] = (
    Issue("4.A.1", "multi_route_convoy", "multi-route convoy disruption",
          {"a": "disrupted if any route is (1971)", "b": "disrupted only if all routes are"}),
    Issue("4.A.2", "convoy_paradox", "convoy disruption paradoxes",
          {"a": "1971 rule (then Szykman)", "b": "1982 rule", "c": "2000 rule (then Szykman)",
           "d": "all moves of the paradox hold", "f": "Szykman: the paradox's fleets hold"}),
    Issue("4.A.3", "adjacent_convoy", "convoying to an adjacent province",
          {"a": "1971: only to swap", "b": "1982: intent shown by own orders",
           "c": "2000: own fleet or 'via convoy', land route as fall-back",
           "d": "2025: own fleet or 'via convoy', no fall-back"}),
    Issue("4.A.4", "convoyed_attack_origin", "support cut by a convoyed attack on itself",
          {"a": "not cut (the attack comes from the army's province)", "b": "cut"}),
    Issue("4.A.5", "retreat_after_convoy", "retreat to the origin of a convoyed attacker",
          {"a": "never", "b": "allowed when the attack came by convoy"}),
    Issue("4.A.6", "convoy_path", "convoy path specification",
          {"a": "a path in a move order is ignored (the only choice offered: the DATC calls "
                "path specification a thing of the past)"}),
    Issue("4.A.7", "dislodged_origin", "a dislodged unit and its attacker's origin",
          {"a": "never affects it", "b": "only when beaten in a head-to-head battle"}),
    Issue("4.B.2", "omitted_coast", "omitted coast when one coast is possible",
          {"a": "that coast is used", "b": "the move fails"}),
    Issue("4.B.3", "impossible_coast", "move to an unreachable coast",
          {"a": "coast ignored", "b": "illegal"}),
    Issue("4.B.4", "support_coast", "coast in support orders",
          {"a": "coast ignored",
           "b": "a given coast must match; an ally's support must name the coast",
           "c": "legal for either coast; a given coast must match"}),
    Issue("4.B.5", "wrong_unit_coast", "wrong coast of the ordered unit",
          {"a": "illegal", "b": "ignored"}),
    Issue("4.B.6", "unknown_coast", "unknown or irrelevant coast",
          {"a": "illegal", "b": "ignored"}),
    Issue("4.C.1", "missing_unit_type", "missing unit type", {"a": "illegal", "b": "legal"}),
    Issue("4.C.2", "wrong_unit_type", "wrong unit type", {"a": "illegal", "b": "ignored"}),
    Issue("4.C.4", "fleet_build_inland", "fleet build in an inland province",
          {"a": "fails", "b": "an army is built"}),
    Issue("4.C.5", "missing_nationality", "missing nationality in support",
          {"a": "illegal", "b": "legal"}),
    Issue("4.C.6", "wrong_nationality", "wrong nationality in support",
          {"a": "illegal", "b": "ignored"}),
    Issue("4.D.3", "duplicate_orders", "several orders to one unit",
          {"a": "the first is used", "b": "the last is used", "c": "all illegal: the unit holds"}),
    Issue("4.D.4", "too_many_builds", "too many build orders",
          {"a": "all fail", "b": "the first legal ones", "c": "the last legal ones"}),
    Issue("4.D.5", "double_build", "two builds in one province",
          {"a": "both fail", "b": "the first", "c": "the last"}),
    Issue("4.D.6", "too_many_disbands", "too many disband orders",
          {"a": "civil-disorder rule", "b": "the first legal ones", "c": "the last legal ones"}),
    Issue("4.D.7", "waive", "waiving builds", {"a": "allowed", "b": "not allowed"}),
    Issue("4.D.8", "civil_disorder_removal", "civil-disorder removals",
          {"a": "1971/1982: farthest from the nearest home centre",
           "b": "2000: farthest from the home country",
           "c": "2023: off-centre first, farthest from an owned centre"}),
    Issue("4.D.9", "civil_disorder_hold_support", "hold support for a unit in civil disorder",
          {"a": "fails", "b": "succeeds"}),
)  # fmt: skip

_BY_ID = {issue.id: issue for issue in ISSUES}

MECHANICS: dict[str, dict[str, str]] = {
    "dislodged": {"retreat": "a dislodged unit retreats", "destroyed": "it is destroyed at once"},
    "foreign_support": {
        "free": "any unit may be supported",
        "acknowledged": "support of another power's unit counts only if that power accepts it",
    },
    "adjustments": {
        "upkeep": "units = owned centres: builds and removals",
        "reinforcements": "builds for owned foreign centres (capped by free homes), no removals",
    },
    "support_reach": {
        "can_move": "a unit supports into a province it could move to",
        "borders": "a unit supports into any province its own borders (by land or sea; "
        "a fleet on a coast: what its province borders) (the conquista book's reading)",
    },
    "support_cut": {
        "classic": "an attack cuts a support unless it comes from the province supported into",
        "any_attack": "any attack on a supporting unit cuts its support (Grow)",
    },
}
"""Rule fields that are not DATC issues: the mechanics an edition may replace (RULES.md §5)."""


_CHOICES: dict[str, type[StrEnum]] = {
    "multi_route_convoy": MultiRouteConvoy,
    "convoy_paradox": ConvoyParadox,
    "adjacent_convoy": AdjacentConvoy,
    "convoyed_attack_origin": ConvoyedAttackOrigin,
    "retreat_after_convoy": RetreatAfterConvoy,
    "convoy_path": ConvoyPath,
    "dislodged_origin": DislodgedOrigin,
    "omitted_coast": OmittedCoast,
    "impossible_coast": ImpossibleCoast,
    "support_coast": SupportCoast,
    "wrong_unit_coast": WrongUnitCoast,
    "unknown_coast": UnknownCoast,
    "missing_unit_type": MissingUnitType,
    "wrong_unit_type": WrongUnitType,
    "fleet_build_inland": FleetBuildInland,
    "missing_nationality": MissingNationality,
    "wrong_nationality": WrongNationality,
    "duplicate_orders": DuplicateOrders,
    "too_many_builds": TooManyBuilds,
    "double_build": DoubleBuild,
    "too_many_disbands": TooManyDisbands,
    "waive": Waiving,
    "civil_disorder_removal": CivilDisorderRemoval,
    "civil_disorder_hold_support": DisorderHoldSupport,
    "dislodged": Dislodging,
    "foreign_support": ForeignSupport,
    "adjustments": Adjustments,
    "support_reach": SupportReach,
    "support_cut": SupportCut,
}
"""The enum of each rule field."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One choice per DATC chapter-4 issue (see :data:`ISSUES`); defaults are DATC-preferred."""

    name: str = "datc"
    multi_route_convoy: MultiRouteConvoy = MultiRouteConvoy.ALL_ROUTES
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.OWN_FLEET_OR_VIA
    convoyed_attack_origin: ConvoyedAttackOrigin = ConvoyedAttackOrigin.NOT_CUT
    retreat_after_convoy: RetreatAfterConvoy = RetreatAfterConvoy.AFTER_A_CONVOY
    convoy_path: ConvoyPath = ConvoyPath.IGNORED
    dislodged_origin: DislodgedOrigin = DislodgedOrigin.UNLESS_HEAD_TO_HEAD
    omitted_coast: OmittedCoast = OmittedCoast.THAT_COAST
    impossible_coast: ImpossibleCoast = ImpossibleCoast.ILLEGAL
    support_coast: SupportCoast = SupportCoast.MUST_MATCH
    wrong_unit_coast: WrongUnitCoast = WrongUnitCoast.IGNORED
    unknown_coast: UnknownCoast = UnknownCoast.IGNORED
    missing_unit_type: MissingUnitType = MissingUnitType.LEGAL
    wrong_unit_type: WrongUnitType = WrongUnitType.IGNORED
    fleet_build_inland: FleetBuildInland = FleetBuildInland.FAILS
    missing_nationality: MissingNationality = MissingNationality.LEGAL
    wrong_nationality: WrongNationality = WrongNationality.IGNORED
    duplicate_orders: DuplicateOrders = DuplicateOrders.FIRST
    too_many_builds: TooManyBuilds = TooManyBuilds.FIRST
    double_build: DoubleBuild = DoubleBuild.FIRST
    too_many_disbands: TooManyDisbands = TooManyDisbands.FIRST
    waive: Waiving = Waiving.ALLOWED
    civil_disorder_removal: CivilDisorderRemoval = CivilDisorderRemoval.OFF_CENTRE_FIRST
    civil_disorder_hold_support: DisorderHoldSupport = DisorderHoldSupport.SUCCEEDS
    # Edition mechanics beyond the DATC issues (see :data:`MECHANICS`); conquista's differ.
    dislodged: Dislodging = Dislodging.RETREAT
    foreign_support: ForeignSupport = ForeignSupport.FREE
    adjustments: Adjustments = Adjustments.UPKEEP
    support_reach: SupportReach = SupportReach.CAN_MOVE
    support_cut: SupportCut = SupportCut.CLASSIC

    def __post_init__(self) -> None:
        # A choice may be given by its id (the DATC letter, as presets, the CLI and saved
        # games write it): it is checked and made the enum member it names.
        for issue in ISSUES:
            value = getattr(self, issue.field)
            if value not in issue.choices:
                raise ValueError(
                    f"issue {issue.id} ({issue.title}): choice {value!r} is not one of "
                    f"{', '.join(issue.choices)}"
                )
            object.__setattr__(self, issue.field, _CHOICES[issue.field](value))
        for name, allowed in MECHANICS.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"rule {name}: {value!r} is not one of {', '.join(allowed)}")
            object.__setattr__(self, name, _CHOICES[name](value))

    def choice(self, issue_id: str) -> str:
        """The choice for a DATC issue id, e.g. ``rules.choice("4.A.2") == "f"``."""
        return str(getattr(self, _issue(issue_id).field))  # the letter

    def with_choice(self, issue_id: str, choice: str) -> Rules:
        """A copy with one issue decided otherwise."""
        issue = _issue(issue_id)
        changed: dict[str, Any] = {issue.field: choice}  # made the member in __post_init__
        return replace(self, name=f"{self.name}+{issue_id}{choice}", **changed)

    def choices(self) -> dict[str, str]:
        """All choices as ``{issue id: letter}``."""
        return {issue.id: str(getattr(self, issue.field)) for issue in ISSUES}


def _issue(issue_id: str) -> Issue:
    try:
        return _BY_ID[issue_id]
    except KeyError:
        known = ", ".join(_BY_ID)
        raise ValueError(f"unknown rule issue {issue_id!r}; known: {known}") from None


# Presets: the choices that differ from the DATC preferred ones (RULES.md §1b).
_PRESETS: dict[str, dict[str, str]] = {
    "datc": {},
    "classic": {"4.A.2": "c", "4.A.3": "c", "4.A.5": "a", "4.D.8": "b"},
    "1971": {"4.A.1": "a", "4.A.2": "a", "4.A.3": "a", "4.A.5": "a", "4.D.8": "a"},
    "grow": {"4.A.2": "c", "4.A.3": "c", "4.A.5": "a", "4.D.8": "b"},
    "conquista": {"4.A.1": "a", "4.A.2": "c", "4.A.3": "c", "4.A.5": "a", "4.D.8": "b"},
}
PRESETS: tuple[str, ...] = tuple(_PRESETS)
# The editions' own mechanics (see :data:`MECHANICS`): docs/editions.md quotes their books.
_MECHANIC_PRESETS: dict[str, dict[str, str]] = {
    "grow": {"support_cut": "any_attack"},
    "conquista": {
        "dislodged": "destroyed",
        "foreign_support": "acknowledged",
        "adjustments": "reinforcements",
    },
}


def rules_for(name: str = "classic", **overrides: str) -> Rules:
    """A preset by name; ``overrides`` are issue fields (``convoy_paradox="f"``)."""
    if not overrides and name in _PRESET_RULES:
        return _PRESET_RULES[name]  # rules are values: each preset is made once, then shared
    return _rules(name, overrides)


def _rules(name: str, overrides: Mapping[str, str]) -> Rules:
    """The preset ``name`` with ``overrides``, made (checked) anew."""
    try:
        preset = _PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)}") from None
    values: dict[str, Any] = {_issue(i).field: c for i, c in preset.items()}
    values.update(_MECHANIC_PRESETS.get(name, {}))
    known = {f.name for f in fields(Rules)}
    for key in overrides:
        if key not in known:
            raise ValueError(f"unknown rule option {key!r}")
    values.update(overrides)
    return Rules(name=name, **values)


_PRESET_RULES: dict[str, Rules] = {name: _rules(name, {}) for name in PRESETS}
"""Each preset's rules, made once at import (the JSON-lines path asks for one per line)."""
