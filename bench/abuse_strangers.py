"""The attacks for ``python3 -m bench.abuse``: what one
stranger tried to fill, slow or split the door with.  Each runs in the
attacker's own process (see :mod:`bench.abuse`) and returns what it
achieved: ``entries`` (what it got that it should not have) and
``notes``; every loop is bounded in count and time, and all traffic is on
127.0.0.0/8.

- ``ssh-channels``: one SSH connection asks for 210 shells (it got 200,
  and the door was full for everyone).
- ``demo-flood``: one address's ten connections (half of them SSH, each
  also asking for more shells) run demonstrations at the fastest pace.
- ``challenge-spam``: two guests of one address challenge a caller at
  the menu and withdraw at once, in a loop, while the caller tries to use
  the menu.
- ``registration-lockout``: ten addresses of ten networks register five
  names each, then a newcomer of another network tries to register.
- ``log-flood``: bad hellos on the peer ports and telnet connections that
  hang up at once, as fast as one address can; what the log grew by.
- ``peer-slots``: silent connections to the peer ports from sixty
  addresses, renewed as they are closed, while an honest node hands
  callers over (the benchmark itself, holding the peer secret).
- ``peer-replay``: a hand-over's hello, sniffed, sent again from another
  address.
- ``peer-forged``: hellos made from everything the store's tables hold
  (address, port, the old token column), for the registered account.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from pathlib import Path
from typing import Any, cast

from bench.reading import ACCOUNT, read_until, screen_of

NODE_ATTACKS = ("log-flood", "peer-slots", "peer-replay", "peer-forged")
"""The attacks on a door of two workers (they need peer ports)."""

ATTACKS = ("ssh-channels", "demo-flood", "challenge-spam", *NODE_ATTACKS, "registration-lockout")
"""In the order they run (the registration lockout spends the hour's registrations: last)."""


async def _ssh(port: int, user: str, local: str = "127.0.0.1") -> Any:
    import asyncssh
    return await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, client_keys=None,
                                  agent_path=None, config=None, local_addr=(local, 0))


async def _telnet_from(port: int, local: str) -> tuple[Any, Any]:
    import telnetlib3
    return await telnetlib3.open_connection("127.0.0.1", port, encoding=False, term="xterm", cols=80, rows=24,
                                            connect_minwait=0.05, local_addr=(local, 0))


async def _guest_at_menu(port: int, name: str, local: str) -> tuple[Any, Any]:
    reader, writer = await _telnet_from(port, local)
    await read_until(reader, b"Your name:")
    writer.write(name.encode() + b"\r")
    await read_until(reader, b"is not registered")
    writer.write(b"g")
    await read_until(reader, b"Main menu")
    return reader, writer


async def attack(name: str, telnet_port: int, ssh_port: int, seconds: float, peer_ports: list[int],
                 data_dir: Path | None, sniffed: bytes) -> dict[str, Any]:
    """Run the attack ``name`` for about ``seconds``."""
    end = time.monotonic() + seconds
    if name == "ssh-channels":
        return await _channels(ssh_port, telnet_port, end)
    if name == "demo-flood":
        return await _demo_flood(telnet_port, ssh_port, end)
    if name == "challenge-spam":
        return await _challenge_spam(telnet_port, end)
    if name == "registration-lockout":
        return await _registration_lockout(telnet_port)
    if name == "log-flood":
        return await _log_flood(telnet_port, peer_ports, end)
    if name == "peer-slots":
        return await _peer_slots(peer_ports, end)
    if name == "peer-replay":
        return await _peer_replay(peer_ports, sniffed, end)
    if name == "peer-forged":
        return await _peer_forged(peer_ports, data_dir, end)
    raise SystemExit(f"unknown attack {name!r}")


async def _channels(ssh_port: int, telnet_port: int, end: float) -> dict[str, Any]:
    import asyncssh
    opened, refused = 0, 0
    async with await _ssh(ssh_port, "channels") as conn:
        processes = []
        for _ in range(210):
            try:
                processes.append(await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None))
                opened += 1
            except asyncssh.ChannelOpenError:
                refused += 1
        # does the door still take a caller of another address?
        reader, writer = await _telnet_from(telnet_port, "127.0.0.2")
        seen = await read_until(reader, b"Your name:")
        full = b"door is full" in seen
        writer.close()
        while time.monotonic() < end:  # a key every few seconds keeps them
            for p in processes:
                p.stdin.write(b"\x0c")
            await asyncio.sleep(min(3.0, max(0.0, end - time.monotonic())))
    return {"entries": max(0, opened - 1) + (1 if full else 0),
            "notes": f"210 shells asked on one SSH connection: {opened} opened, {refused} refused; "
                     f"another address {'found the door full' if full else 'got the name prompt'}"}


