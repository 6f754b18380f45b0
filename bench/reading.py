"""Reading the door as a caller does, for the abuse benchmarks
(:mod:`bench.abuse`, :mod:`bench.abuse_strangers`): a telnet connection,
the screen its bytes paint, and a wait for words on it; the honest
caller's account."""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

__all__ = ["ACCOUNT", "PASSWORD", "telnet", "screen_of", "read_until"]

ACCOUNT, PASSWORD = "Honest", "honest-secret"
"""The honest caller's account (the one the attacks must not lock out)."""


async def telnet(port: int, cols: int = 80, rows: int = 24) -> tuple[Any, Any]:
    import telnetlib3
    return await telnetlib3.open_connection("127.0.0.1", port, encoding=False, term="xterm", cols=cols, rows=rows,
                                            connect_minwait=0.05)


_SCREENS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def screen_of(reader: Any) -> Any:
    """A pyte screen fed with what ``reader`` gave (a diff renderer's text
    is not contiguous in the bytes: read it off a screen)."""
    import pyte

    if reader not in _SCREENS:
        screen = pyte.Screen(500, 300)
        _SCREENS[reader] = (screen, pyte.ByteStream(screen))
    return _SCREENS[reader]


async def read_until(reader: Any, text: bytes, timeout: float = 10.0, seen: bytearray | None = None) -> bytearray:
    """Read until ``text`` is on the screen (or in the raw bytes); returns
    the bytes read (added to ``seen``)."""
    got = seen if seen is not None else bytearray()
    screen, stream = screen_of(reader)
    want = text.decode()
    deadline = time.monotonic() + timeout
    while text not in got and want not in "\n".join(line.rstrip() for line in screen.display):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {text!r} in {bytes(got[-300:])!r}")
        chunk = await asyncio.wait_for(reader.read(65536), left)
        if not chunk:
            raise ConnectionError(f"closed before {text!r}")
        got += chunk
        stream.feed(bytes(chunk))
    return got
