"""A club night: the sysop opens it from the console (how
many games, when it starts), callers join from the menu, and the night
plays its rounds.

Each round the night pairs the players (:func:`door.records.ranked.club_scoring.swiss_pairs`),
each player's session sits down (:meth:`ClubNight.sit`), and the night runs
the tables in the lobby, one game each (no rematch), under the house rules;
the player left over in an odd round plays the expert computer.  A player
who does not sit within :data:`SIT_TIMEOUT` seconds, or leaves the game,
loses it by forfeit.  When every table of the round is over its results
count (ACC: :func:`door.records.ranked.club_scoring.acc_points`), and after the last round the
standings are kept in the store (:class:`door.records.ranked.clubs.Clubs`).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from door.games.house import GameHouse
from door.games.kinds import club_game
from door.play.computer_seat import ComputerSeat
from door.play.human_seat import HumanSeat
from door.play.options import CallerOptions
from door.play.table import Seat, Table
from door.play.tables import computer_opponent
from door.play.thinking import IN_THREAD, Thinking
from door.records.clock import Clock
from door.records.identity import Identity
from door.records.ranked.club_scoring import COMPUTER, ClubResult, Standing, standings, swiss_pairs
from engine.events import Skunk
from engine.rules import Rules

__all__ = ["ClubNight", "NightTerms", "Night", "Assignment", "SIT_TIMEOUT"]

log = logging.getLogger(__name__)

SIT_TIMEOUT = 60.0
"""Seconds a paired player has to sit down before they lose the game by forfeit."""


class Night(enum.Enum):
    """Where a club night stands."""

    OPEN = "open"
    """Taking players until it starts."""
    PLAYING = "playing"
    OVER = "over"


@dataclass
class Entrant:
    """A player of the night: ``name`` and ``identity`` (``None``: a guest)."""

    name: str
    identity: Identity | None


@dataclass
class Assignment:
    """A table of the current round: its ``round``, the two ``players``
    (the second ``None`` for the computer), their seats as they sit, and
    the ``table`` once both are seated."""

    round: int
    players: tuple[str, str | None]
    seats: dict[str, asyncio.Future[HumanSeat]] = field(default_factory=dict)
    table: asyncio.Future[Table | None] = field(default_factory=lambda: asyncio.get_event_loop().create_future())

    def opponent(self, name: str) -> str:
        """The other player's name as ``name`` sees it ("Computer" for the computer)."""
        a, b = self.players
        return (b or "Computer") if name == a else a


@dataclass(frozen=True)
class NightTerms:
    """What a club night is: ``games`` rounds (1 to 20) starting at
    ``starts`` (seconds since the epoch, by the store's clock), played
    under ``rules``; ``grace``: seconds a table waits for a player whose
    line dropped (``[paging] ranked_grace``)."""

    rules: Rules
    games: int
    starts: float
    grace: float = 120.0