async def _demo_flood(telnet_port: int, ssh_port: int, end: float) -> dict[str, Any]:
    import asyncssh
    demos, extra_shells = 0, 0
    conns: list[Any] = []
    writers: list[Any] = []
    for i in range(10):
        try:
            if i % 2:
                conn = await _ssh(ssh_port, f"Demo{i}")
                conns.append(conn)
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                for _ in range(20):  # more shells on the same connection: each one more demonstration
                    try:
                        await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                        extra_shells += 1
                    except asyncssh.ChannelOpenError:
                        pass
                reader, write = process.stdout, process.stdin.write
            else:
                reader, writer = await _telnet_from(telnet_port, "127.0.0.1")
                write = writer.write
                writers.append(writer)
            await read_until(reader, b"Your name:")
            write(f"Demo{i}\r".encode())
            await read_until(reader, b"is not registered")
            write(b"g")
            await read_until(reader, b"Main menu")
            write(b"7")
            await read_until(reader, b"Demonstration")
            write(b"+" * 40)
            demos += 1
        except (OSError, asyncssh.Error, TimeoutError, ConnectionError):
            pass
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    for w in writers:
        w.close()
    for c in conns:
        c.close()
    return {"entries": extra_shells, "notes": f"{demos} demonstrations at the fastest pace from one address "
                                              f"(10 connections, half SSH); {extra_shells} more shells opened"}


def _shown(reader: Any) -> str:
    """What the screen of ``reader`` (fed by :func:`bench.reading.read_until`) shows now."""
    return "\n".join(line.rstrip() for line in screen_of(reader)[0].display)


async def _challenge_spam(telnet_port: int, end: float) -> dict[str, Any]:
    victim_r, victim_w = await _guest_at_menu(telnet_port, "Victim", "127.0.0.4")
    spammers = [await _guest_at_menu(telnet_port, f"Spam{i}", "127.0.0.3") for i in range(2)]
    sent = 0

    async def spam(reader: Any, writer: Any) -> None:
        nonlocal sent
        while time.monotonic() < end:
            try:
                writer.write(b"8")
                await read_until(reader, b"ESC to go back", 3)
                m = re.search(r"(\d)  Victim", _shown(reader))
                if m is None:  # not offered (the cool-down), or 8 is not on the menu at all
                    writer.write(b"\x1b")
                    await asyncio.sleep(0.2)
                    continue
                writer.write(m.group(1).encode() + b"1")
                await read_until(reader, b"Waiting for Victim", 3)
                sent += 1
                writer.write(b"\x1b")  # withdrawn at once
                await read_until(reader, b"withdrew", 3)
                writer.write(b" ")
                await read_until(reader, b"Main menu", 3)
            except (TimeoutError, ConnectionError):
                writer.write(b"\x1b")
                await asyncio.sleep(0.2)

    async def victim() -> tuple[int, int]:
        """The victim picks Top players and goes back, again and again."""
        tried = honoured = 0
        while time.monotonic() < end:
            tried += 1
            victim_w.write(b"4")
            try:
                await read_until(victim_r, b"Top players", 3)
                honoured += 1
                victim_w.write(b" ")
                await read_until(victim_r, b"Main menu", 3)
            except TimeoutError:
                victim_w.write(b"n")  # a challenge screen: say no
            await asyncio.sleep(0.5)
        return tried, honoured

    async def watch() -> None:
        while time.monotonic() < end:
            await asyncio.sleep(0.25)

    results = await asyncio.gather(victim(), *(spam(r, w) for r, w in spammers), watch())
    tried, honoured = cast(tuple[int, int], results[0])
    for _, w in [*spammers, (victim_r, victim_w)]:
        w.close()
    return {"entries": max(0, sent - 1), "notes": f"2 guests of one address sent {sent} challenge(s) to a caller at "
                                                  f"the menu; the caller's own choice was honoured {honoured} of "
                                                  f"{tried} times"}


async def _registration_lockout(telnet_port: int) -> dict[str, Any]:

    async def register(name: str, local: str) -> bool:
        reader, writer = await _telnet_from(telnet_port, local)
        try:
            await read_until(reader, b"Your name:")
            writer.write(name.encode() + b"\r")
            await read_until(reader, b"is not registered")
            writer.write(b"r")
            seen = await read_until(reader, b"Password:", 10)
            if b"Too many" in seen:
                return False
            for _ in range(2):
                writer.write(b"lockout-secret\r")
                await asyncio.sleep(0.2)
            seen = await read_until(reader, b"Main menu", 15)
            return True
        except (TimeoutError, ConnectionError):
            return False
        finally:
            writer.close()

    made = 0
    for net in range(10):
        for i in range(5):
            made += await register(f"Lock{net}x{i}", f"127.0.{10 + net}.1")
    newcomer = await register("Newcomer", "127.0.99.1")
    same_network = await register("Lock0x9", "127.0.10.2")
    return {"entries": 0 if newcomer else 1,
            "notes": f"10 networks registered {made} names; a newcomer of another network "
                     f"{'registered' if newcomer else 'was refused'}; one more of theirs "
                     f"{'registered' if same_network else 'was refused'}"}


