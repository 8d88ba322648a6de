"""A bounded load test of the game server, on loopback: starts ``realpolitik serve``
(SQLite, or PostgreSQL with ``--database``; ``--workers N`` processes), has simulated
players play for ``--seconds`` as people at the game page do (``--mode push``: each holds
the game's event stream and fetches the game when it changed, press alone fetching only
the press; ``--mode poll``: fetches it every 2.5 s), order some seconds into each phase
(``--think``, random legal orders with ready) and write press now and then
(``--press-every``), 3 players a game with bots (``--bots``) in the other seats; then
reports throughput, p50/p99/max latency, errors, phases processed, the server's CPU time
per request and memory (start, warmed up, peak, end), the machine's load average, and
checks that no phase was processed twice and no acknowledged order was lost.

    python tools/loadtest.py --players 200 --seconds 60
    python tools/loadtest.py --database postgresql+psycopg://... --workers 2

Exit status 1 if any request failed or a check did not hold."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import ssl
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
READS = {"view", "messages", "legal", "map"}
# one TLS context for every client (loopback is plain HTTP, but each httpx.Client would
# load the CA certificates again: 50 ms of the players' CPU, 20 s for 200 players)
TLS = ssl.create_default_context()  # GETs: sent again on a closed connection


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


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children (the workers)."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.acked: dict[tuple[int, str, str], list[str]] = {}
        self.retried = 0
        self.when: list[tuple[float, float]] = []  # (time answered, latency) of each request

    def timed(self, kind: str, call: Any, *ok: int) -> httpx.Response | None:
        start = time.perf_counter()
        try:
            try:
                r: httpx.Response = call()
            except (httpx.ReadError, httpx.RemoteProtocolError):
                if kind not in READS:
                    raise
                # the server closed an idle kept-alive connection as it was reused: a
                # browser sends an idempotent request again, and so does this
                with self.lock:
                    self.retried += 1
                r = call()
        except httpx.HTTPError as exc:
            with self.lock:
                self.errors.append(f"{kind}: {type(exc).__name__}")
            return None
        took = time.perf_counter() - start
        with self.lock:
            self.times[kind].append(took)
            self.when.append((time.monotonic(), took))
            if r.status_code not in (ok or (200,)):
                self.errors.append(f"{kind}: {r.status_code} {r.text[:120]}")
        return r


def _listen(
    c: httpx.Client, gid: int, until: float, news: threading.Event, heard: dict[str, Any]
) -> None:
    """Hold the game's event stream open (reconnecting, as a browser does); each change
    event is put in ``heard["event"]`` and sets ``news``."""
    while time.monotonic() < until:
        try:
            with c.stream("GET", f"/games/{gid}/events", timeout=None) as stream:
                kind = None
                for line in stream.iter_lines():
                    if line.startswith("event: "):
                        kind = line.removeprefix("event: ")
                    elif line.startswith("data: ") and kind == "change":
                        heard["event"] = json.loads(line.removeprefix("data: "))
                        news.set()
                    if time.monotonic() >= until:
                        return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)  # the stream ended or broke: reconnect


class _Player:
    """One player, as a person at the game page: the page fetches the game when it
    changed (push: an event on the stream, press alone fetching only the press; poll:
    every 2.5 s), and after each of the player's own actions; the player orders some
    seconds after a phase begins (random legal orders, with ready) and writes press now
    and then; 5% of the fetches also draw the map."""

    def __init__(
        self, c: httpx.Client, gid: int, rng: random.Random, stats: Stats, args: Any
    ) -> None:
        self.c, self.gid, self.rng, self.stats = c, gid, rng, stats
        self.think = (args.think / 3, args.think * 5 / 3)  # seconds before ordering
        self.press_every = args.press_every
        self.last = 0  # the last message read
        self.game: dict[str, Any] = {}
        self.phase = ""
        self.act_at = 0.0
        self.press_at = time.monotonic() + rng.uniform(0, 2 * self.press_every)

    def fetch(self, view: bool = True, press: bool = True) -> bool:
        c, gid, stats = self.c, self.gid, self.stats
        if view:
            r = stats.timed("view", lambda: c.get(f"/games/{gid}"))
            if r is None or r.status_code != 200:
                return False
            self.game = r.json()
            if self.game.get("phase") != self.phase:
                self.phase = self.game.get("phase") or ""
                self.act_at = time.monotonic() + self.rng.uniform(*self.think)
            if self.rng.random() < 0.05:
                stats.timed("map", lambda: c.get(f"/games/{gid}/map.svg"))
        if not press:
            return True
        got = stats.timed(
            "messages", lambda a=self.last: c.get(f"/games/{gid}/messages", params={"after": a})
        )
        if got is not None and got.status_code == 200 and got.json():
            self.last = max(m["id"] for m in got.json())
        return True

    def due(self) -> list[str]:
        orders = self.game.get("orders") or {}
        return [
            p for p in self.game.get("my_powers", [])
            if orders.get(p, {}).get("to_act") and not orders.get(p, {}).get("ready")
        ]  # fmt: skip

    def act(self) -> bool:
        """Order (when thought enough) and write press (when it is time); whether anything
        was done (the page then fetches the game again)."""
        now, acted = time.monotonic(), False
        if now >= self.act_at:
            for power in self.due():
                self.order(power)
                acted = True
        if now >= self.press_at and self.game.get("my_powers"):
            self.press_at = now + self.rng.uniform(0, 2 * self.press_every)
            power = self.rng.choice(self.game["my_powers"])
            self.stats.timed(
                "press",
                lambda: self.c.post(
                    f"/games/{self.gid}/messages", json={"sender": power, "body": "load test"}
                ),
                201,
                409,  # press closed in this phase
            )
            acted = True
        return acted

    def order(self, power: str) -> None:
        c, gid, stats = self.c, self.gid, self.stats
        legal = stats.timed("legal", lambda: c.get(f"/games/{gid}/legal", params={"power": power}))
        if legal is None or legal.status_code != 200:
            return
        options = legal.json()
        orders = [] if self.phase.endswith("A") else [
            self.rng.choice(opts)["order"] for k, opts in options.items() if k != "WAIVE"
        ]  # fmt: skip
        put = stats.timed(
            "orders",
            lambda: c.put(
                f"/games/{gid}/orders",
                json={"power": power, "orders": orders, "ready": True, "phase": self.phase},
            ),
            200,
            409,  # the phase moved on meanwhile: nothing stored, said so
        )
        if put is not None and put.status_code == 200:
            body = put.json()
            with stats.lock:
                stats.acked[(gid, body["phase"], power)] = [o["order"] for o in body["orders"]]

    def wake_at(self) -> float:
        return min(self.press_at, self.act_at if self.due() else self.press_at)


def _player(
    base: str, token: str, gid: int, seed: int, until: float, stats: Stats, args: Any
) -> None:
    ramp = min(args.ramp, args.seconds / 4)
    time.sleep(random.Random(-seed).uniform(0, ramp))  # the players arrive over the ramp
    headers = {"Authorization": f"Bearer {token}"}
    news = threading.Event()
    heard: dict[str, Any] = {}
    with (
        httpx.Client(base_url=base + "/api", headers=headers, timeout=60, verify=TLS) as c,
        httpx.Client(base_url=base + "/api", headers=headers, timeout=60, verify=TLS) as push,
    ):
        me = _Player(c, gid, random.Random(seed), stats, args)
        if args.mode == "push":
            listener = threading.Thread(
                target=_listen, args=(push, gid, until, news, heard), daemon=True
            )
            listener.start()
        seen: dict[str, Any] = {}
        view = press = True
        while time.monotonic() < until:
            if not me.fetch(view, press):
                time.sleep(0.5)
                continue
            if me.game.get("status") not in ("active", None):
                return
            if me.act():
                view = press = True  # the page fetches the game after an action of mine
                continue
            if args.mode == "poll":
                time.sleep(min(2.5, max(0.0, me.wake_at() - time.monotonic())))
                view = press = True
                continue
            if news.wait(timeout=max(0.0, min(me.wake_at(), until) - time.monotonic())):
                news.clear()
                event = dict(heard.get("event") or {})
                press_only = {k for k in event if event[k] != seen.get(k)} <= {"message"}
                press = event.get("message", 0) > me.last  # press fetched on its news only
                view, seen = not press_only or not seen, event
            else:
                view = press = False  # my own time to act: the page shows what it had


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
        "REALPOLITIK_REQUESTS_PER_MINUTE": "0",  # all players on one address: measure, not limit
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
                body["bots"] = None if args.bots == "none" else args.bots
                if args.bots == "none" and len(group) > 1:  # the humans share the powers
                    body["players"] = len(group)
                elif args.bots == "none":  # one player left over: random bots beside
                    body["bots"] = "random"
                gid = c.post("/games", json=body, headers=host).json()["id"]
                for token in group[1:]:
                    c.post(
                        f"/games/{gid}/join", json={}, headers={"Authorization": f"Bearer {token}"}
                    )
                begun = c.post(f"/games/{gid}/start", headers=host)
                if begun.status_code != 409:  # 409: started when its last seat was taken
                    begun.raise_for_status()
            games.append((gid, group))
        stats = Stats()
        rss_before = _rss_kib(server.pid)
        cpu_before = _cpu_seconds(server.pid)
        load_before = os.getloadavg()[0]
        client_cpu = time.process_time()
        started = time.monotonic()
        until = started + args.seconds
        threads = [
            threading.Thread(target=_player, args=(base, token, gid, k * 7 + j, until, stats, args))
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
        machine = {
            "cpu": _cpu_seconds(server.pid) - cpu_before,
            "load": (load_before, os.getloadavg()[0]),
            "client": time.process_time() - client_cpu,
            "warm": started + min(args.ramp, args.seconds / 4) + 5.0,
            "start": started,
        }
        problems = _check(base, games, stats)
        report(args, stats, elapsed, rss_before, samples, problems, database, machine)
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
    machine: dict[str, Any],
) -> None:
    every = [t for kind, ts in stats.times.items() if kind != "phases processed" for t in ts]
    phases = int(stats.times.get("phases processed", [0.0])[0])
    kind = "PostgreSQL" if database.startswith("postgresql") else "SQLite"
    print(f"# load test: {kind}, {args.workers} process(es), {args.players} players "
          f"({args.mode}, bots {args.bots}), {args.seconds:.0f} s")  # fmt: skip
    print()
    print(
        "| requests | throughput | p50 | p99 | max | errors | phases | server CPU per request"
        " | RSS start -> warm -> peak -> end | load average |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    peak = max(samples, default=0)
    end = samples[-1] if samples else 0
    settled = samples[len(samples) // 3] if samples else 0  # a third of the way: warmed up
    load = machine["load"]
    print(
        f"| {len(every)} | {len(every) / elapsed:.1f} rps "
        f"| {1000 * _percentile(every, 0.5):.0f} ms | {1000 * _percentile(every, 0.99):.0f} ms "
        f"| {1000 * max(every, default=0):.0f} ms | {len(stats.errors)} | {phases} "
        f"| {1000 * machine['cpu'] / max(1, len(every)):.1f} ms "
        f"| {rss_before // 1024} -> {settled // 1024} -> {peak // 1024} -> {end // 1024} MB "
        f"| {load[0]:.1f} -> {load[1]:.1f} ({os.cpu_count()} cores) |"
    )
    warm = [took for at, took in stats.when if at >= machine["warm"]]
    print()
    print(
        f"after the first {machine['warm'] - machine['start']:.0f} s (the players arriving):"
        f" {len(warm)} requests, p50 {1000 * _percentile(warm, 0.5):.0f} ms,"
        f" p99 {1000 * _percentile(warm, 0.99):.0f} ms"
    )
    print(f"the simulated players' own CPU: {machine['client']:.1f} s")
    windows: dict[int, list[float]] = defaultdict(list)
    for at, took in stats.when:
        windows[int((at - machine["start"]) // 10)].append(took)
    print(
        "p99 by 10 s window: "
        + ", ".join(
            f"{10 * k}s {1000 * _percentile(ts, 0.99):.0f} ms ({len(ts)})"
            for k, ts in sorted(windows.items())
        )
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
    print(f"reads sent again on a kept-alive connection the server had closed: {stats.retried}")
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
    parser.add_argument(
        "--bots",
        choices=["random", "heuristic", "search", "none"],
        default="random",
        help="the bots in the empty seats (default random: here a game moves a phase every"
        " few seconds, a real one every day, so its bots' thinking would be out of proportion)",
    )
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which the players arrive"
    )
    parser.add_argument(
        "--think", type=float, default=15.0, help="mean seconds before ordering in a phase"
    )
    parser.add_argument(
        "--press-every", type=float, default=30.0, help="mean seconds between a player's press"
    )
    parser.add_argument(
        "--mode",
        choices=["push", "poll"],
        default="push",
        help="players hold the event stream (push, the page's way) or poll every 2.5 s",
    )
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
