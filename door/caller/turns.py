"""Telling a player that a game played by turns waits on them, when they
are on line here: a program by ``your_move``, a caller on their menu
(a game by correspondence that stopped at the other's move, a
tournament's new pairing)."""

from __future__ import annotations

from door.caller.side import Side
from door.play.table import Table
from door.sysop.lobby import Lobby

__all__ = ["tell_turn", "tell_waiting"]


def tell_turn(side: Side, table: Table) -> None:
    """A game by correspondence stopped waiting on a player: tell them now
    if they are on line here (a program by a ``your_move`` message, a
    caller on their menu): :func:`tell_waiting`."""
    tell_waiting(side.ctx.lobby, table)


def tell_waiting(lobby: Lobby, table: Table) -> None:
    """Tell each player ``table``'s stopped game waits on, who is on line
    in ``lobby`` (here): a program by ``your_move``, a caller by a line on
    their menu (a tournament's new pairing too, both players told)."""
    game, journal = table.game, table.journal
    if game is None or game.over or not table.ending.waiting or journal is None or journal.saved_id is None:
        return
    for seat in game.to_act():
        identity, other = table.seats[seat].identity, table.seats[1 - seat].name
        for presence in list(lobby.presences.values()):
            if identity is None or presence.identity != identity:
                continue
            if presence.your_move is not None:
                presence.your_move(journal.saved_id, other)
            else:
                presence.tell(f"Your move in game #{game.number} with {other} (K on the menu).")
