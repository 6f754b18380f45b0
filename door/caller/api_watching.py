"""Watching a game by the game protocol: a program (the card table, or
any client) watches a game between two callers, as a caller does with W
at the menu (:mod:`door.caller.watching`): the same games are open to it
(both players take watchers, not its own game), the players are told,
and it sees each move as an event seen from no seat, both hands hidden
until the show (:class:`~door.play.api_watcher.ApiWatcher`)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.watching import watchable_tables
from door.play.api_moves import next_message
from door.play.api_watcher import ApiWatcher
from door.play.table import Table
from door.records.names import name_key
from door.sysop.doing import Doing

__all__ = ["watch_game"]


def _tell_players(table: Table, text: str) -> None:
    for seat in table.seats:
        seat.notice(text)


async def watch_game(side: ProgramSide, message: dict[str, Any]) -> bool:
    """Watch the game of the player named in ``message`` until the program
    sends ``stop`` (or ``leave``), the game ends, or a player refuses
    watchers; then ``menu``.  True when the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (the
    watcher taken off the table first)."""
    lobby, presence = side.ctx.lobby, side.presence
    wanted = name_key(message["player"])
    table = next((t for t in watchable_tables(lobby.tables, presence)
                  if any(name_key(seat.name) == wanted for seat in t.seats)), None)
    if table is None or table.game is None:
        side.error("player", f"no game of {message['player']} can be watched now (a game between "
                             "two callers who take watchers: the lobby message lists them)")
        return False
    game = table.game
    names = (table.seats[0].name, table.seats[1].name)
    watcher = ApiWatcher(side.send, names)
    table.watchers.append(watcher)
    side.send({"type": "watching", "players": list(names), "game_to": game.rules.game_to, "game": game.number,
               "scores": list(game.scores())})
    side.doing(Doing.WATCHING_GAME, whom=f"{names[0]} and {names[1]}")
    _tell_players(table, f"{presence.name} is watching.")
    left = False
    try:
        while not table.ended.is_set() and table in watchable_tables(lobby.tables, presence):
            asked = await next_message(side.link, 1.0)
            if asked is None:
                continue
            if asked["type"] in ("stop", "leave"):
                left = asked["type"] == "leave"
                break
            side.error("type", "you are watching (the chat is the players'): stop, or leave")
    finally:
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        if not table.ended.is_set():
            _tell_players(table, f"{presence.name} stopped watching.")
    side.send({"type": "menu"})
    return left
