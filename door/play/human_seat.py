"""A human at a terminal, seated at a table: it tells the screen what
happened (:meth:`HumanSeat.notify`), runs the player's keys through the
pure controller (:mod:`door.play.controller`) and carries out the intents
at the table."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from door.net.keys import Key
from door.net.terminal import HungUp
from door.play import controller
from door.play.advice import Advising
from door.play.commands import ChatLine
from door.play.controller import Abandon, Again, Beep, Deal, Intent, Leave, Release, Say, Seating, SetSeed, Submit
from door.play.deals import new_seed, reveal_notice
from door.play.decision_clock import shown_clock
from door.play.game_view import paint_game
from door.play.options import CallerOptions, Pace
from door.play.table import Table
from door.play.thinking import IN_THREAD, Thinking
from door.play.view_state import Mode, ViewState
from door.records.clock import WALL
from door.records.identity import Identity
from door.ui.canvas import Canvas
from door.ui.display import Display
from door.ui.words import describe
from engine.actions import Discard
from engine.events import (
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    scored,
)
from engine.game import Game, Phase
from engine.shuffle import player_seed

log = logging.getLogger(__name__)

__all__ = ["HumanSeat", "FAILURE"]

FAILURE = ("The door could not show the game (what went wrong is logged for the sysop), so you are back at the "
           "main menu. A registered caller's game is kept: the menu offers it.")
"""What a player is told when their seat's presentation failed."""


