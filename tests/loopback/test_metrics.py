"""``/metrics`` on the web listener, for Prometheus: served only to the
addresses ``[web] metrics_from`` lists, in the text exposition format
(parsed here by the Prometheus client's own parser), every sample
labelled with the node, and its figures moving with a game."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from door.net.metrics import refused
from door.server import DoorServer
from tests.support.player import Player, telnet_caller
from tests.support.server import make_config, running

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(door: DoorServer) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{door.web_port}/metrics", timeout=10) as r:
            assert r.headers["Content-Type"].startswith("text/plain; version=")
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def samples(text: str) -> Samples:
    """Every sample of an exposition, by name and labels (raises ``ValueError`` when it does not parse)."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= set(ls))


async def metrics(door: DoorServer) -> Samples:
    status, text = await asyncio.to_thread(scrape, door)
    assert status == 200, text
    return samples(text)


async def test_nobody_reads_metrics_unless_the_sysop_lists_them(tmp_path: Path) -> None:
    async with running(make_config(tmp_path / "data")) as door:
        status, _ = await asyncio.to_thread(scrape, door)
        assert status == 404
    config = make_config(tmp_path / "other")
    config.web.metrics_from = ["192.0.2.0/24"]  # (Prometheus elsewhere: not this machine)
    async with running(config) as door:
        status, _ = await asyncio.to_thread(scrape, door)
        assert status == 404


async def test_metrics_parse_and_move_with_a_game(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data", game_to=61)
    config.web.metrics_from = ["127.0.0.0/8"]
    config.server.node_name = "east"
    async with running(config) as door:
        before = await metrics(door)
        assert all(dict(labels).get("node") == "east" for _, labels in before), "a sample without its node"
        assert value(before, "cribbage_max_sessions") == config.limits.max_sessions
        assert value(before, "cribbage_games", kind="computer") == 0
        caller = await telnet_caller(door.telnet_port)
        player = Player(caller.screen, caller.send, name="Metra", password="metra-pass")
        game = asyncio.create_task(player.play(timeout=150))
        for _ in range(600):
            during = await metrics(door)
            if value(during, "cribbage_games", kind="computer") == 1 or game.done():
                break
            await asyncio.sleep(0.05)
        assert value(during, "cribbage_games", kind="computer") == 1
        assert value(during, "cribbage_callers", transport="telnet", doing="vs_computer") == 1
        await game
        after = await metrics(door)
        assert value(after, "cribbage_games_finished_total") == value(before, "cribbage_games_finished_total") + 1
        keys = value(after, "cribbage_key_seconds_count") - value(before, "cribbage_key_seconds_count")
        assert keys >= player.actions // 2 > 0  # (a burst of keys is answered by one frame: timed once)
        assert value(after, "cribbage_store_query_seconds_count") > value(before, "cribbage_store_query_seconds_count")
        assert value(after, "cribbage_loop_lag_seconds_count") > value(before, "cribbage_loop_lag_seconds_count")
        assert value(after, "cribbage_sessions") == 1
        caller.close()


DASHBOARD = Path(__file__).resolve().parents[2] / "contrib" / "grafana" / "cribbage-door.json"


async def test_the_grafana_dashboard_shows_only_what_the_door_serves(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.web.metrics_from = ["127.0.0.1"]
    async with running(config) as door:
        caller = await telnet_caller(door.telnet_port)  # (a caller and a refusal: every family has a sample)
        refused("full")
        _, text = await asyncio.to_thread(scrape, door)
        caller.close()
    served = {family.name for family in text_string_to_metric_families(text)}
    served |= {f"{name}_{end}" for name in served for end in ("total", "bucket", "count", "sum")}
    panels = json.loads(DASHBOARD.read_text())["panels"]
    named = {name for panel in panels for target in panel["targets"]
             for name in re.findall(r"\b(cribbage_[a-z_]+)", target["expr"])}
    assert named and named <= served, named - served
    families = {family.name for family in text_string_to_metric_families(text)}
    assert {name for name in families if name.startswith("cribbage_")} <= {
        re.sub(r"_(total|bucket|count|sum)$", "", n) for n in named}, families - named


async def test_refusals_are_counted_by_reason(tmp_path: Path) -> None:
    from door.records.passwords import hash_password

    config = make_config(tmp_path / "data")
    config.web.metrics_from = ["127.0.0.1"]
    async with running(config) as door:
        assert door.store is not None
        await door.store.accounts.create("Vera", hash_password("vera-pass"))
        before = await metrics(door)
        caller = await telnet_caller(door.telnet_port)
        s = caller.screen
        await s.wait_for(lambda: "Your name:" in s.text())
        await caller.send(b"Vera\r")
        await s.wait_for(lambda: "Password:" in s.text())
        await caller.send(b"not-her-password\r")
        await s.wait_for(lambda: "Wrong password" in s.text())
        caller.close()
        await door.store.bans.add("127.0.0.9", "testing the count", "Sysop")
        assert door.ctx.bans is not None
        await door.ctx.bans.read()
        banned = await telnet_caller(door.telnet_port, source="127.0.0.9")
        await asyncio.wait_for(banned.done, 5)
        after = await metrics(door)
    for reason in ("password", "banned"):
        moved = value(after, "cribbage_refused_total", reason=reason) - value(before, "cribbage_refused_total",
                                                                              reason=reason)
        assert moved >= 1, reason


async def test_metrics_on_a_listener_of_their_own_off_the_web_port(tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.server.metrics_listen = "127.0.0.1:0"
    async with running(config) as door:
        assert door.service.listener is not None
        port = door.service.listener.port

        def get(path: str) -> tuple[int, str]:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                    return r.status, r.read().decode()
            except urllib.error.HTTPError as exc:
                return exc.code, ""

        status, text = await asyncio.to_thread(get, "/metrics")
        assert status == 200 and value(samples(text), "cribbage_max_sessions") == config.limits.max_sessions
        assert (await asyncio.to_thread(get, "/"))[0] == 404
        assert (await asyncio.to_thread(scrape, door))[0] == 404  # (not on the callers' web port: not listed there)


def test_a_metrics_listener_that_is_not_host_and_port_is_refused(tmp_path: Path) -> None:
    import pytest

    from door.config import ConfigError, load_config

    conf = tmp_path / "door.toml"
    conf.write_text('[server]\nmetrics_listen = "9181"\n')
    with pytest.raises(ConfigError, match="server.metrics_listen: expected HOST:PORT"):
        load_config(conf)


async def test_metrics_are_never_served_through_a_reverse_proxy(tmp_path: Path) -> None:
    """A listed address that is also a web proxy is not served: through
    the proxy anybody on the internet could ask."""
    config = make_config(tmp_path / "data")
    config.web.metrics_from = ["127.0.0.1"]
    config.web.proxies = ["127.0.0.1"]
    async with running(config) as door:
        assert (await asyncio.to_thread(scrape, door))[0] == 404
