"""The notes of advice a player is given during a game where hints are
given (against the computer always): the analysis of their discard,
said when the hand is over, and the pegging note of each hand, what each
side left in its play with both hands known.  Both are worked out where
the computer thinks, off the event loop; a note that cannot be worked
out is left unsaid (advice, not the game).  A mixin of the human seat
(:class:`~door.play.human_seat.HumanSeat`), which supplies the seat's
table, index, view and prompt."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from door.play.controller import Seating
from door.play.hints import discard_analysis, hand_play, pegging_note
from door.play.thinking import Thinking
from door.play.view_state import ViewState
from engine.actions import Discard
from engine.game import Game

__all__ = ["Advising"]

log = logging.getLogger("door.play.human_seat")


class Advising:
    """The advice part of a human seat: ``thinking`` is where the door's
    computer thinks (the notes are worked out there)."""

    spoken_advice = False
    """Advice (the discard analysis, the pegging note) in spoken words:
    cards named in full and said once (the line presentation)."""

    table: Any
    index: int
    vs: ViewState
    done: asyncio.Future[None]

    def __init__(self, thinking: Thinking) -> None:
        self.thinking = thinking
        self._notes: set[asyncio.Task[str]] = set()
        self._note: tuple[int, asyncio.Task[str]] | None = None
        """The pegging note being worked out since its hand's play ended: (hand, task)."""
        self._analysed: tuple[Game, int] | None = None
        """The game, and its number of actions, when a discard analysis was last asked for."""

    def seating(self) -> Seating:
        """Where the table stands (the seat's)."""
        raise NotImplementedError

    def names(self) -> list[str]:
        """Both players' names (the seat's)."""
        raise NotImplementedError

    def _now(self) -> float:
        raise NotImplementedError

    def _update(self) -> None:
        raise NotImplementedError

    def _work_out_note(self, game: Game, hand: int) -> asyncio.Task[str] | None:
        """Start working out the pegging note of ``hand`` where the
        computer thinks (about 1.5 ms of search, off the event loop);
        ``None`` where no hints are given or the hand is gone."""
        call = self._note_call(game, hand)
        return None if call is None else self._advise(call)

    def _note_call(self, game: Game, hand: int) -> Callable[[], str] | None:
        """The pure call that words the pegging note of ``hand``; ``None``
        where no hints are given or the hand is gone."""
        play = hand_play(game, hand) if hand >= 1 and self.seating().hints else None
        return None if play is None else partial(pegging_note, game.rules, hand, *play, self.index,
                                                 self.names()[1 - self.index], self.spoken_advice)

    def _advise(self, call: Callable[[], str]) -> asyncio.Task[str]:
        """Start working out a note of advice, ``call()`` (picklable), where
        the computer thinks; the task is kept until it ends (a failure
        gives an empty note, :meth:`_note_of`)."""
        task = asyncio.create_task(self._note_of(call))
        self._notes.add(task)
        task.add_done_callback(self._notes.discard)
        return task

    def _analyse_discard(self, game: Game, discard: Discard) -> None:
        """Work out the analysis of the caller's discard (Cribbage Partner's
        recommendations, after the fact: :func:`door.play.hints.discard_analysis`,
        about half a millisecond) where the computer thinks, off the event
        loop: it is said when the hand is over (:meth:`notify`, at the
        next deal), or as soon as it is ready after that."""
        hand = game.hand_number
        asked = (game, len(game.actions))
        if self._analysed is not None and self._analysed[0] is game and self._analysed[1] == asked[1]:
            return  # one a discard, however many times a burst of keys submits it before it is applied
        self._analysed = asked
        task = self._advise(partial(discard_analysis, tuple(game.hands[self.index]), discard.cards,
                                    game.dealer == self.index, self.spoken_advice))

        def ready(task: asyncio.Task[str]) -> None:
            if task.cancelled() or not task.result():
                return
            game = self.table.game if self.table is not None else None
            if game is not None and game.hand_number == hand and not game.over:
                self.vs.discard_note = task.result()  # said at the next deal
            else:
                self._say_note(task.result(), later=True)  # the hand ended first

        task.add_done_callback(ready)

    async def _note_of(self, call: Callable[[], str]) -> str:
        try:
            return await self.thinking.run(call)
        except Exception:  # the note is advice: the game goes on without it
            log.warning("a note of advice (the pegging, a discard) could not be worked out", exc_info=True)
            return ""

    def _pegging_note(self, game: Game, hand: int) -> None:
        """After hand ``hand`` (at the next deal): what each side left in
        its play, with both hands known, where hints are
        given.  Worked out since the play ended (:meth:`notify` starts it
        with the show), so it is usually ready and said here, before the
        new hand's lines; otherwise as soon as it is."""
        started = self._note if self._note is not None and self._note[0] == hand else None
        self._note = None
        task = started[1] if started is not None else self._work_out_note(game, hand)
        if task is None:
            return
        if task.done():
            self._say_note(task.result())
        else:
            task.add_done_callback(self._say_when_done)

    def _say_when_done(self, task: asyncio.Task[str]) -> None:
        if not task.cancelled():  # (cancelled: the door is stopping)
            self._say_note(task.result(), later=True)

    def _say_note(self, note: str, later: bool = False) -> None:
        if note and self.table is not None and not self.done.done():
            self.advise(note)
            if later:
                self._update()

    def advise(self, note: str) -> None:
        """A note of advice (the discard analysis, the pegging note), in
        the chat window and the messages; in the chat window only once the
        game is over (a note worked out after the last hand ended would
        push the game's result out of the messages, where the caller reads
        it)."""
        self.vs.add_chat((self._now(), "***", note))
        game = self.table.game if self.table is not None else None
        if game is None or not game.over:
            self.vs.say(note)
