"""Telling a player that a game played by turns waits on them, wherever
they are on line: here, a program by ``your_move`` and a caller on their
menu; at another node of the store, that node is asked to tell them so
(:meth:`door.sysop.node_link.NodeLink.tell_turn`), as it would have had
the move been made there (a game by correspondence that stopped at the
other's move, a tournament's new pairing)."""

from __future__ import annotations

from door.caller.side import Side
from door.net.peer_socket import PeerTurn
from door.play.table import Table
from door.records.names import name_key
from door.sysop.lobby import Lobby
from door.sysop.presence import account_of, tell_turn_here

__all__ = ["tell_elsewhere", "tell_turn", "tell_waiting"]


def tell_turn(side: Side, table: Table) -> None:
    """A game by correspondence stopped waiting on a player: tell them now
    if they are on line here or at another node (a program by a
    ``your_move`` message, a caller on their menu): :func:`tell_waiting`."""
    tell_waiting(side.ctx.lobby, table)


def tell_waiting(lobby: Lobby, table: Table) -> None:
    """Tell each player ``table``'s stopped game waits on who is on line:
    here (``lobby``'s presences), a program by ``your_move``, a caller by a
    line on their menu; else, when ``lobby`` knows them on line at another
    node, through :attr:`Lobby.turn_elsewhere` (a tournament's new pairing
    too, both players told).  Nothing waits here on the other node."""
    game, journal = table.game, table.journal
    if game is None or game.over or not table.ending.waiting or journal is None or journal.saved_id is None:
        return
    for seat in game.to_act():
        account = account_of(table.seats[seat].identity)
        if account is None:
            continue
        turn = PeerTurn(account, journal.saved_id, game.number, table.seats[1 - seat].name)
        if not tell_turn_here(lobby.presences.values(), turn):
            tell_elsewhere(lobby, table.seats[seat].name, turn)


def tell_elsewhere(lobby: Lobby, name: str, turn: PeerTurn) -> None:
    """Ask the node where ``name`` is on line, if ``lobby`` knows one, to
    tell them of ``turn`` (at once: the node link sends it in a moment)."""
    key = name_key(name)
    there = next((p for p in lobby.elsewhere if not p.sysop and name_key(p.name) == key), None)
    if there is not None and lobby.turn_elsewhere is not None:
        lobby.turn_elsewhere(there, turn)
