"""The web transport: the door in a browser page.

One listener in the server's own event loop serves the page (xterm.js and
its fit add-on, vendored in ``webpage/vendor`` with their licence and
checksums; nothing from a CDN) and, at ``/ws``, a WebSocket that carries
the door's bytes: binary messages both ways, and a text message
``{"cols": c, "rows": r}`` from the page when its window changes size.

The library is ``websockets`` (asyncio, pure Python, no other dependency:
an HTTP answer per request for the few static files and the WebSocket
protocol with its pings, frame size limit and origin header are all it
needs).  The door's own rules on top of it:

- every TCP connection is counted by the :class:`ConnectionGate` as it is
  accepted (per address and in all); one from a configured proxy is
  counted once its request names the caller (``X-Forwarded-For``, believed
  from those addresses only);
- a request's ``Host`` must be one of the names the sysop lists (``[web]
  hosts``; by default the listening address and ``localhost``): a page on
  another name whose DNS points at the door (DNS rebinding) gets nothing;
- the WebSocket's ``Origin`` must be the page's own (its scheme, and the
  request's ``Host`` exactly: one of those names and the same port, read
  as a URL), or one of ``[web] origins`` as written;
- a message is at most ``max_message`` bytes; past ``message_rate``
  messages a second the socket is read no faster (the rest waits in the
  sender's TCP window);
- a ping every 30 s; a peer that does not answer within 30 s is dropped;
- the page is sent with a Content-Security-Policy that allows no inline
  script and no other origin.
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import logging
import ssl
import urllib.parse
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response

from door.net.api_link import ApiLink
from door.net.bucket import TokenBucket
from door.net.cycles import untie_transport
from door.net.gate import ConnectionGate, Ticket, address_of, in_networks, sorry
from door.net.listener import Bind, Listener
from door.net.metrics import CONTENT_TYPE as METRICS_TYPE
from door.net.metrics import METRICS_PATH
from door.net.output import CLOSE_GRACE
from door.net.web_terminal import WebTerminal

__all__ = ["HEALTH_PATH", "Health", "WebOptions", "WebTerminal", "API_PATH", "start_web", "PAGE", "WS_PATH", "forwarded_address", "host_name",
           "allowed_origin", "default_hosts"]

log = logging.getLogger(__name__)

PAGE = Path(__file__).resolve().parent / "webpage"
"""The page's files (``index.html``, ``door.js``, ``door.css``, ``vendor/``)."""

WS_PATH = "/ws"

API_PATH = "/api/v1/play"
"""Where a program plays by the game protocol (version 1)."""
"""Where the page opens its WebSocket."""

_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/door.js": ("door.js", "text/javascript; charset=utf-8"),
    "/door.css": ("door.css", "text/css; charset=utf-8"),
    "/vendor/xterm.js": ("vendor/xterm.js", "text/javascript; charset=utf-8"),
    "/vendor/xterm.css": ("vendor/xterm.css", "text/css; charset=utf-8"),
    "/vendor/addon-fit.js": ("vendor/addon-fit.js", "text/javascript; charset=utf-8"),
    "/table": ("table.html", "text/html; charset=utf-8"),
    "/table.js": ("table.js", "text/javascript; charset=utf-8"),
    "/table-cards.js": ("table-cards.js", "text/javascript; charset=utf-8"),
    "/table-board.js": ("table-board.js", "text/javascript; charset=utf-8"),
    "/table-lists.js": ("table-lists.js", "text/javascript; charset=utf-8"),
    "/table-correspondence.js": ("table-correspondence.js", "text/javascript; charset=utf-8"),
    "/table-tournaments.js": ("table-tournaments.js", "text/javascript; charset=utf-8"),
    "/table.css": ("table.css", "text/css; charset=utf-8"),
    "/table.webmanifest": ("table.webmanifest", "application/manifest+json"),
    "/table-icon.svg": ("table-icon.svg", "image/svg+xml"),
}
"""The only paths served, and their types (nothing else of the disk is reachable)."""

PING_INTERVAL = 30.0
"""Seconds between pings; a peer that does not answer within as long is dropped."""

