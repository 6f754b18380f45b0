"""The table of a game or match between two people that one of them
challenged the other to, whoever they are (a caller at a screen or a
program by the game protocol): whether it may be rated, and setting it up
in the lobby once the challenge is accepted.

A rated match needs two registered accounts of one rating pool that fair
play allows (:mod:`door.records.ranked.pools`); it is asked when the
challenge is offered and again when it is accepted (the answer may have
changed meanwhile), and a match offered rated that may no longer be is
played unrated, both players told why."""

from __future__ import annotations

from door.caller.side import Side, shared_line
from door.games.kinds import caller_match
from door.net.gate import network_of
from door.play.table import Seat, Table
from door.records.ranked.fair_play import Contender
from door.records.ranked.match import MatchEntry, MatchTerms
from door.records.ranked.pools import why_unrated as pool_why_unrated
from door.sysop.presence import Challenge, Presence, account_of
from engine.shuffle import SeedChain

__all__ = ["contender", "why_unrated", "set_table"]


def contender(side: Side, presence: Presence) -> Contender | None:
    """``presence`` (a registered caller or bot here) as a side of a rated
    match, else ``None`` (a guest, the sysop)."""
    account = account_of(presence.identity)
    if account is None:
        return None
    shared = shared_line(presence.terminal, side.ctx.shared)
    return Contender(account, presence.name, "" if shared else presence.terminal.address, shared)


async def why_unrated(side: Side, mine: Presence, target: Presence) -> str | None:
    """Why ``mine`` and ``target`` may not play a rated match now (a guest,
    another rating pool, too few games, a shared network, ...), in a
    sentence, or ``None``."""
    ctx = side.ctx
    a, b = contender(side, mine), contender(side, target)
    if a is None or b is None:
        return "Rated matches are between two registered callers."
    return await pool_why_unrated(ctx.store.bots, ctx.store.fair_play, a, b, ctx.ranked.rules())


async def set_table(side: Side, challenge: Challenge, seats: tuple[Seat, Seat], challenger: int,
                    seeds: SeedChain) -> Table:
    """Seat ``seats`` (seat 0 first) at a new table for ``challenge``, the
    challenger at seat ``challenger``, and run it in the lobby (it
    outlives a dropped line); returns the table.  ``seeds``: the
    challenger's call's door seeds."""
    ctx, log = side.ctx, side.log
    resume, terms = challenge.resume, challenge.terms
    accounts = (account_of(seats[0].identity), account_of(seats[1].identity))
    owner = resume.account_id if resume is not None else next((a for a in accounts if a is not None), None)
    rated = terms is not None and terms.rated
    why = ""
    if rated and terms is not None:  # fair play is asked again: the answer may have changed while they chose
        unrated = await why_unrated(side, challenge.challenger, challenge.challenged)
        if unrated is not None:
            terms, rated, why = MatchTerms(terms.best_of), False, unrated
            for seat in seats:
                seat.notice(f"This match is not rated after all: {unrated}")
    players = ((challenge.challenger, challenge.challenged) if challenger == 0
               else (challenge.challenged, challenge.challenger))
    networks = tuple("" if (c := contender(side, p)) is None or c.shared else network_of(c.address) for p in players)

    entry = MatchEntry((networks[0], networks[1]), why,
                       (str(players[0].terminal.kind), str(players[1].terminal.kind)))
    table = await caller_match(ctx.games, challenge.rules, seats, terms, entry, owner, seeds, resume)
    log.info("%s plays %s%s", challenge.challenger.name, challenge.challenged.name,
             f" (game {resume.number} resumed)" if resume is not None else "")
    return table