class HumanSeat(Advising):
    """A caller (or the sysop) at a terminal.

    ``display``: the session's :class:`Display`; ``name``: shown to the
    opponent; ``options``: the player's :class:`CallerOptions`;
    ``chat_limit``: the longest chat line, in characters.  :meth:`play`
    reads keys until the table is done with the seat or the connection ends
    (then the table is told the player left); ``done`` is set when the seat
    is finished with.
    """

    computer = False

    def __init__(self, display: Display, name: str, options: CallerOptions | None = None,
                 chat_limit: int = 70, identity: Identity | None = None, hand_pause: float = 0.0,
                 session_seed: str | None = None, thinking: Thinking = IN_THREAD) -> None:
        self.display = display
        Advising.__init__(self, thinking)
        self.session_seed = session_seed or new_seed()
        """The player seed drawn for this caller's session (64 hex digits),
        used while the caller has typed none (:attr:`shuffle_seed`)."""
        self.name = name
        self.hand_pause = hand_pause
        """Seconds the end of a hand (the crib's count and its verdict)
        stays on screen before chat mode, with the "pause" pace; the
        "prompt" pace waits for a key instead."""
        self.identity = identity
        """Who sits here as the transport proved it (an account or a
        sysop: :class:`~door.records.identity.Identity`); ``None`` for a guest, whose dropped seat
        nobody can take back (:meth:`door.sysop.lobby.Lobby.waiting_table`)."""
        self.chat_limit = chat_limit
        self.vs = ViewState(options=options or CallerOptions())
        self.table: Table | None = None
        self.index = 0
        self.done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self._again: asyncio.Future[bool] | None = None
        self._leaving = False
        self.failure: str | None = None
        """What the player is told when this seat's presentation failed (:meth:`fail`), else ``None``."""

    @property
    def shuffle_seed(self) -> str:
        """This player's part of a verifiable shuffle (64 hex digits): the
        seed typed in the options (:func:`~engine.shuffle.player_seed`), else
        the session's."""
        typed = self.vs.options.shuffle_seed
        return player_seed(typed) if typed else self.session_seed

    # -- the table's side -----------------------------------------------------

    def _now(self) -> float:
        """The table's clock (seconds since the epoch)."""
        return self.table.clock() if self.table is not None else WALL()

    def attach(self, table: Table, index: int) -> None:
        self.table, self.index = table, index
        self.vs.computer = table.against_computer(index)
        if table.terms is not None and (table.terms.best_of > 1 or table.terms.rated):
            self.vs.series = table.series.score_words()
        self.display.painter = self._paint
        self.display.hold = lambda: table.writing
        self.display.terminal.awaited = lambda: table.awaits(index)  # (waiting on the other is never idleness)

    @property
    def game(self) -> Game:
        assert self.table is not None and self.table.game is not None
        return self.table.game

    def names(self) -> list[str]:
        assert self.table is not None
        return [s.name for s in self.table.seats]

    def seating(self) -> Seating:
        """Where the table stands, for the controller."""
        table = self.table
        assert table is not None
        names = self.names()
        absent = (1 - self.index) in table.absent
        computer = table.against_computer(self.index)
        return Seating(self.index, (names[0], names[1]), computer=computer,
                       dealt=table.dealt.is_set(), absent=absent,
                       seconds_left=max(0, int(table.away.until - table.clock())) if absent else 0,
                       asking_again=self._again is not None and not self._again.done(), leaving=self._leaving,
                       hints=computer or table.hints, again_question=table.series.again_question(),
                       leave_question=table.leave_question(self.index), rated=table.rated,
                       by_turns=table.settings.by_turns)

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """``events`` happened in ``game``: told in this seat's presentation.
        A presentation that fails is logged and the player leaves the table
        for the menu (:meth:`fail`), never the line dropped nor the table
        stopped for the other player."""
        if self.failure is not None:
            return
        try:
            self._notify(game, events)
        except Exception:
            self.fail(f"telling {events!r}", fault=True)
            return
        if self.table is not None and self.table.clocks is not None:
            self.display.terminal.wake()  # (a decision's clock may have started: the key loop ticks)

    def fail(self, doing: str, fault: bool = False) -> None:
        """The presentation failed while ``doing`` something: logged; the
        seat leaves the table as when the line drops, or for a ``fault``
        (the door failed telling what happened, not on the player's key)
        as :meth:`~door.play.table.Table.fault` says; the session shows
        :data:`FAILURE` at the menu."""
        if self.failure is not None:
            return
        log.exception("the %s presentation of %s failed %s", self.display.presentation.value, self.name, doing)
        self.failure = FAILURE
        if self.table is not None:
            if fault:
                self.table.fault(self.index)
            else:
                self.table.leave(self.index, self)
        if not self.done.done():
            self.done.set_result(None)

    def _other_laid_away(self, game: Game, events: Sequence[Event]) -> bool:
        """Whether ``events`` are only the other player laying away while
        this one still has to: what this player was told of their own
        discard (a hint, a key's help) still holds, and stays on screen
        (the computer thinking a while over its discard wiped a hint asked
        meanwhile)."""
        return (game.phase is Phase.DISCARD and self.index in game.to_act()
                and all(isinstance(e, Discarded) and e.seat != self.index for e in events))

    def _notify(self, game: Game, events: Sequence[Event]) -> None:
        vs = self.vs
        assert self.table is not None
        if game.phase is Phase.SHOW and (self._note is None or self._note[0] != game.hand_number):
            task = self._work_out_note(game, game.hand_number)  # the play is over: its note, by the next deal
            self._note = (game.hand_number, task) if task is not None else None
        if events and not self._other_laid_away(game, events):
            vs.hint = []
            vs.note, vs.note_mode = "", None  # a hint or a key's help belongs to the state before
        for event, lines in zip(events, self.event_lines(game, events)):
            vs.say(*self._told(game, event, lines))
        pegging, hand = scored(events)
        if vs.options.beep and (pegging or hand or any(isinstance(e, GoDeclared) for e in events)):
            self.display.terminal.write(b"\x07")
        if vs.options.pace is Pace.PROMPT and (pegging or hand) and not game.over and any(
                self.table.seats[s].computer for s in game.to_act()):
            self._hold()
        self._update()

    def _told(self, game: Game, event: Event, lines: list[str]) -> list[str]:
        """What ``event`` does to the screen beside its ``lines``, and the
        lines said for it (a game's end says more before its result)."""
        vs = self.vs
        if isinstance(event, HandReplayed):
            vs.review, vs.counted, vs.recap = [], [], None
        elif isinstance(event, HandDealt):
            self._hand_dealt(game, event)
        elif isinstance(event, HandCounted):
            vs.counted.append(event)
        elif isinstance(event, CutForDeal):
            vs.cut = " ".join(lines[-2:])  # the cut that decided
        elif isinstance(event, GameOver):
            return [*self._game_over(game), *lines]
        return lines

    def _hand_dealt(self, game: Game, event: HandDealt) -> None:
        """A new hand: the last one's counts stay as the review above the
        chat (a moment on screen first), the bar goes back, and the notes
        of advice on the hand before are said."""
        vs = self.vs
        assert self.table is not None
        hands = self.table.tally.hands
        vs.review, vs.recap = [], None
        if vs.counted:
            vs.review = vs.counted
            finished = [h for h in hands if h.number == event.number - 1]
            vs.recap = finished[-1] if finished else None
        if vs.counted and not game.over:
            self._linger()  # the last count and its verdict stay on screen a moment
        vs.counted, vs.selected, vs.cursor = [], [], 0
        vs.replayed_hand = bool(hands) and hands[-1].replayed
        if vs.discard_note:
            self.advise(vs.discard_note)
            vs.discard_note = ""
        self._pegging_note(game, event.number - 1)

    def _game_over(self, game: Game) -> list[str]:
        """The game is over: the last hand's pegging note is said at once,
        and the lines that come before the result (which stays the last
        line of the message area however the area pages): the seed, and
        where the review is."""
        vs, table = self.vs, self.table
        assert table is not None
        vs.review, vs.counted = [], []
        vs.match_points = table.series.points()
        vs.series = table.series.score_words()
        self._note = None  # (one being worked out since the show is not waited for)
        call = self._note_call(game, game.hand_number)
        if call is not None:  # at once: the result stays the last line
            self._say_note(call())
        before = []
        if game.shuffle is not None and table.sealed is not None:
            before.append(f"The door's seed of this deal is shown once {table.sealed} is over.")
        elif game.shuffle is not None:
            before.append(self.shuffle_words(reveal_notice(game.shuffle)))
            before.append(self.shuffle_words("It is also the SHA-256 of the next game's seed here: set your "
                                             "seed at the question first if you like."))
        if table.journal is not None and table.journal.keeps_for(self.index):
            before.append(f"Game #{game.number} is reviewed, decision by decision, under 5 Recent games.")
        return [line for line in before if line]

    def shuffle_words(self, text: str) -> str:
        """A shuffle's seeds as this presentation says them (in full here)."""
        return text

    def event_lines(self, game: Game, events: Sequence[Event]) -> list[list[str]]:
        """The lines each of ``events`` is told in, in order (``game``: as
        it stands after them)."""
        return [self.words(event) for event in events]

    def words(self, event: Event) -> list[str]:
        """``event`` in the message area's words (:func:`~door.ui.words.describe`)."""
        return describe(event, self.index, self.names(), self.vs.options.sort)

    def rejected(self, message: str) -> None:
        self.vs.say(f"Not allowed: {message}")
        self._update()

    def notice(self, text: str) -> None:
        """Show ``text`` in the message area and the chat window (from the
        door, not the game)."""
        self.vs.say(text)
        self.vs.add_chat((self._now(), "***", text))
        if self.table is not None and self.table.game is not None:
            self._update()
        if self._clock() is not None:
            self.display.terminal.wake()  # the opponent's line dropped: the countdown starts

    def on_chat(self, line: ChatLine) -> None:
        self.vs.add_chat(line)
        if line[1] != self.name and self.vs.mode is not Mode.CHAT and not self.vs.chatting:
            self.vs.say(f"{line[1]} says: {line[2]}")
        if self.table is not None and self.table.game is not None:
            self._update()

    def finish(self) -> None:
        self.display.terminal.awaited = None
        if not self.done.done():
            self.done.set_result(None)
        if self._again is not None and not self._again.done():
            self._again.set_result(False)

    async def play_again(self) -> bool:
        self._again = asyncio.get_running_loop().create_future()
        self._update()
        try:
            return await self._again
        finally:
            self._again = None

    def _linger(self) -> None:
        """Keep the show on screen before chat mode: until a key (prompt
        pace) or for :attr:`hand_pause` seconds (a key ends it sooner)."""
        vs = self.vs
        if vs.options.pace is not Pace.PROMPT and self.hand_pause <= 0:
            return
        vs.lingering = True
        if vs.options.pace is not Pace.PROMPT:
            asyncio.get_running_loop().call_later(self.hand_pause, self._stop_lingering)

    def _stop_lingering(self) -> None:
        if self.vs.lingering:
            self.vs.lingering = False
            self._update()

    def _hold(self) -> None:
        """Hold the computer until this player presses a key (prompt pace)."""
        assert self.table is not None
        self.vs.holding = True
        self.table.go_on.clear()

    def _release(self) -> None:
        assert self.table is not None
        self.vs.holding = False
        self.table.go_on.set()

    # -- the screen -------------------------------------------------------------

    def _paint(self, canvas: Canvas) -> None:
        if self.table is not None and self.table.game is not None:
            paint_game(canvas, self.table.game, self.index, self.names(), self.vs)

    def _update(self) -> None:
        """Work out the mode and prompt from the game now (the next key
        depends on them), and redraw once the current key or move is done."""
        if self.table is None or self.table.game is None:
            return
        controller.prompt_for(self.vs, self.game, self.seating())
        self.vs.clock = shown_clock(self.table.clocks, self.table.clock(), self.index, self.names())
        self.display.refresh_soon()

    # -- keys -------------------------------------------------------------------

    async def play(self) -> None:
        """Handle this player's keys until the seat is done.  Raises
        :class:`~door.net.terminal.HungUp` when the line ends (the seat
        has left the table then: see :meth:`run`)."""
        keys = asyncio.ensure_future(self.run())
        try:
            await asyncio.wait({keys, self.done}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            keys.cancel()
        if keys.done() and not keys.cancelled():
            keys.result()  # the key loop's HungUp, if the line ended

    async def run(self) -> None:
        """Read and handle keys until the seat is done; the countdown of an
        absent opponent ticks once a second.  When the line ends the seat
        leaves the table (which waits for the player to come back, where it
        can) and :class:`~door.net.terminal.HungUp` goes on up."""
        try:
            async for key in self.display.keys(tick=self._clock):
                if self.done.done():
                    return
                if key is None:
                    if self.table is not None and self.table.ticking:
                        self._update()
                    continue
                try:
                    self.handle(key)
                except Exception:
                    self.fail(f"on the key {key!r}")
                    return
        except HungUp:
            if self._again is not None and not self._again.done():
                self._again.set_result(False)
            if self.table is not None:
                self.table.leave(self.index, self)
            if not self.done.done():
                self.done.set_result(None)
            raise

    def _clock(self) -> float | None:
        """Seconds between ticks of the key loop: one while an absent
        opponent's countdown or a decision's clock runs, else none (a
        waiting player costs the door nothing)."""
        return 1.0 if self.table is not None and self.table.ticking else None

    def handle(self, key: Key) -> None:
        """React to one key (not Ctrl-L or a resize: the display took those)."""
        if self.table is None or self.table.game is None:
            return
        intents = controller.handle_key(self.vs, self.game, self.seating(), key, self.chat_limit)
        for intent in intents:
            self._carry_out(intent)
        self._update()

    def _carry_out(self, intent: Intent) -> None:
        table = self.table
        assert table is not None
        if isinstance(intent, Submit):
            if isinstance(intent.action, Discard) and table.game is not None and self.seating().hints:
                self._analyse_discard(table.game, intent.action)
            table.submit(self.index, intent.action)
        elif isinstance(intent, Deal):
            why = table.deal(self.index)
            if why:  # in the chat window, where the player is: not left in the messages after the deal
                self.vs.add_chat((self._now(), "***", why))
        elif isinstance(intent, Say):
            table.chat(self.index, intent.text)
        elif isinstance(intent, Leave):
            self._leaving = intent.asking
            if intent.confirmed:
                table.quit(self.index)
        elif isinstance(intent, Abandon):
            table.abandon(self.index)
        elif isinstance(intent, Again):
            if self._again is not None and not self._again.done():
                self._again.set_result(intent.yes)
        elif isinstance(intent, SetSeed):
            self.vs.options.shuffle_seed = intent.text  # (the session keeps it with the caller's options)
            self.vs.tell(f"Your seed is now {intent.text!r}." if intent.text else
                         "Your seed is one drawn for this call.")
        elif isinstance(intent, Release):
            self._release()
        elif isinstance(intent, Beep) and self.vs.options.beep:
            self.display.terminal.write(b"\x07")
