"""``realpolitik demo``: replay the rulebook's example game, phase by phase."""

from __future__ import annotations

import argparse
from typing import TextIO

from realpolitik.formats.replay import load_game_record, replay


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("demo", help="replay the rulebook's example game")
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    run_demo(stdout)
    return 0


LEGEND = "(* an order that did not work: failed, cut, disrupted, illegal, invalid or dislodged)"
"""The line that says what the mark after a result means."""


def run_demo(out: TextIO, name: str = "classic_1901_1902") -> None:
    record = load_game_record(name)
    out.write(f"{record['title']} (rules: {record['rules']})\n")
    out.write(f"{LEGEND}\n")
    for phase, result in replay(record):
        out.write(f"\n=== {result['phase']} ===\n")
        for power, entries in result["orders"].items():
            for entry in entries:
                mark = (
                    "" if entry["result"] in ("succeeds", "given", "available", "stands") else " *"
                )
                fate = f", {entry['unit']}" if "unit" in entry else ""
                reason = f" ({entry['reason']})" if entry["reason"] else ""
                out.write(
                    f"  {power:8} {entry['order']:24} {entry['result']}{fate}{mark}{reason}\n"
                )
        for power, entries in result["dislodged"].items():
            for d in entries:
                options = ", ".join(d["retreats"]) or "none: destroyed"
                out.write(f"  dislodged: {power} {d['unit']} (retreats: {options})\n")
        if phase["phase"].startswith("F") or phase["phase"].startswith("W"):
            counts = ", ".join(f"{p} {len(c)}" for p, c in result["centers"].items())
            out.write(f"  centres: {counts}\n")
        out.write(f"  next: {result['next_phase']}\n")
