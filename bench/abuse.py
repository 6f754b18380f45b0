"""Attacks on a real ``cribbage-door serve`` while an honest caller plays:
what the honest caller feels, what the attack costs the server, whether
it leaks connection slots, whether it gets in anywhere.

Run ``python3 -m bench.abuse`` (about 4 minutes; ``--only NAME`` for one
attack, ``--seconds S`` for each attack's length).  One server runs for
the whole benchmark, with a sysop (key only), a registered account, and
``stuck_timeout`` of 5 s so a stuck caller is cut off within the run.  The
honest caller is a telnet guest in a game against the computer who moves
the highlight bar every 100 ms in this process; each attack runs in a
process of its own (``python3 -m bench.abuse --attack NAME ...``), so the
attacker's own work never passes for the door's lag.

For each attack it prints:

- the honest caller's key-to-screen latency, p50 and p99 in ms (from the
  key written to the first byte of the answering update; keys that got no
  answer in 2 s count as 2,000 ms);
- the server's CPU (user + system, as a share of one core) over the attack
  and its resident memory after it;
- slots leaked: the server's open sockets 10 s after the attacker has gone,
  minus those before the attack (the honest caller's included in both);
- entries gained: logins the attacker got that it should not have (a
  console, an account, a second live session of one account), and for
  password guessing the passwords the server actually checked per second.

Targets: honest p99 <= 50 ms, 0 slots leaked, 0 entries gained.
All traffic is on 127.0.0.1 (and 127.0.0.2 for "another address"); every
loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench import abuse_strangers as strangers
from bench import abuse_web as web
from bench.load import _cpu_seconds, _descendants, _status_kib, door_process
from bench.reading import ACCOUNT, PASSWORD, read_until, telnet

ATTACKS = ["paste", "hint-flood", "resize-storm", "ssh-paste", "non-reader-hangs-up", "non-reader-stays",
           "connection-flood", "key-query", "sysop-name", "login-twice", *strangers.ATTACKS, *web.ATTACKS,
           "password-guessing"]
"""In this order: password guessing spends 127.0.0.1's password checks for
ten minutes, so it comes last.  The strangers' attacks are in
:mod:`bench.abuse_strangers` (and on the web page and the hub in :mod:`bench.abuse_web`); those on peer ports
(:data:`~bench.abuse_strangers.NODE_ATTACKS`) run against a second door of
two workers, whose peer ports they attack while the benchmark, as an
honest node holding the peer secret, hands callers over to them."""

IAC, SB, SE, WILL = 255, 250, 240, 251
NAWS = 31
RIGHT = b"\x1b[C"


# -- helpers for both sides ---------------------------------------------------------


async def guest_to_the_discard(reader: Any, writer: Any, name: str) -> None:
    """From the name prompt to "Choose 2 cards" as a guest against the computer."""
    await read_until(reader, b"Your name:")
    writer.write(name.encode() + b"\r")
    await read_until(reader, b"is not registered")
    writer.write(b"g")
    await read_until(reader, b"Main menu")
    writer.write(b"1")
    await read_until(reader, b"Press 1 or 2")
    writer.write(b"1")
    await read_until(reader, b"blank line deals")
    writer.write(b"\r")
    await read_until(reader, b"Choose 2 cards")


# -- the attacks (in their own process) -----------------------------------------------


async def attack(name: str, telnet_port: int, ssh_port: int, seconds: float, sysop_public: str,
                 peer_ports: list[int] | None = None, data_dir: Path | None = None,
                 sniffed: bytes = b"", web_port: int = 0, rlogin_port: int = 0) -> dict[str, Any]:
    """Run one attack for about ``seconds``; returns what it achieved."""
    import asyncssh

    if name in web.ATTACKS:
        return await web.attack(name, telnet_port, web_port, rlogin_port, seconds)
    if name in strangers.ATTACKS:
        return await strangers.attack(name, telnet_port, ssh_port, seconds, peer_ports or [], data_dir, sniffed)

    result: dict[str, Any] = {"entries": 0, "notes": ""}
    end = time.monotonic() + seconds

    async def flood(writer: Any, byte: bytes) -> int:
        """200 KB of ``byte`` (or what fits before the end), then silence
        until the end; returns the bytes sent."""
        sent = 0
        while time.monotonic() < end and sent < 200_000:
            writer.write(byte * 4096)
            sent += 4096
            await writer.drain()
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        writer.close()
        return sent

    if name == "paste":
        reader, writer = await telnet(telnet_port, 500, 300)
        await read_until(reader, b"Your name:")
        sent = await flood(writer, b"x")
        result["notes"] = f"{sent // 1024} KiB pasted at the name prompt, 500x300 window"
    elif name == "hint-flood":
        reader, writer = await telnet(telnet_port)
        await guest_to_the_discard(reader, writer, "Hinter")
        sent = await flood(writer, b"?")
        result["notes"] = f"{sent // 1024} KiB of ? in a game"
    elif name == "resize-storm":
        r, w = await asyncio.open_connection("127.0.0.1", telnet_port)
        await asyncio.sleep(1.2)
        w.write(b"Storm\r" + bytes([IAC, WILL, NAWS]))
        n = 0
        while time.monotonic() < end and n < 200_000:
            w.write(b"".join(bytes([IAC, SB, NAWS, 1, (n + i) % 200, 0, 24 + (n + i) % 200, IAC, SE])
                             for i in range(500)))
            n += 500
            await w.drain()
            await asyncio.sleep(0.01)
        result["notes"] = f"{n} window sizes, up to 455x223"
        w.close()
    elif name == "ssh-paste":
        async with asyncssh.connect("127.0.0.1", ssh_port, username="paster", known_hosts=None, client_keys=None,
                                    agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(500, 300), encoding=None)
            sent = 0
            while time.monotonic() < end and sent < 200_000:
                process.stdin.write(b"y" * 4096)
                sent += 4096
                await process.stdin.drain()
            result["notes"] = f"{sent // 1024} KiB pasted over SSH, 500x300 window"
            await asyncio.sleep(max(0.0, end - time.monotonic()))
    elif name in ("non-reader-hangs-up", "non-reader-stays"):
        conns = []
        for i in range(8):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", telnet_port))
            r, w = await asyncio.open_connection(sock=sock)
            w.write(b"Stuck%d\r" % i + b"\x0c" * 3000)
            conns.append((sock, w))
        await asyncio.sleep(3)
        if name == "non-reader-hangs-up":
            for sock, w in conns:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                w.close()
            result["notes"] = "8 callers asked for redraws, read nothing and hung up"
        else:
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            for sock, w in conns:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                w.close()
            result["notes"] = f"8 callers read nothing for {seconds:g} s"
    elif name == "connection-flood":
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        socks: list[socket.socket] = []
        refused = 0
        for i in range(1100):
            port = ssh_port if i % 2 else telnet_port
            try:
                s = socket.socket()
                s.setblocking(False)
                await asyncio.wait_for(asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port)), 2)
                socks.append(s)
            except (TimeoutError, OSError):
                refused += 1
        await asyncio.sleep(2)
        alive = 0
        for s in socks:  # a socket the door closed at once reads b"" (or the refusal line, then b"")
            try:
                data = s.recv(4096)
                alive += 1 if data and b"Sorry" not in data else 0
            except BlockingIOError:
                alive += 1
            except OSError:
                pass
        result["notes"] = f"1,100 connections (half SSH), none negotiating; {alive} still open after 2 s"
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        for s in socks:
            s.close()
    elif name == "password-guessing":
        tried = 0
        got_in = 0

        async def one_ssh(i: int) -> None:
            nonlocal tried, got_in
            while time.monotonic() < end:
                tried += 1
                try:
                    async with asyncssh.connect("127.0.0.1", ssh_port, username=ACCOUNT, password=f"guess{i}-{tried}",
                                                known_hosts=None, client_keys=None, agent_path=None, config=None,
                                                login_timeout=10):
                        got_in += 1
                except (TimeoutError, asyncssh.Error, OSError):
                    pass

        async def one_telnet() -> None:
            nonlocal tried
            while time.monotonic() < end:
                try:
                    reader, writer = await telnet(telnet_port)
                    await read_until(reader, b"Your name:")
                    writer.write(ACCOUNT.encode() + b"\r")
                    seen = await read_until(reader, b"Password:")
                    for _ in range(3):
                        tried += 1
                        writer.write(b"guess%d\r" % tried)
                        seen = await read_until(reader, b"Wrong password.", 10, seen) if _ == 0 else seen
                    writer.close()
                except (OSError, TimeoutError, ConnectionError):
                    await asyncio.sleep(0.1)

        started = time.monotonic()
        await asyncio.gather(*(one_ssh(i) for i in range(16)), *(one_telnet() for _ in range(4)))
        result["entries"] = got_in
        result["attempts"] = tried
        result["seconds"] = time.monotonic() - started
        result["notes"] = f"{tried} wrong passwords sent over 16 SSH and 4 telnet connections at a time"
    elif name == "key-query":
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.loopback.test_ssh_auth import _SwitchingClient, query_only

        public = asyncssh.import_public_key(sysop_public)
        queried = asyncio.Event()
        for _ in range(3):
            conn, _c = await asyncssh.create_connection(
                lambda: _SwitchingClient(query_only(public, queried), queried), "127.0.0.1", ssh_port,
                username="Gandalf", known_hosts=None, agent_path=None, config=None, client_keys=None,
                preferred_auth="publickey,password")
            async with conn:
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                seen = bytearray()
                deadline = time.monotonic() + 10
                while b"Your name" not in seen and b"SYSOP CONSOLE" not in seen and time.monotonic() < deadline:
                    seen += await asyncio.wait_for(process.stdout.read(65536), 10)
                result["entries"] += 1 if b"SYSOP CONSOLE" in seen else 0
        result["notes"] = "an unsigned query of the sysop's key, then a guest user name (3 tries)"
    elif name == "sysop-name":
        for typed in ["Gandalf", "GANDALF", "Gan\u00addalf", "\uff27andalf", "Computer"]:
            reader, writer = await telnet(telnet_port)
            await read_until(reader, b"Your name:")
            writer.write(typed.encode() + b"\r")
            seen = bytearray()
            try:
                await read_until(reader, b"reserved", 5, seen)
            except (TimeoutError, ConnectionError):
                pass
            result["entries"] += 0 if b"reserved" in seen else 1
            writer.close()
        result["notes"] = "a guest types a sysop's name (4 spellings) and Computer"
    elif name == "login-twice":
        sessions = []
        for _ in range(3):
            reader, writer = await telnet(telnet_port)
            await read_until(reader, b"Your name:")
            writer.write(ACCOUNT.encode() + b"\r")
            await read_until(reader, b"Password:")
            writer.write(PASSWORD.encode() + b"\r")
            await read_until(reader, b"Main menu", 15)
            sessions.append((reader, writer))
        await asyncio.sleep(2)
        live = 0
        for reader, _writer in sessions:
            try:
                while data := await asyncio.wait_for(reader.read(65536), 0.5):
                    if b"logged in again" in data:
                        break
                else:
                    continue
            except TimeoutError:
                live += 1  # still connected, nothing more said
        result["entries"] = max(0, live - 1)
        result["notes"] = "one account logs in three times"
        for _, writer in sessions:
            writer.close()
    else:
        raise SystemExit(f"unknown attack {name!r}")
    return result


# -- the honest caller and the run ----------------------------------------------------------


class Honest:
    """A telnet guest in a game who moves the bar every 100 ms."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.sent_at: float | None = None
        self.measuring = False
        self.answered = asyncio.Event()
        self.lost = 0
        """1 when the honest caller's connection (and game) ended before the benchmark said stop."""

    async def run(self, port: int, stop: asyncio.Event) -> None:
        reader, writer = await telnet(port)
        await guest_to_the_discard(reader, writer, "Calm")

        async def pump() -> None:
            while await reader.read(65536):
                if self.sent_at is not None:
                    if self.measuring:
                        self.latencies.append(time.monotonic() - self.sent_at)
                    self.sent_at = None
                    self.answered.set()
            if not stop.is_set():
                self.lost = 1

        pumping = asyncio.create_task(pump())
        while not stop.is_set():
            self.answered.clear()
            self.sent_at = time.monotonic()
            writer.write(RIGHT)
            try:
                await asyncio.wait_for(self.answered.wait(), 2.0)
            except TimeoutError:
                if self.measuring:
                    self.latencies.append(2.0)
                self.sent_at = None
            await asyncio.sleep(0.1)
        pumping.cancel()
        writer.close()


