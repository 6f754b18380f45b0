"""Guests' games against the computer kept while their line is down: a
guest has no account to keep a game under, so a game whose connection
drops is parked, still running, under the token the door gave the guest
at login, for the rejoin time (``[paging] rejoin_timeout``).  The guest
who logs in again with that token and the same name takes their seat
back; when the time is up the seat leaves the table, as a dropped line
does."""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field

from door.play.api_seat import ApiSeat
from door.play.computer_seat import ComputerSeat
from door.play.table import Table
from door.records.names import name_key

__all__ = ["Parked", "ParkedGames", "new_token"]

log = logging.getLogger(__name__)


def new_token() -> str:
    """A resume token: 32 hex digits (128 random bits)."""
    return secrets.token_hex(16)


@dataclass
class Parked:
    """A guest's game: the guest's ``name``, their ``seat`` (its ``index``
    at the ``table``), the ``computer`` seat (stopped when the game is
    given up) and the task that runs the table."""

    name: str
    seat: ApiSeat
    table: Table
    computer: ComputerSeat
    running: asyncio.Task[None]
    _expiry: asyncio.TimerHandle | None = field(default=None, repr=False)


class ParkedGames:
    """The parked games of one server, by resume token."""

    def __init__(self) -> None:
        self._games: dict[str, Parked] = {}

    def __len__(self) -> int:
        return len(self._games)

    def park(self, token: str, parked: Parked, seconds: float) -> None:
        """Keep ``parked`` under ``token`` for ``seconds``; then its seat
        leaves the table (the table's run ends, and the computer stops)."""
        self.drop(token)
        parked._expiry = asyncio.get_running_loop().call_later(seconds, self._expire, token)
        self._games[token] = parked
        log.info("%s's game against the computer is kept %g s for them to come back", parked.name, seconds)

    def claim(self, token: str, name: str) -> Parked | None:
        """The game parked under ``token`` for the guest called ``name``
        (ignoring case), taken out of the parked games; ``None`` when there
        is none (never parked, expired, or another name)."""
        parked = self._games.get(token)
        if parked is None or name_key(parked.name) != name_key(name) or parked.running.done():
            return None
        del self._games[token]
        if parked._expiry is not None:
            parked._expiry.cancel()
        return parked

    def drop(self, token: str) -> None:
        """Give up the game parked under ``token``, if any, at once."""
        self._expire(token)

    def _expire(self, token: str) -> None:
        parked = self._games.pop(token, None)
        if parked is None:
            return
        if parked._expiry is not None:
            parked._expiry.cancel()
        if not parked.running.done():
            parked.table.leave(parked.seat.index)
        parked.running.add_done_callback(lambda _: stop(parked))
        log.info("%s's parked game is given up", parked.name)


def stop(parked: Parked) -> None:
    """The table is done: the computer stops and both seats let it go."""
    parked.computer.stop()
    parked.seat.table = parked.computer.table = None
