"""Watching a game by the game protocol: a program (the card table, or
any client) watches a game between two callers, as a caller does with W
at the menu (:mod:`door.caller.watching`): the same games are open to it
(both players take watchers, not its own game), the players are told,
and it sees each move as an event seen from no seat, both hands hidden
until the show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from door.caller.api_play import next_message
from door.caller.watching import watchable_tables
from door.context import DoorContext
from door.net.api_link import ApiLink
from door.play.api_events import event_message
from door.play.api_messages import error_message
from door.play.table import Table
from door.records.names import name_key
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.speech import SpokenWords
from engine.events import Event

__all__ = ["ApiWatcher", "watch_game", "watchable_games", "NOBODY"]

NOBODY = -1
"""The seat a watcher sees from: no hand is its own."""


class ApiWatcher:
    """A program watching a table of the players ``names``: ``send`` puts
    each move on its connection as an ``event``
    (:func:`~door.play.api_messages.event_message` from no seat, so both
    hands stay hidden until the show), with the sentences a watcher in
    screen-reader mode hears."""

    def __init__(self, send: Callable[[dict[str, Any]], None], names: tuple[str, str]) -> None:
        self.send = send
        self.spoken = SpokenWords(NOBODY, names)
        """The screen-reader mode's sentences for a watcher (both players by name)."""

    def refresh(self, events: Sequence[Event] = ()) -> None:
        for event in events:
            message = event_message(event, NOBODY)
            if message is not None:
                message["said"] = self.spoken.tell(event)
                self.send(message)


def watchable_games(ctx: DoorContext, presence: Presence) -> list[dict[str, Any]]:
    """The games ``presence`` may watch, for the ``lobby`` message: each
    as its two players' names."""
    return [{"players": [t.seats[0].name, t.seats[1].name]} for t in watchable_tables(ctx.lobby.tables, presence)]


def _tell_players(table: Table, text: str) -> None:
    for seat in table.seats:
        seat.notice(text)


async def watch_game(link: ApiLink, ctx: DoorContext, presence: Presence, message: dict[str, Any]) -> bool:
    """Watch the game of the player named in ``message`` until the program
    sends ``stop`` (or ``leave``), the game ends, or a player refuses
    watchers; then ``menu``.  True when the program left.  Raises
    :class:`~door.net.terminal.HungUp` when the connection ends (the
    watcher taken off the table first)."""
    wanted = name_key(message["player"])
    table = next((t for t in watchable_tables(ctx.lobby.tables, presence)
                  if any(name_key(seat.name) == wanted for seat in t.seats)), None)
    if table is None or table.game is None:
        link.send(error_message("player", f"no game of {message['player']} can be watched now (a game between "
                                          "two callers who take watchers: the lobby message lists them)"))
        return False
    game = table.game
    names = (table.seats[0].name, table.seats[1].name)
    watcher = ApiWatcher(link.send, names)
    table.watchers.append(watcher)
    link.send({"type": "watching", "players": list(names), "game_to": game.rules.game_to, "game": game.number,
               "scores": list(game.scores())})
    ctx.lobby.update(presence, Doing.WATCHING_GAME, whom=f"{names[0]} and {names[1]}")
    _tell_players(table, f"{presence.name} is watching.")
    left = False
    try:
        while not table.ended.is_set() and table in watchable_tables(ctx.lobby.tables, presence):
            asked = await next_message(link, 1.0)
            if asked is None:
                continue
            if asked["type"] in ("stop", "leave"):
                left = asked["type"] == "leave"
                break
            link.send(error_message("type", "you are watching (the chat is the players'): stop, or leave"))
    finally:
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        if not table.ended.is_set():
            _tell_players(table, f"{presence.name} stopped watching.")
    link.send({"type": "menu"})
    return left