class ClubNight:
    """A night of the ``terms``' rounds, played at tables of the ``house``
    (:mod:`door.games`) and kept in its store (whose clock it keeps time by); ``thinking`` and
    ``delay``: the computer's, for the odd player out.  ``rng`` pairs the
    first round.  Raises ``ValueError`` for a night not of 1 to 20 games."""

    def __init__(self, house: GameHouse, terms: NightTerms, thinking: Thinking = IN_THREAD,
                 delay: float = 0.6, rng: random.Random | None = None) -> None:
        if not 1 <= terms.games <= 20:
            raise ValueError(f"a club night is 1 to 20 games, got {terms.games!r}")
        self.house, self.store, self.rules, self.games, self.starts = house, house.store, terms.rules, terms.games, \
            terms.starts
        self.thinking, self.delay, self.grace = thinking, delay, terms.grace
        self.clock: Clock = house.store.clock
        self.rng = rng or random.Random(secrets.randbits(64))
        self.state = Night.OPEN
        self.entrants: list[Entrant] = []
        self.results: list[ClubResult] = []
        self.round = 0
        self.assignments: dict[str, Assignment] = {}
        self.changed = asyncio.Event()
        """Set (then cleared) whenever the night moves on: sessions waiting look again."""
        self.task: asyncio.Task[None] | None = None
        self.on_end: list[Callable[[], None]] = []
        self._go = asyncio.Event()

    # -- the players' side ---------------------------------------------------------

    def join(self, name: str, identity: Identity | None) -> str | None:
        """Add ``name`` to the night; returns why not (it started, or the
        name is in already), else ``None``."""
        if self.state is not Night.OPEN:
            return "The club night has started: joining is closed."
        if any(e.name == name for e in self.entrants):
            return None  # (back after a dropped line: still in)
        self.entrants.append(Entrant(name, identity))
        self._pulse()
        return None

    def leave(self, name: str) -> None:
        """``name`` leaves before the start (after it, their games are forfeits)."""
        if self.state is Night.OPEN:
            self.entrants = [e for e in self.entrants if e.name != name]
            self._pulse()

    def assignment(self, name: str) -> Assignment | None:
        """``name``'s table in the current round, while it waits for them."""
        a = self.assignments.get(name)
        return a if a is not None and name in a.seats and not a.seats[name].done() else None

    async def sit(self, name: str, seat: HumanSeat) -> Table | None:
        """``name`` sits down at their table of the round; returns the table
        once both are seated (``None``: the other never came, a forfeit)."""
        a = self.assignments[name]
        if not a.seats[name].done():
            a.seats[name].set_result(seat)
        return await asyncio.shield(a.table)

    def standings(self) -> list[Standing]:
        """The night's standings so far, best first."""
        return standings([e.name for e in self.entrants], self.results)

    def words(self) -> str:
        """``"9 games, starts at 20:15, 3 joined"`` (for the menu)."""
        when = time.strftime("%H:%M", time.localtime(self.starts))
        return f"{self.games} games, starts at {when}, {len(self.entrants)} joined"

    # -- the night -----------------------------------------------------------------

    def start_now(self) -> None:
        """Start at once (the sysop says so), not at :attr:`starts`."""
        self._go.set()

    def start(self) -> asyncio.Task[None]:
        """Run the night in the background."""
        self.task = asyncio.ensure_future(self._run())
        return self.task

    async def _run(self) -> None:
        try:
            try:
                await asyncio.wait_for(self._go.wait(), max(0.0, self.starts - self.clock()))
            except TimeoutError:
                pass  # the time came
            if len(self.entrants) < 2:
                log.info("club night called off: %d joined", len(self.entrants))
                self.state = Night.OVER
                return
            self.state = Night.PLAYING
            for number in range(1, self.games + 1):
                self.round = number
                pairs = swiss_pairs([e.name for e in self.entrants], self.results, self.rng)
                loop = asyncio.get_running_loop()
                tables = []
                self.assignments = {}
                for a_name, b_name in pairs:
                    a = Assignment(self.round, (a_name, b_name))
                    for n in (a_name, b_name):
                        if n is not None:
                            a.seats[n] = loop.create_future()
                            self.assignments[n] = a
                    tables.append(self._play(a))
                log.info("club night round %d: %s", self.round, pairs)
                self._pulse()
                for result in await asyncio.gather(*tables):
                    if result is not None:
                        self.results.append(result)
                self.assignments = {}
                self._pulse()
            self.state = Night.OVER
            await self._keep()
        finally:
            self.state = Night.OVER
            self._pulse()
            for hook in self.on_end:
                hook()

    async def _play(self, a: Assignment) -> ClubResult | None:
        """One table of the round, from the seating to its result."""
        names = [n for n in a.players if n is not None]
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*(a.seats[n] for n in names))), SIT_TIMEOUT)
        except TimeoutError:
            came = [n for n in names if a.seats[n].done()]
            a.table.set_result(None)
            for n in names:
                if not a.seats[n].done():
                    a.seats[n].cancel()
            if a.players[1] is None or not came:
                return None  # nobody (or the one player against the computer) came: no game
            winner = a.players.index(came[0])
            return ClubResult(a.round, a.players, winner, (0, 0), forfeit=True)
        seats: list[Seat] = [a.seats[n].result() for n in names]
        if a.players[1] is COMPUTER:
            seats.append(computer_opponent(CallerOptions(), self.delay, 0.0, 0.0, self.thinking))
        table, running = club_game(self.house, self.rules, (seats[0], seats[1]), self.grace,
                                   computer=a.players[1] is COMPUTER)
        a.table.set_result(table)
        await running
        for seat in seats:
            if isinstance(seat, ComputerSeat):
                seat.stop()
        game = table.game
        if game is None:
            return None
        scores = game.scores()
        if table.ending.forfeit is not None:
            return ClubResult(a.round, a.players, 1 - table.ending.forfeit, (scores[0], scores[1]), forfeit=True)
        if game.result is None:
            return None  # (held by a store that failed: no result)
        return ClubResult(a.round, a.players, game.result.winner, game.result.scores,
                          skunk=game.result.skunk is not Skunk.NONE)

    async def _keep(self) -> None:
        """The final standings into the store (a store that fails is logged)."""
        accounts = {e.name: e.identity.account if e.identity is not None else None for e in self.entrants}
        try:
            await self.store.clubs.record(self.starts, self.games, self.standings(), accounts)
        except Exception:
            log.exception("the club night's standings could not be kept")

    def _pulse(self) -> None:
        self.changed.set()
        self.changed.clear()
