"""A caller's kept games, as the session meets them after the login: a
game between people that waits for them (their line dropped), and the
unfinished games of theirs (any number, each kind with its limit:
:mod:`door.records.game_kinds`) to resume, or one whose moves no longer
replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from door.caller.seated import rejoin
from door.caller.side import CallerSide, Side
from door.records.game_kinds import GameKind
from door.records.kept_list import KeptGame as Listed
from door.records.names import name_key
from door.records.store import SavedGame
from door.sysop.doing import Doing
from door.ui.prompts import BACK, ask_choice
from engine.game import replay

__all__ = ["KeptGame", "Broken", "load_kept", "replayed", "resumable", "to_go_on", "offer_resume",
           "back_to_waiting_table", "offer_to_drop"]


@dataclasses.dataclass(frozen=True)
class KeptGame:
    """A caller's unfinished game as the store's list says it stands
    (``listed``, :class:`~door.records.kept_list.KeptGame`: read without
    replaying its log), in words (:attr:`line`)."""

    listed: Listed

    @property
    def line(self) -> str:
        """``"game #N (hand 3, you 20, Computer 26)"`` (a game whose log
        did not read: ``"game #N against Computer"``)."""
        listed = self.listed
        if listed.hand is None or listed.scores is None:
            return f"game #{listed.number} against {listed.other}"
        return (f"game #{listed.number} (hand {listed.hand}, you {listed.scores[0]}, {listed.other} "
                f"{listed.scores[1]})")

    @property
    def owned(self) -> bool:
        """The caller owns it (a new game of theirs replaces it), rather than
        being the other caller in someone else's."""
        return self.listed.owned

    def against(self, name: str) -> bool:
        """True for a game against the caller called ``name`` (ignoring case)."""
        return self.against_caller and bool(name) and name_key(self.listed.other) == name_key(name)

    @property
    def kind(self) -> GameKind:
        """What the game is (against the computer, the sysop, a caller, ...)."""
        return self.listed.kind

    @property
    def against_sysop(self) -> bool:
        """True for a game against the sysop (resumed by paging them)."""
        return self.kind is GameKind.SYSOP

    @property
    def against_caller(self) -> bool:
        """True for a game against another caller (resumed by challenging them)."""
        return self.kind not in (GameKind.SYSOP, *_VS_COMPUTER)


_OWN_LIST = (GameKind.CORRESPONDENCE, GameKind.TOURNAMENT)
"""Kept games listed elsewhere (games by correspondence: K on the menu), not offered to resume here."""


@dataclasses.dataclass(frozen=True)
class Broken:
    """A kept game whose moves do not replay: its id and why (a short sentence)."""

    id: int
    why: str


async def load_kept(side: Side) -> list[KeptGame]:
    """The side's unfinished games (the most recently moved first, those
    with a deadline nearest first) as the store's list says they stand:
    no game's log is replayed (:func:`replayed` replays the one taken
    up).  A game against a guest cannot go on (a guest cannot come
    back): it is given up, and the menu says so (``presence``'s
    messages), rather than offered to resume."""
    ctx, account = side.ctx, side.account
    if account is None:
        return []
    kept: list[KeptGame] = []
    for listed in await ctx.store.saved.unfinished(account.id):
        if listed.kind in _OWN_LIST:
            continue
        if listed.guest:
            await ctx.store.saved.drop(listed.id)
            side.log.info("the kept game %d of %r against a guest was given up", listed.number, side.name)
            side.presence.messages.append(f"Your game #{listed.number} was against a guest, who cannot come "
                                          "back: it is given up.")
            continue
        kept.append(KeptGame(listed))
    return kept


async def replayed(side: Side, kept: KeptGame) -> SavedGame | Broken | None:
    """The kept game ``kept`` read from the store and replayed once, to
    go on with; ``None`` when it is gone meanwhile; :class:`Broken` when
    its log cannot be read or does not replay (never a crash)."""
    try:
        saved = await side.ctx.store.saved.load_game(kept.listed.id)
        if saved is not None:
            game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
            if game.over:
                raise ValueError("the game in it is already over")
    except (ValueError, KeyError, TypeError) as exc:  # NotationError, IllegalAction, RulesError, bad JSON
        side.log.error("the saved game %d of %r does not replay: %s", kept.listed.id, side.name, exc)
        return Broken(kept.listed.id, str(exc)[:70])
    return saved