PING_RATE = 2.0
"""A client's pings the door answers a second, past :data:`PING_BURST` (a
browser pings rarely, if ever; a flood of them is not answered)."""

PING_BURST = 10
"""Pings answered at once before :data:`PING_RATE` holds."""

READ_RATE = 32 * 1024
"""Bytes a second one WebSocket is read at, past :data:`READ_BURST` (as a
telnet connection's share, :data:`door.net.telnet.READ_RATE`): a client
that floods frames, control frames included, which the library parses as
they come, slows only itself; the rest waits in its TCP window."""

READ_BURST = 16 * 1024
"""Bytes a WebSocket may send at once before :data:`READ_RATE` holds it."""

READ_SIZE = 4096
"""The most a WebSocket's socket is read at once, in bytes (the share is
counted a read at a time)."""


HEALTH_PATH = "/healthz"
"""Where a load balancer or a monitor asks whether this door is well."""

Health = Callable[[], Awaitable[tuple[bool, list[str]]]]
"""What ``/healthz`` asks: ``(healthy, lines)``: the first line the
state in a word (``ok``, ``full``, ``draining``, ``unhealthy``), then one
line a part and how it is (no caller data); 200 when healthy, else 503."""


@dataclass(frozen=True)
class WebOptions:
    """How the web listener behaves (from ``[web]``): ``origins`` allowed
    besides the page's own; ``proxies``: addresses whose
    ``X-Forwarded-For`` is believed; ``max_message`` in bytes;
    ``message_rate``: messages a second read from one caller;
    ``frame_ancestors``: who may show the page in a frame (CSP words);
    ``tls``: a server context for HTTPS (``None``: plain HTTP); ``hosts``:
    the names (and addresses) callers reach the page by, lower case, no
    port (:func:`default_hosts`); ``max_output`` (bytes) and
    ``stuck_timeout`` (seconds): what a client that does not read may
    leave queued, and for how long (``[limits]``); ``metrics``: what
    :data:`~door.net.metrics.METRICS_PATH` answers (the exposition), to a
    connection from ``metrics_from`` (addresses and networks) only."""

    hosts: Sequence[str] = ("localhost", "127.0.0.1", "::1")
    max_output: int = 256 * 1024
    stuck_timeout: float = 30.0
    origins: Sequence[str] = ()
    proxies: Sequence[str] = ()
    max_message: int = 4096
    message_rate: int = 200
    frame_ancestors: str = "'self'"
    tls: ssl.SSLContext | None = None
    metrics_from: Sequence[str] = ()
    metrics: Callable[[], bytes] | None = None

    def csp(self) -> str:
        """The page's Content-Security-Policy: its own scripts only, no inline script."""
        return ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
                f"img-src 'self' data:; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
                f"frame-ancestors {self.frame_ancestors}")


def forwarded_address(peer: str, header: str | None, proxies: Sequence[str]) -> str:
    """The caller's address: ``peer`` itself unless ``peer`` is one of the
    ``proxies``; then the last address of ``X-Forwarded-For`` that is not
    one of them (a client may write anything before the proxies' own
    entries, so only the entries the proxies added are believed).

    >>> forwarded_address("10.0.0.2", "6.6.6.6, 203.0.113.7", ["10.0.0.2"])
    '203.0.113.7'
    >>> forwarded_address("198.51.100.1", "6.6.6.6", ["10.0.0.2"])
    '198.51.100.1'
    """
    if peer not in proxies or not header:
        return peer
    for hop in reversed([h.strip() for h in header.split(",")]):
        if hop in proxies:
            continue
        try:
            return str(ipaddress.ip_address(hop))
        except ValueError:
            return peer  # not an address: the proxy's own word is all there is
    return peer


def default_hosts(listen: str) -> tuple[str, ...]:
    """The names the page answers to when the sysop lists none: the
    listening address (unless it is every address) and this machine's
    own names.

    >>> default_hosts("192.0.2.7")
    ('192.0.2.7', 'localhost', '127.0.0.1', '::1')
    >>> default_hosts("0.0.0.0")
    ('localhost', '127.0.0.1', '::1')
    """
    own = ("localhost", "127.0.0.1", "::1")
    listen = listen.strip().lower().strip("[]")
    return own if listen in ("", "0.0.0.0", "::", *own) else (listen, *own)


