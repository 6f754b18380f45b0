"""The seats at a table: a human at a terminal, and the computer.

A seat is told what happened (:meth:`notify`, after every action) and sends
its actions to the table with ``table.submit(seat, action)``.  The computer
answers as soon as the game waits for it (after ``delay`` seconds, so that a
person can follow); the human's keys drive a small controller over the game
screen (:mod:`door.play.game_view`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol, Sequence

from engine.cards import Card
from engine.actions import Claim, Discard, Play, ReplayHand
from engine.events import (CardPlayed, Event, GameOver, GoDeclared, HandCounted, HandDealt, HandReplayed, PlayPoint, StarterTurned)
from engine.game import Game, Phase
from engine.scoring import MAX_SHOW_POINTS
from engine.hard import HardPlayer, rank_discards
from engine.strategy import Strategy, choose_action, situation

from door.ui.display import Display
from door.play.options import CallerOptions, Pace
from door.ui.screen import Canvas
from door.play.game_view import Mode, ViewState, my_cards, paint_game
from door.net.keys import Key, KeyName
from door.ui.words import card_text, cards_text, describe

if TYPE_CHECKING:
    from door.play.table import Table

__all__ = ["Seat", "ComputerSeat", "HumanSeat"]

log = logging.getLogger("door.play.seats")


class Seat(Protocol):
    """What a table needs of a seat."""

    name: str

    def attach(self, table: "Table", index: int) -> None:
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


def scored(events: Sequence[Event]) -> tuple[bool, bool]:
    """Whether ``events`` hold (a pegging score, a hand or crib that scored)."""
    pegging = any((isinstance(e, CardPlayed) and e.points) or isinstance(e, PlayPoint)
                  or (isinstance(e, StarterTurned) and e.heels) for e in events)
    hand = any(isinstance(e, HandCounted) and e.show.total for e in events)
    return pegging, hand


def discard_analysis(hand: Sequence[Card], thrown: tuple[Card, Card], dealer: bool) -> str:
    """The one-line discard analysis shown after the hand (seed 003's
    recommendations, after the fact): "You kept 4♦ 5♠ 6♦ J♣: 9.4 expected;
    best was 5♥ 5♠ 6♦ J♣: 10.1"."""
    choices = rank_discards(hand, dealer)
    mine = next(c for c in choices if set(c.thrown) == set(thrown))
    best = choices[0]
    kept = cards_text(sorted(mine.kept))
    net = "" if dealer else " net of their crib"
    if set(best.thrown) == set(thrown) or best.value - mine.value < 0.05:
        return f"You kept {kept}: {mine.value:.1f} expected{net}, as good as any discard."
    return (f"You kept {kept}: {mine.value:.1f} expected{net}; "
            f"best was {cards_text(sorted(best.kept))}: {best.value:.1f}.")


