"""Counting connections at the door: at accept, before any negotiation or
authentication, for every transport.

A connection flood must not reach telnet negotiation, the SSH key exchange
or a password check: each listener asks :meth:`ConnectionGate.admit` the
moment the kernel hands it a socket and closes the socket at once when the
answer is no.  The gate also keeps the process clear of its file-descriptor
limit (:func:`raise_descriptor_limit`), so that a flood is refused cleanly
long before ``accept()`` starts failing with ``EMFILE`` and honest callers
are shut out with it.
"""

from __future__ import annotations

import ipaddress
import logging
import resource
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from door.net.metrics import refused

__all__ = ["ConnectionGate", "PreloginLimit", "Ticket", "sorry", "raise_descriptor_limit", "address_of", "plain_ip", "network_of", "in_networks", "check_networks",
           "DESCRIPTOR_RESERVE"]

log = logging.getLogger(__name__)

DESCRIPTOR_RESERVE = 64
"""File descriptors kept free of connections: the listeners, the database
and its WAL, the log, the console socket, the worker threads' pipes."""


def address_of(peer: object) -> str:
    """The host part of a peer address: ``("1.2.3.4", 5)`` or
    ``"1.2.3.4:5"`` gives ``"1.2.3.4"``; anything else ``"?"``.

    >>> address_of(("127.0.0.1", 4000)), address_of("::1:22"), address_of(None)
    ('127.0.0.1', '::1', '?')
    """
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    if isinstance(peer, str) and peer:
        return peer.rsplit(":", 1)[0]
    return "?"


def plain_ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``address`` as an IP address, an IPv4-mapped IPv6 address as the
    IPv4 one it maps; ``None`` for text that is no address.

    >>> plain_ip("::ffff:192.0.2.7"), plain_ip("nowhere")
    (IPv4Address('192.0.2.7'), None)
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def network_of(address: str) -> str:
    """The network ``address`` belongs to, as registrations and log lines
    are counted (a stranger holds a block of addresses as easily as one): an
    IPv4 address's /24, an IPv6 address's /56 (an IPv4-mapped IPv6 address
    counts as IPv4); anything else is its own network.

    >>> network_of("192.0.2.77"), network_of("2001:db8:1:2ff::9"), network_of("::ffff:192.0.2.1")
    ('192.0.2.0/24', '2001:db8:1:200::/56', '192.0.2.0/24')
    >>> network_of("not an address")
    'not an address'
    """
    ip = plain_ip(address)
    if ip is None:
        return address
    prefix = 24 if ip.version == 4 else 56
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def sorry(why: str) -> str:
    """The sentence a refused caller reads: ``why`` (a ticket's
    ``refused``) with "right now" and a word to call again, unless it is a
    whole sentence of its own (ending with a full stop: a ban's reason).

    >>> sorry("the door is full")
    'Sorry, the door is full right now. Please call again later.'
    >>> sorry("you are banned from this door: spam.")
    'Sorry, you are banned from this door: spam.'
    """
    return f"Sorry, {why}" if why.endswith(".") else f"Sorry, {why} right now. Please call again later."


def check_networks(cidrs: Sequence[str]) -> list[str]:
    """``cidrs`` ("192.0.2.7", "10.0.0.0/8", "2001:db8::/48") checked; the
    same strings back.  Raises ``ValueError`` naming the first that is not
    an address or a network."""
    for cidr in cidrs:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError:
            raise ValueError(f"not an address or a network: {cidr!r}") from None
    return list(cidrs)


def in_networks(address: str, cidrs: Sequence[str]) -> bool:
    """True when ``address`` is one of ``cidrs`` (addresses or networks
    such as ``"10.0.0.0/8"``; an IPv4-mapped IPv6 address counts as IPv4).

    >>> in_networks("10.1.2.3", ["10.0.0.0/8"]), in_networks("::ffff:10.1.2.3", ["10.1.2.3"])
    (True, True)
    >>> in_networks("192.0.2.1", ["10.0.0.0/8"]), in_networks("?", ["10.0.0.0/8"])
    (False, False)
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for cidr in cidrs:
        network = ipaddress.ip_network(cidr, strict=False)
        if network.version == ip.version and ip in network:
            return True
    return False


def raise_descriptor_limit() -> int:
    """Raise this process's soft ``RLIMIT_NOFILE`` to its hard limit and
    return the soft limit now in force (descriptors)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:  # a container may forbid it
            log.warning("could not raise the descriptor limit from %d to %d: %s", soft, hard, exc)
    return int(soft)


@dataclass(frozen=True)
class PreloginLimit:
    """How many connections may be at once before their caller has logged
    in (an unfinished HTTP request, a WebSocket or telnet negotiation, an
    SSH handshake, an rlogin handshake, the name prompt): ``total`` in all,
    and from one address (``per_address``) or one network
    (``per_network``, :func:`network_of`).  Logged-in sessions keep the
    rest of the gate's total to themselves."""

    total: int = 100
    per_address: int = 10
    per_network: int = 40


