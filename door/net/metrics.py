"""What the door counts for Prometheus, served at ``/metrics`` on the web
listener (:data:`METRICS_PATH`) to the addresses ``[web] metrics_from``
lists (none by default: nobody).

Two kinds of figure, every sample labelled with the ``node`` it comes from
(:class:`NodeMetrics`):

- counts and timings the process keeps as things happen, in
  :data:`PROCESS` (one process is one node): keys and how long each took
  until its frame went out (:data:`KEY_SECONDS`), the event loop's lag
  (:data:`LOOP_LAG`), the store's queries and their errors
  (:data:`STORE_SECONDS`, :data:`STORE_ERRORS`), the thinking processes'
  calls under way and restarts (:data:`THINKING_QUEUE`,
  :data:`THINKING_RESTARTS`), connections and logins refused and why
  (:data:`REFUSED`), games finished by kind (:data:`GAMES_FINISHED`);
- what is on line now, read from the server when Prometheus asks (a
  :data:`Snapshot`): callers by transport and by what they are doing,
  games by kind, sessions against the limit, whether the node drains.

Times are in seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from door.net.listener import Bind, Listener

__all__ = ["METRICS_PATH", "CONTENT_TYPE", "PROCESS", "KEY_SECONDS", "LOOP_LAG", "STORE_SECONDS", "STORE_ERRORS",
           "THINKING_QUEUE", "THINKING_RESTARTS", "REFUSED", "GAMES_FINISHED", "Snapshot", "NodeMetrics",
           "watch_loop", "refused", "store_call", "REFUSAL_REASONS", "LAG_EVERY", "start_metrics", "parse_listen"]

METRICS_PATH = "/metrics"
"""Where Prometheus scrapes the web listener."""

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The text exposition format's content type (its version as the client library writes it)."""

PROCESS = CollectorRegistry(auto_describe=True)
"""The counts and timings this process keeps (without the ``node`` label:
:class:`NodeMetrics` adds it)."""

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

KEY_SECONDS = Histogram("cribbage_key_seconds", "Seconds from a caller's key to the frame it drew going out",
                        buckets=_FAST, registry=PROCESS)
LOOP_LAG = Histogram("cribbage_loop_lag_seconds", "How late the event loop ran a timer, in seconds",
                     buckets=_FAST, registry=PROCESS)
STORE_SECONDS = Histogram("cribbage_store_query_seconds", "Seconds a store call took (queue and query)",
                          buckets=_FAST, registry=PROCESS)
STORE_ERRORS = Counter("cribbage_store_errors", "Store calls that failed", registry=PROCESS)
THINKING_QUEUE = Gauge("cribbage_thinking_queue", "Calls waiting on or running in the thinking processes",
                       registry=PROCESS)
THINKING_RESTARTS = Counter("cribbage_thinking_restarts", "Thinking processes that died and were replaced",
                            registry=PROCESS)
REFUSED = Counter("cribbage_refused", "Connections and logins refused, by reason", ["reason"], registry=PROCESS)
GAMES_FINISHED = Counter("cribbage_games_finished", "Games recorded at their end", registry=PROCESS)

REFUSAL_REASONS = ("full", "address", "network", "banned", "draining", "password", "throttled", "other")
"""The reasons :data:`REFUSED` counts by (a fixed set: a label never carries a caller's words)."""

LAG_EVERY = 0.5
"""Seconds between two looks at the event loop's lag."""


def refused(reason: str) -> None:
    """Count one refusal for ``reason`` (one of :data:`REFUSAL_REASONS`;
    anything else counts as ``other``)."""
    REFUSED.labels(reason if reason in REFUSAL_REASONS else "other").inc()


@contextlib.contextmanager
def store_call() -> Iterator[None]:
    """Time a store call into :data:`STORE_SECONDS`; count it in
    :data:`STORE_ERRORS` when it raises (and let it raise)."""
    with STORE_SECONDS.time():
        try:
            yield
        except Exception:
            STORE_ERRORS.inc()
            raise


