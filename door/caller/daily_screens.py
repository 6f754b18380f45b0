"""Today's deal as a caller or a program meets it, one flow for both
(:func:`todays_deal`; the screens offer it first): once a day, for a
registered caller, claimed; the day's ranking against the expert's own
result, yesterday's seed revealed; and the caller's result kept for the
ranking."""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable

from door.caller.kept import load_kept
from door.caller.side import CallerSide, Side, shared_line
from door.play.daily_deal import par_result
from door.play.table import Table
from door.records.daily import marker, par_line
from door.records.game_kinds import GameKind
from door.records.store import SavedGame, StoreError
from door.sysop.doing import Doing
from door.ui.prompts import ask_choice
from engine.shuffle import SeededShuffle

__all__ = ["FOR_REGISTERED", "GUEST_AT_THE_SCREENS", "NOT_FOR_BOTS", "Play", "daily_deal", "todays_deal", "claim_today",
           "ranking_lines", "pending_day", "keep_result"]


Play = Callable[[str, SeededShuffle], Awaitable[bool]]
"""Today's deal played (given the day and its shuffles), its ranking shown
after it (:func:`~door.caller.vs_computer.play_computer`); True when a
program left."""

FOR_REGISTERED = ["Today's deal is ranked among people: it is for registered callers.", "",
                  "Each caller plays it once. Register your name to play it."]
"""Why a guest may not play today's deal (by the protocol, which registers
a guest's name with ``register``)."""

GUEST_AT_THE_SCREENS = [*FOR_REGISTERED[:2], "Each caller plays it once. Register your name at your next call to "
                        "play it."]
"""Why a guest at the screens may not play today's deal: a caller
registers at the name prompt, so at their next call."""

NOT_FOR_BOTS = ["Today's deal is ranked among people: a bot does not play it."]
"""Why a bot may not play today's deal."""


async def todays_deal(side: Side, play: Play, offer: Callable[[str, int], Awaitable[bool]] | None = None) -> bool:
    """Today's deal, one flow for the screens and the game protocol: once
    a day for a registered caller whose account may play rated matches
    (an account too new, or with too few finished games, is told when it
    may; a guest and a bot are refused: it is ranked among people), and
    by default once an address (:func:`claim_today`); asked first when
    ``offer`` is given (``offer(day, game_number)``: True to play it, as
    the screens ask), then played (``play``, which shows the day's
    ranking after it).  A caller who played it today is shown the
    ranking at once.  Each refusal is :meth:`~door.caller.side.Side.tell`
    (a program's ``error`` on ``type``).  True when a program left."""
    ctx, account = side.ctx, side.account
    daily = ctx.store.daily
    day = daily.today()
    side.doing(Doing.DAILY_DEAL)
    if account is None or side.presence.bot:
        await side.tell("Today's deal", NOT_FOR_BOTS if side.presence.bot else FOR_REGISTERED, "type")
        return False
    deal = await daily.deal(day)
    if await daily.played(account.id, day):
        await side.daily_ranking(day, await ranking_lines(side, account.id, day))
        return False
    newcomer = await daily.why_not_ranked(account.id, ctx.ranked.rules())
    if newcomer is not None:  # (a fresh account could rehearse the cards for another: not ranked, not played)
        side.log.info("%r may not play the daily deal of %s yet: %s", side.name, day, newcomer)
        await side.tell("Today's deal", [newcomer, "", "Everyone plays the same cards, so an account "
                                         "made to see them first would tell them to another."], "type")
        return False
    if offer is not None and not await offer(day, deal.game):
        return False
    refused = await claim_today(side, account.id, day, deal.game)
    if refused is not None:
        await side.tell("Today's deal", [refused], "type")
        return False
    return await play(day, deal)


async def daily_deal(side: CallerSide, play: Play) -> None:
    """Today's deal at the screens (:func:`todays_deal`), offered first:
    what it is, with a kept play of it that a new one replaces; a guest
    is told to register at their next call (there is no registering
    during a call)."""
    if side.caller.account is None:
        side.doing(Doing.DAILY_DEAL)
        await side.tell("Today's deal", GUEST_AT_THE_SCREENS)
        return

    async def offer(day: str, game: int) -> bool:
        kept = await load_kept(side)
        daily_kept = next((k for k in kept if k.owned and k.kind is GameKind.DAILY), None)
        replaces = [f"(It replaces your kept {daily_kept.line}.)"] if daily_kept is not None else []
        return await ask_choice(side.display, "Today's deal", [
            f"Today's deal ({day}) is game #{game}: everyone plays the same cards against the expert "
            "computer, once.",
            "Your margin over the computer is ranked against the other callers' and against the "
            "expert's own game on the same cards (the par).",
            "The cards come from the day's secret seed: nobody knows them before they are dealt, "
            "and the seed is shown once the day is over.",
            *replaces, "", "Play it now? (Y/N)"], "YN") == "Y"
    await todays_deal(side, play, offer)


