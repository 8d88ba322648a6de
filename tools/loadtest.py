"""A bounded load test of the game server, on loopback: starts ``realpolitik serve``
(SQLite, or PostgreSQL with ``--database``; ``--workers N`` processes), has simulated
players play for ``--seconds`` (each: fetch the game, its legal orders, give orders with
ready, send press 20% of the time, fetch the map 5% of the time, think 0.5 s ± 50%), then
reports throughput, p50/p99/max latency, errors, phases processed, the server's memory,
and checks that no phase was processed twice and no acknowledged order was lost.

    python tools/loadtest.py --players 60 --seconds 30
    python tools/loadtest.py --database postgresql+psycopg://... --workers 2

Exit status 1 if any request failed or a check did not hold."""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

HUMANS = 3  # per game; bots take the other seats


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _rss_kib(pid: int) -> int:
    """Resident memory of a process and its children (the workers), in KiB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.acked: dict[tuple[int, str, str], list[str]] = {}

    def timed(self, kind: str, call: Any, *ok: int) -> httpx.Response | None:
        start = time.perf_counter()
        try:
            r: httpx.Response = call()
        except httpx.HTTPError as exc:
            with self.lock:
                self.errors.append(f"{kind}: {type(exc).__name__}")
            return None
        took = time.perf_counter() - start
        with self.lock:
            self.times[kind].append(took)
            if r.status_code not in (ok or (200,)):
                self.errors.append(f"{kind}: {r.status_code} {r.text[:120]}")
        return r


def _player(base: str, token: str, gid: int, seed: int, until: float, stats: Stats) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base + "/api", headers=headers, timeout=60) as c:
        while time.monotonic() < until:
            r = stats.timed("view", lambda: c.get(f"/games/{gid}"))
            if r is None or r.status_code != 200:
                time.sleep(0.5)
                continue
            game = r.json()
            if game["status"] != "active":
                return
            stats.timed("messages", lambda: c.get(f"/games/{gid}/messages"))
            phase = game["phase"]
            for power in game["my_powers"]:
                mine = game["orders"].get(power, {})
                if not mine.get("to_act") or mine.get("ready"):
                    continue
                legal = stats.timed(
                    "legal", lambda p=power: c.get(f"/games/{gid}/legal", params={"power": p})
                )
                if legal is None or legal.status_code != 200:
                    continue
                options = legal.json()
                orders = [] if phase.endswith("A") else [
                    rng.choice(opts)["order"] for k, opts in options.items() if k != "WAIVE"
                ]  # fmt: skip
                put = stats.timed(
                    "orders",
                    lambda p=power, o=orders: c.put(
                        f"/games/{gid}/orders", json={"power": p, "orders": o, "ready": True}
                    ),
                    200,
                    409,  # the phase moved on meanwhile: nothing stored, said so
                )
                if put is not None and put.status_code == 200:
                    body = put.json()
                    with stats.lock:
                        stats.acked[(gid, body["phase"], power)] = [
                            o["order"] for o in body["orders"]
                        ]
                if rng.random() < 0.2:
                    stats.timed(
                        "press",
                        lambda p=power: c.post(
                            f"/games/{gid}/messages", json={"sender": p, "body": "load test"}
                        ),
                        201,
                        409,  # press closed in this phase
                    )
            if rng.random() < 0.05:
                stats.timed("map", lambda: c.get(f"/games/{gid}/map.svg"))
            time.sleep(0.5 * rng.uniform(0.5, 1.5))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="rp-load-"))
    database = args.database or f"sqlite:///{work / 'load.sqlite3'}"
    port = _free_port()
    env = os.environ | {
        "REALPOLITIK_DATABASE_URL": database,
        "REALPOLITIK_LOG_LEVEL": "warning",
        "REALPOLITIK_LOGIN_ATTEMPTS_PER_ADDRESS": "1000000",
        "REALPOLITIK_SIGNUPS_PER_ADDRESS": "1000000",
        "REALPOLITIK_PASSWORD_TIME_COST": "1",
        "REALPOLITIK_PASSWORD_MEMORY_KIB": "1024",
    }
    log = (work / "server.log").open("wb")
    cmd = [sys.executable, "-m", "realpolitik.cli", "serve", "--port", str(port)]
    cmd += ["--workers", str(args.workers)]
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/meta", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.3)
        games: list[tuple[int, list[str]]] = []
        with httpx.Client(base_url=base + "/api", timeout=60) as anon:
            tokens = []
            for k in range(args.players):
                r = anon.post("/accounts", json={"username": f"load{k}", "password": "password!"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
        for g in range(0, len(tokens), HUMANS):
            group = tokens[g : g + HUMANS]
            with httpx.Client(base_url=base + "/api", timeout=60) as c:
                host = {"Authorization": f"Bearer {group[0]}"}
                body = {"name": f"load {g}", "deadlines": "none", "public": True}
                gid = c.post("/games", json=body, headers=host).json()["id"]
                for token in group[1:]:
                    c.post(
                        f"/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {token}"}
                    )
                c.post(f"/games/{gid}/start", headers=host).raise_for_status()
            games.append((gid, group))
        stats = Stats()
        rss_before = _rss_kib(server.pid)
        started = time.monotonic()
        until = started + args.seconds
        threads = [
            threading.Thread(target=_player, args=(base, token, gid, k * 7 + j, until, stats))
            for k, (gid, group) in enumerate(games)
            for j, token in enumerate(group)
        ]
        for th in threads:
            th.start()
        samples = []
        while any(th.is_alive() for th in threads):
            samples.append(_rss_kib(server.pid))
            time.sleep(1)
            if time.monotonic() > until + 120:
                stats.errors.append("players still running two minutes after the end")
                break
        elapsed = time.monotonic() - started
        problems = _check(base, games, stats)
        report(args, stats, elapsed, rss_before, samples, problems, database)
        return 1 if stats.errors or problems else 0
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def _check(base: str, games: list[tuple[int, list[str]]], stats: Stats) -> list[str]:
    """No phase twice (history), no acknowledged order lost (each in its phase's record,
    or still stored for the current phase)."""
    problems: list[str] = []
    phases = 0
    with httpx.Client(base_url=base + "/api", timeout=60) as c:
        for gid, group in games:
            history = [h["phase"] for h in c.get(f"/games/{gid}/history").json()]
            phases += len(history)
            if len(history) != len(set(history)):
                problems.append(f"game {gid}: a phase processed twice: {history}")
            view = c.get(f"/games/{gid}", headers={"Authorization": f"Bearer {group[0]}"}).json()
            for (g, phase, power), orders in stats.acked.items():
                if g != gid or not orders:
                    continue
                if phase == view["phase"]:
                    continue  # still pending
                record = c.get(f"/games/{gid}/history/{phase}").json()
                judged = {e["order"] for e in record.get("orders", {}).get(power, [])}
                if not set(orders) <= judged:
                    problems.append(f"game {gid} {phase} {power}: orders lost")
    stats.times["phases processed"] = [float(phases)]
    return problems


def report(
    args: argparse.Namespace,
    stats: Stats,
    elapsed: float,
    rss_before: int,
    samples: list[int],
    problems: list[str],
    database: str,
) -> None:
    every = [t for kind, ts in stats.times.items() if kind != "phases processed" for t in ts]
    phases = int(stats.times.get("phases processed", [0.0])[0])
    kind = "PostgreSQL" if database.startswith("postgresql") else "SQLite"
    print(f"# load test: {kind}, {args.workers} process(es), {args.players} players, "
          f"{args.seconds:.0f} s")  # fmt: skip
    print()
    print(
        "| requests | throughput | p50 | p99 | max | errors | phases | RSS start -> peak -> end |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    peak = max(samples, default=0)
    end = samples[-1] if samples else 0
    print(
        f"| {len(every)} | {len(every) / elapsed:.1f} rps "
        f"| {1000 * _percentile(every, 0.5):.0f} ms | {1000 * _percentile(every, 0.99):.0f} ms "
        f"| {1000 * max(every, default=0):.0f} ms | {len(stats.errors)} | {phases} "
        f"| {rss_before // 1024} -> {peak // 1024} -> {end // 1024} MB |"
    )
    print()
    print("| request | count | p50 | p99 |")
    print("|---|---:|---:|---:|")
    for name, times in sorted(stats.times.items()):
        if name == "phases processed":
            continue
        print(
            f"| {name} | {len(times)} | {1000 * statistics.median(times):.0f} ms "
            f"| {1000 * _percentile(times, 0.99):.0f} ms |"
        )
    print()
    print(f"checks: no phase processed twice, no acknowledged order lost: "
          f"{'held' if not problems else 'FAILED'}")  # fmt: skip
    for line in stats.errors[:10] + problems[:10]:
        print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a new SQLite file)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