@dataclass
class Snapshot:
    """What is on line on a node now: ``callers`` by ``(transport,
    doing)``; ``games`` by kind; ``sessions`` and ``max_sessions``;
    ``draining`` (1 or 0)."""

    callers: dict[tuple[str, str], int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    max_sessions: int = 0
    draining: int = 0


class _Now(Collector):
    """The gauges of a :class:`Snapshot`, read at each scrape."""

    def __init__(self, read: Callable[[], Snapshot]) -> None:
        self.read = read

    def collect(self) -> Iterable[Metric]:
        now = self.read()
        callers = GaugeMetricFamily("cribbage_callers", "Callers on line, by transport and what they are doing",
                                    labels=["transport", "doing"])
        for (transport, doing), n in sorted(now.callers.items()):
            callers.add_metric([transport, doing], n)
        games = GaugeMetricFamily("cribbage_games", "Games going on, by kind", labels=["kind"])
        for kind, n in sorted(now.games.items()):
            games.add_metric([kind], n)
        yield callers
        yield games
        yield GaugeMetricFamily("cribbage_sessions", "Sessions open (callers and sysops)", value=now.sessions)
        yield GaugeMetricFamily("cribbage_max_sessions", "Callers the node takes at once", value=now.max_sessions)
        yield GaugeMetricFamily("cribbage_draining", "1 while the node drains", value=now.draining)


class _Labelled(Collector):
    """Every sample of ``source`` with ``node`` as a label (without the
    client's ``_created`` timestamps: a restart shows as a counter going
    down, which Prometheus's ``rate`` already takes)."""

    def __init__(self, source: Collector, node: str) -> None:
        self.source, self.node = source, node

    def collect(self) -> Iterable[Metric]:
        for metric in self.source.collect():
            labelled = Metric(metric.name, metric.documentation, metric.type, metric.unit)
            labelled.samples = [s._replace(labels={"node": self.node, **s.labels}) for s in metric.samples
                                if not s.name.endswith("_created")]
            if labelled.samples or not metric.samples:
                yield labelled


class NodeMetrics:
    """The exposition of one node named ``node``: :data:`PROCESS` and the
    gauges ``read()`` gives, each sample labelled ``node``."""

    def __init__(self, node: str, read: Callable[[], Snapshot]) -> None:
        self.node = node
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Labelled(PROCESS, node))
        self.registry.register(_Labelled(_Now(read), node))

    def exposition(self) -> bytes:
        """The text exposition format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


async def watch_loop(every: float = LAG_EVERY) -> None:
    """Measure how late the event loop wakes a sleeper, every ``every``
    seconds, into :data:`LOOP_LAG`; runs until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        wanted = loop.time() + every
        await asyncio.sleep(every)
        LOOP_LAG.observe(max(0.0, loop.time() - wanted))


def parse_listen(text: str) -> Bind:
    """``"HOST:PORT"`` (an IPv6 host in brackets) as a :class:`Bind`.
    Raises ``ValueError`` saying what is expected.

    >>> parse_listen("127.0.0.1:9181"), parse_listen("[::1]:9181").host
    (Bind(host='127.0.0.1', port=9181, reuse_port=False), '::1')
    """
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:9181, got {text!r}")
    return Bind(host.strip("[]"), int(port))


class _Scrape(asyncio.Protocol):
    """One HTTP request on the metrics listener: ``GET /metrics`` gets the
    exposition, anything else 404; then the connection closes."""

    def __init__(self, exposition: Callable[[], bytes]) -> None:
        self.exposition = exposition
        self.seen = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        asyncio.get_running_loop().call_later(10.0, transport.close)  # (a client that never asks)

    def data_received(self, data: bytes) -> None:
        self.seen += data
        if b"\r\n\r\n" not in self.seen and len(self.seen) < 8192:
            return
        assert self.transport is not None
        line = self.seen.split(b"\r\n", 1)[0].split()
        if len(line) >= 2 and line[0] == b"GET" and line[1].split(b"?")[0] == METRICS_PATH.encode():
            status, kind, body = b"200 OK", CONTENT_TYPE.encode(), self.exposition()
        else:
            status, kind, body = b"404 Not Found", b"text/plain; charset=utf-8", b"Not found.\n"
        self.transport.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: " + kind + b"\r\nContent-Length: " +
                             str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
        self.transport.close()


async def start_metrics(bind: Bind, exposition: Callable[[], bytes]) -> Listener:
    """A listener of its own for Prometheus where ``bind`` says (``[server]
    metrics_listen``: off the callers' web listener, on an address the
    sysop keeps for monitoring): ``GET /metrics`` answers ``exposition()``
    to whoever reaches it.  Raises ``OSError`` when the port is taken."""
    server = await asyncio.get_running_loop().create_server(lambda: _Scrape(exposition), bind.host, bind.port)
    return Listener("metrics", server, server.sockets)
