"""Reading PROXY protocol headers (HAProxy's specification, versions 1
and 2): what a balancer sends is read whole, however it is split; what
breaks the protocol is a ProxyHeaderError, never another exception."""

from __future__ import annotations

import ipaddress
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from door.net.proxy_protocol import V2_SIGNATURE, ProxyHeader, ProxyHeaderError, parse_header


def v2(family: int, body: bytes, command: int = 1) -> bytes:
    return V2_SIGNATURE + bytes([0x20 | command, family]) + struct.pack("!H", len(body)) + body


TCP6 = v2(0x21, ipaddress.IPv6Address("2001:db8::7").packed + ipaddress.IPv6Address("2001:db8::1").packed
          + struct.pack("!HH", 40000, 22) + b"\x04\x00\x01x")  # (a TLV after the addresses is skipped)


@pytest.mark.parametrize("data, header", [
    (b"PROXY TCP4 192.0.2.7 198.51.100.1 51000 23\r\n", ProxyHeader(("192.0.2.7", 51000), 44)),
    (b"PROXY TCP6 2001:db8::7 2001:db8::1 40000 22\r\nSSH-2.0", ProxyHeader(("2001:db8::7", 40000), 45)),
    (b"PROXY UNKNOWN\r\n", ProxyHeader(None, 15)),
    (b"PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n", ProxyHeader(None, 59)),
    (v2(0x11, bytes([192, 0, 2, 7, 127, 0, 0, 1]) + struct.pack("!HH", 51000, 23)), ProxyHeader(("192.0.2.7", 51000), 28)),
    (TCP6, ProxyHeader(("2001:db8::7", 40000), len(TCP6))),
    (v2(0x00, b"", command=0), ProxyHeader(None, 16)),  # LOCAL: the balancer's own health check
])
def test_headers_of_both_versions(data: bytes, header: ProxyHeader) -> None:
    assert parse_header(data) == header
    for cut in range(len(data[:header.length])):  # however the bytes arrive, a part asks for more
        assert parse_header(data[:cut]) is None


@pytest.mark.parametrize("data, why", [
    (b"SSH-2.0-OpenSSH\r\n", "did not begin"),
    (b"PROXY TCP4 192.0.2.7 198.51.100.1 51000\r\n", "PROXY TCP4|TCP6|UNKNOWN"),
    (b"PROXY TCP4 2001:db8::7 198.51.100.1 1 2\r\n", "other family"),
    (b"PROXY TCP4 192.0.2.300 198.51.100.1 1 2\r\n", "not one"),
    (b"PROXY TCP4 192.0.2.7 198.51.100.1 65536 23\r\n", "not a port"),
    (b"PROXY TCP4 192.0.2.7 198.51.100.1 023 23\r\n", "not a port"),
    (b"PROXY " + b"9" * 120, "longer than 107"),
    (v2(0x11, b"\x00" * 4), "too short"),
    (v2(0x31, b"\x00" * 216), "family 0x31"),
    (V2_SIGNATURE + b"\x12\x11\x00\x00", "version 1, command 2"),
    (V2_SIGNATURE + b"\x21\x11\xff\xff", "at most"),
])
def test_what_breaks_the_protocol_says_what(data: bytes, why: str) -> None:
    with pytest.raises(ProxyHeaderError, match=why.replace("|", r"\|")):
        parse_header(data)


@given(st.binary(max_size=600))
def test_any_bytes_are_a_header_more_to_come_or_a_proxy_header_error(data: bytes) -> None:
    for start in (b"", b"PROXY ", b"PROXY TCP4 ", V2_SIGNATURE, V2_SIGNATURE + b"\x21\x11"):
        try:
            header = parse_header(start + data)
        except ProxyHeaderError:
            continue
        assert header is None or 0 < header.length <= len(start + data)
