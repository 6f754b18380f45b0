"""``serve --workers``: worker processes sharing one SQLite
file join as its nodes, so a caller at any worker reaches the sysop at
worker 0's console, and one account has one session across them; the
command spreads callers over its workers on one port and stops them all
on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_resume import GAME_ROWS, connect, log_in, page_and_play, play_into_the_hand
from tests.support.clients import console_client
from tests.support.player import telnet_caller, type_guest_login
from tests.support.server import make_config, start_workers_process, worker_of


@asynccontextmanager
async def two_workers(data: Path) -> AsyncIterator[tuple[DoorServer, DoorServer]]:
    """Workers 0 and 1 of two on one data folder, in this process (each on
    its own free ports, so a test chooses where a caller lands), once each
    knows the other is alive."""
    first = DoorServer(make_config(data), 0, 2)
    await first.start()
    second = DoorServer(make_config(data), 1, 2)
    try:
        await second.start()
        deadline = time.monotonic() + 5
        while not (first.ctx.lobby.nodes and second.ctx.lobby.nodes) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert first.ctx.lobby.nodes and second.ctx.lobby.nodes, "the workers did not see each other"
        yield first, second
    finally:
        await second.stop()
        await first.stop()


async def test_a_second_login_at_another_worker_takes_over_there_and_the_game_stays_whole(tmp_path: Path) -> None:
    """Tia plays at worker 1 and logs in again at worker 0: she is handed
    to worker 1, which closes her first line; her game resumes whole, and
    only one session of hers is on line anywhere."""
    async with two_workers(tmp_path / "data") as (zero, one):
        await zero.store.accounts.create("Tia", hash_password("tia-secret"))  # type: ignore[union-attr]
        first = await telnet_caller(one.telnet_port)
        await log_in(first.writer, first.screen, "Tia", "tia-secret")
        before = await play_into_the_hand(first.writer, first.screen)
        second = await telnet_caller(zero.telnet_port)
        await log_in(second.writer, second.screen, "Tia", "tia-secret")
        s = second.screen
        await s.wait_for(lambda: "unfinished game" in s.text(), timeout=10)
        await asyncio.wait_for(first.done, 10)  # the first line was told and closed
        assert "logged in again from somewhere else" in " ".join(first.screen.text().split())
        on_line = [p for door in (zero, one) for p in door.ctx.lobby.presences.values()
                   if p.name == "Tia" and not p.away]
        assert len(on_line) == 1 and on_line[0].terminal.kind == "peer"  # at worker 1, through worker 0
        await second.send(b"y")
        await s.wait_for(lambda: s.prompt().startswith("Your turn"), timeout=15)
        assert s.lines()[GAME_ROWS] == before
        second.close()


async def syd_at_worker_0(data: Path, zero: DoorServer, one: DoorServer):
    """The sysop at worker 0's console; Syd (registered) calls worker 1,
    sees "Play the sysop" there and is handed to worker 0.  Returns the
    console's writer and screen, and Syd's writer, screen and task."""
    await zero.store.accounts.create("Syd", hash_password("syd-pass"))  # type: ignore[union-attr]
    sysop, console, _ = await console_client(data)
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
    writer, screen, task = await connect(one.telnet_port)
    await log_in(writer, screen, "Syd", "syd-pass")
    await screen.wait_for(lambda: "Play the sysop" in screen.text(), timeout=5)  # learnt through the SQLite file
    await console.wait_for(lambda: any("Syd" in line and "another server" in line for line in console.lines()),
                           timeout=5)
    writer.write(b"6")  # handed to worker 0
    await console.wait_for(lambda: any("Syd" in line and " peer " in line for line in console.lines()), timeout=5)
    return sysop, console, writer, screen, task


async def test_a_caller_at_one_worker_plays_the_sysop_at_worker_0(tmp_path: Path) -> None:
    """The console is worker 0's; Syd calls worker 1, sees "Play the
    sysop" (learnt through the SQLite file), is handed to worker 0, pages
    and plays; worker 0's console lists Syd while Syd is at worker 1."""
    data = tmp_path / "data"
    async with two_workers(data) as (zero, one):
        sysop, console, writer, screen, _ = await syd_at_worker_0(data, zero, one)
        await page_and_play(writer, screen, sysop, console)
        assert any(p.name == "Syd" and p.terminal.kind == "peer" and p.table is not None
                   for p in zero.ctx.lobby.presences.values())
        writer.close()
        sysop.close()


