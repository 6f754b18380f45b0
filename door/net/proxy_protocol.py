"""The PROXY protocol (versions 1 and 2, as HAProxy specifies it and as
HAProxy and nginx's stream module send it), so that callers who come
through a TCP load balancer are known by their own address: the
per-address limits, the log and the cool-downs then see the caller, not
the balancer.

A balancer that speaks it sends one header before the caller's first
byte: version 1 is a line of text (``PROXY TCP4 192.0.2.7 198.51.100.1
51000 23\\r\\n``, at most 107 bytes), version 2 a binary block (a 12-byte
signature, then the command, the family and the addresses).  The door
believes a header only from the addresses listed in ``[server] proxies``;
from those it waits for one (:data:`HEADER_TIMEOUT` seconds) before the
listener's own protocol starts, and a connection from anywhere else that
begins with a header is closed (a caller may not name their own address).

:func:`proxied` wraps a listener's protocol factory; the protocol it makes
sees a transport whose ``peername`` is the caller's.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from door.net.gate import address_of, in_networks

__all__ = ["ProxyHeaderError", "ProxyHeader", "parse_header", "proxied", "HEADER_TIMEOUT", "V2_SIGNATURE",
           "V1_LIMIT"]

log = logging.getLogger(__name__)

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
"""The first 12 bytes of a version 2 header."""

V1_LIMIT = 107
"""The longest version 1 header, in bytes (its line ending included)."""

V2_LIMIT = 16 + 536
"""The longest version 2 header the door takes, in bytes (the addresses
and a few TLVs; HAProxy's own limit for what it sends by default)."""

HEADER_TIMEOUT = 5.0
"""Seconds a listed proxy has to send its header."""


class ProxyHeaderError(ValueError):
    """A header that breaks the protocol; the message says what."""


@dataclass(frozen=True)
class ProxyHeader:
    """A header read: ``source`` is the caller's ``(address, port)``, or
    ``None`` when the header names no caller (version 1's ``UNKNOWN``,
    version 2's ``LOCAL`` command: the balancer's own health check);
    ``length``: the header's bytes, to skip."""

    source: tuple[str, int] | None
    length: int


def _port(text: bytes) -> int:
    if not text.isdigit() or len(text) > 5 or int(text) > 65535 or (len(text) > 1 and text.startswith(b"0")):
        raise ProxyHeaderError(f"not a port: {text[:8]!r}")
    return int(text)


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_LIMIT)
    if end < 0:
        if len(data) >= V1_LIMIT:
            raise ProxyHeaderError(f"a version 1 header longer than {V1_LIMIT} bytes")
        return None
    parts = data[:end].split(b" ")
    if parts[1:2] == [b"UNKNOWN"]:
        return ProxyHeader(None, end + 2)
    if len(parts) != 6 or parts[1] not in (b"TCP4", b"TCP6"):
        raise ProxyHeaderError("a version 1 header is PROXY TCP4|TCP6|UNKNOWN source destination ports")
    try:
        source = ipaddress.ip_address(parts[2].decode("ascii"))
        ipaddress.ip_address(parts[3].decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise ProxyHeaderError("a version 1 header with an address that is not one") from None
    if source.version != (4 if parts[1] == b"TCP4" else 6):
        raise ProxyHeaderError(f"a {parts[1].decode()} header with an address of the other family")
    port = _port(parts[4])
    _port(parts[5])
    return ProxyHeader((str(source), port), end + 2)


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < 16:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    family = data[13]
    (length,) = struct.unpack("!H", data[14:16])
    if version != 2 or command not in (0, 1):
        raise ProxyHeaderError(f"a version 2 header of version {version}, command {command}")
    if 16 + length > V2_LIMIT:
        raise ProxyHeaderError(f"a version 2 header of {16 + length} bytes (at most {V2_LIMIT})")
    if len(data) < 16 + length:
        return None
    body = data[16:16 + length]
    if command == 0:  # LOCAL: the balancer's own connection (a health check)
        return ProxyHeader(None, 16 + length)
    if family == 0x11:  # TCP over IPv4
        if length < 12:
            raise ProxyHeaderError("a TCP4 version 2 header too short for its addresses")
        return ProxyHeader((str(ipaddress.IPv4Address(body[0:4])), struct.unpack("!H", body[8:10])[0]), 16 + length)
    if family == 0x21:  # TCP over IPv6
        if length < 36:
            raise ProxyHeaderError("a TCP6 version 2 header too short for its addresses")
        return ProxyHeader((str(ipaddress.IPv6Address(body[0:16])), struct.unpack("!H", body[32:34])[0]),
                           16 + length)
    if family == 0x00:  # UNSPEC: the source is unknown
        return ProxyHeader(None, 16 + length)
    raise ProxyHeaderError(f"a version 2 header of family 0x{family:02x} (the door takes TCP over IPv4 or IPv6)")


def starts_a_header(data: bytes) -> bool:
    """True when ``data`` (the first bytes of a connection) is, or may
    still become, the start of a header of either version."""
    n = min(len(data), len(V2_SIGNATURE))
    return data[:n] == V2_SIGNATURE[:n] or data[:min(len(data), 6)] == b"PROXY "[:min(len(data), 6)]


def parse_header(data: bytes) -> ProxyHeader | None:
    """The header at the start of ``data``, or ``None`` while more bytes
    are needed.  Raises :class:`ProxyHeaderError` for bytes that are no
    header of either version, or a header that breaks the protocol.

    >>> parse_header(b"PROXY TCP4 192.0.2.7 198.51.100.1 51000 23\\r\\nhello")
    ProxyHeader(source=('192.0.2.7', 51000), length=44)
    >>> parse_header(b"PROXY TCP4 192.0.2.7") is None
    True
    """
    if data.startswith(V2_SIGNATURE):
        return _parse_v2(data)
    if data.startswith(b"PROXY "):
        return _parse_v1(data)
    if starts_a_header(data):
        return None
    raise ProxyHeaderError("the connection did not begin with a PROXY protocol header")


class _ProxiedTransport:
    """A transport as the listener's protocol sees it: the real one, but
    its ``peername`` is the caller's, from the header."""

    def __init__(self, transport: asyncio.Transport, peername: tuple[str, int]) -> None:
        object.__setattr__(self, "_door_transport", transport)
        object.__setattr__(self, "_door_peername", peername)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return object.__getattribute__(self, "_door_peername")
        return object.__getattribute__(self, "_door_transport").get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_door_transport"), name)

    def __setattr__(self, name: str, value: Any) -> None:  # (``max_size`` and the like reach the real one)
        setattr(object.__getattribute__(self, "_door_transport"), name, value)


class _HeaderFirst(asyncio.Protocol):
    """Reads a listed proxy's header, then hands the connection to the
    listener's protocol; from anyone else, passes the connection on at
    once and closes it if it begins with a header."""

    def __init__(self, make: Callable[[], asyncio.BaseProtocol], proxies: Sequence[str], listener: str) -> None:
        self._make, self._proxies, self._listener = make, proxies, listener
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.Transport | None = None
        self._buffer = b""
        self._timer: asyncio.TimerHandle | None = None
        self._checking = False  # a stranger's first bytes: do they claim to be a header?

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        address = address_of(transport.get_extra_info("peername"))
        if in_networks(address, self._proxies):
            self._timer = asyncio.get_running_loop().call_later(HEADER_TIMEOUT, self._too_slow)
            return
        self._checking = True
        self._start(transport)

    def _start(self, transport: asyncio.BaseTransport) -> None:
        inner = self._make()
        assert isinstance(inner, asyncio.Protocol)
        self._inner = inner
        inner.connection_made(transport)

    def _too_slow(self) -> None:
        log.warning("%s: no PROXY header from %s in %g s", self._listener,
                    address_of(self._transport.get_extra_info("peername") if self._transport else None),
                    HEADER_TIMEOUT)
        if self._transport is not None:
            self._transport.abort()

    def data_received(self, data: bytes) -> None:
        transport = self._transport
        assert transport is not None
        if self._inner is not None:
            if self._checking:
                self._checking = False
                if data.startswith(b"PROXY ") or data.startswith(V2_SIGNATURE[:8]):
                    log.warning("%s: a PROXY header from %s, which is not in [server] proxies: closed",
                                self._listener, address_of(transport.get_extra_info("peername")))
                    transport.abort()
                    return
            self._inner.data_received(data)
            return
        self._buffer += data
        try:
            header = parse_header(self._buffer)
        except ProxyHeaderError as exc:
            log.warning("%s: from proxy %s: %s", self._listener, address_of(transport.get_extra_info("peername")), exc)
            transport.abort()
            return
        if header is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        rest, self._buffer = self._buffer[header.length:], b""
        # (no source named: the balancer's own check, known by its own address)
        self._start(transport if header.source is None else _ProxiedTransport(transport, header.source))  # type: ignore[arg-type]
        if rest and self._inner is not None:
            self._inner.data_received(rest)

    def eof_received(self) -> bool | None:
        if self._inner is not None:
            return self._inner.eof_received()
        return None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._inner is not None:
            self._inner.connection_lost(exc)


def proxied(make: Callable[[], asyncio.BaseProtocol], proxies: Sequence[str],
            listener: str) -> Callable[[], asyncio.BaseProtocol]:
    """``make`` (a listener's protocol factory) behind the PROXY protocol
    from ``proxies`` (addresses and networks; empty: ``make`` itself, no
    header is read from anyone).  ``listener`` names the listener in the
    log."""
    if not proxies:
        return make
    return lambda: _HeaderFirst(make, proxies, listener)
