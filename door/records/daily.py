"""The daily deal: each day one duplicate deal, the same cards for everyone
that day, that each registered caller may play once against the expert
computer; scored against the expert's own result on the same cards (the
*par*: the expert in the caller's seat), ranked for the day, with a streak
for callers who play day after day.

Nobody can know a day's cards before they are dealt.  They come from a
**secret seed of the day**, drawn from :mod:`secrets` by the first node to
need it and kept in the store (so every node deals the same cards), and
dealt by the verifiable shuffle (:mod:`engine.shuffle`) with both player
seeds fixed to the day's :func:`marker`.  Its SHA-256 (the day's
*commitment*) is shown with the day's ranking from the first caller on;
the seed itself only once the day is over, when anyone can deal the day
again and ``cribbage-door verify --daily DAY`` checks every recorded play
of it.  The game number and the computer's choices come from the seed too.

One play per account a day, and by default per address
(``[daily] per_address``): callers who share an address (a BBS, a hub
board, a listed proxy) are counted by account only.

Every account meets the same cards and the same seeded computer, so a
second account could play the day first and the main one then play it
knowing every card.  So a day's deal is ranked, and played, only by an
account that may play rated matches (rated play's account-age and
finished-games rules, ``[ranked] min_age_days`` and ``min_games``,
:func:`newcomer_words`): a fresh account is refused, told when it may.
The sysop sees the day's plays with the accounts of one network flagged
(:meth:`Daily.plays`, :func:`shared_networks`: ``cribbage-door records
daily``).  What stays possible: an old account of a friend on another
network, or one's own made long ago, plays first and tells the cards.  A play left
unfinished at the day's end is ranked as it stood, marked unfinished.

Days are local dates (``"2026-11-26"``) by the store's clock.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from door.net.gate import network_of
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.game_kinds import GameKind
from door.records.ranked.fair_play import FairPlayRules, account_facts, clock_words
from door.records.saved_games import SavedGames
from door.ui.cells import fit
from engine.game import replay
from engine.shuffle import SeededShuffle, commitment, game_number, player_seed

__all__ = ["Daily", "DailyResult", "DailyPlay", "REVEAL_GRACE", "day_end", "day_of", "par_line", "marker", "daily_shuffle", "strategy_seed",
           "newcomer_words", "shared_networks"]


def day_of(seconds: float) -> str:
    """The local date of ``seconds`` since the epoch: ``"2026-11-26"``."""
    return time.strftime("%Y-%m-%d", time.localtime(seconds))


REVEAL_GRACE = 3 * 3600.0
"""Seconds after a day ends by which its seed is shown even while a play
of it goes on (one left unfinished, or a caller who began at midnight
and plays on): from then on its results stay as they stand."""


def day_end(day: str) -> float:
    """When ``day`` (``"2026-11-26"``, local) ends: seconds since the epoch."""
    after = datetime.date.fromisoformat(day) + datetime.timedelta(days=1)
    return time.mktime((after.year, after.month, after.day, 0, 0, 0, 0, 0, -1))


def marker(day: str) -> str:
    """Both player seeds of ``day``'s deal (64 hex digits): what marks a
    recorded game as that day's deal.

    >>> marker("2026-11-28") == marker("2026-11-28") != marker("2026-11-29")
    True
    """
    return player_seed(f"cribbage-door daily deal {day}")


def daily_shuffle(day: str, seed: str) -> SeededShuffle:
    """The shuffles of ``day``'s deal from the day's secret ``seed``: its
    game number from the seed (:func:`~engine.shuffle.game_number`), both
    player seeds :func:`marker`.  Raises
    :class:`~engine.shuffle.ShuffleError` for a malformed seed."""
    return SeededShuffle(game_number(seed), seed, (marker(day), marker(day)))


def strategy_seed(seed: str, who: str) -> int:
    """A seed for the random tie-breaks of ``who`` (``"computer"``: the
    computer every caller meets; ``"par"``: the expert in the caller's
    seat) on the deal of the day's secret ``seed``: known only to who
    knows the seed."""
    return int.from_bytes(hmac.new(bytes.fromhex(seed), who.encode(), hashlib.sha256).digest()[:8], "big")


@dataclass(frozen=True)
class DailyResult:
    """A caller's result on a day's deal: their ``score`` and the
    computer's; ``margin`` is the difference, ``against_par`` that margin
    less the expert's own (``None`` before the par is known);
    ``unfinished``: the game was left unfinished and ranked as it stood
    when the day ended."""

    name: str
    score: int
    computer: int
    against_par: int | None
    unfinished: bool = False

    @property
    def margin(self) -> int:
        return self.score - self.computer

    def line(self, place: int) -> str:
        """``"  1  Ann                    121 - 104    +17  +6 against the par"``."""
        versus = "" if self.against_par is None else f"  {self.against_par:+d} against the par"
        left = "  (unfinished)" if self.unfinished else ""
        return (f"{place:>3}  {fit(self.name, 20)}  {self.score:>3} - {self.computer:<3}  {self.margin:+4d}"
                f"{versus}{left}")


def newcomer_words(created: float, games: int, rules: FairPlayRules, now: float) -> str | None:
    """Why an account made at ``created`` (seconds since the epoch) that
    finished ``games`` games may not play the ranked daily deal at
    ``now`` under ``rules`` (rated play's ``min_games`` and ``min_age``),
    and when it may, in a sentence; ``None`` when it may.

    >>> newcomer_words(0.0, 5, FairPlayRules(), 86400.0) is None
    True
    >>> print(newcomer_words(86400.0 * 3, 2, FairPlayRules(min_games=5, min_age=0.0), 86400.0 * 3))
    Today's deal is ranked, so it is for accounts that may play rated matches: yours may play it after 3 more finished games (2 of the 5 it needs, against anyone, the computer included).
    """
    when: list[str] = []
    if games < rules.min_games:
        left = rules.min_games - games
        when.append(f"after {left} more finished game{'s' if left != 1 else ''} ({games} of the {rules.min_games} "
                    "it needs, against anyone, the computer included)")
    if now - created < rules.min_age:
        days = rules.min_age / 86400.0
        when.append(f"from {clock_words(created + rules.min_age, now)} ({days:g} day{'s' if days != 1 else ''} "
                    "after it was made)")
    if not when:
        return None
    return ("Today's deal is ranked, so it is for accounts that may play rated matches: yours may play it "
            + " and ".join(when) + ".")


@dataclass(frozen=True)
class DailyPlay:
    """One account's play of a day's deal, for the sysop: the account's
    ``name``, the ``address`` it played from ("" on a shared line), the
    one it ``registered_from`` ("" if unknown), when it ``started``
    (seconds since the epoch), and the result so far (``score`` and
    ``computer``: ``None`` before any is kept)."""

    name: str
    address: str
    registered_from: str
    started: float
    score: int | None
    computer: int | None
    unfinished: bool

    def networks(self) -> set[str]:
        """The networks (:func:`~door.net.gate.network_of`: an IPv4 /24, an
        IPv6 /56) it played or registered from."""
        return {network_of(a) for a in (self.address, self.registered_from) if a}


def shared_networks(plays: Sequence[DailyPlay]) -> dict[str, list[str]]:
    """The networks that two or more of ``plays``' accounts played or
    registered from, each with those accounts' names (in order of play):
    one person's accounts, or friends at one place, who may have shown
    each other the day's cards."""
    names: dict[str, list[str]] = {}
    for play in plays:
        for network in sorted(play.networks()):
            names.setdefault(network, []).append(play.name)
    return {network: who for network, who in sorted(names.items()) if len(who) > 1}


def par_line(par: tuple[int, int]) -> str:
    """``"The expert's own game on these cards: 121 to 98 (+23)."``"""
    return f"The expert's own game on these cards: {par[0]} to {par[1]} ({par[0] - par[1]:+d})."


class Daily:
    """The daily deal's seeds, plays and par in ``database``; ``saved``:
    the unfinished games, for a play left unfinished when its day ends."""

    def __init__(self, database: Database, saved: SavedGames, clock: Clock = WALL) -> None:
        self.database = database
        self.saved = saved
        self.clock = clock

    def today(self) -> str:
        """Today, by the store's clock."""
        return day_of(self.clock())

    def over(self, day: str) -> bool:
        """True once ``day`` is over (its seed may be shown)."""
        return day < self.today()

    def sealed(self, shuffle: SeededShuffle) -> str | None:
        """The day whose deal ``shuffle`` is, while that day lasts (its
        seed must not be shown); else ``None``.  The seed may still be
        kept after the day: :meth:`sealed_now` says."""
        today = self.today()
        return today if shuffle.player_seeds[0] == marker(today) else None

    async def shown(self, day: str) -> bool:
        """True once ``day``'s seed may be shown, which fixes its results:
        the day is over, and every play of it is finished or
        :data:`REVEAL_GRACE` seconds have passed since the day ended (a
        play begun before midnight goes on to its end; once the seed is
        shown, a play still going on could use it, so its result stays
        as it stood: :meth:`finish`)."""
        if not self.over(day):
            return False
        if self.clock() >= day_end(day) + REVEAL_GRACE:
            return True
        return not await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM daily_plays WHERE day = ? AND (score IS NULL OR unfinished = 1)", (day,)).fetchone())

    async def sealed_now(self, shuffle: SeededShuffle) -> str | None:
        """The day whose deal ``shuffle`` is while its seed may not be
        shown (today's, or yesterday's still played: :meth:`shown`); else
        ``None``."""
        today = self.today()
        yesterday = (datetime.date.fromisoformat(today) - datetime.timedelta(days=1)).isoformat()
        for day in (today, yesterday):
            if shuffle.player_seeds[0] == marker(day) and not await self.shown(day):
                return day
        return None

    async def seed(self, day: str) -> str:
        """``day``'s secret seed (64 hex digits): drawn from
        :mod:`secrets` the first time any node asks, the same for every
        node after.  Never show it before :meth:`over`."""
        drawn = secrets.token_hex(32)

        def tx(db: Connection) -> str:
            db.execute("INSERT INTO daily_seeds (day, seed, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       (day, drawn, self.clock()))
            return str(db.execute("SELECT seed FROM daily_seeds WHERE day = ?", (day,)).fetchone()[0])
        return await self.database.tx(tx)

    async def deal(self, day: str) -> SeededShuffle:
        """The shuffles of ``day``'s deal (:func:`daily_shuffle`)."""
        return daily_shuffle(day, await self.seed(day))

    async def commitment(self, day: str) -> str:
        """SHA-256 of ``day``'s seed (64 hex digits): shown from the first caller on."""
        return commitment(await self.seed(day))

    async def revealed(self, day: str) -> str | None:
        """``day``'s seed once it may be shown (:meth:`shown`) and a seed
        was drawn for it; else ``None``."""
        if not await self.shown(day):
            return None
        return await self.database.query(lambda db: (lambda row: None if row is None else str(row[0]))(
            db.execute("SELECT seed FROM daily_seeds WHERE day = ?", (day,)).fetchone()))

    async def why_not_ranked(self, account_id: int, rules: FairPlayRules) -> str | None:
        """Why ``account_id`` may not play the day's deal now under rated
        play's ``rules`` (:func:`newcomer_words`); ``None`` when it may."""
        created, _, games, _ = await self.database.query(lambda db: account_facts(db, account_id))
        return newcomer_words(created, games, rules, self.clock())

    async def claim(self, account_id: int, day: str, address: str = "",
                    rules: FairPlayRules | None = None) -> str | None:
        """Start ``account_id``'s play of ``day``'s deal, from ``address``
        (empty: a shared line, counted by account only): ``None`` when it
        may, else why not, in a sentence.  ``rules``: the house's rated
        play, whose account-age and finished-games rules the account must
        meet (:func:`newcomer_words`; ``None``: not asked)."""
        def tx(db: Connection) -> str | None:
            if db.execute("SELECT 1 FROM daily_plays WHERE day = ? AND account_id = ?",
                          (day, account_id)).fetchone() is not None:
                return "You have played today's deal already: each caller plays it once."
            if rules is not None:
                created, _, games, _ = account_facts(db, account_id)
                why = newcomer_words(created, games, rules, self.clock())
                if why is not None:
                    return why
            if address and db.execute("SELECT 1 FROM daily_plays WHERE day = ? AND address = ?",
                                      (day, address)).fetchone() is not None:
                return ("Today's deal was played from your address already, under another name: "
                        "it is played once an address a day.")
            db.execute("INSERT INTO daily_plays (day, account_id, started, address) VALUES (?, ?, ?, ?)",
                       (day, account_id, self.clock(), address))
            return None
        return await self.database.tx(tx)

    async def plays(self, day: str) -> list[DailyPlay]:
        """``day``'s plays, in the order they started, for the sysop."""
        rows = await self.database.query(lambda db: db.execute(
            "SELECT a.name, d.address, a.created_from, d.started, d.score, d.computer, d.unfinished "
            "FROM daily_plays d JOIN accounts a ON a.id = d.account_id WHERE d.day = ? ORDER BY d.started, a.name",
            (day,)).fetchall())
        return [DailyPlay(str(r[0]), str(r[1] or ""), str(r[2] or ""), float(r[3]),
                          None if r[4] is None else int(r[4]), None if r[5] is None else int(r[5]), bool(r[6]))
                for r in rows]

    async def pending(self, account_id: int, day: str) -> bool:
        """True when ``account_id`` started ``day``'s deal and has not finished it."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM daily_plays WHERE day = ? AND account_id = ? AND (score IS NULL OR unfinished = 1)",
            (day, account_id)).fetchone() is not None)

    async def played(self, account_id: int, day: str) -> bool:
        """True when ``account_id`` has started ``day``'s deal (finished or not)."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM daily_plays WHERE day = ? AND account_id = ?", (day, account_id)).fetchone() is not None)

    async def finish(self, account_id: int, day: str, score: int, computer: int, finished: bool = True) -> None:
        """Keep ``account_id``'s result on ``day``'s deal (their points and
        the computer's); ``finished`` False: how an unfinished play stands
        now (ranked as it stands if the day ends before it is finished).
        Once the day's seed may be shown (:meth:`shown`) its results stay
        as they are: a play that goes on after that keeps nothing."""
        if not await self.shown(day):
            await self._keep(account_id, day, score, computer, finished)

    async def _keep(self, account_id: int, day: str, score: int, computer: int, finished: bool) -> None:
        await self.database.tx(lambda db: db.execute(
            "UPDATE daily_plays SET score = ?, computer = ?, unfinished = ? WHERE day = ? AND account_id = ?",
            (score, computer, 0 if finished else 1, day, account_id)))

    async def par(self, day: str) -> tuple[int, int] | None:
        """The expert's own result on ``day``'s deal (its points, the computer's), once known."""
        def q(db: Connection) -> tuple[int, int] | None:
            row = db.execute("SELECT score, computer FROM daily_par WHERE day = ?", (day,)).fetchone()
            return None if row is None else (int(row[0]), int(row[1]))
        return await self.database.query(q)

    async def set_par(self, day: str, score: int, computer: int) -> None:
        """Keep the expert's own result on ``day``'s deal (the first one kept stays)."""
        await self.database.tx(lambda db: db.execute(
            "INSERT INTO daily_par (day, score, computer) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (day, score, computer)))

    async def settle(self, day: str) -> None:
        """Once ``day`` is over, rank every play of it left without a
        result as it stood: from its kept game when there is one (a
        server stopped mid-game), else as nothing to nothing."""
        if not self.over(day):
            return
        pending = await self.database.query(lambda db: [int(r[0]) for r in db.execute(
            "SELECT account_id FROM daily_plays WHERE day = ? AND score IS NULL", (day,)).fetchall()])
        if not pending:
            return
        number = game_number(await self.seed(day))
        for account_id in pending:
            scores = (0, 0)
            try:
                saved = await self.saved.load(account_id, GameKind.DAILY)
            except ValueError:  # a log that does not read: as nothing to nothing
                saved = None
            if saved is not None and saved.number == number and saved.shuffle is not None \
                    and saved.shuffle.player_seeds[0] == marker(day):
                try:
                    game, _ = replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)
                    scores = (game.scores()[saved.seat], game.scores()[1 - saved.seat])
                except (ValueError, KeyError):
                    pass
            await self._keep(account_id, day, scores[0], scores[1], finished=False)

    async def ranking(self, day: str) -> list[DailyResult]:
        """``day``'s plays, best first: by the margin over the computer,
        then the caller's points; while the day lasts only the finished
        ones, once it is over the unfinished too, as they stood."""
        await self.settle(day)
        over = self.over(day)

        def q(db: Connection) -> tuple[list[Sequence[Any]], Sequence[Any] | None]:
            rows = db.execute("SELECT a.name, d.score, d.computer, d.unfinished FROM daily_plays d JOIN accounts a "
                              "ON a.id = d.account_id WHERE d.day = ? AND d.score IS NOT NULL "
                              "AND (d.unfinished = 0 OR ?)", (day, over)).fetchall()
            par = db.execute("SELECT score, computer FROM daily_par WHERE day = ?", (day,)).fetchone()
            return rows, par
        rows, par = await self.database.query(q)
        par_margin = None if par is None else int(par[0]) - int(par[1])
        results = [DailyResult(r[0], int(r[1]), int(r[2]),
                               None if par_margin is None else int(r[1]) - int(r[2]) - par_margin, bool(r[3]))
                   for r in rows]
        results.sort(key=lambda r: (-r.margin, -r.score, r.name.casefold()))
        return results

    async def streak(self, account_id: int, today: str) -> int:
        """Days in a row, ending today (or yesterday, before today's play),
        on which ``account_id`` played the deal."""
        days = set(await self.database.query(lambda db: [r[0] for r in db.execute(
            "SELECT day FROM daily_plays WHERE account_id = ?", (account_id,)).fetchall()]))
        day = datetime.date.fromisoformat(today)
        if today not in days:
            day -= datetime.timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= datetime.timedelta(days=1)
        return count
