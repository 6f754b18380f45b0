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
from typing import Sequence

__all__ = ["ConnectionGate", "raise_descriptor_limit", "address_of", "network_of", "in_networks", "check_networks",
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
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 56
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


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


class ConnectionGate:
    """Open connections in all (``total``) and per address.

    ``max_total``: connections open at once over every listener;
    ``max_per_address``: from one address.  ``descriptors``: the soft
    descriptor limit; ``max_total`` is cut so that
    :data:`DESCRIPTOR_RESERVE` of them always stay free.
    """

    def __init__(self, max_total: int, max_per_address: int, descriptors: int | None = None) -> None:
        if descriptors is not None:
            max_total = min(max_total, max(1, descriptors - DESCRIPTOR_RESERVE))
        self.max_total = max_total
        self.max_per_address = max_per_address
        self.total = 0
        self._by_address: Counter[str] = Counter()
        self.refused = 0
        """Connections refused so far (for the benchmarks and the log)."""

    def admit(self, address: str) -> str | None:
        """A new connection from ``address``: ``None`` when it may stay (it
        is counted until :meth:`release`), else why not, as words for the
        caller ("the door is full")."""
        if self.total >= self.max_total:
            why = "the door is full"
        elif self._by_address[address] >= self.max_per_address:
            why = "too many calls from your address"
        else:
            self.total += 1
            self._by_address[address] += 1
            return None
        self.refused += 1
        if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
            log.warning("refusing connections: %s (%d open, %d from %r; %d refused so far)", why, self.total,
                        self._by_address[address], address, self.refused)
        return why

    def release(self, address: str) -> None:
        """A connection :meth:`admit` let in has closed."""
        self.total = max(0, self.total - 1)
        left = self._by_address[address] - 1
        if left > 0:
            self._by_address[address] = left
        else:
            del self._by_address[address]
