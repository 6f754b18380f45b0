"""A caller's kept games, as the session meets them after the login: a
game between people that waits for them (their line dropped), and the
unfinished games of theirs (any number, each kind with its limit:
:mod:`door.records.game_kinds`) to resume, or one whose moves no longer
replay."""

from __future__ import annotations

import dataclasses

from door.caller.seated import rejoin
from door.caller.side import CallerSide
from door.records.game_kinds import GameKind
from door.records.games import Opponent
from door.records.names import name_key
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.ui.prompts import BACK, ask_choice, show_page
from engine.game import replay

__all__ = ["KeptGame", "Broken", "load_kept", "offer_resume", "back_to_waiting_table", "offer_to_drop"]


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
    def kind(self) -> GameKind:
        """What the game is (against the computer, the sysop, a caller, ...)."""
        return self.saved.kind

    @property
    def against_sysop(self) -> bool:
        """True for a game against the sysop (resumed by paging them)."""
        return self.saved.opponent == Opponent.SYSOP

    @property
    def against_caller(self) -> bool:
        """True for a game against another caller (resumed by challenging them)."""
        return self.saved.opponent == Opponent.CALLER


_OWN_LIST = (GameKind.CORRESPONDENCE, GameKind.TOURNAMENT)
"""Kept games listed elsewhere (games by correspondence: K on the menu), not offered to resume here."""


@dataclasses.dataclass(frozen=True)
class Broken:
    """A kept game whose moves do not replay: its id and why (a short sentence)."""

    id: int
    why: str


async def load_kept(side: CallerSide) -> tuple[list[KeptGame], Broken | None]:
    """The caller's unfinished games (the most recently moved first, those
    with a deadline nearest first), each checked by replaying it once; and
    the first one whose log cannot be read or does not replay (never a
    crash), or ``None``.  A game against a guest cannot go on (a guest
    cannot come back): it is given up, and the menu says so
    (``presence``'s messages), rather than offered to resume."""
    caller = side.caller
    if caller.account is None:
        return [], None
    kept: list[KeptGame] = []
    broken: Broken | None = None
    for listed in await side.ctx.store.saved.unfinished(caller.account.id):
        if listed.kind in _OWN_LIST:
            continue
        try:
            game = await _checked(side, listed.id)
        except (ValueError, KeyError, TypeError) as exc:  # NotationError, IllegalAction, RulesError, bad JSON
            side.log.error("the saved game %d of %r does not replay: %s", listed.id, caller.name, exc)
            broken = broken or Broken(listed.id, str(exc)[:70])
            continue
        if game is not None:
            kept.append(game)
    return kept, broken


async def _checked(side: CallerSide, saved_id: int) -> KeptGame | None:
    """The kept game ``saved_id`` replayed, or ``None`` (gone meanwhile,
    or against a guest: given up).  Raises ``ValueError`` (and the
    notation's and the engine's errors) when it does not replay."""
    ctx, caller, presence = side.ctx, side.caller, side.presence
    assert caller.account is not None
    saved = await ctx.store.saved.load_game(saved_id)
    if saved is None:
        return None
    other = saved.other_account if saved.account_id == caller.account.id else saved.account_id
    if saved.opponent == Opponent.CALLER and other is None:
        await ctx.store.saved.drop(saved.id)
        side.log.info("the kept game %d of %r against a guest was given up", saved.number, caller.name)
        if presence is not None:
            presence.messages.append(f"Your game #{saved.number} was against a guest, who cannot come back: "
                                     "it is given up.")
        return None
    game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
    if game.over:
        raise ValueError("the game in it is already over")
    seat = saved.seat_of(caller.account.id)
    opponent = saved.players[1 - seat] if len(saved.players) == 2 else ""
    return KeptGame(saved, saved.line(caller.account.id, game), owned=saved.account_id == caller.account.id,
                    opponent=opponent)


def kept_words(kept: list[KeptGame]) -> str | None:
    """What the menu's R offers to resume: the one kept game as it stands,
    ``"one of your 3 unfinished games"``, or ``None`` (none kept)."""
    if not kept:
        return None
    return kept[0].line if len(kept) == 1 else f"one of your {len(kept)} unfinished games"


async def choose_kept(side: CallerSide, kept: list[KeptGame]) -> KeptGame | None:
    """The kept game the caller picks of several (the first nine, by
    number), or ``None`` (ESC)."""
    shown = kept[:9]
    lines = ["Your unfinished games:", ""]
    lines += [f"  {i}  {k.line}" + (" against the computer" if k.kind in _VS_COMPUTER else "")
              for i, k in enumerate(shown, 1)]
    keys = "1" if len(shown) == 1 else f"1 to {len(shown)}"
    lines += ["", f"Press {keys} to go on with that game, ESC to go back."]
    side.doing(Doing.RESUME_PROMPT)
    answer = await ask_choice(side.display, "Unfinished games", lines,
                              "".join(str(i) for i in range(1, len(shown) + 1)), escape=True)
    return None if answer == BACK else shown[int(answer) - 1]


_VS_COMPUTER = (GameKind.COMPUTER, GameKind.DAILY)


async def offer_resume(side: CallerSide, kept: KeptGame, count: int = 1) -> bool:
    """Ask whether to go on with ``kept`` now (``count``: the caller's kept
    games, the others offered on the menu): True for yes."""
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
    if count > 1:
        lines[1:1] = ["", f"(You have {count} unfinished games: R on the main menu lists them.)"]
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


async def offer_to_drop(side: CallerSide, broken: Broken) -> None:
    """A kept game of the caller's does not replay (``broken``: which, and
    why): abandon it, or keep it for the sysop to look at."""
    answer = await ask_choice(side.display, "Unfinished game", [
        "An unfinished game of yours cannot be rebuilt: its saved moves do not replay.",
        f"({broken.why})",
        "",
        "  A  Abandon it (it is removed; your records are not touched).",
        "  K  Keep it for now (the sysop can look at it).",
    ], "AK")
    if answer == "A":
        await side.ctx.store.saved.drop(broken.id)
        side.log.info("%r abandoned a saved game that did not replay", side.caller.name)