async def resumable(side: Side, kept: KeptGame) -> SavedGame | None:
    """:func:`replayed`, a game that does not replay offered to abandon
    (:func:`offer_to_drop`)."""
    saved = await replayed(side, kept)
    if isinstance(saved, Broken):
        await offer_to_drop(side, kept, saved)
        return None
    return saved


async def to_go_on(side: Side, kinds: Collection[GameKind] | None = None,
                   not_against: str = "") -> tuple[KeptGame, SavedGame] | None:
    """The kept game the side goes on with as it logs in, replayed: its
    newest (of ``kinds``, or of any kind), offered to resume
    (:func:`offer_resume`: a program goes on at once); ``None`` when it
    has none, declines, or came to go on with its game against
    ``not_against`` (a caller come from another node to challenge them).
    For the screens and the game protocol alike."""
    kept = [k for k in await load_kept(side) if kinds is None or k.kind in kinds]
    if not kept or any(k.against(not_against) for k in kept):
        return None
    saved = await resumable(side, kept[0])
    side.doing(Doing.RESUME_PROMPT)
    if saved is None or not await offer_resume(side, kept[0], len(kept)):
        return None
    return kept[0], saved


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


async def offer_resume(side: Side, kept: KeptGame, count: int = 1) -> bool:
    """Ask whether to go on with ``kept`` now (``count``: the side's kept
    games, the others offered on the menu): True for yes (a program's,
    told that it goes on: :meth:`~door.caller.side.Side.confirm`)."""
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
    against = "" if kept.against_sysop or kept.against_caller else " against the computer"
    return await side.confirm("Unfinished game", lines, f"Your game #{kept.listed.number}{against} goes on.")


async def back_to_waiting_table(side: Side) -> bool:
    """A game between people that waits for this side (its line dropped):
    go back to it, or give it up (abandoned; in a rated match, forfeited
    once dealt, and what that did to the ratings is told), as the side
    answers (:meth:`~door.caller.side.Side.confirm`: a program goes
    back).  A game that ended while the side was asked (its wait ran
    out, or the other player gave it up) is said to be over, not sat at.
    For the screens and the game protocol alike; True when a program left
    meanwhile."""
    ctx, presence = side.ctx, side.presence
    waiting = ctx.lobby.waiting_table(presence.identity)
    if waiting is None:
        return False
    side.doing(Doing.REJOIN_PROMPT)
    table, index = waiting
    if table.rated:
        stake = table.series.stakes.get(index)
        loses = ("N aborts it: it has not begun" if not table.series.dealt else
                 f"N forfeits the rated match{f': {stake}' if stake else ''}")
    else:
        loses = "N abandons it"
    other = table.seats[1 - index].name
    back = await side.confirm("Your game", [f"Your game against {other} is waiting for you.", "",
                                            f"Go back to it? (Y/N; {loses})"], f"Your game against {other} goes on.")
    if table.ended.is_set():  # its wait ran out, or the other player gave it up, while the question was on the screen
        news = table.series.news[index]
        await side.tell("Your game", [f"Your game against {other} ended before you answered: it could wait for you "
                                      "no longer.", *(["", *news] if news else [])])
        return False
    if back:
        return await rejoin(side, table, index)
    table.abandon(index)
    await table.ended.wait()  # its saved game is gone before the next screen looks for one
    if table.series.news[index]:  # a rated match given up is lost by forfeit: what it did to the ratings
        await side.tell("Rated match", table.series.news[index])
    return False


async def offer_to_drop(side: Side, kept: KeptGame, broken: Broken) -> None:
    """A kept game of the side's does not replay (``kept``, ``broken``:
    which, and why): keep it for the sysop to look at, or abandon it (a
    program's is kept, and it is told so)."""
    if await side.confirm("Unfinished game", [
        "An unfinished game of yours cannot be rebuilt: its saved moves do not replay.",
        f"({broken.why})",
        "",
        "Keep it for the sysop to look at? (Y/N; N abandons it: it is removed, your records are not touched)",
    ], f"Your kept {kept.line} cannot go on: its saved moves do not replay."):
        return
    await side.ctx.store.saved.drop(broken.id)
    side.log.info("%r abandoned a saved game that did not replay", side.name)
