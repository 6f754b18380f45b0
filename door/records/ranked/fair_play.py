"""Fair play in rated matches: who may play one, and what the sysop is
shown of what slipped through.

A rating must measure cribbage, not how many accounts a person holds.  So
a rated match needs two accounts that

- have each finished ``min_games`` games and are ``min_age`` seconds old
  (a farm of accounts made in a minute has no rated play);
- are not held back for aborting rated matches before their first deal
  (``abort_limit`` aborts within ``abort_window`` seconds hold a caller
  back for ``abort_hold`` seconds after the last);
- do not share an address or a network (an IPv4 /24, an IPv6 /56,
  :func:`~door.net.gate.network_of`) now or when they registered, unless
  the house allows it; callers on a shared line (a BBS, a hub board, a
  listed proxy) are judged by the pair's history instead: most of either
  account's rated matches against the other, or every decided one won by
  forfeit by the same side, and the pair plays unrated;
- have played fewer than ``pair_per_day`` rated matches with each other in
  the last day.

A rated match played by the game protocol (the card table, or any
program holding a registered caller's password) is allowed, as a screen
with an engine beside it cannot be told apart either; the sysop's list
names each such side.

:class:`FairPlay.suspicious` lists for the sysop what may have slipped
through (``cribbage-door records ratings``); a match is then voided with
:meth:`door.records.ranked.ratings.Ratings.void`, which works every rating out
again from the history without it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from door.net.gate import network_of
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database

__all__ = ["FairPlay", "FairPlayRules", "Contender", "Suspicion", "DAY", "account_facts", "clock_words"]

DAY = 86400.0
"""Seconds in a day."""

PROTOCOL_VIA = "api"
"""How a side that played by the game protocol is kept (``matches.via0`` and ``via1``)."""


@dataclass(frozen=True)
class FairPlayRules:
    """The house's ``[ranked]`` settings, in seconds (see the module)."""

    min_games: int = 5
    min_age: float = DAY
    same_network: bool = False
    pair_per_day: int = 3
    abort_limit: int = 3
    abort_window: float = DAY
    abort_hold: float = 6 * 3600.0


@dataclass(frozen=True)
class Contender:
    """One side of a rated match as the door sees it when the match is
    offered: the ``account_id``, its ``name``, the ``address`` it calls
    from now, and whether that address is ``shared`` by several callers."""

    account_id: int
    name: str
    address: str
    shared: bool = False


@dataclass(frozen=True)
class Suspicion:
    """A pattern the sysop should look at: what ``kind`` ("pair", "quick
    forfeit", "shared network", "big gain"), a sentence, and the matches
    it is about (their ids, for ``records void``)."""

    kind: str
    text: str
    matches: tuple[int, ...]


def clock_words(seconds: float, now: float) -> str:
    """``seconds`` since the epoch as ``"14:05"`` local time, or ``"Nov 29
    14:05"`` on another day than ``now``."""
    today = time.localtime(now)
    then = time.localtime(seconds)
    if then.tm_yday == today.tm_yday and then.tm_year == today.tm_year:
        return time.strftime("%H:%M", then)
    return time.strftime("%b %d %H:%M", then)


def account_facts(db: Connection, account_id: int) -> tuple[float, str, int, int]:
    """What rated play asks of ``account_id`` (read on ``db``): when it was
    made (seconds since the epoch), the address it registered from ("" if
    unknown), the games it finished (not by forfeit, against anyone, the
    computer included), and its rated matches (not voided)."""
    row = db.execute("SELECT created, created_from FROM accounts WHERE id = ?", (account_id,)).fetchone()
    games = db.execute("SELECT COUNT(*) FROM games WHERE forfeit = 0 AND (account0 = ? OR account1 = ?)",
                       (account_id, account_id)).fetchone()[0]
    rated = db.execute("SELECT COUNT(*) FROM matches WHERE rated = 1 AND voided = 0 AND "
                       "(account0 = ? OR account1 = ?)", (account_id, account_id)).fetchone()[0]
    return float(row[0]), str(row[1] or ""), int(games), int(rated)