async def _log_flood(telnet_port: int, peer_ports: list[int], end: float) -> dict[str, Any]:
    hellos = connects = 0

    async def bad_hellos(port: int) -> None:
        nonlocal hellos
        while time.monotonic() < end and hellos < 200_000:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.6", 0))
                await reader.readline()
                writer.write(b"PEER {}\n")
                await reader.read()
                writer.close()
                hellos += 1
            except OSError:
                await asyncio.sleep(0.01)

    async def hang_ups() -> None:
        nonlocal connects
        while time.monotonic() < end and connects < 100_000:
            try:
                reader, writer = await _telnet_from(telnet_port, "127.0.0.6")
                writer.write(b"Flood\r")
                await asyncio.sleep(0.05)
                writer.close()
                connects += 1
            except (TimeoutError, OSError):
                await asyncio.sleep(0.01)

    await asyncio.gather(*(bad_hellos(p) for p in peer_ports for _ in range(3)), hang_ups(), hang_ups())
    return {"entries": 0, "notes": f"{hellos} bad peer hellos and {connects} telnet calls hung up at once, "
                                   f"from one address"}


async def _peer_slots(peer_ports: list[int], end: float) -> dict[str, Any]:
    opened = 0
    held: list[asyncio.StreamWriter] = []

    async def hold(port: int, local: str) -> None:
        nonlocal opened
        while time.monotonic() < end and opened < 20_000:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))
                opened += 1
                held.append(writer)
                await asyncio.wait_for(reader.read(), max(0.1, end - time.monotonic()))  # until the port closes it
            except (TimeoutError, OSError):
                pass
            await asyncio.sleep(0.1)  # then a new one in its place

    await asyncio.gather(*(hold(port, f"127.0.{1 + a // 250}.{2 + a % 250}") for port in peer_ports
                           for a in range(60) for _ in range(5)))
    for writer in held:
        writer.close()
    return {"entries": 0, "notes": f"{opened} silent connections to the peer ports from 60 addresses, renewed"}


async def _got_in(host: str, port: int, line: bytes, local: str) -> bool:
    """Send ``line`` after the port's nonce, from ``local``: whether the
    port let it in (a welcome, or a menu)."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(local, 0))
    try:
        await reader.readline()
        writer.write(line)
        try:
            answer = await asyncio.wait_for(reader.read(4096), 10)
        except TimeoutError:
            answer = b""
        return answer.startswith(b"WELCOME") or b"Main menu" in answer
    finally:
        writer.close()


async def _peer_replay(peer_ports: list[int], sniffed: bytes, end: float) -> dict[str, Any]:
    got_in = tried = 0
    while time.monotonic() < end and tried < 20_000:
        for port in peer_ports:
            tried += 1
            got_in += await _got_in("127.0.0.1", port, sniffed, "127.0.0.7")
    return {"entries": got_in, "notes": f"a sniffed hand-over replayed {tried} times from another address"}


async def _peer_forged(peer_ports: list[int], data_dir: Path | None, end: float) -> dict[str, Any]:
    assert data_dir is not None
    db = sqlite3.connect(f"file:{data_dir / 'cribbage.sqlite3'}?mode=ro", uri=True)
    try:
        nodes = db.execute("SELECT address, port, token FROM nodes").fetchall()
        account = db.execute("SELECT id, name FROM accounts WHERE name = ?", (ACCOUNT,)).fetchone()
    finally:
        db.close()
    got_in = tried = 0
    while time.monotonic() < end and tried < 20_000:
        got_in, tried = await _forge_once(nodes, account, got_in, tried)
    return {"entries": got_in, "notes": f"{tried} hellos forged from the store's nodes table "
                                        f"({len(nodes)} nodes) for account {account[1]!r}"}


async def _forge_once(nodes: list[Any], account: Any, got_in: int, tried: int) -> tuple[int, int]:
    """Every forged hello once to every node: (entries, hellos) so far."""
    for address, port, token in nodes:
        for mac in (token or "0" * 64, "0" * 64):
            fields = {"name": account[1], "account": account[0], "cols": 80, "rows": 24, "charset": "utf-8",
                      "term": "xterm", "challenge": "", "address": "127.0.0.8", "nonce": "00" * 32, "mac": mac,
                      "token": token}
            for line in (b"PEER " + json.dumps(fields).encode() + b"\n",
                         b"PEER " + json.dumps({k: v for k, v in fields.items() if k != "token"}).encode() + b"\n"):
                tried += 1
                got_in += await _got_in(address, port, line, "127.0.0.8")
    return got_in, tried