class Ticket:
    """One connection the gate was asked about: ``refused`` says why it
    may not stay (it is not counted then); else it is counted, as not yet
    logged in, until :meth:`logged_in`, and released once by
    :meth:`release`.  ``close()``: ends the connection (the gate calls it
    when the connection is the one it lets go to make room)."""

    __slots__ = ("gate", "address", "network", "close", "refused", "prelogin", "counted")

    def __init__(self, gate: ConnectionGate, address: str, close: Callable[[], None]) -> None:
        self.gate = gate
        self.address = address
        self.network = network_of(address)
        self.close = close
        self.refused: str | None = None
        self.prelogin = False
        self.counted = False

    def logged_in(self) -> None:
        """The caller has logged in: the connection leaves the pre-login budget."""
        self.gate._logged_in(self)

    def release(self) -> None:
        """The connection has closed (a second call, or one for a refused
        or let-go connection, changes nothing)."""
        self.gate._release(self)


class ConnectionGate:
    """Open connections in all (``total``) and per address, for every
    transport alike: the one admission path.

    ``max_total``: connections open at once over every listener;
    ``max_per_address``: from one address.  ``descriptors``: the soft
    descriptor limit; ``max_total`` is cut so that
    :data:`DESCRIPTOR_RESERVE` of them always stay free.  ``prelogin``:
    the budget of connections not yet logged in
    (:class:`PreloginLimit`; ``None``: none apart).  When that budget is
    full the oldest pre-login connection of the address holding the most
    of them is closed to make room, rather than the newcomer refused: a
    stranger with many slow connections loses their own, and a caller
    typing a name keeps theirs.
    """

    def __init__(self, max_total: int, max_per_address: int, descriptors: int | None = None,
                 prelogin: PreloginLimit | None = None) -> None:
        if descriptors is not None:
            max_total = min(max_total, max(1, descriptors - DESCRIPTOR_RESERVE))
        self.max_total = max_total
        self.max_per_address = max_per_address
        self.prelogin = prelogin
        self.total = 0
        self._by_address: Counter[str] = Counter()
        self._waiting: dict[Ticket, None] = {}
        """The pre-login connections, oldest first."""
        self._waiting_by_address: Counter[str] = Counter()
        self._waiting_by_network: Counter[str] = Counter()
        self.refused = 0
        """Connections refused so far (for the benchmarks and the log)."""
        self.let_go = 0
        """Pre-login connections closed to make room so far."""
        self.banned: Callable[[str], str | None] | None = None
        """Why an address is banned (words for the caller), or ``None``: set by the server once its bans are read."""

    @property
    def waiting(self) -> int:
        """Connections counted that have not logged in yet."""
        return len(self._waiting)

    def admit(self, address: str, close: Callable[[], None] = lambda: None) -> Ticket:
        """A new connection from ``address``: its :class:`Ticket`, counted
        (as not logged in) until released, or ``refused`` with why not, as
        words for the caller ("the door is full"; a ban's reason, :attr:`banned`)."""
        ticket = Ticket(self, address, close)
        limit = self.prelogin
        banned = self.banned(address) if self.banned is not None else None
        if banned is not None:
            ticket.refused = banned
            refused("banned")
            return ticket
        if self.total >= self.max_total:
            why = "the door is full"
        elif self._by_address[address] >= self.max_per_address:
            why = "too many calls from your address"
        elif limit is not None and self._waiting_by_address[address] >= limit.per_address:
            why = "too many calls from your address at once"
        elif limit is not None and self._waiting_by_network[ticket.network] >= limit.per_network:
            why = "too many calls from your network at once"
        else:
            if limit is not None and len(self._waiting) >= limit.total:
                self._make_room()
            self.total += 1
            self._by_address[address] += 1
            ticket.counted = True
            if limit is not None:
                ticket.prelogin = True
                self._waiting[ticket] = None
                self._waiting_by_address[address] += 1
                self._waiting_by_network[ticket.network] += 1
            return ticket
        ticket.refused = why
        self.refused += 1
        refused("full" if why == "the door is full" else "network" if "network" in why else "address")
        if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
            log.warning("refusing connections: %s (%d open, %d from %r; %d refused so far)", why, self.total,
                        self._by_address[address], address, self.refused)
        return ticket

    def _make_room(self) -> None:
        """Let the oldest pre-login connection of the busiest address go."""
        busiest = max(self._waiting_by_address.values())
        oldest = next(t for t in self._waiting if self._waiting_by_address[t.address] == busiest)
        self._release(oldest)
        self.let_go += 1
        if self.let_go in (1, 10, 100) or self.let_go % 1000 == 0:
            log.warning("pre-login connections full: closing the oldest of %r (%d let go so far)", oldest.address,
                        self.let_go)
        try:
            oldest.close()
        except Exception:  # (a transport already gone)
            log.debug("closing a pre-login connection of %r failed", oldest.address, exc_info=True)

    def _logged_in(self, ticket: Ticket) -> None:
        if ticket.prelogin:
            ticket.prelogin = False
            self._unwait(ticket)

    def _unwait(self, ticket: Ticket) -> None:
        self._waiting.pop(ticket, None)
        for counter, key in ((self._waiting_by_address, ticket.address), (self._waiting_by_network, ticket.network)):
            left = counter[key] - 1
            if left > 0:
                counter[key] = left
            else:
                del counter[key]

    def _release(self, ticket: Ticket) -> None:
        if not ticket.counted:
            return
        ticket.counted = False
        if ticket.prelogin:
            ticket.prelogin = False
            self._unwait(ticket)
        self.total = max(0, self.total - 1)
        left = self._by_address[ticket.address] - 1
        if left > 0:
            self._by_address[ticket.address] = left
        else:
            del self._by_address[ticket.address]