class FairPlay:
    """Rated play's rules against collusion over ``database`` (see the module)."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def held_back(self, account_id: int, rules: FairPlayRules) -> float | None:
        """When ``account_id`` may play rated matches again after aborting
        too many (seconds since the epoch), or ``None`` when it may now."""
        now = self.clock()

        def q(db: Connection) -> list[float]:
            return [float(r[0]) for r in db.execute(
                "SELECT ended FROM matches WHERE aborted = 1 AND ended > ? AND "
                "((leaver = 0 AND account0 = ?) OR (leaver = 1 AND account1 = ?)) ORDER BY ended",
                (now - rules.abort_window, account_id, account_id)).fetchall()]
        aborts = await self.database.query(q)
        if len(aborts) < rules.abort_limit:
            return None
        until = aborts[-1] + rules.abort_hold
        return until if until > now else None

    async def why_unrated(self, a: Contender, b: Contender, rules: FairPlayRules,
                          under_way: int = 0) -> str | None:
        """Why a rated match between ``a`` and ``b`` may not be played, in
        a sentence; ``None`` when it may.  ``under_way``: the pair's rated
        games by correspondence begun and not over, which count with the
        matches they finished in the last day (or a pair could begin any
        number of rated games in a day, each allowed while none was over)."""
        now = self.clock()
        for who in (a, b):
            until = await self.held_back(who.account_id, rules)
            if until is not None:
                return (f"{who.name} aborted {rules.abort_limit} rated matches lately: rated play opens again "
                        f"for them at {clock_words(until, now)}.")

        def q(db: Connection) -> dict[str, Any]:
            facts: dict[str, Any] = {}
            for who in (a, b):
                facts[who.name] = account_facts(db, who.account_id)
            pair = db.execute("SELECT ended, winner, forfeit, account0 FROM matches WHERE rated = 1 AND voided = 0 "
                              "AND ((account0 = ? AND account1 = ?) OR (account0 = ? AND account1 = ?))",
                              (a.account_id, b.account_id, b.account_id, a.account_id)).fetchall()
            facts["pair"] = [(float(r[0]), int(r[1]), bool(r[2]), int(r[3])) for r in pair]
            return facts
        facts = await self.database.query(q)
        for who in (a, b):
            created, _, games, _ = facts[who.name]
            if games < rules.min_games:
                return (f"{who.name} has finished {games} of the {rules.min_games} games a rated match needs "
                        "(against anyone, the computer included).")
            if now - created < rules.min_age:
                return (f"{who.name}'s account is new: rated play opens for it at "
                        f"{clock_words(created + rules.min_age, now)}.")
        pair: list[tuple[float, int, bool, int]] = facts["pair"]
        today = sum(1 for ended, *_ in pair if now - ended < DAY)
        if today + under_way >= rules.pair_per_day:
            if under_way:
                return (f"{a.name} and {b.name} have {under_way} rated games by correspondence under way and "
                        f"played {today} rated matches with each other in the last day: "
                        f"{rules.pair_per_day} a day is the most one pair may.")
            return (f"{a.name} and {b.name} have played {today} rated matches with each other in the last day, "
                    "the most one pair may.")
        if a.shared or b.shared:
            return self._shared_signs(a, b, facts, pair)
        if not rules.same_network:
            mine = {network_of(a.address), network_of(facts[a.name][1])} - {""}
            theirs = {network_of(b.address), network_of(facts[b.name][1])} - {""}
            if mine & theirs:
                return (f"{a.name} and {b.name} call, or registered, from the same network: a rated match needs "
                        "two accounts that do not share one.")
        return None

    @staticmethod
    def _shared_signs(a: Contender, b: Contender, facts: dict[str, Any],
                      pair: Sequence[tuple[float, int, bool, int]]) -> str | None:
        """Two callers on a shared line, judged by the pair's history."""
        for who in (a, b):
            rated = facts[who.name][3]
            if rated >= 3 and len(pair) * 2 > rated:
                return (f"{a.name} and {b.name} share a line, and most of {who.name}'s rated matches are against "
                        "the other: they play unrated.")
        other = {a.account_id: b.account_id, b.account_id: a.account_id}
        won_by = {account0 if winner == 0 else other.get(account0, -1)
                  for _, winner, forfeit, account0 in pair if forfeit}
        if len(pair) >= 2 and all(forfeit for _, _, forfeit, _ in pair) and len(won_by) == 1:
            return (f"{a.name} and {b.name} share a line, and every rated match between them was won by forfeit "
                    "by the same side: they play unrated.")
        return None

    async def suspicious(self, since: float) -> list[Suspicion]:
        """Patterns in the rated matches that ended after ``since`` (seconds
        since the epoch) that the sysop should look at: pairs with many
        results, quick forfeits (before a hand was played out), accounts
        on one network, big gains in a day, and sides that played by the
        game protocol (whose moves a program may make)."""
        def q(db: Connection) -> list[Sequence[Any]]:
            return db.execute("SELECT id, player0, player1, account0, account1, winner, forfeit, hands, network0, "
                              "network1, ended, rating0, rating1, after0, after1, via0, via1 FROM matches "
                              "WHERE rated = 1 AND voided = 0 AND ended > ? ORDER BY ended, id", (since,)).fetchall()
        rows = await self.database.query(q)
        return [*_pairs(rows), *(s for r in rows for s in _match_signs(r)), *_gains(rows)]


