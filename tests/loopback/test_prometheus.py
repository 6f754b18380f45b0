"""A real Prometheus (Debian's ``prometheus``) scrapes a door's
``/metrics``: the target is up, the samples carry the node, ``promtool``
finds nothing wrong in the exposition, and every expression of the
Grafana dashboard in ``contrib/`` is one Prometheus evaluates.  Skipped
without the package."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.loopback.test_metrics import DASHBOARD, scrape
from tests.support.player import log_in_as_guest, telnet_caller
from tests.support.server import make_config, running


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def query(port: int, expr: str) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


@pytest.fixture
def prometheus_bin() -> str:
    found = shutil.which("prometheus")
    if found is None:
        pytest.skip("Prometheus is not installed (Debian: apt-get install prometheus)")
    return found


async def test_prometheus_scrapes_the_door_and_evaluates_the_dashboard(prometheus_bin: str, tmp_path: Path) -> None:
    config = make_config(tmp_path / "data")
    config.web.metrics_from = ["127.0.0.1"]
    config.server.node_name = "east"
    async with running(config) as door:
        caller = await telnet_caller(door.telnet_port)
        await log_in_as_guest(caller, "Promo")
        _, text = await asyncio.to_thread(scrape, door)
        promtool = shutil.which("promtool")
        if promtool is not None:  # (the exposition's own lint: names, help, types)
            linted = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True,
                                    timeout=30)
            assert linted.returncode == 0, linted.stdout + linted.stderr
        port = _free_port()
        (tmp_path / "prometheus.yml").write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
            f"  - job_name: cribbage-door\n    static_configs:\n      - targets: ['127.0.0.1:{door.web_port}']\n")
        proc = subprocess.Popen([prometheus_bin, f"--config.file={tmp_path / 'prometheus.yml'}",
                                 f"--storage.tsdb.path={tmp_path / 'tsdb'}", f"--web.listen-address=127.0.0.1:{port}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(150):
                await asyncio.sleep(0.2)
                try:
                    found = await asyncio.to_thread(query, port, 'cribbage_callers{doing="main_menu"}')
                except OSError:
                    continue
                if found["data"]["result"]:
                    break
            else:
                pytest.fail("Prometheus never scraped a caller at the main menu")
            (sample,) = found["data"]["result"]
            assert sample["metric"]["node"] == "east" and sample["metric"]["transport"] == "telnet"
            assert sample["value"][1] == "1"
            up = await asyncio.to_thread(query, port, 'up{job="cribbage-door"}')
            assert [r["value"][1] for r in up["data"]["result"]] == ["1"]
            panels = json.loads(DASHBOARD.read_text())["panels"]
            for panel in panels:
                for target in panel["targets"]:
                    answer = await asyncio.to_thread(query, port, target["expr"])
                    assert answer["status"] == "success", (panel["title"], answer)
        finally:
            proc.terminate()
            proc.wait(15)
            caller.close()
