"""Offers of correspondence games, kept in the store for every node.

A registered caller (the *maker*) offers a game or a match over days to
another account (the *taker*), or to anyone (an *open* offer, ``taker``
``None``).  The taker finds it at their next call and accepts or declines
it; the maker may withdraw it; nobody answering it for ``offer_days`` days
lapses it (it is no longer listed, and :meth:`Offers.lapse`, which the
sweeper calls, deletes it).

Limits, the same as live challenges': one offer open between two accounts
at a time (whichever made it), one open offer to anyone per maker; an
address makes at most ``per_hour`` offers in any hour (counted by the
address that made them, whatever became of them).  The cap on open games
an account may have is the game service's to check, with the count of
its games, by :func:`room_for`.

Accepting is one conditional statement: of two callers accepting one
open offer at once, exactly one gets it; the game service then starts the
game from the :class:`Offer` returned.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Conflict, Database
from engine.notation import rules_from_dict
from engine.rules import Counting, Rules

__all__ = ["Offer", "OfferTerms", "OfferLimits", "Offers", "OfferRefused", "games_words", "room_for", "BEST_OF", "HOUR", "LISTED"]

BEST_OF = (1, 3, 5)
"""The games a correspondence match may be the best of (1: one game)."""

HOUR = 3600.0
"""The window of the per-address limit, in seconds."""

_DAY = 86400.0
_KEPT = _DAY
"""Seconds an answered offer is kept after it was answered (for the per-address count), before a sweep deletes it."""

_COLUMNS = "id, maker, taker, address, terms, made, expires"


class OfferRefused(ValueError):
    """An offer, or an answer to one, that the records refuse; the message
    is a sentence for the caller (``"You already have an offer open with
    that caller."``)."""


LISTED = 50
"""Open offers read at once for a list (made to one account, by one, or
to anyone): what one screen or message shows, whatever a flood of offers."""


@dataclass(frozen=True)
class OfferTerms:
    """What is offered: ``rules`` (the house rules as
    :func:`engine.notation.rules_to_dict` gives them), ``days`` per move
    (a whole number from 1 to 14), a match ``best_of`` 1, 3 or 5 games,
    whether it is ``rated``, and whether each player counts their own
    hands (``manual``: with muggins; else the door counts them)."""

    rules: Mapping[str, Any]
    days: int
    best_of: int = 1
    rated: bool = False
    manual: bool = False

    def check(self) -> OfferTerms:
        """These terms, if they are sound; else ``ValueError`` saying what
        is wrong (:class:`OfferRefused`, a sentence for the caller, for
        manual counting in a rated game)."""
        if not isinstance(self.rules, Mapping) or not all(isinstance(k, str) for k in self.rules):
            raise ValueError(f"an offer's rules are a mapping of option names, got {self.rules!r}")
        if type(self.days) is not int or not 1 <= self.days <= 14:
            raise ValueError(f"an offer's days per move are a whole number from 1 to 14, got {self.days!r}")
        if self.best_of not in BEST_OF or type(self.best_of) is not int:
            raise ValueError(f"a match is the best of 1, 3 or 5 games, got {self.best_of!r}")
        if type(self.rated) is not bool:
            raise ValueError(f"an offer is rated or not (true or false), got {self.rated!r}")
        if type(self.manual) is not bool:
            raise ValueError(f"an offer's hands are counted by hand or not (true or false), got {self.manual!r}")
        if self.manual and self.rated:
            raise OfferRefused("Counting your own hands is for unrated games: the door counts a rated game's.")
        return self

    def game_rules(self) -> Rules:
        """The rules the game is played by: the offer's, the hands counted
        by the door, or by each player with muggins when ``manual``.
        Raises ``engine.notation.NotationError`` for rules that do not read."""
        rules = rules_from_dict(dict(self.rules))
        if self.manual:
            return dataclasses.replace(rules, counting=Counting.MANUAL, muggins=True)
        return dataclasses.replace(rules, counting=Counting.AUTOMATIC)

    def to_text(self) -> str:
        """These terms as the JSON kept in the store."""
        return json.dumps({"rules": dict(self.rules), "days": self.days, "best_of": self.best_of,
                           "rated": self.rated, "manual": self.manual}, sort_keys=True)

    @classmethod
    def from_text(cls, text: str) -> OfferTerms:
        """The terms kept as ``text`` by :meth:`to_text`."""
        data = json.loads(text)
        return cls(data["rules"], int(data["days"]), int(data["best_of"]), bool(data["rated"]),
                   bool(data.get("manual", False)))


@dataclass(frozen=True)
class OfferLimits:
    """The sysop's limits on offers (``[correspondence]``): ``offer_days``
    before an offer nobody answered lapses, and offers one address may
    make in an hour (``per_hour``)."""

    offer_days: float = 7.0
    per_hour: int = 10


@dataclass(frozen=True)
class Offer:
    """One open offer: its ``id``; the ``maker``'s account id; the
    ``taker``'s (``None``: open to anyone); the ``address`` it was made
    from; its ``terms``; when it was ``made`` and when it lapses
    (``expires``), seconds since the epoch."""

    id: int
    maker: int
    taker: int | None
    address: str
    terms: OfferTerms
    made: float
    expires: float


def room_for(open_games: int, max_open: int) -> str | None:
    """Whether an account with ``open_games`` correspondence games under
    way may start one more, ``max_open`` being the most (``[correspondence]
    max_open``): ``None`` when it may, else the sentence that tells it why not.

    >>> room_for(3, 20) is None, room_for(20, 20)
    (True, 'You have 20 correspondence games under way, the most this board allows: finish one first.')
    """
    if open_games < max_open:
        return None
    return (f"You have {games_words(open_games)} under way, the most this board allows: "
            "finish one first.")


def games_words(count: int) -> str:
    """``count`` correspondence games, in words.

    >>> games_words(1), games_words(20)
    ('1 correspondence game', '20 correspondence games')
    """
    return f"{count} correspondence game{'s' if count != 1 else ''}"


def _pair(maker: int, taker: int | None) -> str:
    """The key of :class:`Offer`'s one-at-a-time rule: the two accounts in
    order (either may have made it), or ``open:MAKER`` for an offer to anyone."""
    if taker is None:
        return f"open:{maker}"
    low, high = sorted((maker, taker))
    return f"{low}:{high}"


def _offer(row: Any) -> Offer:
    return Offer(int(row[0]), int(row[1]), None if row[2] is None else int(row[2]), str(row[3]),
                 OfferTerms.from_text(row[4]), float(row[5]), float(row[6]))


class Offers:
    """The ``correspondence_offers`` table in ``database``, timed by ``clock``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def make(self, maker: int, address: str, taker: int | None, terms: OfferTerms,
                   limits: OfferLimits = OfferLimits()) -> Offer:
        """Offer ``terms`` from account ``maker``, calling from ``address``,
        to account ``taker`` (``None``: to anyone): the offer made.  Raises
        ``ValueError`` for unsound terms; :class:`OfferRefused` (a sentence
        for the caller) when the maker offers to themself, the pair (or the
        maker, for an offer to anyone) already has one open, ``address``
        made ``limits.per_hour`` offers in the last hour, or the taker has
        no account."""
        terms.check()
        if taker == maker:
            raise OfferRefused("You cannot offer a game to yourself.")
        now = self.clock()
        pair = _pair(maker, taker)

        def tx(db: Connection) -> Offer:
            db.execute("DELETE FROM correspondence_offers WHERE pair = ? AND state = 'open' AND expires <= ?",
                       (pair, now))
            hourly = _hourly(db, address, now, limits)
            if hourly is not None:
                raise OfferRefused(hourly)
            if db.execute("SELECT 1 FROM correspondence_offers WHERE pair = ? AND state = 'open'",
                          (pair,)).fetchone() is not None:
                raise OfferRefused("You already have an offer open to anyone: withdraw it first." if taker is None
                                   else "You already have an offer open with that caller.")
            row = db.execute(
                "INSERT INTO correspondence_offers (maker, taker, pair, address, terms, made, expires) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (maker, taker, pair, address, terms.to_text(), now, now + limits.offer_days * _DAY)).fetchone()
            return Offer(int(row[0]), maker, taker, address, terms, now, now + limits.offer_days * _DAY)
        try:
            return await self.database.tx(tx)
        except Conflict:  # the taker has no account (or another node made this pair's offer a moment ago)
            raise OfferRefused("That offer cannot be made: the caller is gone, or an offer was just made "
                               "between you.") from None

    async def hourly(self, address: str, limits: OfferLimits = OfferLimits()) -> str | None:
        """Why ``address`` may make no offer now, in a sentence (it made
        ``limits.per_hour`` in the last hour), or ``None``: asked before
        anything is made for an offer (on the hub, a member board's
        caller's account), as :meth:`make` asks it again."""
        now = self.clock()
        return await self.database.query(lambda db: _hourly(db, address, now, limits))

    async def get(self, offer_id: int) -> Offer | None:
        """Offer ``offer_id`` if it is open (not answered, not lapsed)."""
        rows = await self._select("id = ?", (offer_id,), 1)
        return rows[0] if rows else None

    async def received(self, account_id: int, limit: int = LISTED) -> list[Offer]:
        """Up to ``limit`` open offers made to ``account_id``, oldest first."""
        return await self._select("taker = ?", (account_id,), limit)

    async def sent(self, account_id: int, limit: int = LISTED) -> list[Offer]:
        """Up to ``limit`` open offers ``account_id`` made (to anyone included), oldest first."""
        return await self._select("maker = ?", (account_id,), limit)

    async def open_to_anyone(self, limit: int = LISTED, besides: int | None = None) -> list[Offer]:
        """Up to ``limit`` open offers to anyone (not made by the account
        ``besides``, when given), oldest first."""
        if besides is None:
            return await self._select("taker IS NULL", (), limit)
        return await self._select("taker IS NULL AND maker <> ?", (besides,), limit)

    async def _select(self, where: str, args: tuple[Any, ...], limit: int) -> list[Offer]:
        now = self.clock()
        rows = await self.database.query(lambda db: db.execute(
            f"SELECT {_COLUMNS} FROM correspondence_offers WHERE {where} AND state = 'open' AND expires > ? "
            "ORDER BY made, id LIMIT ?", (*args, now, max(0, limit))).fetchall())
        return [_offer(r) for r in rows]

    async def accept(self, offer_id: int, account_id: int) -> Offer | None:
        """``account_id`` takes offer ``offer_id`` (made to them, or to
        anyone, by somebody else): the offer, now answered, for the game
        service to start its game; ``None`` when it is not theirs to take,
        was answered or withdrawn, or has lapsed.  Of two accepting at once,
        one gets it and the other ``None``."""
        return await self._close(offer_id, "accepted", "(taker = ? OR (taker IS NULL AND maker <> ?))",
                                 (account_id, account_id), account_id)

    async def decline(self, offer_id: int, account_id: int) -> bool:
        """``account_id`` declines offer ``offer_id`` made to them: True when it did."""
        return await self._close(offer_id, "declined", "taker = ?", (account_id,)) is not None

    async def withdraw(self, offer_id: int, account_id: int) -> bool:
        """``account_id`` withdraws their offer ``offer_id``: True when it did."""
        return await self._close(offer_id, "withdrawn", "maker = ?", (account_id,)) is not None

    async def _close(self, offer_id: int, state: str, who: str, args: tuple[Any, ...],
                     taker: int | None = None) -> Offer | None:
        """Answer offer ``offer_id`` (``state``) if it is open and ``who``
        (SQL on ``args``) holds; an open offer accepted names its ``taker``."""
        now = self.clock()

        def tx(db: Connection) -> Offer | None:
            row = db.execute(
                "UPDATE correspondence_offers SET state = ?, closed = ?, taker = COALESCE(taker, ?) WHERE id = ? "
                f"AND state = 'open' AND expires > ? AND {who} RETURNING {_COLUMNS}",
                (state, now, taker, offer_id, now, *args)).fetchone()
            return None if row is None else _offer(row)
        return await self.database.tx(tx)

    async def lapse(self) -> int:
        """Delete the offers that lapsed unanswered, and the answered ones
        older than a day (the per-address count no longer needs them):
        how many lapsed.  The sweeper calls it."""
        now = self.clock()

        def tx(db: Connection) -> int:
            lapsed = db.execute("DELETE FROM correspondence_offers WHERE state = 'open' AND expires <= ?",
                                (now,)).rowcount
            db.execute("DELETE FROM correspondence_offers WHERE state <> 'open' AND closed <= ?", (now - _KEPT,))
            return int(lapsed)
        return await self.database.tx(tx)


def _hourly(db: Connection, address: str, now: float, limits: OfferLimits) -> str | None:
    """Why ``address`` may make no offer at ``now``, or ``None``."""
    made = int(db.execute("SELECT COUNT(*) FROM correspondence_offers WHERE address = ? AND made > ?",
                          (address, now - HOUR)).fetchone()[0])
    if made >= limits.per_hour:
        return f"{made} offers were made from your address in the last hour, the most this board allows: try again later."
    return None