async def test_workers_share_one_port_one_address_to_one_worker_and_all_stop_on_sigterm(tmp_path: Path) -> None:
    """Callers from ten addresses, two calls each, on one port: both calls
    of an address land on one worker (steered by address: hashing by port
    would split an address's calls half the time), both workers get
    callers, each sees the door; SIGTERM tells every caller and stops
    every worker."""
    proc, port = start_workers_process(tmp_path / "data", 2)
    try:
        sources = [f"127.0.0.{i}" for i in range(1, 11) for _ in range(2)]
        callers = [await telnet_caller(port, source=source) for source in sources]
        for caller in callers:
            await caller.screen.wait_for(lambda caller=caller: "Your name:" in caller.screen.text(), timeout=10)
        where: dict[str, set[int]] = {}
        for source, caller in zip(sources, callers):
            where.setdefault(source, set()).add(worker_of(proc, caller.writer.get_extra_info("sockname")))
        assert all(len(workers) == 1 for workers in where.values()), where
        assert set().union(*where.values()) == {0, 1}
        proc.send_signal(signal.SIGTERM)
        for caller in callers:
            await asyncio.wait_for(caller.done, 20)
            assert "shutting down" in " ".join(caller.screen.text().split())
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    time.sleep(0.2)  # the log thread reads the last lines
    lines = list(proc.log_tail)  # type: ignore[attr-defined]
    assert sum("door: door stopped" in line for line in lines) == 2  # both workers
    assert "door.workers: door stopped" in lines[-1]  # then the supervisor


async def test_the_limit_per_address_holds_for_all_the_workers_together(tmp_path: Path) -> None:
    """max_per_address = 3 and two workers: of eight calls from one
    address, three are let in, not three at each worker."""
    data = tmp_path / "data"
    data.mkdir()
    conf = data / "door.toml"
    conf.write_text("[limits]\nmax_per_address = 3\n")
    proc, port = start_workers_process(data, 2, "--config", str(conf))
    try:
        callers = [await telnet_caller(port, source="127.0.0.7") for _ in range(8)]
        for caller in callers:
            await caller.screen.wait_for(lambda caller=caller: "Your name:" in caller.screen.text()
                                         or "too many calls from your address" in caller.screen.text(), timeout=10)
        assert sum("Your name:" in caller.screen.text() for caller in callers) == 3
        for caller in callers:
            caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


async def test_a_caller_at_one_worker_challenges_a_caller_at_another(tmp_path: Path) -> None:
    """Across workers: Bob at worker 1 lists Ann, at worker 0's
    menu, "on another server"; choosing her takes him to worker 0, where
    the challenge is sent; she accepts and both are at the table there."""
    from tests.loopback.test_callers import both_in_chat, registered
    async with two_workers(tmp_path / "data") as (zero, one):
        ann = await registered(zero.telnet_port, zero.store, "Ann")
        bob = await registered(one.telnet_port, one.store, "Bob")
        s = bob.screen
        await s.wait_for(lambda: "8  Play another caller" in s.text(), timeout=5)  # learnt through the store
        await bob.send(b"8")
        await s.wait_for(lambda: "1  Ann (on another server)" in s.text())
        await bob.send(b"1")
        await s.wait_for(lambda: "You challenge Ann." in s.text() and "Press 1 or 2" in s.text(), timeout=5)
        await bob.send(b"2")
        await s.wait_for(lambda: "How long a match?" in s.text())
        await bob.send(b"1")
        await ann.screen.wait_for(lambda: "Bob challenges you to a 121-point game, runs in exact order"
                                  in ann.screen.text())
        await ann.send(b"y")
        await both_in_chat(ann, bob)
        table = next(p.table for p in zero.ctx.lobby.presences.values() if p.name == "Bob" and p.table is not None)
        assert sorted(seat.name for seat in table.seats) == ["Ann", "Bob"]
        ann.close()
        bob.close()


def pids_of_workers(proc: subprocess.Popen[str]) -> dict[int, int]:
    """Worker number -> pid, from the supervisor's log (the latest start of each)."""
    pids: dict[int, int] = {}
    for line in list(proc.log_tail):  # type: ignore[attr-defined]
        if m := re.search(r"door\.workers: worker (\d+) \(pid (\d+)\) listening", line):
            pids[int(m.group(1))] = int(m.group(2))
    return pids


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not open(f"/proc/{pid}/stat").read().split(") ")[1].startswith("Z")


