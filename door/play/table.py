"""A table: one match between two seats, driving the engine.

Seats submit actions whenever they like (:meth:`Table.submit`); the table
applies them one at a time in arrival order, tells both seats what happened,
and tells a seat when its action was refused.  Seat 0 is the caller, seat 1
the sysop or the computer (as in the original door), or the caller who was challenged.  After each game both seats are asked
whether to play another; the loser deals first (as in Black Dog Cribbage).  With a
:class:`~door.play.journal.Journal`, every action is kept in the store before
its effect is shown, and every finished game is recorded.

Before each hand the table is in *chat mode* (as in the original door): the cards are
dealt but not shown, the players may chat, and the player about to deal
deals by pressing RETURN on a blank chat line (:meth:`Table.deal`; against
the computer, the caller always may).

When ``rejoin_timeout`` is set (a game between people), a player whose line
drops is *absent*: the other is told at once, and the game waits up to that
many seconds for them to come back (:meth:`Table.rejoin`) before it is
abandoned; the player who stayed may abandon it sooner.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from door.play.commands import Abandon, ChatLine, Command, Leave, Quit, Submit
from door.play.deals import Dealer, commitment_notice
from door.play.journal import HELD_MESSAGE, JournalError
from door.play.series import Series
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.records.store import SavedGame
from door.ui.words import strip_controls
from engine.actions import Action, IllegalAction
from engine.events import Event, HandDealt
from engine.game import Game, Phase, replay
from engine.objectives import WIN_CHANCE, Objective, rules_objective
from engine.rules import Rules
from engine.tally import GameTally

__all__ = ["Table", "Seat", "Watcher"]

log = logging.getLogger(__name__)


class Seat(Protocol):
    """What a table needs of a seat."""

    name: str
    computer: bool
    """True for the computer (the table then lets its opponent deal and
    replay hands at will)."""
    @property
    def shuffle_seed(self) -> str:
        """This player's part of a verifiable shuffle: 64 hex digits
        (:func:`engine.shuffle.player_seed`)."""
        ...

    identity: Identity | None
    """Who sits here as a login proved it (an account or a sysop); ``None`` for
    the computer and guests: nobody can take such a seat back after a drop."""

    def attach(self, table: Table, index: int) -> None:
        """Sit at ``table`` as seat ``index`` (0 or 1)."""

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """``events`` happened in ``game`` (called after every action)."""

    def rejected(self, message: str) -> None:
        """The table refused this seat's last action; ``message`` says why."""

    async def play_again(self) -> bool:
        """After a game: True to play another."""
        ...

    def on_chat(self, line: tuple[float, str, str]) -> None:
        """A chat line (time, name, text), already made safe to show."""

    def notice(self, text: str) -> None:
        """Something the table says to this seat's player (not a game event)."""

    def finish(self) -> None:
        """The table is done with this seat."""


class Watcher(Protocol):
    """Someone watching the table (the sysop console)."""

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """The game changed by ``events``, or the chat changed."""