class ComputerSeat:
    """The computer: plays ``strategy`` (a :class:`HardPlayer` by default)
    after ``delay`` seconds per action, and with the "pause" pace waits
    ``pegging_pause`` seconds more after a pegging score and ``hand_pause``
    after a hand that scored (seed 003); it also waits while the table holds
    play for the caller to read a score.  It always counts exactly."""

    def __init__(self, name: str = "Computer", strategy: Strategy | None = None, delay: float = 0.6,
                 pegging_pause: float = 0.0, hand_pause: float = 0.0) -> None:
        self.name = name
        self.strategy: Strategy = strategy or HardPlayer()
        self.delay = delay
        self.pegging_pause = pegging_pause
        self.hand_pause = hand_pause
        self.table: Table | None = None
        self.index = 1
        self._task: asyncio.Task[None] | None = None
        self._pause = 0.0

    def attach(self, table: "Table", index: int) -> None:
        self.table, self.index = table, index

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        pegging, hand = scored(events)
        self._pause = max(self._pause, self.hand_pause if hand else 0.0, self.pegging_pause if pegging else 0.0)
        if self.index in game.to_act() and self._task is None:
            self._task = asyncio.create_task(self._act(game))

    async def _act(self, game: Game) -> None:
        await asyncio.sleep(self.delay + self._pause)
        self._pause = 0.0
        assert self.table is not None
        await self.table.go_on.wait()
        await self.table.dealt.wait()
        action = choose_action(game, self.index, self.strategy)
        self._task = None
        assert self.table is not None
        self.table.submit(self.index, action)

    def rejected(self, message: str) -> None:
        log.error("computer action refused: %s", message)

    async def play_again(self) -> bool:
        return True

    def on_chat(self, line: tuple[float, str, str]) -> None:
        pass

    def notice(self, text: str) -> None:
        pass

    def finish(self) -> None:
        self.stop()

    def stop(self) -> None:
        """Cancel a pending move (the table is closing)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None


_LEFT = {KeyName.LEFT, KeyName.UP}
_RIGHT = {KeyName.RIGHT, KeyName.DOWN}
_DELETE = {KeyName.DELETE, KeyName.BACKSPACE}


class HumanSeat:
    """A caller (or the sysop) at a terminal.

    ``display``: the session's :class:`Display`; ``name``: shown to the
    opponent; ``options``: the player's :class:`CallerOptions`.
    :meth:`play` reads keys until the table is done with the seat or the
    connection ends (then the table is told the player left); ``done`` is
    set when the seat is finished with.
    """

    def __init__(self, display: Display, name: str, options: CallerOptions | None = None,
                 chat_limit: int = 70) -> None:
        self.display = display
        self.name = name
        self.chat_limit = chat_limit
        self.vs = ViewState(options=options or CallerOptions())
        self.table: Table | None = None
        self.index = 0
        self.done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self._again: asyncio.Future[bool] | None = None
        self._leaving = False
        self._discard_note = ""

    # -- the table's side -----------------------------------------------------

    def attach(self, table: "Table", index: int) -> None:
        self.table, self.index = table, index
        self.vs.computer = table.against_computer(index)
        self.display.painter = self._paint

    @property
    def game(self) -> Game:
        assert self.table is not None and self.table.game is not None
        return self.table.game

    def names(self) -> list[str]:
        assert self.table is not None
        return [s.name for s in self.table.seats]

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        vs = self.vs
        assert self.table is not None
        if events:
            vs.hint = []
        for event in events:
            if isinstance(event, HandReplayed):
                vs.review, vs.counted, vs.recap = [], [], None
            elif isinstance(event, HandDealt):
                hands = self.table.tally.hands
                vs.review, vs.recap = [], None
                if vs.counted:
                    vs.review = vs.counted
                    finished = [h for h in hands if h.number == event.number - 1]
                    vs.recap = finished[-1] if finished else None
                vs.counted = []
                vs.selected = []
                vs.cursor = 0
                vs.replayed_hand = bool(hands) and hands[-1].replayed
                if self._discard_note:
                    vs.chat.append((time.time(), "***", self._discard_note))
                    vs.say(self._discard_note)
                    self._discard_note = ""
            elif isinstance(event, HandCounted):
                vs.counted.append(event)
            elif isinstance(event, GameOver):
                vs.review, vs.counted = [], []
                vs.match_points = self.table.match_points()
            vs.say(*describe(event, self.index, self.names()))
        pegging, hand = scored(events)
        if self.vs.options.beep and (pegging or hand or any(isinstance(e, GoDeclared) for e in events)):
            self.display.terminal.write(b"\x07")
        if self.vs.options.pace is Pace.PROMPT and (pegging or hand) and not game.over and any(
                isinstance(self.table.seats[s], ComputerSeat) for s in game.to_act()):
            self._hold()
        self._update()

    def rejected(self, message: str) -> None:
        self.vs.say(f"Not allowed: {message}")
        self._update()

    def notice(self, text: str) -> None:
        """Show ``text`` in the message area and the chat window (from the
        door, not the game)."""
        self.vs.say(text)
        self.vs.chat.append((time.time(), "***", text))
        if self.table is not None and self.table.game is not None:
            self._update()

    def on_chat(self, line: tuple[float, str, str]) -> None:
        self.vs.chat.append(line)
        del self.vs.chat[:-100]
        if line[1] != self.name and self.vs.mode not in (Mode.CHAT,) and not self.vs.chatting:
            self.vs.say(f"{line[1]} says: {line[2]}")
        if self.table is not None and self.table.game is not None:
            self._update()

    def finish(self) -> None:
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
        self._set_mode()
        self.display.refresh_soon()

    def _set_mode(self) -> None:
        vs, game, me = self.vs, self.game, self.index
        assert self.table is not None
        opponent = self.names()[1 - me]
        if self._leaving:
            vs.prompt = "Leave this game? (Y/N)"
        elif not game.over and (1 - me) in self.table.absent:
            vs.mode = Mode.WAIT
            left = max(0, int(self.table.absent_until - time.time()))
            vs.prompt = f"Waiting for {opponent} to come back ({left // 60}:{left % 60:02d}); A abandons the game."
        elif game.over:
            vs.mode = Mode.OVER
            vs.prompt = "Play again? (Y/N)" if self._again is not None else "Game over."
        elif not self.table.dealt.is_set():
            vs.mode = Mode.CHAT
            if me == game.dealer or self.table.against_computer(me):
                vs.prompt = "Chat, then RETURN on a blank line deals."
                if self._may_replay():
                    vs.prompt = "Chat, then RETURN on a blank line deals; Ctrl-R replays the last hand."
            else:
                vs.prompt = f"Chat; {opponent} deals with RETURN on a blank line."
        elif vs.chatting:
            vs.prompt = "Chat: RETURN sends, RETURN on a blank line or ESC goes back to your cards."
        elif me in game.to_act() and game.phase is Phase.DISCARD:
            vs.mode = Mode.DISCARD
            crib = "your" if game.dealer == me else f"{opponent}'s"
            if len(vs.selected) < 2:
                vs.prompt = f"Choose 2 cards for {crib} crib: arrows move, RETURN selects, DEL unselects."
            else:
                vs.prompt = (f"RETURN lays away {card_text(vs.selected[0])} {card_text(vs.selected[1])}"
                             f" to {crib} crib; DEL unselects.")
            vs.cursor = min(vs.cursor, len(game.hands[me]) - 1)
        elif me in game.to_act() and game.phase is Phase.PLAY:
            vs.mode = Mode.PLAY
            vs.prompt = f"Your turn, count {game.count}: arrows choose a card, RETURN plays it."
            self._cursor_to_unplayed(0)
        elif me in game.to_act() and game.phase is Phase.SHOW:
            assert game.show_turn is not None
            if vs.mode is not Mode.COUNT:
                vs.typed = ""
            vs.mode = Mode.COUNT
            vs.prompt = f"Count your {game.show_turn[1].value} (type the points, RETURN): "
        else:
            vs.mode = Mode.WAIT
            if vs.holding:
                vs.prompt = "Press a key to go on."
            elif game.phase is Phase.DISCARD:
                vs.prompt = f"Waiting for {opponent} to lay away two cards..."
            else:
                vs.prompt = f"{opponent}'s turn..."

    def _shown(self) -> list[Card]:
        """The player's cards in the order on the screen."""
        return my_cards(self.game, self.index, self.vs.options.sort)

    def _playable_indexes(self) -> list[int]:
        cards = self._shown()
        held = self.game.hands[self.index]
        return [i for i, c in enumerate(cards) if c in held]

    def _cursor_to_unplayed(self, step: int) -> None:
        indexes = self._playable_indexes()
        if not indexes:
            return
        vs = self.vs
        if step == 0:
            if vs.cursor not in indexes:
                vs.cursor = min(indexes, key=lambda i: (i < vs.cursor, abs(i - vs.cursor)))
            return
        pos = indexes.index(vs.cursor) if vs.cursor in indexes else 0
        vs.cursor = indexes[(pos + step) % len(indexes)]

    # -- keys -------------------------------------------------------------------

    async def play(self) -> None:
        """Handle this player's keys until the seat is done."""
        keys = asyncio.ensure_future(self.run())
        try:
            await asyncio.wait({keys, self.done}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            keys.cancel()

    async def run(self) -> None:
        """Read and handle keys until the connection ends (then leave the
        table) or the seat is done."""
        terminal = self.display.terminal
        while not self.done.done():
            key = await terminal.get_key(timeout=1.0)
            if key is None:
                if self.table is not None and self.table.absent:
                    self._update()  # the countdown
                continue
            if key.name is KeyName.EOF:
                if self._again is not None and not self._again.done():
                    self._again.set_result(False)
                if self.table is not None:
                    self.table.leave(self.index)
                if not self.done.done():
                    self.done.set_result(None)
                return
            self.handle(key)
            await terminal.drain()

    def handle(self, key: Key) -> None:
        """React to one key."""
        if self.display.screen_key(key):
            return
        if self.table is None or self.table.game is None:
            return
        if self._leaving:
            self._leave_key(key)
            self._update()
            return
        vs = self.vs
        if vs.holding:
            self._release()
            if vs.mode is Mode.WAIT:
                self._update()
                return
        if vs.mode is Mode.CHAT or vs.chatting:
            self._chat_key(key)
            self._update()
            return
        if (1 - self.index) in self.table.absent and key.name is KeyName.CHAR and key.char in "aA":
            self.table.abandon(self.index)
            return
        if key.name is KeyName.CHAR and key.char == "?" and vs.mode in (Mode.DISCARD, Mode.PLAY):
            self._hint()
            self._update()
            return
        if key.name is KeyName.CHAR and key.char in "oO" and vs.mode is not Mode.COUNT:
            vs.options.box = not vs.options.box
            self._update()
            return
        quit_key = key.name is KeyName.CTRL_C or (key.name is KeyName.CHAR and key.char in "qQ")
        if quit_key and vs.mode not in (Mode.COUNT, Mode.OVER):
            self._leaving = True
            self._update()
            return
        if key.name is KeyName.CHAR and key.char in "cC" and vs.mode in (Mode.DISCARD, Mode.WAIT) \
                and not self.table.against_computer(self.index):
            vs.chatting = True
            self._update()
            return
        handler = {Mode.DISCARD: self._discard_key, Mode.PLAY: self._play_key, Mode.COUNT: self._count_key,
                   Mode.OVER: self._over_key, Mode.WAIT: self._wait_key}[vs.mode]
        handler(key)
        self._update()

    def _chat_key(self, key: Key) -> None:
        """Keys in chat mode (before a hand) or in the chat window."""
        vs = self.vs
        assert self.table is not None
        if key.name is KeyName.ENTER:
            if vs.chat_input.strip():
                self.table.chat(self.index, vs.chat_input)
                vs.chat_input = ""
            elif vs.chatting:
                vs.chatting = False
            else:
                why = self.table.deal(self.index)
                if why:
                    vs.say(why)
        elif key.name is KeyName.ESCAPE:
            if vs.chatting:
                vs.chatting = False
            vs.chat_input = ""
        elif key.name in _DELETE:
            vs.chat_input = vs.chat_input[:-1]
        elif key.name is KeyName.CTRL_R and vs.mode is Mode.CHAT and self._may_replay():
            self.table.submit(self.index, ReplayHand(self.index))
        elif key.name is KeyName.CHAR:
            if len(vs.chat_input) < self.chat_limit:
                vs.chat_input += key.char
        elif key.name is KeyName.CTRL_C and not vs.chatting:
            self._leaving = True

    def _move(self, key: Key, count: int) -> bool:
        if key.name in _LEFT or (key.name is KeyName.CHAR and key.char in "h4"):
            self.vs.cursor = (self.vs.cursor - 1) % count
            return True
        if key.name in _RIGHT or (key.name is KeyName.CHAR and key.char in "l6"):
            self.vs.cursor = (self.vs.cursor + 1) % count
            return True
        return False

    def _discard_key(self, key: Key) -> None:
        vs = self.vs
        hand = self._shown()
        if self._move(key, len(hand)):
            return
        if key.name is KeyName.ENTER or (key.name is KeyName.CHAR and key.char == " "):
            card = hand[vs.cursor]
            if len(vs.selected) == 2:
                assert self.table is not None
                self._discard_note = discard_analysis(self.game.hands[self.index], (vs.selected[0], vs.selected[1]),
                                                      self.game.dealer == self.index)
                self.table.submit(self.index, Discard(self.index, (vs.selected[0], vs.selected[1])))
                vs.selected = []
            elif card in vs.selected:
                vs.say(f"{card_text(card)} is already selected; DEL unselects it.")
            else:
                vs.selected.append(card)
        elif key.name in _DELETE:
            card = hand[vs.cursor]
            if card in vs.selected:
                vs.selected.remove(card)
            elif vs.selected:
                vs.selected.pop()
        else:
            self._wrong_key("Arrows move the bar, RETURN selects, DEL unselects.")

    def _play_key(self, key: Key) -> None:
        if key.name in _LEFT or (key.name is KeyName.CHAR and key.char in "h4"):
            self._cursor_to_unplayed(-1)
            return
        if key.name in _RIGHT or (key.name is KeyName.CHAR and key.char in "l6"):
            self._cursor_to_unplayed(1)
            return
        if key.name is KeyName.ENTER or (key.name is KeyName.CHAR and key.char == " "):
            game = self.game
            card = self._shown()[self.vs.cursor]
            if card not in game.hands[self.index]:
                self.vs.say(f"{card_text(card)} has been played already.")
            elif game.count + card.pip > 31:
                self.vs.say(f"{card_text(card)} would take the count past 31: choose another card.")
            else:
                assert self.table is not None
                self.table.submit(self.index, Play(self.index, card))
        else:
            self._wrong_key("Arrows choose a card, RETURN plays it.")

    def _count_key(self, key: Key) -> None:
        vs = self.vs
        if key.name is KeyName.CHAR and key.char.isdigit():
            if len(vs.typed) < 2:
                vs.typed += key.char
        elif key.name in _DELETE:
            vs.typed = vs.typed[:-1]
        elif key.name is KeyName.ENTER:
            if not vs.typed:
                vs.say("Type the points of the hand, then RETURN (0 if it scores nothing).")
                return
            points = int(vs.typed)
            if points > MAX_SHOW_POINTS:
                vs.say(f"No hand scores more than {MAX_SHOW_POINTS}: type the count again.")
                vs.typed = ""
                return
            vs.typed = ""
            assert self.table is not None
            self.table.submit(self.index, Claim(self.index, points))
        else:
            self._wrong_key("Type the points with the number keys, then RETURN.")

    def _hint(self) -> None:
        """Cribbage Partner's recommendation: mark the hard computer's
        choice and say what it is worth."""
        game, me, vs = self.game, self.index, self.vs
        if game.phase is Phase.DISCARD:
            best = rank_discards(game.hands[me], game.dealer == me)[0]
            vs.hint = list(best.thrown)
            crib = "your" if game.dealer == me else "their"
            vs.say(f"Hint: lay away {cards_text(best.thrown)}: {best.value:.1f} expected points "
                   f"(hand {best.hand_ev:.1f}, {crib} crib {best.crib_ev:+.1f}).")
        else:
            seen = list(game.kept[me]) + [p.card for p in game.played[1 - me]]
            if game.starter is not None:
                seen.append(game.starter)
            ranked = HardPlayer().rank_plays(game.hands[me], game.series, seen, game.rules.run_mode,
                                             situation(game, me))
            vs.hint = [ranked[0].card]
            vs.say(f"Hint: play {card_text(ranked[0].card)} (worth {ranked[0].value:+.1f} points after the reply).")

    def _may_replay(self) -> bool:
        """Replaying a hand is offered against the computer only (against a
        person both would have to agree)."""
        assert self.table is not None
        return self.game.can_replay() and self.table.against_computer(self.index)

    def _over_key(self, key: Key) -> None:
        if self._again is None or self._again.done():
            return
        if key.name is KeyName.CHAR and key.char in "yY":
            self._again.set_result(True)
        elif key.name is KeyName.CHAR and key.char in "nNqQ":
            self._again.set_result(False)
        else:
            self._wrong_key("Press Y to play again or N to leave.")

    def _leave_key(self, key: Key) -> None:
        if key.name is KeyName.CHAR and key.char in "yY":
            assert self.table is not None
            self.vs.say("You leave the table.")
            self.table.leave(self.index)
            self._leaving = False
        elif key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "nN"):
            self._leaving = False

    def _wait_key(self, key: Key) -> None:
        opponent = self.names()[1 - self.index]
        self._wrong_key(f"Please wait: it is {opponent}'s turn.")

    def _wrong_key(self, hint: str) -> None:
        if self.vs.options.beep:
            self.display.terminal.write(b"\x07")
        if not self.vs.log or self.vs.log[-1] != hint:
            self.vs.say(hint)
