"""Watching a game between callers: the tables a caller may
watch, and the read-only view of one.

A watcher sees what the sysop's console shows: both hands hidden until
the show, the chat as the players write it (a watcher cannot write to it),
each move as it is made.  Games against the computer or the sysop are not
listed, nor a game either player refuses watchers in (V on their menu); a
player who turns watchers off while watched ends the watching.  Both
players are told when someone starts and stops watching (a stop a few
seconds after, so that starting and stopping again and again is told once).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator

from door.caller.side import CallerSide, Side
from door.play.human_seat import HumanSeat
from door.play.seat import Watcher
from door.play.table import Table
from door.records.names import name_key
from door.sysop.doing import Doing
from door.sysop.presence import Presence
from door.ui.prompts import BACK, ask_choice, show_page

__all__ = ["watch_game", "watch", "over", "watching", "watchable_tables", "any_watchable", "TABLES_SHOWN"]

TABLES_SHOWN = 9
"""Games listed to watch at once (keys 1 to 9)."""

STOP_TOLD_AFTER = 3.0
"""Seconds after a watcher stops before the players are told so (a
watcher who starts again meanwhile was watching all along, to them)."""

_stopping: dict[tuple[int, str], asyncio.TimerHandle] = {}
"""The players' notices of watchers who stopped, waiting to be told: by
the table's ``id`` (held by the notice while it waits) and the watcher's
:func:`~door.records.names.name_key`."""


def _open(table: Table) -> bool:
    """A game between two callers, under way, that both allow watchers in."""
    return (table.game is not None and not table.ended.is_set()
            and all(isinstance(seat, HumanSeat) and seat.vs.options.watchers for seat in table.seats))


def any_watchable(tables: Iterable[Table], viewer: Presence) -> bool:
    """Whether ``viewer`` may watch any of ``tables`` (the menu asks every
    second: no list, no sort)."""
    return any(_open(t) and _watchable_by(t, viewer) for t in tables)


def _watchable_by(table: Table, viewer: Presence) -> bool:
    """Not the viewer's own game."""
    own = {viewer.identity} if viewer.identity is not None else set()
    return not own & {s.identity for s in table.seats} and viewer.table is not table


def watchable_tables(tables: Iterable[Table], viewer: Presence) -> list[Table]:
    """The tables of ``tables`` that ``viewer`` may watch: games between
    two callers who both allow watchers (not the viewer's own), in a
    stable order (by the first player's name)."""
    return sorted((t for t in tables if _open(t) and _watchable_by(t, viewer)),
                  key=lambda t: (t.seats[0].name, t.seats[1].name))


def _tell_players(table: Table, text: str) -> None:
    for seat in table.seats:
        seat.notice(text)


@contextlib.contextmanager
def watching(side: Side, table: Table, watcher: Watcher) -> Iterator[None]:
    """``watcher`` (the side's view) on ``table`` while the block runs,
    for the screens and the game protocol alike: the lobby told, and both
    players when it starts and, :data:`STOP_TOLD_AFTER` seconds after,
    when it stops (not once the game is over): a watcher who starts
    again meanwhile is no news, so one who starts and stops again and
    again is told once, not in a flood of notices."""
    table.watchers.append(watcher)
    side.doing(Doing.WATCHING_GAME, whom=f"{table.seats[0].name} and {table.seats[1].name}")
    key = (id(table), name_key(side.name))
    stopping = _stopping.pop(key, None)
    if stopping is not None:
        stopping.cancel()  # (stopped a moment ago, the players not told yet: watching still, as far as they know)
    else:
        _tell_players(table, f"{side.name} is watching.")
    try:
        yield
    finally:
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        if not table.ended.is_set():
            def stopped() -> None:
                _stopping.pop(key, None)
                if not table.ended.is_set():
                    _tell_players(table, f"{side.name} stopped watching.")
            _stopping[key] = asyncio.get_running_loop().call_later(STOP_TOLD_AFTER, stopped)


def over(table: Table) -> str:
    """Why watching ``table`` ends now, in a sentence (the game is over, a
    player refuses watchers), or ``""`` while it goes on."""
    if table.ended.is_set():
        return "The game is over."
    return "" if _open(table) else "The players no longer take watchers."


async def watch(side: Side, table: Table) -> bool:
    """Watch ``table`` in the side's view (:meth:`~door.caller.side.Side.watch`)
    until the side stops, the game ends or a player refuses watchers
    (:func:`over`), the players told (:func:`watching`); one flow for the
    screens and the game protocol.  A game no longer open is told.  True
    when a program left.  Raises :class:`~door.net.terminal.HungUp` (the
    watcher taken off the table first)."""
    if not _open(table):
        await side.tell("Watch a game", ["That game is over, or its players no longer take watchers."], "player")
        return False
    return await side.watch(table, lambda view: watching(side, table, view), lambda: over(table))


async def watch_game(side: CallerSide) -> None:
    """W at the menu: choose a game between callers and watch it until ESC
    or Q, the game's end, or a player refusing watchers (:func:`watch`).
    Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    display, ctx = side.display, side.ctx
    tables = watchable_tables(ctx.lobby.tables, side.presence)[:TABLES_SHOWN]
    if not tables:
        await show_page(display, "Watch a game", [
            "Nobody is playing another caller right now (or the players refuse watchers).", "",
            "Games against the computer or the sysop cannot be watched."])
        return
    if len(tables) == 1:
        table = tables[0]
    else:
        lines = ["Games between callers:", ""]
        lines += [f"  {i}  {t.seats[0].name} against {t.seats[1].name}" for i, t in enumerate(tables, 1)]
        lines += ["", f"Press 1 to {len(tables)} to watch a game, ESC to go back."]
        answer = await ask_choice(display, "Watch a game", lines, "".join(str(i) for i in range(1, len(tables) + 1)),
                                  escape=True)
        if answer == BACK:
            return
        table = tables[int(answer) - 1]
    await watch(side, table)