async def test_a_worker_that_dies_is_started_again_and_no_worker_outlives_the_supervisor(tmp_path: Path) -> None:
    """kill -9 of worker 1: the supervisor says so and starts it again on
    the same port, where callers are served; kill -9 of the supervisor:
    every worker notices (the lifeline pipe reads end of file) and stops,
    so a new ``serve`` can take the folder and ports."""
    proc, port = start_workers_process(tmp_path / "data", 2)
    try:
        first = pids_of_workers(proc)
        assert sorted(first) == [0, 1]
        os.kill(first[1], signal.SIGKILL)
        deadline = time.monotonic() + 15
        while pids_of_workers(proc).get(1) in (None, first[1]) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        again = pids_of_workers(proc)
        assert again[1] != first[1] and alive(again[1]) and again[0] == first[0]
        assert any("worker 1 ended (exit status -9): starting it again" in line for line in proc.log_tail)  # type: ignore[attr-defined]
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in again.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not any(alive(pid) for pid in again.values()), "a worker outlived its supervisor"
        assert any("the supervisor is gone: stopping" in line for line in proc.log_tail)  # type: ignore[attr-defined]
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_a_relayed_caller_who_resizes_the_window_is_redrawn_at_the_new_size(tmp_path: Path) -> None:
    """Bob, over SSH at worker 1, is handed to worker 0 ("Play the
    sysop"); he widens his window: worker 1 passes the new size on (a
    window frame), and worker 0 redraws his menu 100 columns wide."""
    import asyncssh

    from tests.support.clients import watch
    data = tmp_path / "data"
    async with two_workers(data) as (zero, one):
        sysop, console, _ = await console_client(data)
        await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
        async with asyncssh.connect("127.0.0.1", one.ssh_port, username="Bob", known_hosts=None, client_keys=None,
                                    agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            screen, task = watch(process, 80, 24)
            await type_guest_login(process.stdin.write, screen, "", until="Play the sysop")  # (as Bob, the SSH name)
            process.stdin.write(b"6")  # handed to worker 0
            await console.wait_for(lambda: any("Bob" in line and " peer " in line for line in console.lines()),
                                   timeout=5)
            await screen.wait_for(lambda: "Main menu" in screen.text())
            screen.screen.resize(30, 100)
            process.change_terminal_size(100, 30)
            await screen.wait_for(lambda: screen.lines()[0].rstrip().endswith("Main menu")
                                  and len(screen.lines()[0].rstrip()) > 90)
            bob = next(p for p in zero.ctx.lobby.presences.values() if p.name == "Bob")
            assert (bob.terminal.cols, bob.terminal.rows) == (100, 30)
            process.stdin.write_eof()
            task.cancel()
        sysop.close()


async def test_a_dropped_caller_who_calls_another_worker_is_taken_back_to_the_waiting_game(
        tmp_path: Path) -> None:
    """Syd, relayed from worker 1, plays the sysop at worker 0; his line
    drops mid-hand; he calls again and lands on worker 1: the game waiting
    for him at worker 0 keeps his session's place there, so he is handed
    back to it and the game goes on where it was."""
    data = tmp_path / "data"
    async with two_workers(data) as (zero, one):
        sysop, console, writer, screen, task = await syd_at_worker_0(data, zero, one)
        before, console_before, dealer_screen = await page_and_play(writer, screen, sysop, console)
        caller_deals = dealer_screen is screen
        writer.close()
        await asyncio.wait_for(task, 5)
        await console.wait_for(lambda: "Syd's line dropped" in " ".join(console.text().split()), timeout=5)
        writer, screen, task = await connect(one.telnet_port)
        await log_in(writer, screen, "Syd", "syd-pass")
        await screen.wait_for(lambda: "is waiting for you" in screen.text(), timeout=5)
        writer.write(b"y")
        dealer_screen = screen if caller_deals else console
        await dealer_screen.wait_for(lambda: dealer_screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        assert screen.lines()[GAME_ROWS] == before  # nothing lost
        assert console.lines()[GAME_ROWS] == console_before
        writer.close()
        sysop.close()