def sockets_of(pid: int) -> int:
    """Open sockets of process ``pid`` and of the processes it started (workers)."""
    n = 0
    for one in (pid, *_descendants(pid)):
        try:
            fds = os.listdir(f"/proc/{one}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{one}/fd/{fd}").startswith("socket:"):
                    n += 1
            except OSError:
                pass
    return n


def cpu_of(pid: int) -> float:
    """CPU seconds of process ``pid`` and of the processes it started."""
    total = 0.0
    for one in (pid, *_descendants(pid)):
        try:
            total += _cpu_seconds(one)
        except OSError:
            pass
    return total


def rss_mib_of(pid: int) -> float:
    """Resident memory of ``pid`` and the processes it started, in MiB."""
    total = 0
    for one in (pid, *_descendants(pid)):
        try:
            total += _status_kib(one, "VmRSS")
        except OSError:
            pass
    return total / 1024


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class HonestNode:
    """The benchmark as an honest node of a door of workers: it holds the
    peer secret (from the door's data folder) and hands a guest over to
    each peer port every half second; counts the hand-overs kept out and
    how long the good ones took."""

    def __init__(self, secret: bytes, ports: list[int]) -> None:
        self.secret = secret
        self.ports = ports
        self.took: list[float] = []
        self.failed = 0

    async def hand_over(self, port: int, n: int) -> bytes | None:
        """One hand-over: the hello line sent, or ``None`` when it failed."""
        from door.net.peer_socket import PeerHello, welcome

        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
        except (TimeoutError, OSError):
            return None
        try:
            nonce = bytes.fromhex((await asyncio.wait_for(reader.readline(), 5))[6:].decode().strip())
            line, mine = PeerHello(f"Probe{n}", None, 80, 24, "utf-8", "xterm").encode(self.secret, nonce)
            writer.write(line)
            if await asyncio.wait_for(reader.readline(), 5) != welcome(self.secret, nonce, mine):
                return None
            seen = b""  # (raw bytes: a pyte screen here would stall this process, and the honest caller's clock)
            while b"Main menu" not in seen:
                chunk = await asyncio.wait_for(reader.read(65536), 10)
                if not chunk:
                    return None
                seen += chunk
            self.took.append(time.monotonic() - started)
            return line
        except (OSError, ValueError, TimeoutError, ConnectionError):
            return None
        finally:
            writer.close()

    async def run(self, stop: asyncio.Event) -> None:
        n = 0
        while not stop.is_set():
            for port in self.ports:
                n += 1
                if await self.hand_over(port, n) is None:
                    self.failed += 1
            await asyncio.sleep(0.5)


