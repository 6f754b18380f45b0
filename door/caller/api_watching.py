"""Watching a game by the game protocol: a program (the card table, or
any client) watches a game between two callers, as a caller does with W
at the menu, over the same flow (:func:`~door.caller.watching.watching`:
the same games are open to it, the players are told); it sees each move
as an event seen from no seat, both hands hidden until the show
(:class:`~door.play.api_watcher.ApiWatcher`)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.watching import watchable_tables, watching
from door.play.api_moves import next_message
from door.play.api_watcher import ApiWatcher
from door.records.names import name_key

__all__ = ["watch_game"]


async def watch_game(side: ProgramSide, message: dict[str, Any]) -> bool:
    """Watch the game of the player named in ``message`` until the program
    sends ``stop`` (or ``leave``), the game ends, or a player refuses
    watchers; then ``menu``.  True when the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (the
    watcher taken off the table first)."""
    tables, presence = side.ctx.lobby.tables, side.presence
    table = next((t for t in watchable_tables(tables, presence)
                  if any(name_key(seat.name) == name_key(message["player"]) for seat in t.seats)), None)
    if table is None or table.game is None:
        side.error("player", f"no game of {message['player']} can be watched now (a game between "
                             "two callers who take watchers: the lobby message lists them)")
        return False
    game, names = table.game, (table.seats[0].name, table.seats[1].name)
    side.send({"type": "watching", "players": list(names), "game_to": game.rules.game_to, "game": game.number,
               "scores": list(game.scores())})
    left = False
    with watching(side, table, ApiWatcher(side.send, names)):
        while not table.ended.is_set() and table in watchable_tables(tables, presence):
            asked = await next_message(side.link, 1.0)
            if asked is not None and asked["type"] in ("stop", "leave"):
                left = asked["type"] == "leave"
                break
            if asked is not None:
                side.error("type", "you are watching (the chat is the players'): stop, or leave")
    side.send({"type": "menu"})
    return left
