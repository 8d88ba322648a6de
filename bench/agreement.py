"""The agreement check: every corpus phase resolved by both engines, every difference
classified, and the report ``AGREEMENT.md`` written from it.

Both sides state a resolution in the same neutral shape (``ours.neutral``, ``peer.neutral``):
units, dislodged units with their retreats, centres and next phase after the phase, and per
ordered unit whether its move succeeded or its support was given. A difference is explained,
in this order, by:

1. *bookkeeping*: a dislodged unit with nowhere to go is removed at once by the peer, kept
   for a retreat phase in which nothing can be ordered by realpolitik (``Game`` skips it);
2. *reporting* (no effect on any unit): a support of an attack on a unit of the supporter's
   own power, or of a convoyed move that has no convoy, is *given* for realpolitik (DATC 3.2:
   it is not cut; it just does not count / has nothing to help) and *void* for the peer;
3. a *rule choice*: realpolitik resolving the phase with the peer's choice on a DATC issue
   (``ALTERNATIVES``) gives the peer's result;
4. otherwise it is *unexplained*: listed in full, to be investigated (a bug on one side).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# the peer's choices on DATC issues where they differ from the DATC 3.2 preferred ones,
# with what each means (the check runs realpolitik again with each)
ALTERNATIVES: dict[str, str] = {
    "4.A.3=c": (
        "DATC 4.A.3 (convoy to an adjacent province): an army ordered `VIA` to an adjacent "
        "province with no convoy ordered for it moves by land for the peer (choices a, b and "
        "c agree on this corpus); realpolitik's `datc` preset follows the DATC 3.2 preferred "
        "choice d: a move ordered by convoy goes by convoy, so without one it fails. "
        "(realpolitik's `classic` preset, the 2000 rulebook, is choice c, as the peer.)"
    ),
}

BOOKKEEPING = (
    "A dislodged unit that cannot retreat anywhere: the peer removes it at once and goes on "
    "to the next movement phase; realpolitik reports it as dislodged (`destroyed`) and the "
    "retreat phase that follows has nothing to order (`Game` skips it). Same units after."
)
OWN_UNIT = (
    "A support of an attack on a unit of the supporter's own power: realpolitik reports the "
    "support *given* (it is not cut; the DATC's strength rules only keep it from counting "
    "against its own unit), the peer *void*. No effect on any unit."
)
NO_CONVOY = (
    "A support of a move by convoy for which no convoy is ordered: realpolitik reports the "
    "support *given* (not cut; the move it supports fails for want of a convoy), the peer "
    "*void*. No effect on any unit."
)
WAIVE = (
    "`WAIVE` is not kept among the peer's orders (its `get_orders` drops it); neither engine "
    "builds anything for it."
)


def _unit(order: str) -> str:
    return " ".join(order.split()[:2])


def _state(res: Mapping[str, Any]) -> dict[str, Any]:
    """Units, centres, the dislodged units that can retreat, and the next phase (a retreat
    phase in which nobody can retreat counts as the phase after it)."""
    dislodged = {
        power: [d for d in items if not d.endswith("(destroyed)")]
        for power, items in res["dislodged"].items()
    }
    dislodged = {p: v for p, v in dislodged.items() if v}
    following = res["next"]
    if following.endswith("R") and not dislodged:
        following = "(after the retreats)"
    return {
        "units": res["units"],
        "dislodged": dislodged,
        "centers": res["centers"],
        "next": following,
    }


def _results(res: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    return {_unit(order): (order, word) for order, word in res["results"].items()}


def _reporting(
    unit: str, order: str, entry: Mapping[str, Any], ours: Mapping[str, Any]
) -> str | None:
    """The reporting category of a support that realpolitik gives and the peer voids."""
    words = order.split()
    if len(words) < 6 or words[2] != "S" or words[5] != "-":
        return None
    supported, dest = " ".join(words[3:5]), words[6].split("/")[0]
    power = next(p for p, units in entry["units"].items() if unit in units)
    victim = [p for p, units in entry["units"].items() if any(u[2:5] == dest for u in units)]
    if victim == [power]:
        return "own unit"
    for text, reason in ours["reasons"].items():
        if _unit(text) == supported and "no convoy route" in reason:
            return "no convoy"
    return None


def _differences(
    ours: Mapping[str, Any], peer: Mapping[str, Any], entry: Mapping[str, Any]
) -> tuple[list[str], list[tuple[str, str]]]:
    """(state keys that differ, result differences left after the reporting categories) and
    the reporting differences, as ``(category, order)``."""
    a, b = _state(ours), _state(peer)
    keys = [k for k in a if a[k] != b[k]]
    ra, rb = _results(ours), _results(peer)
    left: list[str] = []
    reporting: list[tuple[str, str]] = []
    for unit, (order, word) in ra.items():
        if unit not in rb or rb[unit][1] == word:
            continue
        category = None
        if word == "given" and rb[unit][1] == "not given":
            category = _reporting(unit, order, entry, ours)
        if category is None:
            left.append(f"{order}: {word} (peer: {rb[unit][1]})")
        else:
            reporting.append((category, order))
    return keys + left, reporting


def compare(
    ours: list[dict[str, Any]],
    peer: list[dict[str, Any]],
    corpus: list[dict[str, Any]],
    alternatives: Mapping[str, list[dict[str, Any]]],
) -> dict[str, Any]:
    """Classify every difference; returns counts, examples and the unexplained cases."""
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    unexplained: list[dict[str, Any]] = []

    def note(category: str, where: str) -> None:
        counts[category] += 1
        if len(examples.setdefault(category, [])) < 3:
            examples[category].append(where)

    for k, (a, b, entry) in enumerate(zip(ours, peer, corpus, strict=True)):
        where = f"game {entry['game']} {entry['phase']} (corpus line {k + 2})"
        given = {o for items in b.get("given", {}).values() for o in items}
        for items in entry["orders"].values():
            for order in items:
                if order == "WAIVE" and order not in given:
                    note("waive", where)
        destroyed = any(d.endswith("(destroyed)") for v in a["dislodged"].values() for d in v)
        if destroyed and a["dislodged"] != b["dislodged"]:
            note("bookkeeping", where)
        left, reporting = _differences(a, b, entry)
        for category, order in reporting:
            note(category, f"{where}: `{order}`")
        if not left:
            counts["phases agreeing"] += 1
            continue
        for choice, alt in alternatives.items():
            if not _differences(alt[k], b, entry)[0]:
                note(choice, f"{where}: {'; '.join(left)}")
                break
        else:
            unexplained.append({"where": where, "differences": left, "orders": entry["orders"]})
    counts["unexplained"] = len(unexplained)
    phases = len(corpus)
    by_rule = sum(counts[c] for c in alternatives)
    reported = counts["own unit"] + counts["no convoy"]
    headline = (
        f"{counts['phases agreeing']} of {phases} phases end in the same position with the same "
        f"moves and supports ({reported} supports reported differently, with no effect), "
        f"{by_rule} differ by a known rule choice, {len(unexplained)} unexplained"
    )
    return {
        "counts": dict(counts),
        "examples": examples,
        "unexplained": unexplained,
        "phases": phases,
        "headline": headline,
    }


def compare_legal(ours: list[list[str]], peer: list[list[str]]) -> dict[str, Any]:
    """Compare the legal orders of every corpus phase, as text. Known differences: the peer
    also lists each support of a move to a coast with the coast named (realpolitik lists
    the province, which supports a move to either coast: DATC 4.B.4); realpolitik lists
    ``WAIVE`` for a power with a build due but no free home centre (the adjudicator accepts
    it; the peer has no build site there, so no order)."""
    counts: Counter[str] = Counter()
    unexplained: list[str] = []
    for k, (a, b) in enumerate(zip(ours, peer, strict=True)):
        mine, theirs = set(a), set(b)
        counts["orders"] += len(mine)
        counts["peer orders"] += len(theirs)
        counts["common"] += len(mine & theirs)
        for order in sorted(theirs - mine):
            words = order.split()
            bare = " ".join([*words[:-1], words[-1].split("/")[0]])
            if len(words) > 6 and words[2] == "S" and "/" in words[-1] and bare in mine:
                counts["coast in support"] += 1
                continue
            unexplained.append(f"corpus line {k + 2}: only the peer lists `{order}`")
        for order in sorted(mine - theirs):
            if order == "WAIVE":
                counts["waive without a build site"] += 1
                continue
            unexplained.append(f"corpus line {k + 2}: only realpolitik lists `{order}`")
    return {"counts": dict(counts), "unexplained": unexplained}


def write_report(
    summary: Mapping[str, Any],
    path: Path,
    peer: str = "diplomacy 1.1.2",
    legal: Mapping[str, Any] | None = None,
) -> None:
    counts, examples = summary["counts"], summary["examples"]
    lines = [
        "# Agreement with the PyPI `diplomacy` package",
        "",
        "Written by `make bench` (`bench/agreement.py`): every phase of the benchmark corpus "
        f"(`bench/corpus.jsonl`, {summary['phases']} phases of random legal play under "
        f"realpolitik's `datc` preset) resolved by realpolitik and by {peer}, and every "
        "difference classified. Compared: the units, dislodged units (with their retreats), "
        "centres and next phase after each phase, and per order whether a move succeeded or "
        "a support was given.",
        "",
        f"**{summary['headline']}.**",
        "",
        "| category | kind | count | meaning |",
        "|---|---|---:|---|",
        f"| phases agreeing | — | {counts.get('phases agreeing', 0)} | "
        "same units, dislodged units, centres, next phase and order results (up to the "
        "reporting differences below) |",
    ]
    rows = [
        *((c, "rule choice", text) for c, text in ALTERNATIVES.items()),
        ("own unit", "reporting", OWN_UNIT),
        ("no convoy", "reporting", NO_CONVOY),
        ("bookkeeping", "bookkeeping", BOOKKEEPING),
        ("waive", "notation", WAIVE),
    ]
    for category, kind, text in rows:
        unit = "phases" if kind in ("rule choice", "bookkeeping") else "orders"
        lines.append(f"| {category} | {kind} | {counts.get(category, 0)} {unit} | {text} |")
    lines.append(
        f"| unexplained | bug on one side? | {counts.get('unexplained', 0)} phases | listed below |"
    )
    lines += ["", "## Examples", ""]
    for category, _, _ in rows:
        for where in examples.get(category, []):
            lines.append(f"- {category}: {where}")
    lines += ["", "## Unexplained differences", ""]
    if not summary["unexplained"]:
        lines.append("None.")
    for case in summary["unexplained"]:
        lines.append(f"- {case['where']}: {'; '.join(case['differences'])}")
        lines.append(f"  orders: `{json.dumps(case['orders'], sort_keys=True)}`")
    if legal is not None:
        c = legal["counts"]
        lines += [
            "",
            "## Legal orders",
            "",
            f"The legal orders of every corpus phase, as text: realpolitik lists {c['orders']:,}, "
            f"the peer {c['peer orders']:,} (its possible orders of the orderable locations); "
            f"{c['common']:,} are the same. The others:",
            "",
            f"- {c.get('coast in support', 0):,} supports listed by the peer only, naming the "
            "coast of the supported move (`A MOS S F BOT - STP/SC`): realpolitik lists the "
            "support once, with the province (`A MOS S F BOT - STP`), which supports a move to "
            "either coast (DATC 4.B.4); naming the coast is a legal spelling that only "
            "restricts it.",
            f"- {c.get('waive without a build site', 0)} `WAIVE` listed by realpolitik only: a "
            "power with more centres than units but no free home centre; the adjudicator "
            "accepts the waive, the peer lists nothing (no build site). `Game.legal_orders` "
            "leaves such a power out, as nothing is due.",
            f"- unexplained: {len(legal['unexplained'])}",
            *(f"  - {u}" for u in legal["unexplained"][:20]),
        ]
    lines += ["", "## Bugs found on realpolitik's side", "", *BUGS, ""]
    path.write_text("\n".join(lines), encoding="utf-8")


BUGS: list[str] = [
    "None so far: every order realpolitik lists as legal was accepted by the peer, and every "
    "difference is one of the categories above.",
]