async def register(port: int) -> None:
    reader, writer = await telnet(port)
    await read_until(reader, b"Your name:")
    writer.write(ACCOUNT.encode() + b"\r")
    await read_until(reader, b"is not registered")
    writer.write(b"r")
    for _ in range(2):
        await read_until(reader, b"Password:")
        writer.write(PASSWORD.encode() + b"\r")
        await asyncio.sleep(0.3)
    await read_until(reader, b"Main menu", 15)
    writer.write(b"q")
    writer.close()


async def run_all(names: list[str], seconds: float) -> list[dict[str, Any]]:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    public = key.export_public_key("openssh").decode().strip()
    config = (f'[limits]\nstuck_timeout = 5\n\n[[sysop]]\nname = "Gandalf"\nssh_keys = ["{public}"]\n\n'
              f'{web.CONFIG}')
    rows = []
    errors: list[str] = []
    with contextlib.ExitStack() as doors:
        main_door = doors.enter_context(door_process(config))
        node_door = None
        node_ports: list[int] = []
        await register(main_door.telnet_port)
        for name in names:
            door = main_door
            if name in strangers.NODE_ATTACKS:
                if node_door is None:  # a door of two workers, with peer ports
                    node_door = doors.enter_context(door_process(config, args=["--workers", "2"]))
                    deadline = time.monotonic() + 20
                    while len(node_ports) < 2 and time.monotonic() < deadline:
                        node_ports = [int(p) for p in re.findall(r"peers reach it on 127\.0\.0\.1:(\d+)",
                                                                 node_door.log_text())]
                        await asyncio.sleep(0.2)
                    await register(node_door.telnet_port)
                door = node_door
            ssh_port = int(re.findall(r"ssh listening on 127\.0\.0\.1:(\d+)", door.log_text())[0])
            hub = re.findall(r"rlogin \(the cribbage hub[^)]*\) listening on 127\.0\.0\.1:(\d+)", door.log_text())
            node = None
            if door is node_door:
                node = HonestNode((door.tmp / "data" / "peer_secret").read_bytes().strip(), node_ports)
            sniffed = b""
            if node is not None and name == "peer-replay":
                sniffed = await node.hand_over(node_ports[0], 0) or b""
            honest = Honest()
            stop = asyncio.Event()
            playing = asyncio.create_task(honest.run(door.telnet_port, stop))
            await asyncio.sleep(2.0)
            before = sockets_of(door.pid)
            log_before = door.log_text()
            cpu0, t0 = cpu_of(door.pid), time.monotonic()
            honest.measuring = True
            handing = asyncio.create_task(node.run(stop)) if node is not None else None
            sniff_file = door.tmp / "sniffed.bin"
            sniff_file.write_bytes(sniffed)
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.abuse", "--attack", name, "--telnet-port", str(door.telnet_port),
                "--ssh-port", str(ssh_port), "--seconds", str(seconds), "--sysop-key", public,
                "--peer-ports", ",".join(map(str, node_ports if node is not None else [])),
                "--data-dir", str(door.tmp / "data"), "--sniffed", str(sniff_file),
                "--web-port", str(door.web_port), "--rlogin-port", hub[0] if hub else "0",
                stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parent.parent)
            rss_before, rss_peak = rss_mib_of(door.pid), 0.0

            async def sample(pid: int = door.pid) -> None:
                nonlocal rss_peak
                while True:
                    rss_peak = max(rss_peak, rss_mib_of(pid))
                    await asyncio.sleep(0.5)

            sampling = asyncio.create_task(sample())
            out, _ = await asyncio.wait_for(proc.communicate(), seconds + 300)
            sampling.cancel()
            wall = time.monotonic() - t0
            cpu = cpu_of(door.pid) - cpu0
            honest.measuring = False
            log_grew = len(door.log_text().encode()) - len(log_before.encode())
            try:
                got = json.loads(out.decode().strip().splitlines()[-1])
            except (IndexError, ValueError):
                got = {"entries": -1, "notes": "the attacker failed"}
            stop.set()
            await playing
            if handing is not None:
                await handing
            leaked = 0
            for _ in range(40):  # up to 10 s for the door to let go of everything
                await asyncio.sleep(0.25)
                leaked = sockets_of(door.pid) - (before - 1)  # the honest caller has gone too
                if leaked <= 0:
                    break
            checked = door.log_text().count("wrong password for") - log_before.count("wrong password for")
            lost = honest.lost + (node.failed if node is not None else 0) + int(got.get("kept_out", 0))
            row = {
                "attack": name, "p50": pct(honest.latencies, 0.5), "p99": pct(honest.latencies, 0.99),
                "keys": len(honest.latencies), "cpu": cpu / wall if wall else 0.0,
                "rss_mib": rss_mib_of(door.pid), "leaked": max(0, leaked),
                "entries": got.get("entries", 0), "lost": lost, "notes": got.get("notes", ""),
                "log_kib_s": log_grew / 1024 / max(1e-9, wall),
            }
            if name == "password-guessing":
                row["checked_per_s"] = checked / max(1e-9, got.get("seconds", wall))
                row["notes"] += f"; the door checked {checked} ({row['checked_per_s']:.2f}/s)"
            if node is not None:
                took = f"{pct(node.took, 0.5):.0f} / {pct(node.took, 0.99):.0f} ms" if node.took else "none"
                row["notes"] += (f"; honest hand-overs: {len(node.took)} made (p50 / p99 {took}), "
                                 f"{node.failed} kept out")
            if name == "log-flood":
                row["notes"] += f"; the log grew {row['log_kib_s']:.1f} KiB/s"
            if name in web.ATTACKS:
                row["notes"] += (f"; door RSS {rss_before:.0f} MiB before, +{rss_peak - rss_before:.0f} MiB at most, "
                                 f"+{row['rss_mib'] - rss_before:.0f} MiB after")
            rows.append(row)
            print(f"{name:<20} p50 {row['p50']:6.1f} ms  p99 {row['p99']:6.1f} ms  ({row['keys']} keys)  "
                  f"cpu {100 * row['cpu']:5.1f}%  rss {row['rss_mib']:6.1f} MiB  leaked {row['leaked']}  "
                  f"entries {row['entries']}  lost {row['lost']}  log {row['log_kib_s']:.1f} KiB/s", flush=True)
        errors = main_door.log_errors() + (node_door.log_errors() if node_door is not None else [])
    if errors:
        print("server log errors:", *errors, sep="\n  ")
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=ATTACKS, action="append", help="run only this attack (repeatable)")
    p.add_argument("--seconds", type=float, default=12.0, help="length of each attack (default 12)")
    p.add_argument("--attack", choices=ATTACKS, help=argparse.SUPPRESS)
    p.add_argument("--telnet-port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--ssh-port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--sysop-key", default="", help=argparse.SUPPRESS)
    p.add_argument("--peer-ports", default="", help=argparse.SUPPRESS)
    p.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--sniffed", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--web-port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--rlogin-port", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.attack:
        ports = [int(p) for p in args.peer_ports.split(",") if p]
        sniffed = args.sniffed.read_bytes() if args.sniffed is not None and args.sniffed.exists() else b""
        result = asyncio.run(attack(args.attack, args.telnet_port, args.ssh_port, args.seconds, args.sysop_key,
                                    ports, args.data_dir, sniffed, args.web_port, args.rlogin_port))
        print(json.dumps(result))
        return
    rows = asyncio.run(run_all(args.only or ATTACKS, args.seconds))
    print()
    print("| attack | honest p50 / p99 (ms) | server CPU | RSS | slots leaked | entries gained | games or "
          "hand-overs lost | what |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['attack']} | {r['p50']:.1f} / {r['p99']:.1f} | {100 * r['cpu']:.0f}% | {r['rss_mib']:.0f} MiB | "
              f"{r['leaked']} | {r['entries']} | {r['lost']} | {r['notes']} |")
    worst = max((r["p99"] for r in rows), default=0.0)
    print(f"\nworst honest p99 {worst:.1f} ms (target <= 50); slots leaked {sum(r['leaked'] for r in rows)} "
          f"(target 0); entries gained {sum(max(0, r['entries']) for r in rows)} (target 0); "
          f"games or hand-overs lost {sum(r['lost'] for r in rows)} (target 0); "
          f"median honest p50 {statistics.median([r['p50'] for r in rows]) if rows else 0:.1f} ms")


if __name__ == "__main__":
    main()