class Table:
    """A match between ``seats`` (two) under ``rules``, played as
    ``settings`` say (:class:`~door.play.table_settings.TableSettings`).
    Raises ``ValueError`` unless there are two seats."""

    def __init__(self, rules: Rules, seats: Sequence[Seat], settings: TableSettings | None = None) -> None:
        if len(seats) != 2:
            raise ValueError(f"a table seats two, got {len(seats)}")
        self.settings = settings = settings if settings is not None else TableSettings()
        self.rules = rules
        self.seats = list(seats)
        self.dealer = Dealer(settings.numbers, settings.seeds, settings.sealed_until)
        self.series = Series(rules, settings.terms)
        self.game: Game | None = None
        self.tally = GameTally()
        self.history: list[Event] = []
        self.journal = settings.journal
        self.rejoin_timeout = settings.rejoin_timeout
        self.hints = settings.hints
        self.clock = settings.clock
        self.chat_log: list[ChatLine] = []
        self.watchers: list[Watcher] = []
        self.left: int | None = None
        self.absent: set[int] = set()
        self.absent_until = 0.0
        self.go_on = asyncio.Event()
        """Set while play may go on; a seat clears it to hold the computer
        until its player has read a score (the "prompt" pace)."""
        self.go_on.set()
        self.writing = False
        """True while an applied action is being written to the journal: no
        screen may paint the game then (it would show a move the store has
        not kept, lost if the server dies)."""
        self.dealt = asyncio.Event()
        """Set once the dealer has dealt the hand on the table (chat mode
        before each hand, as in the original door)."""
        self.forfeit: int | None = None
        """The seat that left a game against a person on purpose, or a
        guest whose line dropped there (it cannot come back): it loses it."""
        self.parting: dict[int, str] = {}
        """What the seat that stayed is told, by seat, when the other left
        the match ("Sysop left the game: you win by forfeit."); its
        session shows it on the menu (it landed there with no word)."""
        self.abandoned: int | None = None
        """The seat that ended the match by abandoning the game (:meth:`abandon`)."""
        self.ended = asyncio.Event()
        """Set when :meth:`run` is over (the store written)."""
        self.held: str | None = None
        """Why the match stopped with its game kept as the store has it
        (the store could not keep a move), or ``None``."""
        self.terms = settings.terms
        self.aborted: int | None = None
        """The seat that left a match before its first deal (it is aborted: not rated, nobody wins it)."""
        self.auto_deal = settings.auto_deal
        if self.auto_deal:
            self.dealt.set()
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        for i, seat in enumerate(self.seats):
            seat.attach(self, i)

    # -- what seats call ---------------------------------------------------------

    @property
    def objective(self) -> Objective:
        """What a computer at this table plays for: the objective given,
        else the chance to win when the table plays a match (it counts
        games won, skunks or not), else the games the rules credit a win
        (1, 2, 3 by default: :func:`~engine.objectives.rules_objective`)."""
        if self.settings.objective is not None:
            return self.settings.objective
        if self.terms is not None:
            return WIN_CHANCE
        return rules_objective(self.rules)

    @property
    def rated(self) -> bool:
        """True for a rated match."""
        return self.series.rated

    def leave_question(self, seat: int) -> str:
        """What ``seat`` is asked before leaving on purpose (:meth:`Series.leave_question
        <door.play.series.Series.leave_question>`)."""
        return self.series.leave_question(seat, self.against_computer(seat))

    def against_computer(self, seat: int) -> bool:
        """True when ``seat``'s opponent is the computer."""
        return self.seats[1 - seat].computer

    def submit(self, seat: int, action: Action) -> None:
        """Queue ``action`` from ``seat``; it is applied in turn."""
        self._queue.put_nowait(Submit(seat, action))

    def leave(self, seat: int) -> None:
        """``seat`` has gone (hung up or quit)."""
        self._queue.put_nowait(Leave(seat))

    def quit(self, seat: int) -> None:
        """``seat`` leaves on purpose (Q, then Y).  Against a person the
        match ends at once and the game is a forfeit: the player who left
        loses it (ACC practice), worth one game and no skunk, recorded with
        the hands played so far.  Against the computer it is kept to
        resume, as when the line drops."""
        self._queue.put_nowait(Quit(seat))

    def abandon(self, seat: int) -> None:
        """``seat`` gives up the game: the match ends.  A caller giving it
        up (waiting no longer, or asked whether to go back) drops it from
        the store; the sysop giving up waiting for an absent caller leaves
        the caller's game kept (they may page the sysop to resume it)."""
        self._queue.put_nowait(Abandon(seat))

    def deal(self, seat: int) -> str | None:
        """``seat`` deals the hand on the table (RETURN on a blank chat
        line); returns why not, or ``None`` when dealt."""
        game = self.game
        if game is None or self.dealt.is_set():
            return None
        if seat != game.dealer and not self.against_computer(seat):
            return f"{self.seats[game.dealer].name} deals: wait for RETURN on a blank chat line."
        self.dealt.set()
        self.series.dealt = True
        self._broadcast(game, [])
        return None

    def chat(self, seat: int, text: str) -> None:
        """A chat line from ``seat``: control characters and escape
        sequences are removed and the length is limited before anyone sees it."""
        clean = strip_controls(text, self.settings.chat_limit)
        if not clean:
            return
        line = (self.clock(), self.seats[seat].name, clean)
        self.chat_log.append(line)
        del self.chat_log[:-100]
        for s in self.seats:
            s.on_chat(line)
        for w in self.watchers:
            w.refresh([])

    def rejoin(self, seat: int, new: Seat) -> None:
        """An absent player is back with a new seat (a new connection): it
        gets the whole game so far, and the other player is told."""
        if seat not in self.absent:
            raise ValueError(f"seat {seat} is not absent")
        self.seats[seat] = new
        new.attach(self, seat)
        self.absent.discard(seat)
        for line in self.chat_log[-20:]:
            new.on_chat(line)
        if self.game is not None:
            new.notify(self.game, list(self.history))
        self.seats[1 - seat].notice(f"{new.name} is back.")
        log.info("%s rejoined the table", new.name)

    @property
    def sealed(self) -> str | None:
        """The day until whose end the current game's seed is kept secret
        (a daily deal), else ``None``: the seed is shown at the game's end."""
        return self.dealer.sealed(self.game)

    # -- the match ----------------------------------------------------------------

    async def run(self, resume: SavedGame | None = None) -> None:
        """Play games until a seat declines another, leaves, or the game is
        abandoned; the first is ``resume`` (a saved game) when given."""
        try:
            await self._run(resume)
        finally:
            for seat in self.seats:
                seat.finish()
            self.ended.set()

    async def _run(self, resume: SavedGame | None) -> None:
        while True:
            if resume is not None:
                game, events = replay(resume.rules, resume.number, resume.actions, resume.first_dealer,
                                      resume.shuffle)
                self.series.match.games.append(game)
                self.series.offset = resume.match_points
                if self.journal is not None:
                    self.journal.resume(resume)
                resume = None
                underway = game.phase is not Phase.DISCARD or any(len(h) < 6 for h in game.hands)
                log.info("game %d resumed after %d actions", game.number, len(game.actions))
            else:
                game = self.dealer.next_game(self.series.match, (self.seats[0].shuffle_seed,
                                                                  self.seats[1].shuffle_seed), self._tell)
                events = game.start()
                if self.journal is not None:
                    try:
                        await self.journal.start(game, self.series.points())
                    except JournalError as exc:
                        self.held = str(exc)
                        for seat in self.seats:
                            seat.notice(HELD_MESSAGE)
                        return
                log.info("game %d starts: %s vs %s", game.number, self.seats[0].name, self.seats[1].name)
                underway = False
                if game.shuffle is not None:
                    for i, seat in enumerate(self.seats):
                        seat.notice(commitment_notice(game.shuffle, game.shuffle.player_seeds[i], self.sealed))
            self.game = game
            self.tally = GameTally()
            self.history = []
            if not await self._play(game, events, underway):
                if self.forfeit is not None and self.journal is not None:
                    await self.journal.forfeit(game, self.tally, 1 - self.forfeit)
                elif self.abandoned is not None and self.journal is not None and \
                        self.journal.keeps_for(self.abandoned):
                    await self.journal.drop()  # a caller gave it up (the sysop giving up waiting keeps it)
                elif self.aborted is not None and self.journal is not None:
                    await self.journal.drop()  # a match aborted before its first deal: nothing to keep
                if self.terms is not None and self.aborted is not None:
                    await self._match_over(1 - self.aborted, aborted=True)
                elif self.terms is not None and self.forfeit is not None:
                    await self._match_over(1 - self.forfeit, forfeit=True)
                return
            assert game.result is not None
            if self.journal is not None:
                await self.journal.finish(game, self.tally)
            log.info("game %d over: %s wins %s", game.number, self.seats[game.result.winner].name,
                     game.result.scores)
            if self.terms is not None:
                wins = self.series.wins()
                played = len(self.series.games())
                a, b = self.seats[0].name, self.seats[1].name
                for seat in self.seats if self.terms.best_of > 1 else ():
                    seat.notice(f"Game {played} to {self.seats[game.result.winner].name}, "
                                f"{game.result.scores[0]}-{game.result.scores[1]}: {a} {wins[0]}, {b} {wins[1]} "
                                f"(best of {self.terms.best_of}).")
                if max(wins) < self.terms.needed:
                    continue  # the match goes on: the loser deals first (engine.match.Match)
                await self._match_over(0 if wins[0] > wins[1] else 1)
                if not self.settings.rematch or not all(await self._ask_again()):
                    return
                self.dealer.first_dealer = self.series.rematch(self.auto_deal)
                continue
            if not all(await self._ask_again()):
                return

    async def _match_over(self, winner: int, forfeit: bool = False, aborted: bool = False) -> None:
        """The match ended: keep it (the journal) and tell both players
        (the ratings are kept in the series' ``news`` too, for the page each
        player is shown when they leave the table)."""
        assert self.terms is not None
        result = self.series.over(winner, forfeit, aborted)
        names = (self.seats[0].name, self.seats[1].name)
        lines = [result.words(names)]
        if self.terms.best_of == 1 and not self.terms.rated:
            lines = []  # one game: its result says it all
        if self.journal is not None:
            try:
                lines += await self.journal.match_over(result)
            except Exception:  # a store that fails must not end the table unreported
                log.exception("the end of the match could not be recorded")
                lines.append("The door could not record the match.")
        log.info("match over: %s %s %s", names[winner], "after an abort by" if aborted else "wins", result.wins)
        for i, seat in enumerate(self.seats):
            for line in lines:
                seat.notice(line)
            if self.terms.rated:
                self.series.news[i].extend(lines)
            if (forfeit or aborted) and i == winner and lines:
                self.parting[winner] = " ".join(lines)

    async def _ask_again(self) -> list[bool]:
        ask = [asyncio.ensure_future(s.play_again()) for s in self.seats]
        leave = asyncio.ensure_future(self._wait_leave())
        both: asyncio.Future[Any] = asyncio.gather(*ask)
        waiting: set[asyncio.Future[Any]] = {both, leave}
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if leave in done:
            for a in ask:
                a.cancel()
            return [False, False]
        leave.cancel()
        return [a.result() for a in ask]

    async def _wait_leave(self) -> None:
        while True:
            command = await self._queue.get()
            if not isinstance(command, Submit):
                self.left = command.seat
                return

    async def _play(self, game: Game, events: list[Event], underway: bool = False) -> bool:
        """Play ``game`` (whose first ``events`` are given) to its end;
        False when it ended early (a seat left, or it was abandoned).
        ``underway``: the hand on the table was dealt already (a resumed game)."""
        self._broadcast(game, events)
        if underway or self.auto_deal:
            self.series.dealt = True
        if underway:
            self.dealt.set()
            self._broadcast(game, [])
        while not game.over:
            wait = max(0.0, self.absent_until - self.clock()) if self.absent else None
            try:
                command = await asyncio.wait_for(self._queue.get(), wait)
            except TimeoutError:
                if self.rated and len(self.absent) == 1:
                    gone = next(iter(self.absent))  # a rated match: staying away past the grace forfeits it
                    self._lose(gone)
                    log.info("game %d: %s did not come back: %s", game.number, self.seats[gone].name,
                             "an abort" if self.aborted is not None else "a forfeit")
                    return False
                log.info("game %d abandoned: nobody came back", game.number)
                return False
            seat = command.seat
            if isinstance(command, Quit):
                self.left = seat
                if not self.against_computer(seat):
                    self._lose(seat)
                    if self.aborted is None:
                        self.seats[1 - seat].notice(f"{self.seats[seat].name} left the game: it counts as a win "
                                                    f"for {self.seats[1 - seat].name}.")
                        self.parting[1 - seat] = f"{self.seats[seat].name} left the game: you win by forfeit."
                log.info("game %d: %s left on purpose", game.number, self.seats[seat].name)
                return False
            if isinstance(command, Abandon):
                if self.rated and seat not in self.absent:
                    # the player who stayed cannot end a rated match: the grace runs, then the other forfeits
                    self.seats[seat].notice(f"In a rated match the door waits for {self.seats[1 - seat].name}: "
                                            "if they do not come back in time, the match is yours by forfeit.")
                    continue
                if self.rated:  # a dropped player who gives the game up (N to "Go back to it?") forfeits it
                    self.left = seat
                    self._lose(seat)
                    log.info("game %d: %s gave up a rated match", game.number, self.seats[seat].name)
                    return False
                self.left = self.abandoned = seat
                log.info("game %d abandoned by %s", game.number, self.seats[seat].name)
                return False
            if isinstance(command, Leave):
                if (self.rejoin_timeout is not None and not self.absent and self.seats[seat].identity is None
                        and not self.against_computer(seat)):
                    self.left = self.forfeit = seat  # a guest cannot come back to a game: the other wins it
                    self.parting[1 - seat] = (f"{self.seats[seat].name}'s line dropped, and a guest cannot come "
                                              "back: you win by forfeit.")
                    log.info("game %d: %s (a guest) left: a forfeit", game.number, self.seats[seat].name)
                    return False
                if self.rejoin_timeout is None or self.absent or self.seats[seat].identity is None:
                    self.left = seat
                    log.info("game %d: %s left", game.number, self.seats[seat].name)
                    return False
                self.absent.add(seat)
                self.absent_until = self.clock() + self.rejoin_timeout
                other = self.seats[1 - seat]
                other.notice(f"{self.seats[seat].name}'s line dropped. The game waits up to "
                             f"{self.rejoin_timeout / 60:g} minutes for them to come back.")
                log.info("game %d: %s dropped; waiting %g s", game.number, self.seats[seat].name,
                         self.rejoin_timeout)
                continue
            if seat in self.absent:
                continue
            try:
                events = game.apply(command.action)
            except IllegalAction as exc:
                self.seats[seat].rejected(str(exc))
                continue
            if self.journal is not None:
                self.writing = True  # the game holds a move the store has not kept: screens wait
                try:
                    await self.journal.action(game)  # kept before anyone sees it
                except JournalError as exc:
                    self._hold(game, exc)  # the screens keep waiting: the move is never shown
                    return False
                self.writing = False
            self._broadcast(game, events)
        return True

    def _lose(self, seat: int) -> None:
        """``seat`` leaves a game against a person for good: in a rated
        match not yet dealt (its first hand unseen) that aborts the match,
        else the game (and a match) is lost by forfeit."""
        self.left = seat
        if self.rated and not self.series.dealt:
            self.aborted = seat
        else:
            self.forfeit = seat

    def _tell(self, text: str) -> None:
        """Say ``text`` to both players."""
        for seat in self.seats:
            seat.notice(text)

    def _hold(self, game: Game, exc: JournalError) -> None:
        """The store could not keep the move just applied: the match ends
        with the game as the store has it (``held`` says why), and every
        seat is told."""
        self.held = str(exc)
        log.error("game %d held after %d actions: %s", game.number, len(game.actions) - 1, exc)
        for seat in self.seats:
            seat.notice(HELD_MESSAGE)

    def _broadcast(self, game: Game, events: list[Event]) -> None:
        self.tally.feed(events)
        self.history.extend(events)
        if not self.auto_deal and any(isinstance(e, HandDealt) for e in events):
            self.dealt.clear()
        for seat in self.seats:
            seat.notify(game, events)
        for w in self.watchers:
            w.refresh(events)
