"""The sorry listener: what a caller reads when no node of the door answers
(``cribbage-door sorry``, HAProxy's ``backup`` server behind the nodes).

It runs none of the door: on the telnet (or rlogin) port it writes the
sysop's words and hangs up; on the web port it answers every request
with ``503 Service Unavailable`` and the same words (and a
``Retry-After``).  The words are ASCII (:func:`check_words`): every
charset a caller's terminal may use (CP437, UTF-8, Latin-1, ASCII) shows
them alike, so no negotiation is needed before them.  Behind a balancer
that sends the PROXY protocol the listener reads its header from the
``proxies`` first, as the door does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from door.net.gate import address_of
from door.net.listener import Bind, Listener
from door.net.proxy_protocol import proxied

__all__ = ["start_sorry", "check_words", "DEFAULT_WORDS", "telnet_text", "http_answer", "RETRY_AFTER"]

log = logging.getLogger(__name__)

DEFAULT_WORDS = "The cribbage door is down for maintenance. Please call again in a few minutes."
"""What the sorry listener says when the sysop gives no words of their own."""

RETRY_AFTER = 120
"""Seconds a browser is told to wait before it asks again."""

REQUEST_WAIT = 5.0
"""Seconds the web port waits for a request's head before it answers anyway."""

WIDTH = 78
"""Columns the words are wrapped to for a terminal."""


def check_words(words: str) -> str:
    """``words`` when they are 1 to 400 printable ASCII characters (every
    caller's charset shows them alike); raises ``ValueError`` saying so."""
    words = " ".join(words.split())
    if not words or len(words) > 400 or not words.isascii() or not words.isprintable():
        raise ValueError("the words must be 1 to 400 printable ASCII characters (every caller's terminal shows "
                         "those alike)")
    return words


def telnet_text(words: str, width: int = WIDTH) -> bytes:
    """``words`` wrapped at ``width`` columns, CRLF line ends, a blank line
    before and after.

    >>> telnet_text("Down for a while.")
    b'\\r\\nDown for a while.\\r\\n\\r\\n'
    """
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return ("\r\n" + "\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def http_answer(words: str) -> bytes:
    """The web port's whole answer: 503, the words as plain text."""
    body = (words + "\n").encode("ascii")
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\nRetry-After: " + str(RETRY_AFTER).encode() +
            b"\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + body)


class _Say(asyncio.Protocol):
    """Says ``text`` at once and hangs up (telnet, rlogin)."""

    def __init__(self, text: bytes) -> None:
        self.text = text

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        log.info("sorry: told %s the door is down", address_of(transport.get_extra_info("peername")))
        transport.write(self.text)
        transport.close()


class _Answer(asyncio.Protocol):
    """Answers ``text`` once a request's head has come (or after
    :data:`REQUEST_WAIT` seconds), and hangs up (the web port)."""

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.seen = b""
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(REQUEST_WAIT, self.answer)

    def data_received(self, data: bytes) -> None:
        self.seen = (self.seen + data)[-8192:]
        if b"\r\n\r\n" in self.seen or b"\n\n" in self.seen:
            self.answer()

    def answer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(self.text)
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()


async def start_sorry(bind: Bind, words: str, web: bool = False, proxies: Sequence[str] = ()) -> Listener:
    """Listen where ``bind`` says and tell every caller ``words`` (checked
    by :func:`check_words`): as a terminal's text, or with ``web`` as an
    HTTP 503; ``proxies``: balancers whose PROXY header comes first.
    Raises ``OSError`` when the port is taken."""
    text = http_answer(words) if web else telnet_text(words)

    def make() -> asyncio.BaseProtocol:
        return _Answer(text) if web else _Say(text)

    server = await asyncio.get_running_loop().create_server(proxied(make, proxies, "sorry"), bind.host, bind.port,
                                                            reuse_port=bind.reuse_port or None)
    return Listener("sorry", server, server.sockets)
