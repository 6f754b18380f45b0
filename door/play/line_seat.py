"""A human seated at a table in the line presentation: the game
said in short sentences, choices by number, and keys that read the hand,
the table, the scores, whose turn it is and the last ten events again.

It is a :class:`~door.play.human_seat.HumanSeat` (the same table protocol,
the same pure controller for counting, chat, leaving and the questions
between games) whose words are spoken ones (:mod:`door.ui.speech`) and
whose own keys choose cards by number instead of with the highlight bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from door.net.keys import Key, KeyName
from door.play.controller import Beep, Intent, Submit, handle_key
from door.play.human_seat import HumanSeat
from door.play.line_view import (
    LINE_PROMPTS,
    MOVE_PROMPTS,
    REREAD_KEYS,
    SAID_ONCE,
    Prompt,
    SpokenView,
    mode_prompt,
    nothing,
    numbered,
)
from door.play.options import CallerOptions, Pace
from door.play.prompting import Seating
from door.play.thinking import IN_THREAD, Thinking
from door.play.view_state import Mode
from door.records.identity import Identity
from door.ui.display import Display
from door.ui.line_display import LineDisplay
from door.ui.speech import (
    card_name,
    cards_list,
    cards_names,
    digest_groups,
    has_digest,
    number_words,
    points_of,
    scores_event,
    short_digests,
    spoken,
)
from engine.actions import Action, Discard, Play
from engine.cards import Card
from engine.events import CardPlayed, Discarded, Event
from engine.game import Game, Phase

if TYPE_CHECKING:
    from door.play.table import Table

__all__ = ["LineSeat", "SpokenView", "Prompt", "REREAD_KEYS"]

CAUGHT_UP = 5
"""The events said to a caller who comes back to a game under way (L reads ten)."""


class LineSeat(HumanSeat):
    """A caller in screen-reader mode at a table (see the module)."""

    spoken_advice = True

    def __init__(self, display: Display, name: str, options: CallerOptions | None = None,
                 chat_limit: int = 70, identity: Identity | None = None, hand_pause: float = 0.0,
                 session_seed: str | None = None, thinking: Thinking = IN_THREAD) -> None:
        super().__init__(display, name, options, chat_limit, identity, hand_pause, session_seed, thinking)
        self.spoken = SpokenView(options=self.vs.options, speak=self.display.say)
        self.vs = self.spoken
        self._said: tuple[Prompt, str] = (Prompt.NONE, "")  # the last prompt said: (its kind, its words)
        self._told_chat = False  # the chat prompt's keys were said once in full
        self._seeds: list[str] = []  # the lines about the shuffle's seeds, in full, for K
        self._advice: list[str] = []  # the last notes of advice, for A
        self._sent: tuple[Game, int, Action] | None = None
        """The move this player sent, in which game and at which length of
        it: no prompt until the table applies (or refuses) it."""
        self._back = False  # attached, and told nothing yet: the first events may be the game so far
        self._quiet = False  # the game so far is being told: kept for L, not said

    # -- words ------------------------------------------------------------------

    def attach(self, table: Table, index: int) -> None:
        super().attach(table, index)
        self.display.text = self._screen  # Ctrl-L says this phase's table and prompt, not the last page shown
        self._back = True

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """As :meth:`HumanSeat.notify`; but the first events told after the
        seat is attached to a game under way (a kept game resumed, or a
        dropped caller's seat taken back) are the game so far: kept for L,
        not said, and the caller hears where the game stands instead
        (:meth:`_catch_up`)."""
        if not self._back:
            super().notify(game, events)
            return
        self._back = False
        if not game.actions:  # a game just begun: its first events are news
            super().notify(game, events)
            return
        self._quiet, speak, self.spoken.speak = True, self.spoken.speak, nothing
        try:
            super().notify(game, events)
        finally:
            self._quiet, self.spoken.speak = False, speak
        if self.failure is None:
            self._catch_up()

    def _catch_up(self) -> None:
        """Said to a caller who comes back to a game under way: its last
        :data:`CAUGHT_UP` events (L reads ten), where the game stands
        (as Ctrl-L says it), then the prompt."""
        table = self._table_lines()
        events = [line for line in self.vs.log[-CAUGHT_UP:] if not table[0].startswith(line)]  # (not said twice)
        self.display.say(f"You are back in game {self.game.number}. The last events:", *events, *table)
        self._update()

    def notice(self, text: str) -> None:
        """Said; a seed's or a commitment's 64 digits are kept for K
        (:meth:`shuffle_words`), not read out unasked."""
        super().notice(self.shuffle_words(text))

    def shuffle_words(self, text: str) -> str:
        """A line about the shuffle's seeds, as said: its digits kept for
        K (in groups of four, :func:`~door.ui.speech.digest_groups`) and
        left out here; the line that tells a full screen how to set a seed
        is left out (the question says E)."""
        if has_digest(text):
            self._seeds = [*self._seeds[-2:], text]
            if text.startswith("Shuffle:"):
                return "The shuffle's seeds are fixed; K reads them."
            if text.startswith("Door's seed"):
                return "The door's seed is shown: K reads it."
            return short_digests(text)
        if text.startswith("It is also the SHA-256"):
            return ""
        return text

    def event_lines(self, game: Game, events: Sequence[Event]) -> list[list[str]]:
        """Each event's sentences, and after the last that changed a score
        both scores, the scorer's first ("Computer 14, you 9."); after the
        computer's last card, that it has none left."""
        said = [spoken(event, self.index, self.names()) for event in events]
        if self.table is not None and self.table.against_computer(self.index):
            # the computer lays away at once: that it did tells nothing (a person's, kept waiting, does)
            said = [[] if isinstance(e, Discarded) and e.seat != self.index else lines for e, lines in zip(events, said)]
        # each scoring event's line ends with the scores just after it: the scores now, less what came later
        scores = list(game.scores())
        for i in range(len(events) - 1, -1, -1):
            seat = scores_event(events[i])
            if seat is not None and said[i]:
                said[i][-1] += " " + self._score_clause(scores, seat)
            gained = points_of(events[i])
            scores = [scores[0] - gained[0], scores[1] - gained[1]]
        me = self.index
        for i, event in enumerate(events):
            if (isinstance(event, CardPlayed) and event.seat != me and not game.hands[event.seat]
                    and game.hands[me] and game.phase is Phase.PLAY and said[i]
                    and not any(isinstance(e, CardPlayed) and e.seat == event.seat for e in events[i + 1:])):
                said[i][-1] += f" {self.names()[event.seat]} has no cards left."
        return said

    def _score_clause(self, scores: Sequence[int], first: int) -> str:
        """``"Computer 14, you 9."``: both ``scores``, ``first``'s first."""
        me, names = self.index, self.names()
        name = ["you" if seat == me else names[seat] for seat in (0, 1)]
        second = 1 - first
        return f"{name[first][:1].upper()}{name[first][1:]} {scores[first]}, {name[second]} {scores[second]}."

    def words(self, event: Event) -> list[str]:
        return spoken(event, self.index, self.names())

    def advise(self, note: str) -> None:
        """Advice is kept for A; said at once only when it found points
        lost (a discard below the best beyond a near-tie, a pegging that
        left two points or more): a good hand costs no listening."""
        self._advice = [*self._advice[-3:], note]
        lost = note.startswith("Your discard cost") and "near-tie" not in note or (
            note.startswith("Your pegging left") and not note.startswith(("Your pegging left none",
                                                                           "Your pegging left 1 point")))
        if lost:
            super().advise(note)
        else:
            self.vs.add_chat((self._now(), "***", note))

    def _pegging_note(self, game: Game, hand: int) -> None:
        if not self._quiet:  # (not the notes of the hands told again: they were said when played)
            super()._pegging_note(game, hand)

    def _linger(self) -> None:
        if not self._quiet:
            super()._linger()

    def on_chat(self, line: tuple[float, str, str]) -> None:
        """Another player's chat line, said (one of the chat so far, to a
        caller who comes back, kept only)."""
        self.vs.add_chat(line)
        if line[1] != self.name and not self._back:
            kind, words = self._prompt() if self.table is not None and self.table.game is not None else (Prompt.NONE, "")
            again = [words] if words and kind not in LINE_PROMPTS else []  # (a line's prompt is written again by the display)
            self.display.say(f"{line[1]} says: {line[2]}", *again)  # the prompt again after it: the line was the last said
            if again:
                self._said = (kind, words)
        self._update()

    def _update(self) -> None:
        """The controller's mode, then the prompt said when it changed
        (not before the first events, nor while the game so far is told:
        :meth:`notify`)."""
        if self.table is None or self.table.game is None:
            return
        super()._update()
        if self._quiet or self._back:  # (nothing said before the first events: they may be the game so far)
            return
        kind, words = self._prompt()
        if (kind, words) == self._said or (kind in SAID_ONCE and kind is self._said[0]):
            return
        if kind is Prompt.DISCARD and self.vs.selected and self.display.terminal.has_input():
            return  # the second card is typed already: no question about it
        if self._said[0] in LINE_PROMPTS and kind is not self._said[0] and isinstance(self.display, LineDisplay):
            self.display.forget_line()  # (its question is gone: ESC, or the table moved on)
        self._said = (kind, words)
        if kind in LINE_PROMPTS:
            self.display.prompt(words)
        elif words:
            self.display.say(words)
        if kind in MOVE_PROMPTS and isinstance(self.display, LineDisplay) and not self.display.told_keys:
            self.display.told_keys = True  # (once a call: the display lasts the call)
            self.display.say(REREAD_KEYS)

    def _prompt(self) -> tuple[Prompt, str]:
        """What to say for the state now: ``(kind, words)``; every prompt
        ends with the keys it takes."""
        vs, game = self.vs, self.game
        seating = self.seating()
        if seating.leaving:
            return Prompt.LEAVING, seating.leave_question.replace("(Y/N)", "Press Y or N.")
        if self._on_its_way(game) and vs.mode in (Mode.DISCARD, Mode.PLAY, Mode.COUNT):
            return Prompt.WAIT, ""  # the move sent is on its way to the table: nothing to choose until it is made
        said = mode_prompt(vs, game, seating, self._told_chat)
        if said is not None:
            self._told_chat = self._told_chat or said[0] is Prompt.CHAT
            return said
        if vs.holding or (vs.lingering and vs.options.pace is Pace.PROMPT):
            return Prompt.HOLD, "Press a key to go on."  # (the pause pace goes on by itself: nothing to press)
        if seating.absent:
            return Prompt.ABSENT, vs.prompt
        return Prompt.WAIT, ""

    def _screen(self) -> list[str]:
        """What Ctrl-L says at the table: where the game stands
        (:meth:`_table_lines`) and the prompt of this phase."""
        words = self._prompt()[1]
        return [*self._table_lines(), words or f"{self._turn_words()}"]

    def _table_lines(self) -> list[str]:
        """Where the game stands, in one or two lines: the hand, the
        dealer and the scores; in the play and the show, the starter and
        the count."""
        game = self.game
        table = [f"Hand {number_words(game.hand_number)}, {self._dealer_words()}. {self._scores()}"]
        if game.phase in (Phase.PLAY, Phase.SHOW) and game.starter is not None:
            series = f"; played since the count began: {cards_list(game.series)}" if game.series else ""
            table.append(f"The starter is the {card_name(game.starter)}. Count {number_words(game.count)}{series}.")
        return table

    def _dealer_words(self) -> str:
        game = self.game
        return "you deal" if game.dealer == self.index else f"{self.names()[game.dealer]} deals"

    def _turn_words(self) -> str:
        game, me = self.game, self.index
        if game.over:
            return "The game is over."
        if game.to_act() and me not in game.to_act():
            return f"{self.names()[1 - me]}'s turn."
        return "Nobody's turn: the hand is not dealt."

    def _scores(self) -> str:
        """``"Scores: you 45, Computer 50; game to 121."``"""
        game, me = self.game, self.index
        scores = game.scores()
        return (f"Scores: you {scores[me]}, {self.names()[1 - me]} {scores[1 - me]}; "
                f"game to {game.rules.game_to}.")

    def _reread(self, char: str) -> bool:
        """The reading keys: True when ``char`` was one."""
        game, me, vs = self.game, self.index, self.vs
        if char == "h":
            held = game.hands[me] if game.phase in (Phase.DISCARD, Phase.PLAY) else game.kept[me]
            self.display.answer(f"Your hand: {cards_names(sorted(held))}.")
        elif char == "t":
            starter = f"The starter is the {card_name(game.starter)}. " if game.starter else "No starter yet. "
            series = f"Played since the count began: {cards_names(game.series)}. " if game.series else ""
            self.display.answer(f"{starter}{series}Count {number_words(game.count)}.")
        elif char == "s":
            self.display.answer(self._scores())
        elif char == "w":
            self.display.answer(self._prompt()[1] or self._turn_words())
        elif char == "a" and not self.seating().absent:  # (with the other player away, A abandons the game)
            self.display.answer(*self._advice[-2:] or ["No advice yet: it comes after each hand."])
        elif char == "k":
            self.display.answer(*[digest_groups(line) for line in self._seeds] or
                                ["No seeds yet: they are fixed before the cut."])
        elif char == "l":
            self.display.answer("The last ten events:", *vs.log[-10:])
        else:
            return False
        return True

    # -- keys -----------------------------------------------------------------

    def handle(self, key: Key) -> None:
        """Cards by number while discarding and playing; the reading keys
        wherever a letter is not text; the rest as on the full screen,
        with what is typed echoed."""
        if self.table is None or self.table.game is None:
            return
        vs, seating = self.vs, self.seating()
        typing = vs.mode in (Mode.CHAT, Mode.COUNT) or vs.chatting or vs.seed_input is not None
        if self._line_key(key, seating, typing):
            return
        before = self._typed()
        intents = handle_key(vs, self.game, seating, key, self.chat_limit)
        after = self._typed()
        if typing or vs.seed_input is not None or (before != after and vs.mode is Mode.OVER):
            self._echo(key, before, after)
        for intent in intents:
            self._carry_out(intent)
        self._update()

    def _line_key(self, key: Key, seating: Seating, typing: bool) -> bool:
        """The line presentation's own keys: a reading key (a letter, when
        nothing is ``typing``), DEL taking back the card chosen first, a
        card's number, RETURN or an arrow saying the choice again; True
        when ``key`` was one of them (and is done)."""
        vs = self.vs
        choosing = vs.mode in (Mode.DISCARD, Mode.PLAY) and not vs.chatting and not seating.leaving
        if key.name is KeyName.CHAR and not (typing or seating.leaving or vs.holding) and self._reread(key.char.lower()):
            return True
        if vs.mode is Mode.DISCARD and key.name in (KeyName.DELETE, KeyName.BACKSPACE) and not vs.chatting:
            self.undo_choice()
        elif choosing and key.name is KeyName.CHAR and key.char.isdigit() and not vs.holding:
            for intent in self._by_number(int(key.char)):
                self._carry_out(intent)
        elif choosing and key.name in (KeyName.LEFT, KeyName.RIGHT, KeyName.UP, KeyName.DOWN, KeyName.ENTER):
            if not self.display.terminal.has_input():  # (once for a burst of them)
                self._said = (Prompt.NONE, "")  # RETURN or an arrow: say the choice again
        else:
            return False
        self._update()
        return True

    def _echo(self, key: Key, before: str, after: str) -> None:
        """Echo what a key did to the line being typed (``before`` and
        ``after`` it): RETURN a new line, the characters added, or a
        backspace for each taken away (ESC empties the line at once)."""
        if key.name is KeyName.ENTER:
            self.display.echo("\n")
        elif len(after) > len(before):
            self.display.echo(after[len(before):])
        else:
            for _ in range(len(before) - len(after)):
                self.display.echo("\b")

    def _typed(self) -> str:
        """What is being typed now: a chat line, a count or a seed."""
        vs = self.vs
        if vs.mode is Mode.CHAT or vs.chatting:
            return vs.chat_input
        if vs.mode is Mode.OVER:
            return vs.seed_input or ""
        return vs.typed

    def _on_its_way(self, game: Game) -> bool:
        """True while the move this player sent is not in ``game`` yet
        (the other player's, applied meanwhile, does not answer it)."""
        if self._sent is None:
            return False
        sent, at, action = self._sent
        if sent is not game or len(game.actions) < at or action in game.actions[at:]:  # (fewer: a hand replayed)
            self._sent = None
            return False
        return True

    def rejected(self, message: str) -> None:
        """The table refused the move sent: the prompt is said again with why."""
        self._sent = None
        super().rejected(message)

    def _carry_out(self, intent: Intent) -> None:
        if isinstance(intent, Submit) and self.table is not None and self.table.game is not None:
            self._sent = (self.table.game, len(self.table.game.actions), intent.action)
        super()._carry_out(intent)

    def _by_number(self, number: int) -> list[Intent]:
        """Card ``number`` (1 up) of the player's row: chosen for the crib
        (the second one lays both away) or played."""
        vs, game, me = self.vs, self.game, self.index
        shown = numbered(game, me, vs.options.sort)
        if not 1 <= number <= len(shown):
            self.display.answer(f"There is no card {number}: type 1 to {len(shown)}.")
            return [Beep()]
        card = shown[number - 1]
        if vs.mode is Mode.DISCARD:
            if card in vs.selected:
                self.display.answer(f"You chose the {card_name(card)} already.")
                return [Beep()]
            vs.selected.append(card)
            if len(vs.selected) < 2:
                return []
            thrown = (vs.selected[0], vs.selected[1])
            vs.selected = []  # ("You lay away ..." is said with the move, and kept for L: the event's words)
            return [Submit(Discard(me, thrown))]
        return self._play(card)

    def _play(self, card: Card) -> list[Intent]:
        game, me = self.game, self.index
        if card not in game.hands[me]:
            self.display.answer(f"You played the {card_name(card)} already.")
            return [Beep()]
        if game.count + card.pip > 31:
            self.display.answer(f"The {card_name(card)} would take the count past thirty-one: choose another.")
            return [Beep()]
        return [Submit(Play(me, card))]

    def undo_choice(self) -> None:
        """DEL while discarding: the card chosen first is put back."""
        if self.vs.selected:
            self.display.say(f"The {card_name(self.vs.selected.pop())} is back in your hand.")
