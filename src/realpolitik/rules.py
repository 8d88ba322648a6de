"""Rule choices as data: every DATC chapter-4 issue is an option, editions are presets.

``Rules`` holds one choice (a letter, as the DATC numbers them) per issue. Presets:

* ``datc``: the DATC 3.2 preferred choices (passes all 176 DATC cases);
* ``classic`` (default): the 2000 Avalon Hill rulebook (seed 000);
* ``1971``: the French rules of the 1971 edition (seed 001);
* ``grow``: as ``classic``, but any attack on a supporting unit cuts its support (Grow's
  "BLOQUEIO DE APOIO");
* ``conquista``: as ``classic``, but 4.A.1 a (a dislodged fleet on any route stops the
  army), dislodged units destroyed, foreign supports acknowledged, reinforcements.

``rules_for("classic").with_choice("4.D.8", "c")`` overrides one choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


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
    "support_cut": {
        "classic": "an attack cuts a support unless it comes from the province supported into",
        "any_attack": "any attack on a supporting unit cuts its support (Grow)",
    },
}
"""Rule fields that are not DATC issues: the mechanics an edition may replace (RULES.md §5)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One choice per DATC chapter-4 issue (see :data:`ISSUES`); defaults are DATC-preferred."""

    name: str = "datc"
    multi_route_convoy: str = "b"
    convoy_paradox: str = "f"
    adjacent_convoy: str = "d"
    convoyed_attack_origin: str = "a"
    retreat_after_convoy: str = "b"
    convoy_path: str = "a"
    dislodged_origin: str = "b"
    omitted_coast: str = "a"
    impossible_coast: str = "b"
    support_coast: str = "c"
    wrong_unit_coast: str = "b"
    unknown_coast: str = "b"
    missing_unit_type: str = "b"
    wrong_unit_type: str = "b"
    fleet_build_inland: str = "a"
    missing_nationality: str = "b"
    wrong_nationality: str = "b"
    duplicate_orders: str = "a"
    too_many_builds: str = "b"
    double_build: str = "b"
    too_many_disbands: str = "b"
    waive: str = "a"
    civil_disorder_removal: str = "c"
    civil_disorder_hold_support: str = "b"
    # Edition mechanics beyond the DATC issues (see :data:`MECHANICS`); conquista's differ.
    dislodged: str = "retreat"
    foreign_support: str = "free"
    adjustments: str = "upkeep"
    support_cut: str = "classic"

    def __post_init__(self) -> None:
        for issue in ISSUES:
            value = getattr(self, issue.field)
            if value not in issue.choices:
                raise ValueError(
                    f"issue {issue.id} ({issue.title}): choice {value!r} is not one of "
                    f"{', '.join(issue.choices)}"
                )
        for name, allowed in MECHANICS.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"rule {name}: {value!r} is not one of {', '.join(allowed)}")

    def choice(self, issue_id: str) -> str:
        """The choice for a DATC issue id, e.g. ``rules.choice("4.A.2") == "f"``."""
        return str(getattr(self, _issue(issue_id).field))

    def with_choice(self, issue_id: str, choice: str) -> Rules:
        """A copy with one issue decided otherwise."""
        issue = _issue(issue_id)
        return replace(self, name=f"{self.name}+{issue_id}{choice}", **{issue.field: choice})

    def choices(self) -> dict[str, str]:
        """All choices as ``{issue id: letter}``."""
        return {issue.id: getattr(self, issue.field) for issue in ISSUES}


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
