"""A program's moves by the game protocol: its messages read and
checked (:mod:`door.play.api_messages`), handed to its seat
(:class:`~door.play.api_seat.ApiSeat`) until the table is done with it,
hints and advice answered on the way; and waiting for an answer (a
challenge's, a page's) while the program may only leave."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from door.net.api_link import ApiLink
from door.net.terminal import HungUp
from door.play.api_hints import advice_message, hint_message
from door.play.api_messages import MessageError, error_message, read_message
from door.play.api_seat import ApiSeat

__all__ = ["IDLE_LOOK", "hand_moves", "next_message", "play_seat", "while_asked"]

IDLE_LOOK = 0.5
"""Seconds between looks for a challenge of a program waiting at the menu."""


async def next_message(link: ApiLink, timeout: float | None = None) -> dict[str, Any] | None:
    """The program's next message that is one (``None`` when ``timeout``
    seconds pass first); each that is not gets an ``error`` (the field, and
    what was expected).  Raises :class:`~door.net.terminal.HungUp` when the
    connection ends."""
    while True:
        text = await link.receive(timeout)
        if text is None:
            return None
        try:
            return read_message(text)
        except MessageError as exc:
            link.send(error_message(exc.field, str(exc)))


async def hand_moves(link: ApiLink, seat: ApiSeat) -> bool:
    """Hand the program's messages to ``seat`` until the table is done with
    it; True when the program left (``leave``: the game is quit, as Q
    quits it, and the session ends)."""
    while not seat.over.is_set():
        over = asyncio.create_task(seat.over.wait())
        arrived = asyncio.create_task(next_message(link))
        await asyncio.wait({over, arrived}, return_when=asyncio.FIRST_COMPLETED)
        over.cancel()
        if not arrived.done():
            arrived.cancel()
            # (a connection that ends as it is cancelled: its HungUp is this session's end, not news for the log)
            arrived.add_done_callback(lambda task: task.cancelled() or task.exception())
            break
        message = arrived.result()  # (raises HungUp when the connection ended)
        if message is not None and message["type"] in ("hint", "advice"):
            link.send(hint_message(seat) if message["type"] == "hint" else advice_message(seat))
            continue
        if message is not None and message["type"] == "leave":
            if seat.table is not None and not seat.over.is_set():
                seat.table.quit(seat.index)
                await asyncio.wait({asyncio.create_task(seat.over.wait())}, timeout=5)
            return True
        if message is not None:
            seat.take(message)
    return False


async def play_seat(link: ApiLink, seat: ApiSeat) -> bool:
    """:func:`hand_moves` at a table between people: a session that ends
    there however it ends (the connection gone, an exception) leaves the
    seat as a dropped line does (the table waits for the program to log in
    again, as for any registered caller); while it only waits on the other
    player it is never idle-timed out.  True when the program left."""
    link.awaited = lambda: seat.table is None or seat.table.awaits(seat.index)
    try:
        return await hand_moves(link, seat)
    except BaseException:
        if seat.table is not None:
            seat.table.leave(seat.index, seat)
        raise
    finally:
        link.awaited = None


async def while_asked(link: ApiLink, waiting: asyncio.Task[Any], withdraw: Callable[[], None], busy: str) -> bool:
    """Wait for ``waiting`` (a challenge's or a page's answer); the
    program's messages meanwhile are answered with an error saying
    ``busy``, but ``leave`` withdraws the question (``withdraw()``).
    Returns whether the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (after
    ``withdraw()``)."""
    left = False
    try:
        while not waiting.done():
            reading = asyncio.create_task(next_message(link))
            await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                reading.add_done_callback(lambda task: task.cancelled() or task.exception())
                break
            message = reading.result()
            if message is not None and message["type"] == "leave":
                withdraw()
                left = True
            elif message is not None:
                link.send(error_message("type", busy))
    except HungUp:
        withdraw()
        raise
    return left
