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
from typing import Any

from door.play.away_seat import away
from door.play.commands import Abandon, ChatLine, Command, Fault, Leave, Quit, Submit, TimeOut, Wake
from door.play.computer_pegs import check_hand_over, computer_play
from door.play.deals import Dealer, commitment_notice
from door.play.decision_clock import DecisionClocks, clock_notice, owed_decisions
from door.play.departures import departure, grace_over, warn_clock
from door.play.journal import HELD_MESSAGE, JournalError
from door.play.match_end import ended_early, finished, void
from door.play.seat import Seat, Watcher
from door.play.series import Series
from door.play.standing import Absence, Ending
from door.play.table_settings import SettingsReader, TableSettings
from door.records.store import SavedGame
from door.ui.words import strip_controls
from engine.actions import Action, IllegalAction
from engine.events import Event, HandDealt
from engine.forced import forced_action
from engine.game import Game, Phase, replay
from engine.objectives import WIN_CHANCE, Objective, rules_objective
from engine.rules import Rules
from engine.tally import GameTally

__all__ = ["Table", "Seat", "Watcher"]



log = logging.getLogger(__name__)


class Table(SettingsReader):
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
        self.clocks = DecisionClocks(settings.decision_clock) if settings.decision_clock is not None else None
        """The clock on each decision of a game between people
        (:mod:`door.play.decision_clock`), or ``None``."""
        self.chat_log: list[ChatLine] = []
        self.watchers: list[Watcher] = []
        self.away = Absence()
        """Who is away, since when and until when (:class:`~door.play.standing.Absence`)."""
        self.ending = Ending()
        """How the match ended when a player went or the door failed (:class:`~door.play.standing.Ending`)."""
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
        self.ended = asyncio.Event()
        """Set when :meth:`run` is over (the store written)."""
        if settings.auto_deal:
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
    def absent(self) -> set[int]:
        """The seats whose line dropped, that the table waits for (:attr:`away`)."""
        return self.away.seats

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

    def leave(self, seat: int, holder: Seat | None = None) -> None:
        """``seat`` has gone (hung up, or its session ended for any
        reason, an exception included): as a dropped line, the other
        player is told at once and the grace runs for this seat.
        ``holder``: the seat whose session ended; nothing happens when
        another has taken the place since (the player came back)."""
        if holder is not None and self.seats[seat] is not holder:
            return
        self._queue.put_nowait(Leave(seat))

    def leave_seat(self, holder: object) -> None:
        """The session that held ``holder`` ended, however it ended: if
        ``holder`` still sits here, it leaves as a dropped line does
        (:meth:`leave`).  The lobby calls this when any connection ends,
        so no presentation can forget it."""
        for index, seat in enumerate(self.seats):
            if seat is holder and not self.ended.is_set():
                self.leave(index, seat)

    def fault(self, seat: int) -> None:
        """The door failed while telling ``seat`` what happened (its
        presentation raised): a rated match is void, charging nobody;
        another game goes on as if the line had dropped."""
        self._queue.put_nowait(Fault(seat))

    def awaits(self, seat: int) -> bool:
        """True unless ``seat``'s player is only waiting on the other's
        decision (or for the other to come back): a player who waits is
        never idle-timed out."""
        game = self.game
        if game is None or game.over or self.ended.is_set():
            return True
        if self.absent and seat not in self.absent:
            return False
        if not self.dealt.is_set():
            return seat == game.dealer or self.against_computer(seat)
        return seat in game.to_act()

    @property
    def ticking(self) -> bool:
        """True while a countdown runs: an absent player's grace, or a
        decision's clock (screens tick once a second then)."""
        return bool(self.absent) or (self.clocks is not None and bool(self.clocks.running()))

    def clock_left(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s decision clock, or ``None`` (no clock
        here, or it owes no decision)."""
        return self.clocks.left(seat, self.clock()) if self.clocks is not None else None

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
        for index in (0, 1):
            try:
                self.seats[index].on_chat(line)
            except Exception:  # what the sender wrote broke a presentation: the sender's fault, their seat leaves
                log.exception("the chat line of %s could not be shown to %s", self.seats[seat].name,
                              self.seats[index].name)
                self.leave(seat)
                return
        for w in self.watchers:
            w.refresh([])

    def rejoin(self, seat: int, new: Seat) -> None:
        """An absent player is back with a new seat (a new connection): it
        gets the whole game so far, and the other player is told."""
        if seat not in self.absent and not away(self.seats[seat]):
            raise ValueError(f"seat {seat} is not absent")
        self.seats[seat] = new
        new.attach(self, seat)
        self.absent.discard(seat)
        if seat in self.away.expected:  # (called to the table: the wait for them was not their grace)
            self.away.expected.discard(seat)
        else:
            self.away.grace_used[seat] += max(0.0, self.clock() - self.away.since)
        if self.clocks is not None and not self.absent:
            self.clocks.resume(self.clock())  # the clocks go on with the time they had
            self._queue.put_nowait(Wake())
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
        if self.clocks is not None:
            self._tell(clock_notice(self.clocks.terms, self.terms is not None))
        try:
            await self._run(resume)
        except Exception:  # the door's own failure: nobody is charged for it
            log.exception("the table of %s and %s failed", self.seats[0].name, self.seats[1].name)
            self.ending.voided = True
            await void(self)
        finally:
            for seat in self.seats:
                seat.finish()
            self.ended.set()

    async def _run(self, resume: SavedGame | None) -> None:
        """The deal loop: a game begun (the first ``resume``d), played
        to its end, then what follows it, until the table is done."""
        while True:
            begun = await self._begin(resume)
            resume = None
            if begun is None:
                return  # (the store could not keep the new game: held)
            game, events, underway = begun
            self.game = game
            self.tally = GameTally()
            self.history = []
            if not await self._play(game, events, underway):
                await ended_early(self, game)
                return
            if not await finished(self, game):
                return

    async def _begin(self, resume: SavedGame | None) -> tuple[Game, list[Event], bool] | None:
        """The next game, its first events, and whether its hand was
        dealt already (a ``resume``d game goes on where it was; a new one
        is dealt, kept, and its shuffle's commitment told); ``None`` when
        the store could not keep it (the match is held)."""
        if resume is not None:
            game, events = replay(resume.rules, resume.number, resume.actions, resume.first_dealer, resume.shuffle)
            self.series.match.games.append(game)
            self.series.resumed(resume.match_points)
            if self.journal is not None:
                self.journal.resume(resume)
            log.info("game %d resumed after %d actions", game.number, len(game.actions))
            return game, events, game.phase is not Phase.DISCARD or any(len(h) < 6 for h in game.hands)
        game = self.dealer.next_game(self.series.match, (self.seats[0].shuffle_seed, self.seats[1].shuffle_seed),
                                     self._tell)
        events = game.start()
        if self.journal is not None:
            try:
                await self.journal.start(game, self.series.carried())
            except JournalError as exc:
                self.ending.held = str(exc)
                self._tell(HELD_MESSAGE)
                return None
        log.info("game %d starts: %s vs %s", game.number, self.seats[0].name, self.seats[1].name)
        if game.shuffle is not None:
            for i, seat in enumerate(self.seats):
                seat.notice(commitment_notice(game.shuffle, game.shuffle.player_seeds[i], self.sealed))
        return game, events, False

    async def ask_again(self) -> list[bool]:
        """Ask both players whether to play another game (a rematch): their
        answers, seat 0 first (both no when a player leaves meanwhile)."""
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
            if not isinstance(command, Submit | Wake | TimeOut):
                self.ending.left = command.seat
                return

    async def _play(self, game: Game, events: list[Event], underway: bool = False) -> bool:
        """Play ``game`` (whose first ``events`` are given) to its end;
        False when it ended early (a seat left, a clock ran out, the door
        failed, or it was abandoned).  ``underway``: the hand on the table
        was dealt already (a resumed game)."""
        self._broadcast(game, events)
        if underway or self.auto_deal:
            self.series.dealt = True
        if underway:
            self.dealt.set()
            self._broadcast(game, [])
        while not game.over:
            if self.settings.by_turns and (made := await computer_play(game, self.objective)) is not None:
                if not await self._apply(game, made.seat, made, by_door=True):  # (a hand let to the computer)
                    return False
                continue
            if self.settings.by_turns and self._waits_on_away(game):
                self.ending.waiting = True  # (kept as it stands: the next move is an away player's)
                return False
            command = await self._next_command()
            if command is None:  # the grace ran out
                return grace_over(self, game)
            seat = command.seat
            if isinstance(command, Wake):
                continue
            if isinstance(command, Submit):
                if seat in self.absent:
                    continue
                if not await self._apply(game, seat, command.action):
                    return False
                continue
            handled = departure(self, game, command)
            if handled is not None:
                return handled
        return True

    async def _next_command(self) -> Command | None:
        """The next command of the queue; a :class:`TimeOut` when a
        decision clock runs out first (its warnings are said on the way);
        ``None`` when an absent player's grace runs out first.  A command
        already queued always comes first: a move that arrived in time is
        never timed out by a door slow to take it."""
        while True:
            if not self._queue.empty():
                return self._queue.get_nowait()
            now = self.clock()
            waits = []
            if self.absent:
                waits.append(max(0.0, self.away.until - now))
            if self.clocks is not None and (wake := self.clocks.next_wake(now)) is not None:
                waits.append(wake)
            try:
                return await asyncio.wait_for(self._queue.get(), min(waits) if waits else None)
            except TimeoutError:
                now = self.clock()
                if not self._queue.empty():
                    continue
                if self.absent and now >= self.away.until:
                    return None
                if self.clocks is not None:
                    warn, out = self.clocks.due(now)
                    for seat in warn:
                        warn_clock(self, seat, now)
                    if out:
                        return TimeOut(out[0])

    async def _apply(self, game: Game, seat: int, action: Action, by_door: bool = False) -> bool:
        """Apply ``seat``'s move (and the forced moves it leaves, where the
        table makes them): refused, or kept in the store and then shown;
        False when the store could not keep it (the match is held)."""
        try:
            check_hand_over(action, game, self.settings.by_turns, by_door)
            events = game.apply(action)
        except IllegalAction as exc:
            self._tell_seat(seat, "rejected", str(exc))
            return True
        if not await self._keep(game):
            return False
        while self.settings.forced_moves and (forced := self._forced(game)) is not None:
            events += game.apply(forced)  # (made at once: only real decisions wait, and nobody is asked this one)
            if not await self._keep(game):
                return False
        self._broadcast(game, events)
        return True

    async def _keep(self, game: Game) -> bool:
        """Keep the game's latest move in the store before anyone sees it;
        False (the match held, the screens kept waiting: the move is never
        shown) when the store cannot."""
        if self.journal is None:
            return True
        self.writing = True  # the game holds a move the store has not kept: screens wait
        try:
            await self.journal.action(game)
        except JournalError as exc:
            self._hold(game, exc)
            return False
        self.writing = False
        return True

    def _waits_on_away(self, game: Game) -> bool:
        """True when every decision the game waits for is an away player's."""
        owed = game.to_act()
        return bool(owed) and all(away(self.seats[seat]) for seat in owed)

    def _forced(self, game: Game) -> Action | None:
        """A move a person at this table has no choice about now (a sole
        playable card: :func:`~engine.forced.forced_action`), or ``None``;
        the computer makes its own."""
        return next((action for seat in game.to_act() if not self.seats[seat].computer
                     and (action := forced_action(game, seat)) is not None), None)

    def _tell(self, text: str) -> None:
        """Say ``text`` to both players."""
        for seat in self.seats:
            seat.notice(text)

    def _hold(self, game: Game, exc: JournalError) -> None:
        """The store could not keep the move just applied: the match ends
        with the game as the store has it (``held`` says why), and every
        seat is told."""
        self.ending.held = str(exc)
        log.error("game %d held after %d actions: %s", game.number, len(game.actions) - 1, exc)
        for seat in self.seats:
            seat.notice(HELD_MESSAGE)

    def _broadcast(self, game: Game, events: list[Event]) -> None:
        self.tally.feed(events)
        self.history.extend(events)
        if not self.auto_deal and any(isinstance(e, HandDealt) for e in events):
            self.dealt.clear()
        if self.clocks is not None and self.clocks.follow(owed_decisions(game, self.dealt.is_set()), self.clock()):
            self._queue.put_nowait(Wake())  # (a clock started: the loop looks at when to wake again)
        for index in (0, 1):
            self._tell_seat(index, "notify", game, events)
        for w in self.watchers:
            w.refresh(events)

    def _tell_seat(self, index: int, what: str, *args: Any) -> None:
        """Call seat ``index``'s method ``what``: a seat that raises is the
        door's failure, never the game's end for the other player
        (:meth:`fault`)."""
        try:
            getattr(self.seats[index], what)(*args)
        except Exception:
            log.exception("the seat of %s failed (%s)", self.seats[index].name, what)
            self.fault(index)
