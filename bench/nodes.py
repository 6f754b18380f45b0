"""Latency between BBS nodes joined to one running server.

    python3 -m bench.nodes [--rounds 30] [--postgresql | --workers]

Starts ``cribbage-door serve`` on a temporary data folder (SQLite), the
sysop's console through its socket, and three BBS nodes: ``cribbage-door
door`` processes on pseudo-terminals with a DOOR32.SYS each, which hand
their callers to the server through ``node.sock``.  Ann and Bob (nodes 1
and 2) play each other; Cy (node 3) is at the menu.  Each figure is timed
from the key leaving one process to the screen of another showing it
(both read through pyte), over ``--rounds`` rounds:

- who's on line: Cy opens a screen (statistics) or goes back to the menu;
  the console's list shows what Cy does now;
- page delivery: Cy sends a page; the console rings with its banner (the
  sysop declines, Cy goes back to the menu);
- table action: a chat line at the table of Ann and Bob, from Ann's
  RETURN to Bob's screen, and back.

With ``--postgresql``: three ``serve`` processes (nodes) on one throwaway
PostgreSQL server (``tests/support/postgres.py``), the sysop at node 1's
console.  Ann calls node 2, is handed to node 1 ("Play the sysop") and
plays the sysop; Cy calls node 3 as a guest each round:

- who's on line: Cy on node 3 opens statistics or goes back to the menu;
  node 1's console (which learns it through the store) shows it;
- hand-over: Cy chooses "Play the sysop" on node 3; node 1's console
  lists Cy as its own caller;
- page delivery: Cy, relayed through node 3, sends a page; node 1's
  console rings (the sysop declines, Cy hangs up);
- table action: a chat line between Ann (relayed by node 2) and the
  sysop at node 1, each way.

With ``--workers``: ``serve --workers 3`` on the SQLite file, the sysop
at worker 0's console; callers call the one port and are kept when they
land on worker 1 or 2 (the log says which worker took a call; callers
call from several loopback addresses, since one address goes to one
worker):

- who's on line, hand-over and page delivery as above, worker 1 or 2 ->
  worker 0 (who's on line learnt when the file's ``data_version`` moves,
  looked at every 50 ms: SQLite has no NOTIFY);
- challenge: Cy, handed to worker 0, challenges Dee at worker 1 or 2's
  menu: from Cy's key to the challenge on Dee's screen (Cy is handed on
  to Dee's worker);
- table action: Ann (relayed by her worker) and the sysop, each way.

Prints p50, p99 and max in milliseconds.  The issue's targets (for nodes
sharing the store) are p99 <= 100 ms for pages and table actions on
SQLite, <= 250 ms on PostgreSQL, and <= 1 s for who's on line.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.clients import console_client  # noqa: E402
from tests.support.player import ClientScreen  # noqa: E402
from tests.support.pty_door import PtyDoor, door32  # noqa: E402
from tests.support.server import start_server_process  # noqa: E402

SERVE_CONFIG = ("[computer]\ndelay = 0\nprocesses = 0\n[caller]\npegging_pause = 0\nhand_pause = 0\n"
                "[paging]\npage_timeout = 30\n")


async def timed(send: Callable[[], Awaitable[None]], screen: ClientScreen, seen: Callable[[], bool]) -> float:
    """Milliseconds from ``send()`` to ``seen()`` on ``screen``."""
    start = time.perf_counter()
    await send()
    await screen.wait_for(seen, timeout=10)
    return (time.perf_counter() - start) * 1000


def summary(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return (f"{label:<34} n={len(values):<4} p50 {statistics.median(ordered):7.1f} ms   p99 {p99:7.1f} ms   "
            f"max {ordered[-1]:7.1f} ms")


async def declined_page(caller: Any, name: str, sysop: asyncio.StreamWriter, console: ClientScreen,
                        reason: str) -> float:
    """From the main menu, ``caller`` (called ``name``) pages the sysop
    with ``reason``; milliseconds until the console rings; the sysop
    declines and the caller is asked about the computer."""
    await caller.send(b"6")
    await caller.screen.wait_for(lambda: "Reason:" in caller.screen.text())
    ms = await timed(lambda: caller.send(f"{reason}\r".encode()), console,
                     lambda: f"PAGE from {name}: {reason}" in console.text())
    sysop.write(b"n")
    await caller.screen.wait_for(lambda: "Play the computer instead?" in caller.screen.text())
    return ms


async def to_the_console(caller: Any, name: str, console: ClientScreen) -> None:
    """``caller`` (called ``name``), at the menu of another process than
    the console's, chooses "Play the sysop" and is handed to the console's
    process, until its menu is on their screen."""
    await caller.screen.wait_for(lambda: "Play the sysop" in caller.screen.text(), timeout=10)
    await caller.send(b"6")
    await console.wait_for(lambda: any(name in line and " peer " in line for line in console.lines()))
    await caller.screen.wait_for(lambda: "Main menu" in caller.screen.text())


async def far_caller_round(cy: Any, name: str, sysop: asyncio.StreamWriter, console: ClientScreen, reason: str,
                           online: list[float], handovers: list[float], pages: list[float]) -> None:
    """One round of ``cy`` (called ``name``, at the main menu of another
    process than the console's): statistics and back, timed to the
    console's list (``online``); "Play the sysop", timed until the console
    lists them as its own caller (``handovers``); a declined page
    (``pages``)."""
    online.append(await timed(lambda: cy.send(b"3"), console, lambda: any(
        name in line and "reading statistics" in line for line in console.lines())))
    online.append(await timed(lambda: cy.send(b" "), console, lambda: any(
        name in line and "main menu" in line for line in console.lines())))
    await cy.screen.wait_for(lambda: "Play the sysop" in cy.screen.text())
    handovers.append(await timed(lambda: cy.send(b"6"), console, lambda: any(
        name in line and " peer " in line for line in console.lines())))
    await cy.screen.wait_for(lambda: "Main menu" in cy.screen.text())
    pages.append(await declined_page(cy, name, sysop, console, reason))


async def table_actions(ann: Any, sysop: asyncio.StreamWriter, console: ClientScreen, rounds: int) -> list[float]:
    """Ann, at the console's process, pages the sysop, who accepts; then
    ``rounds`` chat lines each way at their table, each timed from the
    RETURN to the other screen (milliseconds)."""
    await ann.send(b"6")
    await ann.screen.wait_for(lambda: "Reason:" in ann.screen.text())
    await ann.send(b"\r")
    await console.wait_for(lambda: "PAGE from Ann" in console.text())
    sysop.write(b"y")
    await ann.screen.wait_for(lambda: "accepted your page" in ann.screen.text())
    await ann.send(b"1")
    for term in (ann.screen, console):
        await term.wait_for(lambda term=term: term.prompt().startswith("Chat"))
    actions: list[float] = []
    for i in range(rounds):
        actions.append(await timed(lambda: ann.send(f"ping {i}\r".encode()), console,
                                   lambda: f"Ann: ping {i}" in console.text()))

        async def pong() -> None:
            sysop.write(f"pong {i}\r".encode())
        actions.append(await timed(pong, ann.screen, lambda: f"Sysop: pong {i}" in ann.screen.text()))
    return actions


async def node(folder: Path, data: Path, name: str) -> PtyDoor:
    folder.mkdir()
    door = PtyDoor(folder, door32(folder, name), data_dir=data)
    await door.start()
    await door.screen.wait_for(lambda: "Main menu" in door.screen.text(), timeout=30)
    return door


async def run(rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-nodes-"))
    data = tmp / "data"
    config = tmp / "serve.toml"
    config.write_text(SERVE_CONFIG)
    proc, _, _ = start_server_process(data, "--config", str(config))
    try:
        sysop, console, _ = await console_client(data)
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        ann, bob, cy = [await node(tmp / f"node{i}", data, name) for i, name in enumerate(("Ann", "Bob", "Cy"), 1)]
        await console.wait_for(lambda: all(n in console.text() for n in ("Ann", "Bob", "Cy")))

        # Ann challenges Bob: both at the table, in chat mode
        await ann.screen.wait_for(lambda: "8  Play another caller" in ann.screen.text())
        await ann.send(b"8")
        await ann.screen.wait_for(lambda: "  Bob" in ann.screen.text())
        await ann.send(b"1" if "1  Bob" in ann.screen.text() else b"2")
        await ann.screen.wait_for(lambda: "Press 1 or 2" in ann.screen.text())
        await ann.send(b"1")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        for door in (ann, bob):
            await door.screen.wait_for(lambda door=door: door.screen.prompt().startswith("Chat"))

        online: list[float] = []
        pages: list[float] = []
        actions: list[float] = []
        for i in range(rounds):
            # who's on line: Cy reads the statistics, then goes back to the menu
            online.append(await timed(lambda: cy.send(b"3"), console, lambda: "reading statistics" in console.text()))
            online.append(await timed(lambda: cy.send(b" "), console,
                                      lambda: "reading statistics" not in console.text()))
            await cy.screen.wait_for(lambda: "Main menu" in cy.screen.text())
            # a page from Cy to the console
            pages.append(await declined_page(cy, "Cy", sysop, console, f"round {i}"))
            await cy.send(b"n")
            await cy.screen.wait_for(lambda: "Main menu" in cy.screen.text())
            # table actions: a chat line each way between Ann and Bob
            actions.append(await timed(lambda: ann.send(f"ping {i}\r".encode()), bob.screen,
                                       lambda: f"Ann: ping {i}" in bob.screen.text()))
            actions.append(await timed(lambda: bob.send(f"pong {i}\r".encode()), ann.screen,
                                       lambda: f"Bob: pong {i}" in ann.screen.text()))
        print(f"3 BBS nodes joined to one server (SQLite store), {rounds} rounds")
        print(summary("who's on line (node -> console)", online))
        print(summary("page delivery (node -> console)", pages))
        print(summary("table action (node -> node)", actions))
        sysop.close()
        for door in (ann, bob, cy):
            door.proc.kill()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


async def run_postgresql(rounds: int) -> None:
    from tests.support.player import log_in_as_guest, telnet_caller
    from tests.support.postgres import PostgresServer, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        sys.exit("bench.nodes --postgresql: PostgreSQL is not installed (Debian: apt-get install postgresql)")
    pg = PostgresServer(bin_dir)
    pg.start()
    tmp = Path(tempfile.mkdtemp(prefix="bench-nodes-"))
    config = tmp / "serve.toml"
    config.write_text(SERVE_CONFIG + f'[store]\nurl = "{pg.new_database()}"\n'
                      f'peer_secret_file = "{config.parent / "peer_secret"}"\n')
    procs = []
    try:
        ports = []
        for i in (1, 2, 3):
            proc, port, _ = start_server_process(tmp / f"node{i}", "--config", str(config))
            procs.append(proc)
            ports.append(port)
        sysop, console, _ = await console_client(tmp / "node1")
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        ann = await telnet_caller(ports[1])
        await log_in_as_guest(ann, "Ann")
        await to_the_console(ann, "Ann", console)  # handed to node 1

        online: list[float] = []
        handovers: list[float] = []
        pages: list[float] = []
        for i in range(rounds):
            name = f"Cy{i:03d}"
            cy = await telnet_caller(ports[2])
            await log_in_as_guest(cy, name)
            await console.wait_for(lambda: any(name in line for line in console.lines()), timeout=10)
            await asyncio.sleep(0.3)  # a fresh beat phase each time
            await far_caller_round(cy, name, sysop, console, f"round {i}", online, handovers, pages)
            cy.writer.close()
        # Ann (on node 2, relayed to node 1) plays the sysop: chat lines each way
        actions = await table_actions(ann, sysop, console, rounds)
        print(f"3 serve processes (nodes) on one PostgreSQL server, {rounds} rounds")
        print(summary("who's on line (node 3 -> node 1)", online))
        print(summary("hand-over (node 3 -> node 1)", handovers))
        print(summary("page delivery (via node 3 -> 1)", pages))
        print(summary("table action (via node 2 <-> 1)", actions))
        sysop.close()
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)
        pg.remove()


async def on_worker(proc: Any, port: int, name: str, wanted: Callable[[int], bool]) -> Any:
    """A guest caller ``name`` at the main menu of a worker ``wanted``
    accepts (callers landing elsewhere hang up and call again from another
    loopback address: the workers are chosen by the caller's address)."""
    from tests.support.player import log_in_as_guest, telnet_caller
    from tests.support.server import worker_of

    for attempt in range(200):
        caller = await telnet_caller(port, source=f"127.0.0.{attempt % 250 + 1}")  # (one address, one worker)
        await caller.screen.wait_for(lambda: "Your name:" in caller.screen.text())
        if wanted(worker_of(proc, caller.writer.get_extra_info("sockname"))):
            await log_in_as_guest(caller, name)
            return caller
        caller.writer.close()
        await caller.done
    raise RuntimeError("no call reached the wanted worker in 200 tries")


async def run_workers(rounds: int) -> None:
    """``serve --workers 3`` on the SQLite file, the sysop at worker 0's console."""
    from tests.support.server import start_workers_process

    tmp = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    config = tmp / "serve.toml"
    config.write_text(SERVE_CONFIG + "[limits]\nmax_per_address = 1000\n")
    proc, port = start_workers_process(tmp / "data", 3, "--config", str(config))
    try:
        sysop, console, _ = await console_client(tmp / "data")
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        ann = await on_worker(proc, port, "Ann", lambda w: w != 0)
        await to_the_console(ann, "Ann", console)  # handed to worker 0

        online: list[float] = []
        handovers: list[float] = []
        pages: list[float] = []
        challenges: list[float] = []
        for i in range(rounds):
            name = f"Cy{i:03d}"
            cy = await on_worker(proc, port, name, lambda w: w != 0)
            await console.wait_for(lambda: any(name in line for line in console.lines()), timeout=10)
            await asyncio.sleep(0.3)  # a fresh beat phase each time
            await far_caller_round(cy, name, sysop, console, f"round {i}", online, handovers, pages)
            # Dee, at another worker than Cy's first, is challenged by Cy (now at worker 0): through worker 0
            dee = await on_worker(proc, port, f"Dee{i:03d}", lambda w: w != 0)
            await cy.send(b"n")  # not the computer: back to the menu
            await console.wait_for(lambda: any(f"Dee{i:03d}" in line and "main menu" in line
                                               for line in console.lines()), timeout=10)
            await cy.screen.wait_for(lambda: "8  Play another caller" in cy.screen.text(), timeout=10)
            await cy.send(b"8")
            await cy.screen.wait_for(lambda: f"Dee{i:03d} (on another server)" in cy.screen.text())
            number = re.search(rf"(\d)  Dee{i:03d} ", cy.screen.text())
            assert number is not None
            await cy.send(number.group(1).encode())
            await cy.screen.wait_for(lambda: "Press 1 or 2" in cy.screen.text(), timeout=10)
            challenges.append(await timed(lambda: cy.send(b"1"), dee.screen, lambda: "challenges you" in
                                          dee.screen.text()))
            for caller in (cy, dee):
                caller.writer.close()
                await caller.done
        # Ann (relayed by her worker to worker 0) plays the sysop: chat lines each way
        actions = await table_actions(ann, sysop, console, rounds)
        print(f"serve --workers 3 on the SQLite file, {rounds} rounds")
        print(summary("who's on line (worker N -> 0)", online))
        print(summary("hand-over (worker N -> 0)", handovers))
        print(summary("page delivery (via worker N -> 0)", pages))
        print(summary("challenge (at 0 -> worker N's menu)", challenges))
        print(summary("table action (via worker N <-> 0)", actions))
        sysop.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds of each measurement (default 30)")
    parser.add_argument("--postgresql", action="store_true",
                        help="three serve processes on one throwaway PostgreSQL server instead of BBS nodes")
    parser.add_argument("--workers", action="store_true",
                        help="serve --workers 3 on the SQLite file instead of BBS nodes")
    args = parser.parse_args()
    asyncio.run(run_postgresql(args.rounds) if args.postgresql else
                run_workers(args.rounds) if args.workers else run(args.rounds))


if __name__ == "__main__":
    main()
