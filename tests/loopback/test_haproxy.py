"""The HAProxy configuration in contrib/, run for real (Debian's
``haproxy``) in front of a door: telnet and SSH callers come through with
the PROXY protocol and the door knows each by their own address (here
127.0.0.5, the balancer's being 127.0.0.1), the web page with
X-Forwarded-For, and the balancer asks the door's /healthz.  Skipped
without haproxy, except under ``.ci/run`` (``CRIBBAGE_REQUIRE_HAPROXY=1``)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import pytest

from door.server import DoorServer
from tests.support.clients import until
from tests.support.server import make_config, running

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "contrib" / "haproxy" / "cribbage-door.cfg"
CALLER = "127.0.0.5"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def haproxy_bin() -> str:
    found = shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if Path(p).exists()), None)
    if found is None:
        if os.environ.get("CRIBBAGE_REQUIRE_HAPROXY") == "1":
            pytest.fail("haproxy is not installed, and CRIBBAGE_REQUIRE_HAPROXY=1 asks for its test")
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy)")
    return found


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data")
    config.server.proxies = ["127.0.0.1"]  # the balancer
    config.web.proxies = ["127.0.0.1"]
    async with running(config) as server:
        yield server


def rendered(door: DoorServer, fronts: dict[str, int]) -> str:
    """contrib's configuration with both nodes at ``door`` and the
    frontends on free loopback ports."""
    text = CONFIG.read_text()
    for node in ("10.0.0.11", "10.0.0.12"):
        text = (text.replace(f"{node}:2323", f"127.0.0.1:{door.telnet_port}")
                .replace(f"{node}:2222", f"127.0.0.1:{door.ssh_port}")
                .replace(f"{node}:8080", f"127.0.0.1:{door.web_port}"))
    text = text.replace("check port 8080", f"check port {door.web_port}").replace("source 10.0.0.5",
                                                                                 "source 127.0.0.1")
    text = re.sub(r"\n(frontend rlogin|backend door_rlogin)\n(    .*\n)+", "\n", text)  # (no hub here)
    for name, port in fronts.items():
        text = re.sub(rf"(frontend {name}\n(?:    .*\n)*?)    bind :\d+", rf"\g<1>    bind 127.0.0.1:{port}", text)
    return text


@pytest.fixture
def balancer(door: DoorServer, haproxy_bin: str, tmp_path: Path) -> Iterator[dict[str, int]]:
    fronts = {"telnet": _free_port(), "ssh": _free_port(), "web": _free_port()}
    path = tmp_path / "haproxy.cfg"
    path.write_text(rendered(door, fronts))
    checked = subprocess.run([haproxy_bin, "-c", "-f", str(path)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    proc = subprocess.Popen([haproxy_bin, "-db", "-f", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        yield fronts
    finally:
        proc.terminate()
        proc.wait(10)


def addresses(door: DoorServer) -> set[str]:
    return {terminal.address for terminal in door.sessions}


async def test_telnet_through_haproxy_is_known_by_the_callers_address(door: DoorServer,
                                                                      balancer: dict[str, int]) -> None:
    async def connect() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        for _ in range(50):  # (until haproxy listens)
            try:
                return await asyncio.open_connection("127.0.0.1", balancer["telnet"], local_addr=(CALLER, 0))
            except OSError:
                await asyncio.sleep(0.1)
        raise AssertionError("haproxy never listened")

    reader, writer = await connect()
    assert await asyncio.wait_for(reader.read(1), 10)
    assert await until(lambda: CALLER in addresses(door))
    assert "127.0.0.1" not in addresses(door)
    writer.close()


async def test_ssh_through_haproxy_is_known_by_the_callers_address(door: DoorServer,
                                                                   balancer: dict[str, int]) -> None:
    await asyncio.sleep(0.5)  # (haproxy starting)
    async with asyncssh.connect("127.0.0.1", balancer["ssh"], local_addr=(CALLER, 0), username="Pia",
                                known_hosts=None, client_keys=None, agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        assert await until(lambda: CALLER in addresses(door))
        process.close()


async def test_the_balancer_asks_the_health_of_the_door(door: DoorServer, balancer: dict[str, int]) -> None:
    def fetch() -> tuple[int, str]:
        request = urllib.request.Request(f"http://127.0.0.1:{balancer['web']}/healthz")
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()

    for _ in range(50):
        try:
            status, body = await asyncio.to_thread(fetch)
            break
        except OSError:
            await asyncio.sleep(0.1)
    else:
        raise AssertionError("the web page never answered through haproxy")
    assert status == 200 and body.startswith("ok")


async def test_when_no_node_answers_the_balancer_s_backup_says_the_door_is_down(
        haproxy_bin: str, tmp_path: Path) -> None:
    """Both nodes down (nothing listens where they should): after two
    failed checks a telnet caller through the balancer reaches the sorry
    listener, its backup server, and reads why."""
    from door.net.listener import Bind
    from door.net.sorry import start_sorry

    sorry = await start_sorry(Bind("127.0.0.1", 0), "Down for the new release: back at nine.")
    dead = _free_port()  # (nothing listens there)
    front = _free_port()
    text = CONFIG.read_text().replace("source 10.0.0.5", "source 127.0.0.1").replace(
        "check port 8080", f"check port {dead}").replace("127.0.0.1:2399", f"127.0.0.1:{sorry.port}")
    for node in ("10.0.0.11", "10.0.0.12"):
        text = text.replace(f"{node}:2323", f"127.0.0.1:{dead}")
    text = re.sub(r"\n(frontend (ssh|rlogin|web)|backend door_(ssh|rlogin|web))\n(    .*\n)+", "\n", text)
    text = re.sub(r"(frontend telnet\n(?:    .*\n)*?)    bind :\d+", rf"\g<1>    bind 127.0.0.1:{front}", text)
    path = tmp_path / "haproxy.cfg"
    path.write_text(text)
    proc = subprocess.Popen([haproxy_bin, "-db", "-f", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        await asyncio.sleep(2.5)  # (two failed checks a second apart: both nodes down)
        reader, writer = await asyncio.open_connection("127.0.0.1", front)
        said = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        assert b"Down for the new release: back at nine." in said
    finally:
        proc.terminate()
        proc.wait(10)
        sorry.close()
