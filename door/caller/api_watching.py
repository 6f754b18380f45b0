"""Watching a game by the game protocol: the game of the player a ``watch``
names, over the screens' flow (:func:`~door.caller.watching.watch`: the
same games open, the players told, the same ends)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.watching import watch, watchable_tables
from door.records.names import name_key

__all__ = ["watch_game"]


async def watch_game(side: ProgramSide, message: dict[str, Any]) -> bool:
    """Watch the game of ``message``'s ``player`` until ``stop`` (or
    ``leave``), its end, or a player refusing watchers, then ``menu``; an
    ``error`` on ``player`` when none may be watched.  True when the
    program left.  Raises :class:`~door.net.terminal.HungUp`."""
    player = name_key(message["player"])
    table = next((t for t in watchable_tables(side.ctx.lobby.tables, side.presence)
                  if player in (name_key(seat.name) for seat in t.seats)), None)
    if table is None:
        side.error("player", f"no game of {message['player']} can be watched now (a game between "
                             "two callers who take watchers: the lobby message lists them)")
        return False
    return await watch(side, table)
