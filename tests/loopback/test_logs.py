"""Every log line of a session names its connection: lines
logged by other modules on the session's behalf (the table, in a task of
its own) carry the same ``conn`` as the server's connect line."""

from __future__ import annotations

import asyncio
import logging

from door.net.logs import FORMAT, ConnectionFilter
from door.server import DoorServer
from tests.support.player import log_in_as_guest, telnet_caller


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.addFilter(ConnectionFilter())
        self.setFormatter(logging.Formatter(FORMAT))
        self.lines: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.name, getattr(record, "conn", "?"), self.format(record)))


async def test_a_sessions_lines_carry_its_connection_id(door: DoorServer) -> None:
    keep = Keep()
    door_log = logging.getLogger("door")
    door_log.addHandler(keep)
    try:
        caller = await telnet_caller(door.telnet_port)
        await log_in_as_guest(caller, "Ann")
        await caller.send(b"1")
        s = caller.screen
        await s.wait_for(lambda: "Press 1 or 2" in s.text())
        await caller.send(b"1")
        await s.wait_for(lambda: "Choose 2 cards" in s.text() or "options" in s.text().lower())
        for _ in range(50):
            if any(name == "door.play.table" for name, _, _ in keep.lines):
                break
            await asyncio.sleep(0.05)
        caller.close()
    finally:
        door_log.removeHandler(keep)
    connect = [conn for name, conn, text in keep.lines if name == "door" and "connect telnet" in text]
    table = [(conn, text) for name, conn, text in keep.lines if name == "door.play.table"]
    assert connect and connect[0] != "-"
    assert table and all(conn == connect[0] for conn, _ in table), table
    assert f"[conn={connect[0]}] door.play.table: game " in table[0][1]


async def test_what_callers_send_cannot_forge_log_lines(door: DoorServer) -> None:
    """A newline in the terminal type, or escape sequences in
    a name, reach the log escaped, one record one line."""
    keep = Keep()
    door_log = logging.getLogger("door")
    door_log.addHandler(keep)
    try:
        caller = await telnet_caller(door.telnet_port, term="xterm\nERROR forged line")
        await log_in_as_guest(caller, "Ev\x1b[2Jil")  # a name with an erase-screen sequence in it
        caller.close()
    finally:
        door_log.removeHandler(keep)
    lines = [text for _, _, text in keep.lines]
    assert lines and all("\n" not in text and "\x1b" not in text for text in lines)
    assert any("xterm\\nERROR forged line" in text for text in lines), lines


def test_the_log_filter_escapes_whatever_a_call_site_passes() -> None:
    """Any module logging a caller's text with ``%s`` is covered too."""
    keep = Keep()
    log = logging.getLogger("door.test_logs")
    log.addHandler(keep)
    try:
        log.warning("guest %s from %s", "Ann\r\n2026-01-01 ERROR [conn=1] door: forged", "1.2.3.4")
        log.warning("plain ünïcödé ♥ stays")
    finally:
        log.removeHandler(keep)
    first, second = (text for _, _, text in keep.lines)
    assert "\n" not in first and "Ann\\r\\n2026-01-01 ERROR" in first
    assert second.endswith("plain ünïcödé ♥ stays")


async def test_a_server_process_s_log_is_read_all_along(tmp_path) -> None:
    """``start_server_process`` keeps reading the server's log after
    start-up (into ``log_tail``): a long test's server never blocks on a
    full pipe (64 KiB) with nobody reading it."""
    import signal

    from tests.support.server import start_server_process

    proc, port, _ = start_server_process(tmp_path / "data")
    try:
        caller = await telnet_caller(port)
        await log_in_as_guest(caller, "Lena")
        caller.close()
        deadline = asyncio.get_running_loop().time() + 10
        while not any("disconnect" in line for line in proc.log_tail):
            assert asyncio.get_running_loop().time() < deadline, list(proc.log_tail)
            await asyncio.sleep(0.1)
        assert any("caller is 'Lena' (guest)" in line for line in proc.log_tail)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


async def test_json_lines_name_the_node_the_connection_and_the_account(tmp_path) -> None:
    """``[server] log_format = "json"``: every line of the server's log is
    one JSON object with its node and connection; once the caller is in,
    their lines name the account too."""
    import json
    import signal

    from tests.support.server import start_server_process

    conf = tmp_path / "door.toml"
    conf.write_text('[server]\nlog_format = "json"\nnode_name = "east"\n')
    proc, port, _ = start_server_process(tmp_path / "data", "--config", str(conf))
    try:
        caller = await telnet_caller(port)
        await log_in_as_guest(caller, "Lena")
        caller.close()
        deadline = asyncio.get_running_loop().time() + 10
        while not any("disconnect" in line for line in proc.log_tail):
            assert asyncio.get_running_loop().time() < deadline, list(proc.log_tail)
            await asyncio.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    lines = [json.loads(line) for line in proc.log_tail]  # (each line parses, or the test fails here)
    assert all(line["node"] == "east" and {"time", "level", "conn", "logger", "message"} <= line.keys()
               for line in lines)
    connect = next(line for line in lines if line["message"].startswith("connect telnet"))
    assert connect["conn"] != "-" and "account" not in connect  # (not logged in yet)
    gone = next(line for line in lines if line["message"].startswith("disconnect"))
    assert gone["conn"] == connect["conn"] and gone["account"] == "Lena"


def test_a_fault_that_repeats_is_logged_when_it_starts_each_minute_and_when_it_ends(caplog) -> None:
    from door.net.logs import FAULT_EVERY, Fault

    now = [0.0]
    fault = Fault(logging.getLogger("door.test"), "heartbeat failed", clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "door.test"):
        for _ in range(int(2.5 * FAULT_EVERY * 2)):  # twice a second for 150 s
            fault.failed("the store is away")
            now[0] += 0.5
        fault.ok()
        fault.ok()
    # (only this logger's: the door's summary of lines held back, from another test's door in this process,
    # may land in the same minutes)
    said = [r.getMessage() for r in caplog.records if r.name == "door.test"]
    assert said[0] == "heartbeat failed: the store is away"
    assert len(said) == 4 and "for 60 s (120 times" in said[1] and "for 120 s" in said[2]
    assert said[3] == "heartbeat failed: over after 150.0 s"
