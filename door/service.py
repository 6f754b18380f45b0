"""What one node tells those who run it: how it is (``/healthz``), what it
counts (``/metrics``), and whether it takes callers (full, draining).

A :class:`Service` reads the server's parts through a :class:`Parts`
(the server builds one); it holds the one thing of its own, whether the
node drains.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass

from door.net.listener import Listener
from door.net.metrics import METRICS_PATH, NodeMetrics, Snapshot, parse_listen, start_metrics
from door.net.terminal import Terminal
from door.play.thinking import Thinking
from door.records.store import Store, StoreError
from door.sysop.doing import Doing
from door.sysop.lobby import Lobby

__all__ = ["Service", "Parts", "HEALTH_WAIT", "HEALTH_EVERY", "FULL_ROOM", "node_name", "GAME_KINDS", "DRAIN_REFUSAL",
           "DRAIN_NOTICE"]

log = logging.getLogger("door")

HEALTH_WAIT = 2.0
"""Seconds the health check waits for the store to answer."""

HEALTH_EVERY = 1.0
"""Seconds a health check's answer is given again without asking anew."""

FULL_ROOM = 0.05
"""The share of ``max_sessions`` kept free when ``/healthz`` says "full":
the balancer sends new callers elsewhere before the door must refuse one
(at least one place)."""

GAME_KINDS = {Doing.VS_COMPUTER: "computer", Doing.VS_CALLER: "caller", Doing.VS_SYSOP: "sysop",
              Doing.PLAYING: "sysop", Doing.DAILY_DEAL: "daily", Doing.CLUB_NIGHT: "club"}
"""What a player's doing says of the game they are at (``/metrics``'s ``kind``)."""


DRAIN_REFUSAL = "this server is closing for maintenance: call again, and another server will answer."
"""What a caller who connects to a draining node is told (after "Sorry, ")."""

DRAIN_NOTICE = ("The sysop is taking this server down for maintenance: finish your game here, or call again "
                "to go on with it at another server.")
"""What the callers on line at a node are told when it starts to drain."""

DRAIN_LOOK = 0.25
"""Seconds between two looks, while draining, at whether the callers are all gone."""


def node_name(name: str, worker: int, workers: int) -> str:
    """This node's name in logs and metrics: ``name`` (``[server]
    node_name``) or the host's name, with ``/N`` for worker ``N`` of
    several.

    >>> node_name("east", 0, 1), node_name("east", 2, 4)
    ('east', 'east/2')
    """
    base = name or socket.gethostname()
    return f"{base}/{worker}" if workers > 1 else base


@dataclass
class Parts:
    """The server's parts the service reads: the ``store`` (``None`` when
    not open), the ``lobby``, the ``thinking`` processes, the callers'
    ``listeners`` by name (``None``: closed), the open ``sessions`` and
    the sysops' among them, and ``max_sessions``."""

    store: Callable[[], Store | None]
    lobby: Callable[[], Lobby | None]
    thinking: Thinking
    listeners: Callable[[], dict[str, Listener | None]]
    sessions: Collection[Terminal]
    sysop_sessions: Collection[Terminal]
    max_sessions: int