async def claim_today(side: Side, account_id: int, day: str, game: int) -> str | None:
    """Claim ``day``'s deal (game number ``game``) for ``account_id``, for
    the screens and the game protocol alike: once an account, and by
    default once an address (not one several callers share); an account
    that may not play rated yet is refused, and so is a day that is over
    (a question asked before midnight answered after it): its seed may be
    shown then, so its cards are known.  ``None`` when claimed, else why
    not, in a sentence."""
    ctx = side.ctx
    if ctx.store.daily.over(day):
        side.log.info("%r may not play the daily deal of %s: the day is over", side.name, day)
        return f"The deal of {day} is over, and its seed may be shown now: today's deal is a new one."
    address = "" if shared_line(side.terminal, ctx.shared) or not ctx.daily.per_address else side.terminal.address
    refused = await ctx.store.daily.claim(account_id, day, address, ctx.ranked.rules())
    if refused is not None:
        side.log.info("%r may not play the daily deal of %s: %s", side.name, day, refused)
    else:
        side.log.info("%r plays the daily deal of %s (game %d)", side.name, day, game)
    return refused


async def ranking_lines(side: Side, account_id: int | None, day: str) -> list[str]:
    """The day's ranking, with the par (worked out by the first caller
    to ask), the day's commitment, the streak of ``account_id``, and
    yesterday's winner with its seed revealed, line by line."""
    ctx = side.ctx
    daily = ctx.store.daily
    deal = await daily.deal(day)
    par = await daily.par(day)
    if par is None:
        par = await par_result(ctx.rules, deal, ctx.thinking)
        await daily.set_par(day, *par)
    lines = [f"Today's deal, {day} (game #{deal.game}): the same cards for everyone.", par_line(par),
             "Its seed's SHA-256:", f"  {deal.commitment}", ""]
    ranking = await daily.ranking(day)
    lines += [r.line(i) for i, r in enumerate(ranking[:10], 1)]
    if not ranking:
        lines.append("Nobody has finished today's deal yet.")
    if account_id is not None:
        streak = await daily.streak(account_id, day)
        lines += ["", f"Your streak: {streak} day{'s' if streak != 1 else ''} in a row."]
    yesterday = (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()
    seed = await daily.revealed(yesterday)
    if seed is not None:
        before = await daily.ranking(yesterday)
        best = f"{before[0].name} won it, {before[0].score} - {before[0].computer}" if before else "nobody played it"
        lines += ["", f"Yesterday's deal ({yesterday}): {best}. Its seed, to deal it again:", f"  {seed}"]
    return lines


async def pending_day(side: Side, account_id: int | None, saved: SavedGame) -> str | None:
    """Today, when ``saved`` is today's deal and the play of it by
    ``account_id`` is not finished; else ``None``."""
    daily = side.ctx.store.daily
    day = daily.today()
    if account_id is None or saved.shuffle is None or saved.shuffle.player_seeds[0] != marker(day) \
            or not await daily.pending(account_id, day):
        return None
    return day


async def keep_result(side: Side, who: tuple[int, str], table: Table, daily: tuple[str, SeededShuffle]) -> None:
    """Keep how the play by ``who`` (account id, name; seat 0) of the
    day's deal ``daily`` (the day, its shuffles) at ``table`` stands: its
    result when finished, else the score now (the day's ranking takes it
    as it stood if the day ends first)."""
    day, deal = daily
    game = next((g for g in table.series.match.games if g.shuffle == deal), None)
    if game is None:
        return
    scores = game.result.scores if game.result is not None else game.scores()
    try:
        await side.ctx.store.daily.finish(who[0], day, scores[0], scores[1], finished=game.result is not None)
    except StoreError as exc:  # the game itself is recorded; only the day's ranking misses it
        side.log.warning("could not keep %r's result on the deal of %s: %s", who[1], day, exc)
