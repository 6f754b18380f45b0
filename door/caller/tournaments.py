"""Tournaments as a caller or a program meets them: the open and running
tournaments listed (each with its format and whether they are in it),
entering one and withdrawing before it starts, at the screens (T in the
games by correspondence) and by the game protocol (``tournaments``,
``enter``, ``withdraw``).  The sysop makes and runs them
(``cribbage-door tournament``); the pairings' games come to each
player's list of games by turns (:mod:`door.games.tournament`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from door.caller.side import CallerSide, Side
from door.caller.turns import tell_elsewhere, tell_waiting
from door.games.house import GameHouse
from door.games.tournament import seat_and_drop
from door.net.peer_socket import PeerTurn
from door.play.table import Table
from door.records.ranked.bracket_sentences import rounds_said
from door.records.tournaments.repository import View
from door.records.tournaments.settings import TournamentError
from door.records.tournaments.values import Seating, State
from door.sysop.lobby import Lobby
from door.ui.prompts import BACK, ask_choice, show_page

__all__ = ["call_to_table", "enter_or_withdraw", "seat_and_tell", "tournament_list", "tournament_standings",
           "tournaments_screen"]

SHOWN = 9
"""Tournaments listed at once (keys 1 to 9)."""

STANDINGS_WITHIN = 2.0
"""Seconds a tournament's standings worked out at this node are shown
again rather than worked out anew (a program may ask for them as fast as
it may send messages, and a big Swiss takes tens of milliseconds of the
store's one thread each time)."""


async def tournament_list(side: Side, player: str) -> list[dict[str, Any]]:
    """The open and running tournaments, newest first: each its ``name``,
    ``title``, ``state`` (``open``, ``running``), ``format`` (in words),
    ``entrants`` and whether ``player`` has ``entered``."""
    tournaments = side.ctx.store.tournaments
    listed = []
    for t in [*await tournaments.listing(State.OPEN), *await tournaments.listing(State.RUNNING)]:
        entries = await tournaments.entries(t.name)  # (not its standings: the list is asked for often)
        listed.append({"name": t.name, "title": t.title, "state": t.state.value, "format": t.settings.describe(),
                       "entrants": len(entries), "entered": any(e.name == player for e in entries)})
    return listed


async def tournament_standings(side: Side, name: str) -> dict[str, Any] | str:
    """Tournament ``name`` as it stands, as the protocol's ``standings``
    message says it: its ``title``, ``state`` (``open``, ``running``,
    ``finished``), ``format`` (in words), the ``entrants``' names, the
    Swiss's ``standings`` (best first: ``place``, ``name``, ``points``,
    games ``won`` and ``played``, ``skunks``, ``spread``; empty for a
    knock-out alone) and its ``brackets`` (each its ``label``, ``bracket``
    or ``consolation``, its ``champion`` or ``None``, and its ``rounds``
    in the order they are played: a ``name`` and the ``matches`` in
    words).  A sentence saying why not when there is no such tournament."""
    try:
        view = await side.ctx.store.tournaments.view(name, STANDINGS_WITHIN)
    except TournamentError as exc:
        return str(exc)
    return _standings_message(view)


def _standings_message(view: View) -> dict[str, Any]:
    t = view.tournament
    return {"type": "standings", "name": t.name, "title": t.title, "state": t.state.value,
            "format": t.settings.describe(), "entrants": [e.name for e in view.entries],
            "standings": [{"place": place, "name": line.name, "points": line.points, "won": line.won,
                           "played": line.played, "skunks": line.skunks, "spread": line.spread}
                          for place, line in enumerate(view.standings, 1)],
            "brackets": [{"label": label, "champion": state.champion,
                          "rounds": [{"name": name, "matches": said} for name, said in rounds_said(state)]}
                         for label, state in view.brackets]}


async def enter_or_withdraw(side: Side, name: str, player: str, enter: bool) -> str | None:
    """``player`` enters tournament ``name`` (or withdraws, before it
    starts): ``None`` when done, else why not in a sentence."""
    tournaments = side.ctx.store.tournaments
    try:
        if enter:
            await tournaments.enter(name, player)
        else:
            await tournaments.withdraw(name, player)
    except TournamentError as exc:
        return str(exc)
    side.log.info("%r %s tournament %r", player, "enters" if enter else "withdraws from", name)
    return None


async def seat_and_tell(house: GameHouse, lobby: Lobby, seatings: Sequence[Seating]) -> None:
    """The director's step followed by the game service ``house``
    (:func:`~door.games.tournament.seat_and_drop`), and each new pairing
    announced to its players on line in ``lobby`` (here): a program by
    ``your_move``, a caller on their menu; a live round's players are
    called to their table (:func:`call_to_table`)."""
    for table in await seat_and_drop(house, seatings):
        if table.settings.by_turns:
            tell_waiting(lobby, table)
        else:
            call_to_table(lobby, table)


def call_to_table(lobby: Lobby, table: Table) -> None:
    """Call both players of the live tournament ``table`` who are on line
    in ``lobby`` (here) to it: a program by ``your_move`` (as for any game
    of its list that waits on it: it sits down with ``open``), a caller by
    a line on their screen (K on the menu lists the game; choosing it sits
    them down); a player on line at another node is told there as of a
    game that waits on them (opening it there takes them to this node's
    table, which holds the game).  Until both sit down, the table waits
    for them until the round's time to come; one who has not come by then
    loses."""
    journal = table.journal
    if journal is None or journal.saved_id is None or table.ended.is_set():
        return
    until = time.strftime("%H:%M UTC", time.gmtime(table.away.until))
    number = table.game.number if table.game is not None else 1
    for seat in sorted(table.absent):
        identity, other = table.seats[seat].identity, table.seats[1 - seat].name
        told = False
        for presence in list(lobby.presences.values()):
            if identity is None or presence.identity != identity:
                continue
            told = True
            if presence.your_move is not None:
                presence.your_move(journal.saved_id, other)
            else:
                presence.tell(f"Your tournament game with {other} is ready: press K on the menu and choose it "
                              f"by {until}, or lose it.")
        account = identity.account if identity is not None else None
        if not told and account is not None:
            tell_elsewhere(lobby, table.seats[seat].name, PeerTurn(account, journal.saved_id, number, other))


async def tournaments_screen(side: CallerSide) -> None:
    """T: the tournaments; a number enters the one listed, or withdraws
    from it, as the caller chooses."""
    player = side.caller.name
    listed = (await tournament_list(side, player))[:SHOWN]
    if not listed:
        await show_page(side.display, "Tournaments", ["No tournament is open or running now."])
        return
    lines = ["Tournaments (the sysop makes them):", ""]
    lines += [f"  {i}  {t['title']}: {t['state']}, {t['entrants']} entered"
              + (" (you are in)" if t["entered"] else "") for i, t in enumerate(listed, 1)]
    lines += ["", "Press a number to enter that one or withdraw, ESC to go back."]
    answer = await ask_choice(side.display, "Tournaments", lines,
                              "".join(str(i) for i in range(1, len(listed) + 1)), escape=True)
    if answer == BACK:
        return
    chosen = listed[int(answer) - 1]
    verb = "Withdraw from" if chosen["entered"] else "Enter"
    sure = await ask_choice(side.display, "Tournaments", [
        f"{chosen['title']}: {chosen['format']}.", "", f"{verb} it? (Y/N)"], "YN")
    if sure == "Y":
        refused = await enter_or_withdraw(side, chosen["name"], player, not chosen["entered"])
        await show_page(side.display, "Tournaments", [refused or (
            f"You are in {chosen['title']}: your games come to your list (K on the menu)."
            if not chosen["entered"] else f"You are out of {chosen['title']}.")])
