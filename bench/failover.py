"""Losing a node with games on it.

    python3 -m bench.failover [--callers 200] [--timeout 240]

Starts a throwaway PostgreSQL server (``tests/support/postgres.py``) and
two ``cribbage-door serve`` nodes on it, A and B.  ``--callers``
registered callers (each from a loopback address of their own) log in,
half at each node, and play the computer into the first hand (a discard
and a card each); then node A is killed with ``kill -9``.  Every caller
of A calls node B at once, logs in and resumes; every caller of B goes on
playing where they were.  Prints:

- the games on the killed node, how many resumed, and how many came back
  with the same board and cards they showed before the kill (0 moves
  lost: every row of the board and both hands the same);
- the time from a caller calling again to their game on screen (p50,
  p99, max; the login's scrypt included), from the kill to each caller
  back in their game (they call again as soon as their line drops), and
  to the last;
- how many of B's callers played on after the kill.

With ``--balancer``, the callers call HAProxy (``contrib/haproxy``'s
configuration as shipped: ``balance source``, checks every second,
``option redispatch``, ``retries 2``; its nodes and ports made local) and
never a node: which node a caller lands on is the balancer's choice, the
callers of A are those whose line drops with it, and they call the
balancer again, which sends them to B.

Everything runs on loopback and stops by itself after ``--timeout``
seconds at most.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # (run from anywhere: the tests' helpers)

from tests.loopback.test_resume import GAME_ROWS, log_in, play_into_the_hand  # noqa: E402
from tests.support.player import telnet_caller  # noqa: E402
from tests.support.server import start_server_process  # noqa: E402

PASSWORD = "failover-secret"


HAPROXY = Path(__file__).resolve().parents[1] / "contrib" / "haproxy" / "cribbage-door.cfg"


def config(folder: Path, url: str, callers: int, balancer: bool = False) -> Path:
    """A configuration on ``url`` whose nodes share one peer secret, with
    room for every caller (``balancer``: behind HAProxy on this machine)."""
    path = folder / "door.toml"
    behind = '[server]\nproxies = ["127.0.0.1"]\n\n' if balancer else ""
    path.write_text(f'{behind}[store]\nurl = "{url}"\npeer_secret_file = "{folder / "peer_secret"}"\n\n'
                    f"[limits]\nmax_sessions = {callers + 50}\nprelogin_total = {callers + 50}\n"
                    f"prelogin_per_network = {callers + 50}\n"
                    f"password_per_address = 1000\npassword_per_account = 1000\n")
    path.chmod(0o600)
    return path


async def into_a_hand(port: int, name: str, source: str) -> tuple[Any, list[str]]:
    """``name`` calls ``port`` from ``source``, logs in and plays into the
    hand; returns the caller and the game rows on their screen."""
    caller = await telnet_caller(port, source=source)
    await log_in(caller.writer, caller.screen, name, PASSWORD)
    return caller, await play_into_the_hand(caller.writer, caller.screen)


async def back_in_game(port: int, name: str, source: str) -> tuple[Any, list[str], float]:
    """``name`` calls ``port`` again and resumes; the caller, the game rows
    and the seconds from the call to the game on screen."""
    started = time.monotonic()
    caller = await telnet_caller(port, source=source)
    await log_in(caller.writer, caller.screen, name, PASSWORD)
    screen = caller.screen
    await screen.wait_for(lambda: "Resume it?" in screen.text(), timeout=60)
    caller.writer.write(b"y")
    await screen.wait_for(lambda: screen.prompt().startswith("Your turn"), timeout=60)
    elapsed = time.monotonic() - started
    await asyncio.sleep(0.2)
    return caller, screen.lines()[GAME_ROWS], elapsed


def balancer_config(front: int, nodes: list[tuple[int, int]], maxconn: int) -> str:
    """contrib's HAProxy configuration with its telnet frontend on
    ``front`` and the nodes' (telnet port, web port) pairs for node-a and
    node-b, on loopback; ``maxconn``: the nodes' ``max_sessions``."""
    text = HAPROXY.read_text().replace("source 10.0.0.5", "source 127.0.0.1")
    text = text.replace("maxconn 200 send-proxy-v2", f"maxconn {maxconn} send-proxy-v2")
    text = re.sub(r"\n(frontend (ssh|rlogin|web)|backend door_(ssh|rlogin|web))\n(    .*\n)+", "\n", text)
    text = re.sub(r"(frontend telnet\n(?:    .*\n)*?)    bind :\d+", rf"\g<1>    bind 127.0.0.1:{front}", text)
    for name, (telnet, web) in zip(("node-a 10.0.0.11", "node-b 10.0.0.12"), nodes, strict=True):
        text = text.replace(f"server {name}:2323", f"server {name.split()[0]} 127.0.0.1:{telnet} check port {web}")
    return text