class Service:
    """The node's face to its operators: ``name`` (:func:`node_name`) and
    the server's ``parts``."""

    def __init__(self, name: str, parts: Parts) -> None:
        self.name = name
        self.parts = parts
        self.draining = False
        """True once the node was told to drain: it takes no new caller."""
        self.metrics = NodeMetrics(name, self.snapshot)
        self._health: tuple[float, tuple[bool, list[str]]] | None = None
        self.listener: Listener | None = None
        """The metrics' own listener (``[server] metrics_listen``), if any."""

    async def listen(self, where: str) -> Listener | None:
        """Serve ``/metrics`` on a listener of its own at ``where``
        (``"HOST:PORT"``; "" for none).  Raises ``OSError`` when the port is taken."""
        if not where:
            return None
        self.listener = await start_metrics(parse_listen(where), self.metrics.exposition)
        log.info("metrics on http://%s:%d%s", parse_listen(where).host, self.listener.port, METRICS_PATH)
        return self.listener

    @property
    def callers(self) -> int:
        """Callers on line here (the sysops not counted)."""
        return len(self.parts.sessions) - len(self.parts.sysop_sessions)

    def full(self) -> bool:
        """True when the callers leave less than :data:`FULL_ROOM` of
        ``max_sessions`` free (a balancer should send new callers elsewhere)."""
        limit = self.parts.max_sessions
        return self.callers >= limit - max(1, int(limit * FULL_ROOM))

    async def health(self) -> tuple[bool, list[str]]:
        """How this door is, for ``/healthz``: ``(healthy, lines)``, the
        first line of the answer ``ok``, ``full`` (nearly at ``max_sessions``),
        ``draining`` (being taken down) or ``unhealthy``; only ``ok`` is
        healthy.  Unhealthy when the store does not answer within
        :data:`HEALTH_WAIT` seconds, a callers' listener is closed or a
        thinking process is missing; worked out at most once every
        :data:`HEALTH_EVERY` seconds, whoever asks how often."""
        now = asyncio.get_running_loop().time()
        if self._health is not None and now - self._health[0] < HEALTH_EVERY:
            return self._health[1]
        lines, healthy = [], True
        try:
            store = self.parts.store()
            if store is None:
                raise StoreError("not open")
            async with asyncio.timeout(HEALTH_WAIT):
                await store.ping()
            lines.append("store: answers")
        except (StoreError, TimeoutError):
            healthy = False
            lines.append("store: does not answer")
        for name, listener in self.parts.listeners().items():
            healthy = healthy and listener is not None
            lines.append(f"{name}: {'listening' if listener is not None else 'closed'}")
        running, wanted = self.parts.thinking.alive()
        healthy = healthy and running >= wanted
        lines.append(f"thinking: {running} of {wanted} processes" if wanted else "thinking: on the door's thread")
        lines.append(f"callers: {self.callers} of {self.parts.max_sessions}")
        state = "unhealthy" if not healthy else "draining" if self.draining else "full" if self.full() else "ok"
        answer = (state == "ok", [state, *lines])
        self._health = (now, answer)
        return answer

    async def drain(self, timeout: float) -> bool:
        """Take no new caller (``/healthz`` says ``draining``, so the
        balancer sends new callers elsewhere; the server refuses any that
        come with :data:`DRAIN_REFUSAL`, its health checks and metrics
        still answered), tell the callers on line
        (:data:`DRAIN_NOTICE`), and wait until they are all gone or
        ``timeout`` seconds have passed.  Every move of every game is in
        the store already: what is left when the node stops is resumed at
        another.  True when the callers all left in time."""
        self.draining = True
        self._health = None  # (the balancer hears of it at its next check)
        lobby = self.parts.lobby()
        for presence in lobby.callers() if lobby is not None else ():
            presence.tell(DRAIN_NOTICE)
        log.warning("draining: %d caller(s) on line, stopping when they are gone or in %g s", self.callers, timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.callers > 0 and loop.time() < deadline:
            await asyncio.sleep(DRAIN_LOOK)
        log.warning("drained: %s", "every caller is gone" if not self.callers else
                    f"{self.callers} caller(s) still on line after {timeout:g} s (their games are kept)")
        return not self.callers

    def snapshot(self) -> Snapshot:
        """What is on line now, for ``/metrics``."""
        lobby = self.parts.lobby()
        callers: Counter[tuple[str, str]] = Counter()
        tables: dict[str, set[int]] = {}
        for presence in lobby.callers() if lobby is not None else ():
            doing = presence.doing.doing
            callers[(presence.terminal.kind.value, doing.name.lower())] += 1
            kind = GAME_KINDS.get(doing)
            if kind is not None:
                tables.setdefault(kind, set()).add(id(presence.table) if presence.table is not None
                                                   else -presence.conn)
        return Snapshot(dict(callers), {kind: len(ids) for kind, ids in tables.items()},
                        len(self.parts.sessions), self.parts.max_sessions, int(self.draining))
