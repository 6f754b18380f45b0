"""Tournaments in the store: made by the sysop, entered and withdrawn
from before they start, their pairings' results recorded, their rounds
moved on by :meth:`Tournaments.step` (the director's one job per
tournament, :mod:`door.records.tournaments.director`), the sysop's
remedies (replace, adjudicate, extend), and the finishes kept for the
season.  The rules are those of ``docs/tournaments.md``; the arithmetic
is the pure core's (:mod:`door.records.tournaments.progress`).

Every mistake (no such tournament, an entry refused, a result naming no
pairing) raises :class:`~door.records.tournaments.settings.TournamentError`
saying what and why; :class:`~door.records.database.StoreError` when the
store cannot answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Conflict, Database
from door.records.ranked.brackets import BracketState
from door.records.ranked.season import Finish, SeasonFormula, SeasonLine, season_table
from door.records.ranked.standings import Line
from door.records.ranked.tournament import Kind
from door.records.tournaments import rows
from door.records.tournaments.links import Links
from door.records.tournaments.progress import (
    Decision,
    brackets,
    finishes,
    late_decision,
    next_pairings,
    no_shows,
    skunk_of,
    swiss_standings,
)
from door.records.tournaments.settings import HOUR, Play, Settings, TournamentError, check_name, check_title
from door.records.tournaments.values import SWISS, Entry, Pairing, Seating, State, Tournament

__all__ = ["Tournaments", "View", "MAX_ENTRIES"]

MAX_ENTRIES = 512
"""The most entrants a tournament takes."""


@dataclass(frozen=True)
class View:
    """A tournament as it stands: the ``tournament``, its ``entries``,
    its ``pairings``, its Swiss's ``standings`` (empty for a knock-out)
    and its ``brackets`` (label and state; none before a knock-out)."""

    tournament: Tournament
    entries: list[Entry]
    pairings: list[Pairing]
    standings: list[Line]
    brackets: list[tuple[str, BracketState]]


T = TypeVar("T")


class Tournaments:
    """The tournament tables in ``database``, timed by ``clock``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock
        self.links = Links(database)
        """Which kept game plays which pairing (:mod:`door.records.tournaments.links`)."""
        self._views: dict[str, tuple[float, View]] = {}

    async def create(self, name: str, title: str, settings: Settings) -> Tournament:
        """Make tournament ``name`` (its bulletins' stem) called ``title``,
        open for entries.  Raises :class:`TournamentError` for a bad name or
        title, a name already used, or entries that would close before now."""
        check_name(name)
        check_title(title)
        if not isinstance(settings, Settings):
            raise TournamentError(f"a tournament's settings are Settings, got {settings!r}")
        now = self.clock()
        if settings.closes is not None and settings.closes <= now:
            raise TournamentError("entries would close before the tournament is made: give a time to come")

        def tx(db: Connection) -> Tournament:
            if db.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise TournamentError(f"there is already a tournament called {name!r}")
            db.execute("INSERT INTO tournaments (name, title, settings, state, created) VALUES (?, ?, ?, ?, ?)",
                       (name, title, settings.to_json(), State.OPEN.value, now))
            return rows.tournament(db, name)
        try:
            return await self._tx(tx)
        except Conflict:
            raise TournamentError(f"there is already a tournament called {name!r}") from None

    async def get(self, name: str) -> Tournament:
        """Tournament ``name``.  Raises :class:`TournamentError` when there is none."""
        return await self.database.query(lambda db: rows.tournament(db, name))

    async def listing(self, state: State | None = None) -> list[Tournament]:
        """Every tournament (or those in ``state``), the newest first."""
        def q(db: Connection) -> list[Tournament]:
            where, args = ("WHERE state = ?", (state.value,)) if state is not None else ("", ())
            return [rows.from_row(r) for r in db.execute(
                f"SELECT {rows.TOURNAMENT_COLUMNS} FROM tournaments {where} ORDER BY created DESC, id DESC", args)]
        return await self.database.query(q)

    async def view(self, name: str, within: float = 0.0) -> View:
        """Tournament ``name`` as it stands (:class:`View`).  ``within``
        (seconds): a view this repository worked out at most that long ago
        will do (what a caller or a program asks to see, as often as it
        may send: a Swiss of 512 players takes some 40 ms of the store's
        one thread).  Raises :class:`TournamentError` when there is none."""
        now = self.clock()
        kept = self._views.get(name)
        if within > 0 and kept is not None and 0 <= now - kept[0] < within:
            return kept[1]

        def q(db: Connection) -> View:
            t = rows.tournament(db, name)
            entries, pairings = rows.entries(db, t.id), rows.pairings(db, t.id)
            lines = swiss_standings(t, entries, pairings) if t.settings.format.kind in (
                Kind.SWISS, Kind.QUALIFYING) and len(entries) >= 2 else []
            return View(t, entries, pairings, lines, brackets(t, entries, pairings))
        view = await self.database.query(q)
        if within > 0:  # (one a tournament: bounded by the tournaments there are)
            self._views[name] = (now, view)
        return view

    async def _tx(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in a transaction of the store, the views kept for
        :meth:`view` forgotten (a change made here is seen at once; one made
        at another node within ``within``)."""
        self._views.clear()
        try:
            return await self.database.tx(fn)
        finally:  # (a view worked out meanwhile may be from before it)
            self._views.clear()

    async def entries(self, name: str) -> list[Entry]:
        """The entries of tournament ``name``, in the order they entered
        (no standings worked out).  Raises :class:`TournamentError` when
        there is none."""
        return await self.database.query(lambda db: rows.entries(db, rows.tournament(db, name).id))

    async def enter(self, name: str, player: str) -> Entry:
        """Enter the registered caller ``player`` in open tournament
        ``name``, with their rating now.  Raises :class:`TournamentError`
        when it has started or its entries have closed, for somebody not
        registered, a bot where bots may not enter, a rating outside the
        band, somebody already entered, or a full tournament."""
        now = self.clock()

        def tx(db: Connection) -> Entry:
            t = _open(db, name, now)
            account_id, shown, rating = rows.account(db, t, player)
            if db.execute("SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND account_id = ?",
                          (t.id, account_id)).fetchone():
                raise TournamentError(f"{shown} has already entered {name}")
            if int(db.execute("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?",
                              (t.id,)).fetchone()[0]) >= MAX_ENTRIES:
                raise TournamentError(f"{name} is full ({MAX_ENTRIES} entrants)")
            db.execute("INSERT INTO tournament_entries (tournament_id, name, account_id, rating, entered) "
                       "VALUES (?, ?, ?, ?, ?)", (t.id, shown, account_id, rating, now))
            return Entry(shown, account_id, rating, now)
        return await self._tx(tx)

    async def withdraw(self, name: str, player: str) -> None:
        """Take ``player``'s entry out of open tournament ``name``.  Raises
        :class:`TournamentError` once it has started (the sysop replaces a
        player then), or for somebody not entered."""
        now = self.clock()

        def tx(db: Connection) -> None:
            t = _open(db, name, now, closing=False)
            if db.execute("DELETE FROM tournament_entries WHERE tournament_id = ? AND name = ?",
                          (t.id, _entered(db, t, player))).rowcount != 1:
                raise TournamentError(f"{player!r} has not entered {name}")
        await self._tx(tx)

    async def start(self, name: str) -> Tournament:
        """Start open tournament ``name`` now (entries close); the director
        pairs its first round at its next step.  Raises
        :class:`TournamentError` when it is not open or has fewer than 2
        entrants."""
        now = self.clock()

        def tx(db: Connection) -> Tournament:
            t = _open(db, name, now, closing=False)
            _begin(db, t, now)
            return rows.tournament(db, name)
        return await self._tx(tx)

    async def due(self, now: float) -> list[str]:
        """The tournaments the director steps at ``now``: those running, and
        those open whose entries have closed."""
        return await self.database.query(lambda db: [str(r[0]) for r in db.execute(
            "SELECT name, state, settings FROM tournaments WHERE state IN (?, ?) ORDER BY id",
            (State.RUNNING.value, State.OPEN.value))
            if r[1] == State.RUNNING.value or (Settings.from_json(r[2]).closes or now + 1) <= now])

    async def step(self, name: str, now: float) -> list[Seating]:
        """Move tournament ``name`` on at ``now``, in one transaction: start
        it if its entries have closed (with 2 or more entrants), decide
        every pairing whose deadline has passed with no result
        (:func:`~door.records.tournaments.progress.late_decision`), make
        the pairings that come next, and keep its finishes once it is
        over.  Returns the games to seat.  Doing it twice does nothing more."""
        return await self._tx(lambda db: _step(db, name, now))

    async def check_in(self, name: str, player: str) -> Pairing:
        """``player`` turned up for their open game (or match) of
        tournament ``name``: at its deadline the other is the late one.
        Raises :class:`TournamentError` when they have no open game, or
        in a live round when they had not come by its time to come (the
        director decides that game at its next step)."""
        now = self.clock()

        def tx(db: Connection) -> Pairing:
            t = rows.tournament(db, name)
            p = _open_pairing(db, t, player)
            show = t.settings.show_seconds
            if (show is not None and p.deadline is not None and not p.shown >> p.seat(player) & 1
                    and now > p.deadline - (t.settings.round_seconds - show)):
                raise TournamentError(f"the time to come to your game {p.slot} in {name} has passed")
            db.execute("UPDATE tournament_pairings SET shown = ? WHERE id = ?",
                       (p.shown | 1 << p.seat(player), p.id))
            return p
        return await self._tx(tx)

    async def waiting_on(self, pairing_id: int, seat: int | None) -> None:
        """The game service's word: pairing ``pairing_id``'s game waits on
        ``seat`` (0 or 1; ``None``: not known), who is the late one at its deadline."""
        if seat not in (0, 1, None):
            raise TournamentError(f"a seat is 0, 1 or None, got {seat!r}")
        await self._tx(lambda db: db.execute(
            "UPDATE tournament_pairings SET waiting = ? WHERE id = ?", (seat, pairing_id)))

    async def record(self, name: str, winner: str, loser: str, score: tuple[int, int] | None) -> Pairing:
        """Record the result of ``winner``'s open game or match against
        ``loser`` in tournament ``name``: in a Swiss, ``score`` is the game's
        points (the winner's first: ``(121, 95)``; the skunk is worked out
        from the house rules); in a knock-out, the match's games
        (``(2, 1)``); ``None``: ``loser`` forfeited it (left a live game,
        or stayed away past its grace), scored as a forfeit at the
        deadline is.  Raises :class:`TournamentError` when they have no
        open game together or the score cannot be."""
        now = self.clock()

        def tx(db: Connection) -> Pairing:
            t = rows.tournament(db, name)
            p = _between(db, t, winner, loser, open_only=True)
            seat = p.seat(_entered(db, t, winner))
            if score is None:
                given = (t.settings.format.to_win if p.stage != SWISS else 0, 0)
                rows.decide(db, p, _result(t, p, seat, given, "forfeit"), now)
            else:
                rows.decide(db, p, _result(t, p, seat, score, "played"), now)
            return p
        return await self._tx(tx)

    async def adjudicate(self, name: str, winner: str, loser: str, score: tuple[int, int] | None = None) -> Pairing:
        """The sysop decides ``winner``'s latest game or match against
        ``loser``: open, or decided (by its deadline, say) while nothing
        was paired after it.  ``score`` as :meth:`record`'s; ``None``: a
        forfeit's.  Raises :class:`TournamentError` when there is no such
        pairing, when later pairings already depend on it, or for a score that cannot be."""
        now = self.clock()

        def tx(db: Connection) -> Pairing:
            t = rows.tournament(db, name)
            p = _between(db, t, winner, loser, open_only=False)
            if not p.open and any(q.wave > p.wave for q in rows.pairings(db, t.id)):
                raise TournamentError(f"{p.slot} was decided and later rounds were paired from it: it stands")
            seat = p.seat(_entered(db, t, winner))
            given = score if score is not None else (t.settings.format.to_win if p.stage != SWISS else 0, 0)
            rows.decide(db, p, _result(t, p, seat, given, "adjudicated"), now)
            return p
        return await self._tx(tx)

    async def replace(self, name: str, old: str, new: str) -> None:
        """``new`` (a registered caller who may enter, not entered) takes
        ``old``'s place in tournament ``name``: their entry, seed, results
        and games to come.  Raises :class:`TournamentError` once it is
        over, or when either cannot."""
        def tx(db: Connection) -> None:
            t = rows.tournament(db, name)
            if t.state is State.FINISHED:
                raise TournamentError(f"{name} is over")
            was = _entered(db, t, old)
            account_id, shown, _ = rows.account(db, t, new)
            if db.execute("SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND (account_id = ? OR name = ?)",
                          (t.id, account_id, shown)).fetchone():
                raise TournamentError(f"{shown} has already entered {name}")
            db.execute("UPDATE tournament_entries SET name = ?, account_id = ? WHERE tournament_id = ? AND name = ?",
                       (shown, account_id, t.id, was))
            for seat in ("player0", "player1"):
                db.execute(f"UPDATE tournament_pairings SET {seat} = ? WHERE tournament_id = ? AND {seat} = ?",
                           (shown, t.id, was))
            rows.keep_seeds(db, dataclasses.replace(t, seeds={
                label: tuple(shown if n == was else n for n in seeds) for label, seeds in t.seeds.items()}))
        await self._tx(tx)

    async def extend(self, name: str, hours: float, player: str | None = None) -> int:
        """Move the deadline of every open game of tournament ``name`` (or
        only ``player``'s) ``hours`` later (above 0, at most 720); how many
        moved.  Raises :class:`TournamentError` for a bad length or player."""
        if isinstance(hours, bool) or not isinstance(hours, (int, float)) or not 0 < hours <= 720:
            raise TournamentError(f"a deadline is extended by more than 0 and at most 720 hours, got {hours!r}")

        def tx(db: Connection) -> int:
            t = rows.tournament(db, name)
            ids = [p.id for p in rows.pairings(db, t.id) if p.open and p.deadline is not None]
            if player is not None:
                ids = [_open_pairing(db, t, player).id]
            db.executemany("UPDATE tournament_pairings SET deadline = deadline + ? WHERE id = ?",
                           [(hours * HOUR, i) for i in ids])
            return len(ids)
        return await self._tx(tx)

    async def finishes(self, year: int) -> list[Finish]:
        """Every finish kept for ``year``'s season."""
        return await self.database.query(lambda db: [Finish(int(r[0]), r[1], int(r[2]), int(r[3])) for r in db.execute(
            "SELECT year, name, place, won FROM tournament_finishes WHERE year = ? ORDER BY tournament_id, place, "
            "name", (year,))])

    async def season(self, year: int, formula: SeasonFormula | None = None) -> list[SeasonLine]:
        """``year``'s season table by ``formula`` (``None``: the default), best first."""
        return season_table(year, await self.finishes(year), formula or SeasonFormula())


def _open(db: Connection, name: str, now: float, closing: bool = True) -> Tournament:
    t = rows.tournament(db, name)
    if t.state is not State.OPEN:
        raise TournamentError(f"{name} has started: entries are closed (the sysop may replace a player)")
    if closing and t.settings.closes is not None and now >= t.settings.closes:
        raise TournamentError(f"{name}'s entries have closed")
    return t


def _begin(db: Connection, t: Tournament, now: float) -> None:
    count = int(db.execute("SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?",
                           (t.id,)).fetchone()[0])
    if count < 2:
        raise TournamentError(f"{t.name} needs at least 2 entrants to start, has {count}")
    db.execute("UPDATE tournaments SET state = ?, started = ? WHERE id = ?", (State.RUNNING.value, now, t.id))


def _entered(db: Connection, t: Tournament, player: str) -> str:
    """The name ``player`` (any case) entered ``t`` as.  Raises :class:`TournamentError`."""
    for e in rows.entries(db, t.id):
        if e.name.casefold() == player.casefold():
            return e.name
    raise TournamentError(f"{player!r} has not entered {t.name}")


def _open_pairing(db: Connection, t: Tournament, player: str) -> Pairing:
    name = _entered(db, t, player)
    for p in rows.pairings(db, t.id, name):
        if p.open and name in p.players:
            return p
    raise TournamentError(f"{name} has no game to play in {t.name} now")


def _between(db: Connection, t: Tournament, a: str, b: str, open_only: bool) -> Pairing:
    names = {_entered(db, t, a), _entered(db, t, b)}
    found = [p for p in rows.pairings(db, t.id, min(names)) if set(p.players) == names and (p.open or not open_only)]
    if not found:
        raise TournamentError(f"{' and '.join(sorted(names))} have no {'open ' if open_only else ''}game "
                              f"together in {t.name}")
    return found[-1]


def _result(t: Tournament, p: Pairing, seat: int, score: tuple[int, int], how: str) -> Decision:
    """The decision of ``p`` won by ``seat`` with ``score`` (the winner's first).  Raises :class:`TournamentError`."""
    won, lost = score
    if p.stage == SWISS:
        rules = t.settings.rules
        if how == "played" and not (won == rules.game_to and 0 <= lost < won):
            raise TournamentError(f"a game to {rules.game_to} is won with {rules.game_to} points and lost with "
                                  f"fewer, got {won}-{lost}")
        if not 0 <= lost <= won <= rules.game_to:
            raise TournamentError(f"a game's score is the winner's then the loser's, got {won}-{lost}")
        skunk = skunk_of(lost, rules.skunk, rules.double_skunk) if won == rules.game_to else 0
    else:
        to_win = t.settings.format.to_win
        if not (won == to_win and 0 <= lost < to_win):
            raise TournamentError(f"a best of {t.settings.format.games} is won {to_win} games to fewer, "
                                  f"got {won}-{lost}")
        skunk = 0
    return Decision(seat, (won, lost) if seat == 0 else (lost, won), skunk, how)


def _step(db: Connection, name: str, now: float) -> list[Seating]:
    """One step of the tournament ``name`` at ``now``: begun when its
    entries have closed, late games decided, what comes next paired, the
    knock-out's seeds kept as drawn, the finishes kept when it is over;
    the games to seat."""
    t = _running(db, name, now)
    if t is None:
        return []
    entries = rows.entries(db, t.id)
    pairings = _decide_late(db, t, entries, rows.pairings(db, t.id), now)
    seats = _pair(db, t, entries, pairings, now)
    pairings = rows.pairings(db, t.id)
    if not t.seeds and (drawn := brackets(t, entries, pairings)) and any(p.stage != SWISS for p in pairings):
        t = dataclasses.replace(t, seeds={label: state.bracket.seeds for label, state in drawn})
        rows.keep_seeds(db, t)
    done = finishes(t, entries, pairings, now)
    if done is not None:
        accounts = {e.name: e.account_id for e in entries}
        db.executemany("INSERT INTO tournament_finishes (tournament_id, year, name, account_id, place, won) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       [(t.id, f.year, f.name, accounts.get(f.name), f.place, f.won) for f in done])
        db.execute("UPDATE tournaments SET state = ?, ended = ? WHERE id = ?", (State.FINISHED.value, now, t.id))
    return seats


def _running(db: Connection, name: str, now: float) -> Tournament | None:
    """The tournament ``name`` if it runs at ``now`` (begun here when its
    entries closed with two entrants or more), else ``None``."""
    t = rows.tournament(db, name)
    if t.state is State.OPEN:
        if t.settings.closes is None or now < t.settings.closes or int(db.execute(
                "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?", (t.id,)).fetchone()[0]) < 2:
            return None
        _begin(db, t, now)
        t = rows.tournament(db, name)
    return t if t.state is State.RUNNING else None


def _decide_late(db: Connection, t: Tournament, entries: Sequence[Entry], pairings: list[Pairing],
                 now: float) -> list[Pairing]:
    """Decide every open game whose deadline has passed (the late player
    loses), and every game of a live round whose players were not both at
    the table in time (who did not come loses); the pairings as they
    stand after."""
    late = [p for p in pairings if p.open and p.deadline is not None and p.deadline <= now]
    late += [p for p in no_shows(t, pairings, now) if p.id not in {q.id for q in late}]
    if not late:
        return pairings
    seeds = {label: state.bracket.seeds for label, state in brackets(t, entries, pairings)}
    for p in late:
        rows.decide(db, p, late_decision(t, p, seeds.get(p.stage, ())), now)
    return rows.pairings(db, t.id)


def _pair(db: Connection, t: Tournament, entries: Sequence[Entry], pairings: list[Pairing],
          now: float) -> list[Seating]:
    """Make every pairing that comes next (a qualifying Swiss's last round
    over: its knock-out's first matches too); the games to seat."""
    accounts = {e.name: e.account_id for e in entries}
    seats = []
    while new := next_pairings(t, entries, pairings, now):
        wave = 1 + max((p.wave for p in pairings), default=0)
        for n in new:
            pairing_id = rows.insert_pairing(db, t, n, wave, now)
            a, b = n.players
            if b is not None:
                s = t.settings
                show = s.show_seconds
                seats.append(Seating(t.name, pairing_id, n.slot, (a, b), (accounts.get(a), accounts.get(b)),
                                     1 if n.stage == SWISS else s.format.games, s.rules, now + s.round_seconds,
                                     s.move_days if s.play is Play.CORRESPONDENCE else None,
                                     None if show is None else now + show, s.rated))
        pairings = rows.pairings(db, t.id)
    return seats