def host_name(header: str | None) -> str:
    """The host of a ``Host`` header or of an origin's authority, lower
    case, without its port or IPv6 brackets ("" for nothing).

    >>> host_name("Door.Example:8080"), host_name("[::1]:8080"), host_name("127.0.0.1")
    ('door.example', '::1', '127.0.0.1')
    """
    if not header:
        return ""
    host = header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_origin(origin: str, host: str, hosts: Sequence[str], origins: Sequence[str], tls: bool) -> bool:
    """True when ``origin`` (the ``Origin`` header) may open the WebSocket
    asked for with the ``Host`` header ``host``: one of ``origins`` as
    written, or the page's own origin, a URL whose scheme is one this
    listener serves (``https`` only with ``tls``; plain HTTP may be behind
    a TLS proxy, whose page is ``https``) and whose host and port are
    exactly the request's (a missing port is the scheme's: 80 or 443),
    that host being one of ``hosts``.  Never a look-alike: no user, path,
    query or fragment, and a port that is a number (so
    ``http://127.0.0.1:8080.evil.example`` is a stranger's).

    >>> allowed_origin("http://127.0.0.1:8080", "127.0.0.1:8080", ["127.0.0.1"], [], False)
    True
    >>> allowed_origin("http://127.0.0.1:8080.evil.example", "127.0.0.1:8080", ["127.0.0.1"], [], False)
    False
    """
    if origin in origins:
        return True
    schemes = ("https",) if tls else ("http", "https")
    try:
        page = urllib.parse.urlsplit(origin.strip())
        asked = urllib.parse.urlsplit("//" + host.strip())
        page_port, asked_port = page.port, asked.port  # (ValueError: not a number, or out of range)
    except ValueError:
        return False
    scheme = page.scheme.lower()
    if scheme not in schemes or page.username is not None or page.path or page.query or page.fragment:
        return False
    if not page.hostname or page.hostname != asked.hostname or page.hostname not in hosts:
        return False
    default = 443 if scheme == "https" else 80
    return (page_port or default) == (asked_port or default)


def _nothing() -> None:
    return None


