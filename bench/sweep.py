"""The agreement check (``agreement.py``) on many more games than the corpus: random games of
``corpus.py``'s player from other seeds, and games biased toward the hard parts
(``stress.py``), each batch resolved by both engines and every difference classified.

    .venv/bin/python bench/sweep.py --peer bench/.peer-venv/bin/python --games 50 \\
        --modes random convoy --out /tmp/sweep

A difference ``agreement.compare`` leaves unexplained is explained, if it can be, by
realpolitik resolving the phase as the peer would: with the peer's known bugs emulated
(``PEER_BUGS``: each changes the orders, or the peer's result, the way the peer errs), with
other DATC choices (``MORE_CHOICES``), or as a reporting difference (``DISRUPTED``,
``WAIVED``); what is left is resolved by the peer alone (``HARNESS``), then listed.

Writes, in ``--out``, each batch's corpus and a ``summary.json`` (counts per mode and phase
kind, the examples, the unexplained differences in full), and prints the counts.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import corpus
import ours
import stress
from agreement import ALTERNATIVES, _differences, compare
from realpolitik import rules_for
from realpolitik.formats.situation import read_orders, read_situation

HERE = Path(__file__).parent
OURS = sys.executable
MODES: dict[str, list[str]] = {
    "random": [],
    "convoy": ["convoy"],
    "contest": ["contest"],
    "h2h": ["h2h"],
    "self": ["self"],
    "circle": ["circle"],
    "mixed": list(stress.TACTICS),
}
# choices tried, after the report's, to explain a difference (one run of realpolitik each)
MORE_CHOICES = ["4.D.8=a", "4.D.8=b", "4.D.8=c", "4.A.2=c", "4.A.2=c,4.A.3=c"]


# peer bugs, each emulated: realpolitik resolving the phase as the peer does gives the
# peer's result (see ``peer_bug``)
PEER_BUGS: dict[str, str] = {
    "own support voided": (
        "in a head-to-head battle, the peer voids a support of one side's move given by the "
        "power of the unit it attacks; by the DATC it still counts as that move's defend "
        "strength against the other side (section 5; 6.E.12: a support of an attack on "
        "one's own unit still has an effect), so the other side does not win"
    ),
    "own support counted by convoy": (
        "the peer counts a support of a move by convoy into a province holding the "
        "supporter's own unit, and dislodges that unit (DATC 6.D.12: a power cannot support "
        "the dislodgement of its own unit, however the attacker comes)"
    ),
    "convoyed army cuts no support for its fleet": (
        "the peer does not let a convoyed army cut a support given *for* (to hold) a fleet "
        "that convoys it; realpolitik cuts it, as any attack from another province than the "
        "one supported into (rulebook; the DATC's paradox rules, 4.A.2, only concern "
        "supports of attacks on a convoying fleet)"
    ),
    "convoy beaten by its own power's support": (
        "the peer finds a convoy disrupted when its fleet is attacked by a move that beats "
        "it only with supports of the fleet's own power (which cannot help dislodge it), or "
        "that stands off with it from the army's destination; the fleet is not dislodged, so "
        "by the DATC (6.D.12, 6.F: only a dislodged fleet disrupts a convoy) the convoy holds"
    ),
    "retreats after a convoyed attack": (
        "when the attacker came by convoy, the peer lets the dislodged unit retreat to every "
        "adjacent province, occupied or left empty by a standoff included (its test joins "
        "'not occupied or contested and not the attacker's origin' and 'the attacker came by "
        "convoy' with `or`); the rulebook and DATC 6.H allow neither"
    ),
}


HARNESS = "peer state carried over"
HARNESS_TEXT = (
    "resolved alone (a fresh Game), the peer agrees; after the "
    "phase before it in the same Game (``peer.py resolve`` reuses one Game, loading each "
    "phase with ``set_state``) it does not"
)


def _emulate(
    entry: dict[str, Any], void: bool, count: bool
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The phase with its supports of moves into a province holding the supporter's own unit
    changed as the peer treats them: by land dropped (``void``), by convoy given by a unit
    of the mover's power (``count``); and those units, as (unit, its power, the mover's)."""
    owner = {u.split()[1][:3]: p for p, units in entry["units"].items() for u in units}
    moves = {
        " ".join(o.split()[:2]): (p, o)
        for p, orders in entry["orders"].items()
        for o in orders
        if " - " in o and " S " not in o and " C " not in o
    }
    units = {p: list(v) for p, v in entry["units"].items()}
    orders: dict[str, list[str]] = {p: [] for p in entry["orders"]}
    lent: list[tuple[str, str, str]] = []
    for power, items in entry["orders"].items():
        for o in items:
            w = o.split()
            if len(w) == 7 and w[2] == "S" and w[5] == "-" and owner.get(w[6][:3]) == power:
                mover = moves.get(" ".join(w[3:5]))
                convoyed = mover is not None and mover[1].endswith("VIA")
                if convoyed and count and mover is not None and mover[0] != power:
                    unit = " ".join(w[:2])
                    units[power].remove(unit)
                    units.setdefault(mover[0], []).append(unit)
                    orders.setdefault(mover[0], []).append(o)
                    lent.append((unit, power, mover[0]))
                    continue
                victim = moves.get(next((u for u in moves if u[2:5] == w[6][:3]), ""))
                swap = victim is not None and victim[1].split()[3][:3] == w[4][:3]
                if not convoyed and void and swap:
                    continue
            orders[power].append(o)
    return {**entry, "units": units, "orders": orders}, lent


