"""A caller's kept games, as the session meets them after the login: a
game between people that waits for them (their line dropped), and an
unfinished game of theirs to resume, or one whose moves no longer
replay."""

from __future__ import annotations

import dataclasses

from door.caller.seated import rejoin
from door.caller.side import CallerSide
from door.records.games import Opponent
from door.records.names import name_key
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.ui.prompts import ask_choice, show_page
from engine.game import replay

__all__ = ["KeptGame", "load_kept", "offer_resume", "back_to_waiting_table", "offer_to_drop"]


@dataclasses.dataclass(frozen=True)
class KeptGame:
    """A caller's unfinished game and how it stands, in words (``line``:
    ``"game #N (hand 3, you 20, Computer 26)"``); ``owned``: the caller
    owns it (a new game of theirs replaces it), rather than being the
    other caller in someone else's."""

    saved: SavedGame
    line: str
    owned: bool = True
    opponent: str = ""
    """The other player's name (a game against another caller)."""

    def against(self, name: str) -> bool:
        """True for a game against the caller called ``name`` (ignoring case)."""
        return self.against_caller and bool(name) and name_key(self.opponent) == name_key(name)

    @property
    def against_sysop(self) -> bool:
        """True for a game against the sysop (resumed by paging them)."""
        return self.saved.opponent == Opponent.SYSOP

    @property
    def against_caller(self) -> bool:
        """True for a game against another caller (resumed by challenging them)."""
        return self.saved.opponent == Opponent.CALLER


async def load_kept(side: CallerSide) -> tuple[KeptGame | None, str]:
    """The caller's unfinished game, checked by replaying it once:
    ``(kept, "")``, ``(None, "")`` when there is none, or ``(None, why)``
    when its log cannot be read or does not replay (never a crash).  A
    game against a guest cannot go on (a guest cannot come back): it is
    given up, and the menu says so (``presence``'s messages), rather than
    offered to resume."""
    ctx, caller, log, presence = side.ctx, side.caller, side.log, side.presence
    if caller.account is None:
        return None, ""
    try:
        saved = await ctx.store.saved.load(caller.account.id)
        if saved is None:
            return None, ""
        other = saved.other_account if saved.account_id == caller.account.id else saved.account_id
        if saved.opponent == Opponent.CALLER and other is None:
            await ctx.store.saved.drop(saved.id)
            log.info("the kept game %d of %r against a guest was given up", saved.number, caller.name)
            if presence is not None:
                presence.messages.append(f"Your game #{saved.number} was against a guest, who cannot come back: "
                                         "it is given up.")
            return None, ""
        game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
        if game.over:
            raise ValueError("the game in it is already over")
        line = saved.line(caller.account.id, game)
    except (ValueError, KeyError, TypeError) as exc:  # NotationError, IllegalAction, RulesError, bad JSON
        log.error("the saved game of %r does not replay: %s", caller.name, exc)
        return None, str(exc)[:70]
    seat = saved.seat_of(caller.account.id)
    opponent = saved.players[1 - seat] if len(saved.players) == 2 else ""
    return KeptGame(saved, line, owned=saved.account_id == caller.account.id, opponent=opponent), ""


async def offer_resume(side: CallerSide, kept: KeptGame) -> bool:
    """Ask whether to go on with ``kept`` now: True for yes."""
    display = side.display
    if kept.against_sysop:
        lines = [f"You have an unfinished {kept.line}.", "",
                 "Page the sysop to go on with it? (Y/N; N keeps it for later: the main menu offers it)"]
    elif kept.against_caller:
        lines = [f"You have an unfinished {kept.line}.", "",
                 "Ask them to go on with it? (Y/N; N keeps it for later: the main menu offers it)"]
    else:
        lines = [f"You have an unfinished {kept.line} against the computer.", "",
                 "Resume it? (Y/N; N keeps it for later: the main menu offers it)"]
    answer = await ask_choice(display, "Unfinished game", lines, "YN")
    return answer == "Y"


async def back_to_waiting_table(side: CallerSide) -> None:
    """A game between people that waits for this caller (their line dropped):
    go back to it, or give it up (abandoned; in a rated match, forfeited
    once dealt, and what that did to the ratings is shown)."""
    ctx, presence = side.ctx, side.presence
    waiting = ctx.lobby.waiting_table(presence.identity)
    if waiting is None:
        return
    side.doing(Doing.REJOIN_PROMPT)
    table, index = waiting
    if table.rated:
        stake = table.series.stakes.get(index)
        loses = ("N aborts it: it has not begun" if not table.series.dealt else
                 f"N forfeits the rated match{f': {stake}' if stake else ''}")
    else:
        loses = "N abandons it"
    answer = await ask_choice(side.display, "Your game", [
        f"Your game against {table.seats[1 - index].name} is waiting for you.",
        "", f"Go back to it? (Y/N; {loses})"], "YN")
    if answer == "Y":
        await rejoin(side, table, index)
    else:
        table.abandon(index)
        await table.ended.wait()  # its saved game is gone before the next screen looks for one
        if table.series.news[index]:  # a rated match given up is lost by forfeit: what it did to the ratings
            await show_page(side.display, "Rated match", table.series.news[index])


async def offer_to_drop(side: CallerSide, broken: str) -> None:
    """The caller's kept game does not replay (``broken``: why): abandon
    it, or keep it for the sysop to look at."""
    ctx, caller, log = side.ctx, side.caller, side.log
    answer = await ask_choice(side.display, "Unfinished game", [
        "Your unfinished game cannot be rebuilt: its saved moves do not replay.",
        f"({broken})",
        "",
        "  A  Abandon it (it is removed; your records are not touched).",
        "  K  Keep it for now (the sysop can look at it; a new game replaces it).",
    ], "AK")
    if answer == "A":
        await ctx.store.saved.drop_for(caller.account.id)  # type: ignore[union-attr]
        log.info("%r abandoned a saved game that did not replay", caller.name)