class _GatedConnection(ServerConnection):
    """A WebSocket server connection counted by the gate from its TCP
    accept (or, from a proxy, from its request) to its end, whose memory
    is bounded whatever the client does: everything the door queues for
    it (data, and the pongs and close frames the library writes by itself)
    counts against ``output_limit`` bytes, and a client that does not read
    past that, or leaves queued bytes untouched for ``stuck_timeout``
    seconds, is dropped even when the door has nothing new to draw; pings
    are answered at most :data:`PING_RATE` a second (the rest ignored)."""

    gate: ConnectionGate
    proxies: Sequence[str] = ()
    output_limit: int = 256 * 1024
    stuck_timeout: float = 30.0

    def __init__(self, protocol: Any, server: Any, **kwargs: Any) -> None:
        super().__init__(protocol, server, **kwargs)
        self._pings = TokenBucket(PING_RATE, PING_BURST, asyncio.get_running_loop().time)
        self._reads = TokenBucket(READ_RATE, READ_BURST, asyncio.get_running_loop().time)
        self._rate_paused = False
        self.pings_ignored = 0
        self._watch: asyncio.TimerHandle | None = None
        self._queued = 0
        answer = protocol.recv_frame

        def recv_frame(frame: Frame) -> None:
            # the library answers every ping itself, at once: a client that pings and never reads would grow
            # the door's buffer at its upload rate; past the rate a ping is not answered
            if frame.opcode is Opcode.PING and not self._pings.take():
                self.pings_ignored += 1
                return
            answer(frame)

        protocol.recv_frame = recv_frame

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        wait = self._reads.spent(len(data))
        if wait > 0 and not self._rate_paused and not self.transport.is_closing():
            self._rate_paused = True  # over its share: the socket is not read for a while
            self.transport.pause_reading()
            self.loop.call_later(wait, self._share_back)

    def _share_back(self) -> None:
        self._rate_paused = False
        if not self.recv_messages.paused and not self.transport.is_closing():
            self.transport.resume_reading()

    def _library_resume(self) -> None:
        """The library's own flow control resumes reading: not while the read share holds it."""
        if not self._rate_paused:
            self.transport.resume_reading()

    def send_data(self) -> None:
        super().send_data()
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        queued = transport.get_write_buffer_size()
        if queued > self.output_limit:
            log.info("web %s has not read %d bytes: dropped", self.door_address, queued)
            transport.abort()
        elif queued and self._watch is None:
            self._queued = queued
            self._watch = self.loop.call_later(self.stuck_timeout, self._stuck)

    def _stuck(self) -> None:
        """``stuck_timeout`` seconds after bytes were queued: dropped if the
        client took none of them meanwhile (whatever the door draws)."""
        self._watch = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        queued = transport.get_write_buffer_size()
        if queued and queued >= self._queued:
            log.info("web %s read nothing of %d bytes in %g s: dropped", self.door_address, queued,
                     self.stuck_timeout)
            transport.abort()
        elif queued:
            self._queued = queued
            self._watch = self.loop.call_later(self.stuck_timeout, self._stuck)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.recv_messages.resume = self._library_resume  # (reading resumes only when the read share allows too)
        if hasattr(transport, "max_size"):  # asyncio's socket transport: at most this much a read (it reads 256 KiB)
            transport.max_size = READ_SIZE
        self.door_address = address_of(transport.get_extra_info("peername"))
        self.counted: str | None = None
        self.ticket: Ticket | None = None
        self.refused: str | None = None
        if self.door_address not in self.proxies:
            self.admit(self.door_address)
            if self.refused is not None:  # refused at accept: a word for a browser, and the socket goes at once
                body = f"{sorry(self.refused)}\n".encode()
                cast(asyncio.Transport, transport).write(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
                transport.close()

    def admit(self, address: str) -> None:
        """Count the connection as one from ``address`` (or note why not)."""
        transport = self.transport
        ticket = self.gate.admit(address, close=transport.abort if transport is not None else lambda: None)
        self.refused = ticket.refused
        if self.refused is None:
            self.ticket = ticket
            self.counted = self.door_address = address

    def connection_lost(self, exc: Exception | None) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        try:
            super().connection_lost(exc)
        finally:
            self.protocol.__dict__.pop("recv_frame", None)  # (its own answer again: no cycle through this one)
            self.recv_messages.resume = _nothing
            if self.ticket is not None:
                self.ticket.release()
                self.ticket.close = _nothing  # (the ticket held the transport, which holds this connection)
                self.counted = None
            untie_transport(self.transport)  # (freed by reference counting, not a full collection)


def _response(status: http.HTTPStatus, body: bytes, content_type: str, extra: dict[str, str]) -> Response:
    headers = Headers({"Content-Type": content_type, "Content-Length": str(len(body)),
                       "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                       "Cache-Control": "no-cache", "Connection": "close", **extra})
    return Response(status.value, status.phrase, headers, body)


def _metrics(connection: ServerConnection, options: WebOptions) -> Response | None:
    """``/metrics`` for a connection from ``metrics_from`` (its own TCP
    address, never one a header names, and never a reverse proxy's:
    through it anybody could ask); ``None`` for anyone else (the path is
    then not found, as any other)."""
    peer = address_of(connection.transport.get_extra_info("peername")) if connection.transport else "?"
    if options.metrics is None or peer in options.proxies or not in_networks(peer, options.metrics_from):
        return None
    return _response(http.HTTPStatus.OK, options.metrics(), METRICS_TYPE, {"Cache-Control": "no-store"})


def _load_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once (a few hundred KiB)."""
    return {path: ((PAGE / name).read_bytes(), kind) for path, (name, kind) in _FILES.items()}


async def start_web(bind: Bind, session: Callable[[WebTerminal], Awaitable[None]],
                    gate: ConnectionGate, options: WebOptions, health: Health | None = None,
                    api: Callable[[ApiLink], Awaitable[None]] | None = None) -> Listener:
    """Listen where ``bind`` says for the page and its WebSocket; each
    caller's session is ``session(terminal)``; ``health``: what
    :data:`HEALTH_PATH` answers (``None``: not found); ``api``: the session
    of a program on :data:`API_PATH`, the game protocol (``None``: refused).
    Raises ``OSError`` when the port is taken."""
    files = _load_files()
    tls = options.tls is not None

    class Gated(_GatedConnection):
        pass

    Gated.gate, Gated.proxies = gate, tuple(options.proxies)
    Gated.output_limit, Gated.stuck_timeout = options.max_output, options.stuck_timeout

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        assert isinstance(connection, _GatedConnection)
        if connection.counted is None and connection.refused is None:  # from a proxy: count the caller now
            connection.admit(forwarded_address(connection.door_address, request.headers.get("X-Forwarded-For"),
                                               options.proxies))
        if connection.refused is not None:
            return _response(http.HTTPStatus.SERVICE_UNAVAILABLE, f"Sorry, {connection.refused}.\n".encode(),
                             "text/plain; charset=utf-8", {})
        if request.path.split("?", 1)[0] == HEALTH_PATH and health is not None:  # (any Host: a balancer's own)
            healthy, lines = await health()
            return _response(http.HTTPStatus.OK if healthy else http.HTTPStatus.SERVICE_UNAVAILABLE,
                             ("\n".join(lines) + "\n").encode(),
                             "text/plain; charset=utf-8", {"Cache-Control": "no-store"})
        if request.path.split("?", 1)[0] == METRICS_PATH and options.metrics is not None:
            metrics = _metrics(connection, options)
            if metrics is not None:
                return metrics
        named = request.headers.get_all("Host")
        if len(named) != 1 or host_name(named[0]) not in options.hosts:  # another name: DNS rebinding, a scan
            log.warning("web request from %s refused: host %r", connection.door_address,
                        ", ".join(named)[:100])
            return _response(http.HTTPStatus.MISDIRECTED_REQUEST, b"This door does not answer to that name.\n",
                             "text/plain; charset=utf-8", {})
        path = request.path.split("?", 1)[0]
        if path in (WS_PATH, API_PATH):
            origin = request.headers.get("Origin")
            if origin is not None and not allowed_origin(origin, named[0], options.hosts,
                                                                options.origins, tls):
                log.warning("web socket from %s refused: origin %r", connection.door_address, origin[:100])
                return _response(http.HTTPStatus.FORBIDDEN, b"This page's origin may not call the door.\n",
                                 "text/plain; charset=utf-8", {})
            return None  # the WebSocket handshake goes on
        found = files.get(path)
        if found is None or request.headers.get("Upgrade"):
            return _response(http.HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain; charset=utf-8", {})
        body, kind = found
        return _response(http.HTTPStatus.OK, body, kind, {"Content-Security-Policy": options.csp()})

    async def handler(connection: ServerConnection) -> None:
        assert isinstance(connection, _GatedConnection)
        if connection.request is not None and connection.request.path.split("?", 1)[0] == API_PATH:
            if api is None:
                await connection.close(1008, "no game protocol here")
                return
            link = ApiLink(connection, connection.door_address, options.message_rate)
            link.ticket = connection.ticket
            await link.run_session(lambda t: api(link))
            return
        terminal = WebTerminal(connection, connection.door_address, options.message_rate)
        terminal.ticket = connection.ticket
        await terminal.run_session(lambda t: session(terminal))

    quiet = logging.getLogger("door.net.web.protocol")  # scanners' broken handshakes are not the door's news
    quiet.setLevel(logging.CRITICAL)
    kwargs: dict[str, Any] = {"reuse_port": True} if bind.reuse_port else {}
    server = await serve(handler, bind.host, bind.port, process_request=process_request, create_connection=Gated,
                       max_size=options.max_message, max_queue=4, ping_interval=PING_INTERVAL,
                       ping_timeout=PING_INTERVAL, open_timeout=10, close_timeout=CLOSE_GRACE, compression=None,
                       ssl=options.tls,
                       server_header=None, logger=quiet, **kwargs)
    return Listener("web", server, server.sockets)
