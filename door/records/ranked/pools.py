"""Rating pools: people are rated with people, and bots with bots, unless
the sysop puts a bot elsewhere (:data:`door.records.bots.POOLS`).  A rated
match is between two accounts of one pool; each pool is its own ranking
(:meth:`door.records.ranked.ratings.Ratings.top`), so no match moves a
rating across pools.

People are held to every fair-play rule
(:mod:`door.records.ranked.fair_play`).  In the bots' pool only the
sysop makes an account, so the rules against a farm of fresh accounts
(their age, their networks, a shared line's history) have nothing to
guard: bots of one house run side by side on one machine.  What still
holds there is each bot's finished games, the pair's matches a day, and
the hold on a serial aborter."""

from __future__ import annotations

import dataclasses

from door.records.bots import BOTS, PEOPLE, Bots
from door.records.ranked.fair_play import Contender, FairPlay, FairPlayRules

__all__ = ["why_unrated"]


async def why_unrated(bots: Bots, fair_play: FairPlay, a: Contender, b: Contender,
                      rules: FairPlayRules, under_way: int = 0) -> str | None:
    """Why ``a`` and ``b`` may not play a rated match, in a sentence
    (another pool, a bot kept unrated, or a fair-play rule), or ``None``
    when they may; ``under_way``: the pair's rated games by
    correspondence not over (:meth:`FairPlay.why_unrated`)."""
    pools = (await bots.pool_of(a.account_id), await bots.pool_of(b.account_id))
    for who, pool in zip((a, b), pools, strict=True):
        if pool not in (PEOPLE, BOTS):
            return f"{who.name} is a bot that the sysop keeps out of rated play."
    if pools[0] != pools[1]:
        return "Bots are rated in a pool of their own, not with people."
    if pools[0] == BOTS:
        rules = dataclasses.replace(rules, min_age=0.0, same_network=True)
        a, b = dataclasses.replace(a, shared=False), dataclasses.replace(b, shared=False)
    return await fair_play.why_unrated(a, b, rules, under_way)
