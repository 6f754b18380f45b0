"""Connections not yet logged in have a budget of their own: slow
requests from many addresses cannot fill the door.  When the budget is
full the oldest connection of the busiest address is closed to make room;
a caller who has logged in is out of it, and a new caller still gets in."""

from __future__ import annotations

import asyncio
from pathlib import Path

from door.net.gate import ConnectionGate, PreloginLimit
from tests.support.player import log_in_as_guest, telnet_caller
from tests.support.server import make_config, running


def test_the_busiest_address_makes_room_and_a_logged_in_caller_is_out_of_the_budget() -> None:
    closed: list[str] = []
    gate = ConnectionGate(100, 100, prelogin=PreloginLimit(total=4, per_address=3, per_network=10))
    honest = gate.admit("192.0.2.1", close=lambda: closed.append("honest"))
    floods = [gate.admit(f"198.51.100.{i % 2}", close=lambda i=i: closed.append(f"flood{i}")) for i in range(3)]
    assert gate.waiting == 4 and not closed
    newcomer = gate.admit("203.0.113.5", close=lambda: closed.append("newcomer"))
    assert newcomer.refused is None and closed == ["flood0"]  # the busiest address's oldest, not the honest one
    assert gate.waiting == 4 and gate.total == 4 and gate.let_go == 1
    honest.logged_in()
    assert gate.waiting == 3 and gate.total == 4  # still counted, no longer pre-login
    floods[0].release()  # (closed already: releasing it again changes nothing)
    assert gate.total == 4
    gate.prelogin = PreloginLimit(total=10, per_address=3, per_network=10)
    more = [gate.admit("198.51.100.1") for _ in range(3)]  # one address: three at once at most
    assert [t.refused for t in more] == [None, None, "too many calls from your address at once"]
    for ticket in (honest, newcomer, *floods, *more):
        ticket.release()
    assert gate.total == 0 and gate.waiting == 0


async def test_slow_requests_from_21_addresses_leave_room_for_callers(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.limits.max_sessions = 60
    config.limits.prelogin_total = 20
    config.limits.prelogin_per_address = 10
    async with running(config) as door:
        playing = await telnet_caller(door.telnet_port, source="127.0.200.1")
        await log_in_as_guest(playing, "Pat")
        slow: list[asyncio.StreamWriter] = []
        for net in range(1, 22):  # 21 addresses, 10 requests each that never finish their headers
            for _ in range(10):
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", door.web_port,
                                                              local_addr=(f"127.0.{net}.1", 0))
                except OSError:
                    continue
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                slow.append(writer)
        await asyncio.sleep(0.3)
        assert door.gate is not None and door.gate.waiting <= 20
        # the logged-in caller keeps playing, and a new caller gets in
        await playing.send(b"4")
        await playing.screen.wait_for(lambda: "Top players" in playing.screen.text())
        newcomer = await telnet_caller(door.telnet_port, source="127.0.201.1")
        await log_in_as_guest(newcomer, "Nia")
        for writer in slow:
            writer.close()
        playing.close()
        newcomer.close()