def web_port(proc: Any) -> int:
    """The web port a ``serve`` process announced at its start."""
    for line in proc.log_tail:
        found = re.search(r"web page on http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return int(found.group(1))
    raise AssertionError("the node did not say its web port")


async def start_balancer(front: int, nodes: list[Any], ports: list[int], maxconn: int, folder: Path) -> Any:
    """HAProxy in front of ``nodes`` (their telnet ``ports``), once it takes
    connections and sees both nodes up."""
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        sys.exit("bench.failover --balancer needs HAProxy (Debian: apt-get install haproxy)")
    path = folder / "haproxy.cfg"
    path.write_text(balancer_config(front, [(p, web_port(n)) for p, n in zip(ports, nodes, strict=True)], maxconn))
    proc = subprocess.Popen([haproxy, "-db", "-f", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    await asyncio.sleep(2.5)  # (listening, and two checks passed: both nodes up)
    return proc


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


async def run(callers: int, balancer: bool = False) -> None:
    from door.records.passwords import hash_password
    from door.records.store import Store
    from tests.support.postgres import PostgresServer, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        sys.exit("bench.failover needs PostgreSQL (Debian: apt-get install postgresql)")
    pg = PostgresServer(bin_dir)
    pg.start()
    nodes: list[Any] = []
    try:
        folder = Path(tempfile.mkdtemp(prefix="failover-"))
        url = pg.new_database()
        store = await Store.open(url)
        hashed = hash_password(PASSWORD)  # (one hash for all: the door checks each login as it would any)
        names = [f"Fo{i:03d}" for i in range(callers)]
        for name in names:
            await store.accounts.create(name, hashed)
        await store.close()
        conf = config(folder, url, callers, balancer)
        node_a, port_a, _ = start_server_process(folder / "a", "--config", str(conf), "--computer-delay", "0")
        nodes.append(node_a)
        node_b, port_b, _ = start_server_process(folder / "b", "--config", str(conf), "--computer-delay", "0")
        nodes.append(node_b)
        front = 0
        if balancer:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                front = int(s.getsockname()[1])
            nodes.append(await start_balancer(front, [node_a, node_b], [port_a, port_b], callers + 50, folder))
        sources = {name: f"127.0.{1 + i // 250}.{1 + i % 250}" for i, name in enumerate(names)}
        on_a, on_b = names[0::2], names[1::2]
        pace = asyncio.Semaphore(40)

        async def seated(name: str, port: int) -> tuple[Any, list[str]]:
            async with pace:
                return await into_a_hand(port, name, sources[name])

        print(f"{callers} callers into a hand against the computer, "
              + ("through HAProxy (contrib/haproxy/cribbage-door.cfg) ..." if balancer else
                 f"{len(on_a)} at node A, {len(on_b)} at node B ..."), flush=True)
        started = time.monotonic()
        seats = await asyncio.gather(*(seated(n, front if balancer else port_a if n in on_a else port_b)
                                       for n in names))
        before = dict(zip(names, seats, strict=True))
        print(f"  all in their games in {time.monotonic() - started:.1f} s", flush=True)
        killed = time.monotonic()
        node_a.send_signal(signal.SIGKILL)
        node_a.wait(10)
        port_b = front if balancer else port_b
        since_kill: list[float] = []

        async def returning(name: str) -> tuple[str, list[str] | None, float] | None:
            """A caller of A calls again as soon as their line drops (``None``: it did not: a caller of B)."""
            try:
                await asyncio.wait_for(asyncio.shield(before[name][0].done), 3 if balancer else 10)
            except TimeoutError:
                return None
            try:
                caller, rows, elapsed = await back_in_game(port_b, name, sources[name])
                since_kill.append(time.monotonic() - killed)
                caller.close()
                return name, rows, elapsed
            except (AssertionError, TimeoutError, OSError) as exc:
                print(f"  {name} did not get back: {' '.join(str(exc).split())[:300]}", flush=True)
                return name, None, 0.0

        came = await asyncio.gather(*(returning(n) for n in (names if balancer else on_a)))
        back = [c for c in came if c is not None]
        if balancer:  # A's callers: those whose line dropped with it
            on_a = [c[0] for c in back]
            on_b = [n for n in names if n not in on_a]
        last = max(since_kill, default=0.0)
        resumed = [(n, rows, t) for n, rows, t in back if rows is not None]
        same = [n for n, rows, _ in resumed if rows == before[n][1]]

        async def plays_on(name: str) -> bool:  # a caller of B lays a card after the kill
            caller = before[name][0]
            screen = caller.screen
            if caller.done.done() or not screen.prompt().startswith("Your turn"):
                return False
            count = screen.lines()[GAME_ROWS]
            caller.writer.write(b"\r")
            try:
                await screen.wait_for(lambda: screen.lines()[GAME_ROWS] != count, timeout=30)
            except AssertionError:
                return False
            return True

        went_on = sum(await asyncio.gather(*(plays_on(n) for n in on_b)))
        print(f"games on the killed node A: {len(on_a)}")
        print(f"  resumed at node B:        {len(resumed)}")
        print(f"  same board and cards:     {len(same)} (moves lost in the others: {len(on_a) - len(same)})")
        print(f"  call again -> in game:    {ms([t for _, _, t in resumed])}")
        print(f"  kill -> back in game:     {ms(since_kill)}")
        print(f"  kill -> last caller back: {last:.1f} s")
        print(f"callers at node B who played on: {went_on} of {len(on_b)}")
        for name in on_b:
            before[name][0].close()
    finally:
        for proc in nodes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)
        pg.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callers", type=int, default=200, help="callers, half on each node (default 200)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds before it stops, done or not")
    parser.add_argument("--balancer", action="store_true", help="the callers call HAProxy (contrib's configuration) "
                                                                "in front of the nodes, never a node")
    args = parser.parse_args()
    if args.callers < 2 or args.callers > 1000:
        sys.exit("--callers takes 2 to 1000")

    async def bounded() -> None:
        async with asyncio.timeout(args.timeout):
            await run(args.callers, args.balancer)

    asyncio.run(bounded())


if __name__ == "__main__":
    main()
