"""``cribbage-door sorry``: the sorry listener (:mod:`door.net.sorry`) on
the door's telnet and web ports (and the hub's rlogin port, if given),
until SIGTERM or SIGINT: for the balancer's ``backup`` server, or for the
door's own ports while every node is down for maintenance."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Sequence

from door.net.listener import Bind, Listener
from door.net.sorry import start_sorry

__all__ = ["run_sorry"]

log = logging.getLogger("door")


async def _serve(host: str, ports: Sequence[tuple[str, int]], words: str, proxies: Sequence[str]) -> int:
    listeners: list[Listener] = []
    try:
        for kind, port in ports:
            listener = await start_sorry(Bind(host, port), words, web=kind == "web",
                                         proxies=() if kind == "web" else proxies)
            listeners.append(listener)
            log.info("sorry: %s listening on %s:%d", kind, host, listener.port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        for listener in listeners:
            listener.close()
    log.info("sorry: stopped")
    return 0


def run_sorry(host: str, ports: Sequence[tuple[str, int]], words: str, proxies: Sequence[str] = ()) -> int:
    """Say ``words`` (checked ASCII: :func:`door.net.sorry.check_words`)
    to every caller on ``ports`` (``("telnet" | "rlogin" | "web", port)``,
    0: any free port) at ``host`` until SIGTERM or SIGINT; ``proxies``: the
    balancers whose PROXY header comes first (not on the web port).
    Returns the exit status; raises ``OSError`` when a port is taken."""
    return asyncio.run(_serve(host, ports, words, proxies))