def _given_back(res: dict[str, Any], lent: list[tuple[str, str, str]]) -> dict[str, Any]:
    """The emulated resolution with the lent supporting units (which do not move) and the
    centres they stand on given back to their own power."""
    units = {p: list(v) for p, v in res["units"].items()}
    centers = {p: list(v) for p, v in res["centers"].items()}
    for unit, power, other in lent:
        if unit in units.get(other, []):
            units[other].remove(unit)
            units.setdefault(power, []).append(unit)
        prov = unit.split()[1][:3]
        if prov in centers.get(other, []):
            centers[other].remove(prov)
            centers.setdefault(power, []).append(prov)
    return {
        **res,
        "units": {p: sorted(v) for p, v in sorted(units.items()) if v},
        "centers": {p: sorted(v) for p, v in sorted(centers.items()) if v},
    }


def _unconvoyed(mine: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """``mine`` without the convoy orders of the fleets attacked by a move supported by the
    fleet's own power, or by the unit at the convoyed army's destination."""
    owner = {u.split()[1][:3]: p for p, units in entry["units"].items() for u in units}
    texts = [(p, o) for p, orders in entry["orders"].items() for o in orders]
    attacked: set[str] = set()
    for p, o in texts:
        w = o.split()
        if len(w) == 7 and w[2] == "S" and w[5] == "-" and owner.get(w[6][:3]) == p:
            attacked.add(w[6][:3])
    for _, o in texts:
        w = o.split()
        if len(w) >= 6 and w[2] == "C":
            dest = w[-1][:3]
            if any(
                x.startswith(f"{u} - {w[1][:3]}") for u in _units_in(entry, dest) for _, x in texts
            ):
                attacked.add(w[1][:3])
    orders = {
        p: [o for o in v if not (o.split()[2] == "C" and o.split()[1][:3] in attacked)]
        for p, v in mine["orders"].items()
    }
    return {**mine, "orders": orders}


def _units_in(entry: dict[str, Any], prov: str) -> list[str]:
    return [u for units in entry["units"].values() for u in units if u.split()[1][:3] == prov]


def _resolve(entry: dict[str, Any], choices: list[str]) -> dict[str, Any]:
    rules = rules_for("datc")
    for choice in choices:
        rules = rules.with_choice(*choice.split("="))
    situation = {k: v for k, v in entry.items() if k != "game"}
    phase, position = read_situation(situation, ours.MAP)
    orders, _ = read_orders(entry["orders"], "en", ours.MAP)
    return ours.neutral(phase, position, orders, rules)


def _trimmed(peer: dict[str, Any], mine: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The peer's result with the retreats of each unit dislodged by a convoyed army cut down
    to realpolitik's, where the peer's include them."""
    convoyed = {
        o.split()[3][:3]
        for orders in entry["orders"].values()
        for o in orders
        if o.endswith(" VIA")
    }
    ours_by_unit = {
        d.partition(" -> ")[0]: d for items in mine["dislodged"].values() for d in items
    }
    dislodged = {}
    for power, items in peer["dislodged"].items():
        kept = []
        for d in items:
            unit, _, where = d.partition(" -> ")
            theirs = ours_by_unit.get(unit, "").partition(" -> ")[2].split()
            if (
                unit.split()[1][:3] in convoyed
                and set(theirs) - {"(destroyed)"} <= set(where.split())
                and unit in ours_by_unit
            ):
                d = ours_by_unit[unit]
            kept.append(d)
        dislodged[power] = kept
    if peer["next"].endswith("R") and all(
        d.endswith("(destroyed)") for items in dislodged.values() for d in items
    ):
        # nobody left to retreat: the phase after the retreats, as realpolitik's
        return {**peer, "dislodged": dislodged, "next": mine["next"], "centers": mine["centers"]}
    return {**peer, "dislodged": dislodged}


def peer_bug(entry: dict[str, Any], peer: dict[str, Any]) -> str | None:
    """What makes realpolitik's resolution the peer's: the peer bugs emulated (``peer bug:
    ...``, joined by ``+``) and the rule choices taken; ``None`` if nothing does."""
    if entry["phase"].endswith("A"):
        bare = {p: [o for o in v if o != "WAIVE"] for p, v in entry["orders"].items()}
        if not _differences(_resolve({**entry, "orders": bare}, []), peer, entry)[0]:
            return WAIVED
        return None
    for void, count, beaten, occupied in (
        (v, c, b, o)
        for o in (False, True)
        for b in (False, True)
        for c in (False, True)
        for v in (False, True)
    ):
        mine, lent = _emulate(entry, void, count)
        if beaten:
            mine = _unconvoyed(mine, entry)
        for choices in ([], *(c.split(",") for c in (*ALTERNATIVES, *MORE_CHOICES))):
            res = _given_back(_resolve(mine, choices), lent)
            theirs = _trimmed(peer, res, entry) if occupied else peer
            left = _differences(res, theirs, entry)[0]
            fleet = bool(left) and all(
                _fleet_support(entry, d) or _disrupted_support(d, res) for d in left
            )
            if left and not fleet:
                continue
            if fleet and not all(_fleet_support(entry, d) for d in left):
                choices = [*choices, DISRUPTED]
                fleet = any(_fleet_support(entry, d) for d in left)
            on = (void, count, fleet, beaten, occupied)
            found = [n for n, o in zip(PEER_BUGS, on, strict=True) if o]
            bugs = "peer bug: " + " + ".join(found) if found else ""
            return " + ".join(x for x in (bugs, *choices) if x) or None
    return None


DISRUPTED = "disrupted convoy"
DISRUPTED_TEXT = (
    "A support of a move by convoy whose convoy is disrupted: realpolitik reports the "
    "support *given* (not cut; the move fails), the peer *void*. No effect on any unit."
)
WAIVED = "waive among too many builds"
WAIVED_TEXT = (
    "More build orders than builds due, one of them `WAIVE`: realpolitik takes the first "
    "orders due (DATC 4.D.4 b, and 4.D.7 a: a waive is an order that uses up a build); the "
    "peer drops `WAIVE` (see *waive*) and builds the next. Notation, as *waive*."
)


def _disrupted_support(difference: str, mine: dict[str, Any]) -> bool:
    """Whether ``difference`` is a support given by realpolitik, void for the peer, of a
    move whose convoy realpolitik finds disrupted."""
    order, _, said = difference.partition(": ")
    w = order.split()
    if said != "given (peer: not given)" or len(w) != 7 or w[2] != "S":
        return False
    supported = " ".join(w[3:5])
    return any(
        " ".join(o.split()[:2]) == supported and "disrupted" in reason
        for o, reason in mine["reasons"].items()
    )


def _fleet_support(entry: dict[str, Any], difference: str) -> bool:
    """Whether ``difference`` is a support for a convoying fleet, cut by realpolitik, given
    by the peer, and the army the fleet convoys moves to the supporter."""
    order, _, said = difference.partition(": ")
    w = order.split()
    if said != "not given (peer: given)" or len(w) != 5 or w[2] != "S" or w[3] != "F":
        return False
    texts = [o for orders in entry["orders"].values() for o in orders]
    fleet = f"F {w[4]} C "
    for o in texts:
        if o.startswith(fleet):
            army = o[len(fleet) :].split(" - ")
            if len(army) == 2 and army[1][:3] == w[1][:3]:
                return True
    return False


def run_json(python: str, script: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [python, str(HERE / script), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} {' '.join(args)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def batch_lines(mode: str, seed: int, games: int, last_year: int) -> list[str]:
    if mode == "random":
        rng = random.Random(seed)
        meta = {"seed": seed, "games": games, "last_year": last_year, "rules": corpus.RULES}
        lines = [json.dumps({"meta": meta})]
        for game in range(games):
            lines.extend(
                json.dumps(entry, sort_keys=True) for entry in corpus.play(game, rng, last_year)
            )
        return lines
    return stress.generate(seed, games, last_year, MODES[mode])


def sweep_batch(peer: str, path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    choices = [*ALTERNATIVES, *MORE_CHOICES]
    with ThreadPoolExecutor(2) as pool:
        theirs = pool.submit(run_json, peer, "peer.py", "resolve", "--corpus", str(path))
        ours = run_json(OURS, "ours.py", "resolve", "--corpus", str(path))
        alternatives = {
            c: run_json(
                OURS,
                "ours.py",
                "resolve",
                "--corpus",
                str(path),
                *(a for one in c.split(",") for a in ("--choice", one)),
            )["phases"]
            for c in choices
        }
        peer_out = theirs.result()
    lines = path.read_text(encoding="utf-8").splitlines()
    phases = [json.loads(line) for line in lines[1:]]
    summary = compare(ours["phases"], peer_out["phases"], phases, alternatives)
    left = []
    for case in summary["unexplained"]:
        k = int(case["where"].split("corpus line ")[1].rstrip(")")) - 2
        bug = peer_bug(phases[k], peer_out["phases"][k])
        if bug is None:
            left.append(case)
            continue
        summary["counts"][bug] = summary["counts"].get(bug, 0) + 1
        summary["counts"]["unexplained"] -= 1
        if len(summary["examples"].setdefault(bug, [])) < 3:
            summary["examples"][bug].append(case["where"])
    summary["unexplained"] = []
    for case in left:
        k = int(case["where"].split("corpus line ")[1].rstrip(")")) - 2
        one = path.with_suffix(".one.jsonl")
        one.write_text(f"{lines[0]}\n{lines[k + 1]}\n", encoding="utf-8")
        alone = run_json(peer, "peer.py", "resolve", "--corpus", str(one))["phases"][0]
        one.unlink()
        bug = peer_bug(phases[k], alone) or ""
        if not _differences(ours["phases"][k], alone, phases[k])[0] or bug:
            bug = " + ".join(x for x in (HARNESS, bug) if x)
            summary["counts"][bug] = summary["counts"].get(bug, 0) + 1
            summary["counts"]["unexplained"] -= 1
            summary["examples"].setdefault(bug, []).append(case["where"])
        else:
            summary["unexplained"].append(case)
    return summary, phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="the peer venv's python")
    parser.add_argument("--games", type=int, default=50, help="games per mode")
    parser.add_argument("--batch", type=int, default=25, help="games per batch")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--last-year", type=int, default=1915)
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    totals: dict[str, Counter[str]] = {}
    kinds: dict[str, Counter[str]] = {}
    examples: dict[str, list[str]] = {}
    unexplained: list[dict[str, Any]] = []
    for m, mode in enumerate(args.modes):
        for b in range(0, args.games, args.batch):
            seed = args.seed + 1000 * m + b
            games = min(args.batch, args.games - b)
            path = args.out / f"{mode}-{seed}.jsonl"
            path.write_text(
                "\n".join(batch_lines(mode, seed, games, args.last_year)) + "\n", encoding="utf-8"
            )
            summary, phases = sweep_batch(args.peer, path)
            totals.setdefault(mode, Counter()).update(summary["counts"])
            totals[mode]["games"] += games
            kinds.setdefault(mode, Counter()).update(p["phase"][-1] for p in phases)
            for category, where in summary["examples"].items():
                examples.setdefault(category, []).extend(
                    f"{path.name}: {w}" for w in where[: 3 - len(examples.get(category, []))]
                )
            for case in summary["unexplained"]:
                unexplained.append({"corpus": path.name, **case})
            print(
                f"{path.name}: {summary['headline']}; after the emulations: "
                f"{len(summary['unexplained'])} unexplained",
                flush=True,
            )
    out = {
        "totals": {k: dict(v) for k, v in totals.items()},
        "kinds": {k: dict(v) for k, v in kinds.items()},
        "examples": examples,
        "unexplained": unexplained,
    }
    (args.out / "summary.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for mode in totals:
        print(mode, dict(kinds[mode]), dict(totals[mode]))
    print(f"unexplained: {len(unexplained)} phases (summary.json)")


if __name__ == "__main__":
    main()