def _pairs(rows: Sequence[Sequence[Any]]) -> list[Suspicion]:
    """Pairs of accounts with three or more rated results (the rows of
    :meth:`FairPlay.suspicious`'s query)."""
    pairs: dict[frozenset[int], list[Sequence[Any]]] = {}
    for r in rows:
        pairs.setdefault(frozenset((r[3], r[4])), []).append(r)
    found = []
    for matches in pairs.values():
        if len(matches) >= 3:
            r = matches[0]
            wins = [sum(1 for m in matches if m[m[5] + 1] == name) for name in (r[1], r[2])]
            found.append(Suspicion("pair", f"{r[1]} and {r[2]}: {len(matches)} rated matches "
                                           f"({r[1]} won {wins[0]}, {r[2]} {wins[1]})",
                                   tuple(int(m[0]) for m in matches)))
    return found


def _match_signs(r: Sequence[Any]) -> list[Suspicion]:
    """What one rated match shows: a quick forfeit, a shared network, a
    side that played by the game protocol."""
    found = []
    if r[6] and int(r[7]) <= 1:
        loser = r[2] if r[5] == 0 else r[1]
        found.append(Suspicion("quick forfeit", f"match {r[0]}: {loser} forfeited to "
                                                f"{r[1 + r[5]]} after {r[7]} hand(s)", (int(r[0]),)))
    if r[8] and r[8] == r[9]:
        found.append(Suspicion("shared network", f"match {r[0]}: {r[1]} and {r[2]} both on {r[8]}", (int(r[0]),)))
    for seat in (0, 1):
        if r[15 + seat] == PROTOCOL_VIA:
            found.append(Suspicion("program", f"match {r[0]}: {r[1 + seat]} played by the game protocol "
                                              "(the card table, or a program that may be an engine)", (int(r[0]),)))
    return found


def _gains(rows: Sequence[Sequence[Any]]) -> list[Suspicion]:
    """Accounts that gained 150 rating points or more in one day."""
    by_day: dict[str, dict[str, list[Sequence[Any]]]] = {}
    for r in rows:
        for seat in (0, 1):
            if r[11 + seat] is not None and r[13 + seat] is not None:
                day = time.strftime("%Y-%m-%d", time.localtime(r[10]))
                by_day.setdefault(r[1 + seat], {}).setdefault(day, []).append(r)
    found = []
    for name, days in by_day.items():
        for day, matches in days.items():
            gain = sum((m[13] - m[11]) if m[1] == name else (m[14] - m[12]) for m in matches)
            if gain >= 150:
                found.append(Suspicion("big gain", f"{name} gained {gain:.0f} rating points on {day}",
                                       tuple(int(m[0]) for m in matches)))
    return found
