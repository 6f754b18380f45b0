"""A human seated at a table in the line presentation (issue 35): the game
said in short sentences, choices by number, and keys that read the hand,
the table, the scores, whose turn it is and the last ten events again.

It is a :class:`~door.play.human_seat.HumanSeat` (the same table protocol,
the same pure controller for counting, chat, leaving and the questions
between games) whose words are spoken ones (:mod:`door.ui.speech`) and
whose own keys choose cards by number instead of with the highlight bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.actions import Discard, Play
from engine.cards import Card
from engine.events import Event
from engine.game import Phase

from door.net.keys import Key, KeyName
from door.play.controller import Beep, Intent, Submit, handle_key
from door.play.game_view import my_cards
from door.play.thinking import IN_THREAD, Thinking
from door.play.human_seat import HumanSeat
from door.play.options import CallerOptions
from door.play.view_state import Mode, ViewState
from door.records.identity import Identity
from door.ui.display import Display
from door.ui.speech import card_name, cards_names, number_words, numbered_cards, short_digests, spoken

__all__ = ["LineSeat", "SpokenView", "REREAD_KEYS"]

REREAD_KEYS = "Keys: H your hand, T the table, S the scores, W whose turn, L the last ten events, Ctrl-L this again."
"""What the line presentation's reading keys are (said with the first hand)."""


def _nothing(text: str) -> None:
    return None


@dataclass
class SpokenView(ViewState):
    """A :class:`ViewState` whose messages and notes are also said, as
    they are made (``speak``)."""

    speak: Callable[[str], None] = _nothing

    def say(self, *lines: str) -> None:
        super().say(*lines)
        for line in lines:
            self.speak(line)

    def tell(self, text: str) -> None:
        if text and text != self.note:
            self.speak(text)
        super().tell(text)


class LineSeat(HumanSeat):
    """A caller in screen-reader mode at a table (see the module)."""

    def __init__(self, display: Display, name: str, options: CallerOptions | None = None,
                 chat_limit: int = 70, identity: Identity | None = None, hand_pause: float = 0.0,
                 session_seed: str | None = None, thinking: Thinking = IN_THREAD) -> None:
        super().__init__(display, name, options, chat_limit, identity, hand_pause, session_seed, thinking)
        self.vs = SpokenView(options=self.vs.options, speak=self.display.say)
        self._said = ("", "")  # the last prompt said: (its kind, its words)
        self._told_keys = False
        self._sent = -1  # the game's length when this player last sent a move (no prompt until it is made)

    # -- words ------------------------------------------------------------------

    def notice(self, text: str) -> None:
        """Said, with a seed's 64 digits cut to 8 (:func:`~door.ui.speech.short_digests`)."""
        super().notice(short_digests(text))

    def shuffle_words(self, text: str) -> str:
        return short_digests(text)

    def words(self, event: Event) -> list[str]:
        return spoken(event, self.index, self.names())

    def on_chat(self, line: tuple[float, str, str]) -> None:
        self.vs.chat.append(line)
        del self.vs.chat[:-100]
        if line[1] != self.name:
            self.display.say(f"{line[1]} says: {line[2]}")
        self._update()

    def _update(self) -> None:
        """The controller's mode, then the prompt said when it changed."""
        if self.table is None or self.table.game is None:
            return
        super()._update()
        kind, words = self._prompt()
        if (kind, words) == self._said or (kind in ("wait", "chat", "absent") and kind == self._said[0]):
            return
        self._said = (kind, words)
        if kind in ("count", "seed"):
            self.display.prompt(words)
        elif words:
            self.display.say(words)
        if kind in ("discard", "play") and not self._told_keys:
            self._told_keys = True
            self.display.say(REREAD_KEYS)

    def _prompt(self) -> tuple[str, str]:
        """What to say for the state now: ``(kind, words)``; every prompt
        ends with the keys it takes (issue 35.2)."""
        vs, game, me = self.vs, self.game, self.index
        seating = self.seating()
        if seating.leaving:
            return "leaving", seating.leave_question.replace("(Y/N)", "Press Y or N.")
        if self._sent == len(game.actions) and vs.mode in (Mode.DISCARD, Mode.PLAY, Mode.COUNT):
            return "wait", ""  # the move sent is on its way to the table: nothing to choose until it is made
        if vs.mode is Mode.DISCARD:
            crib = "your" if game.dealer == me else f"{seating.opponent}'s"
            if vs.selected:
                return "discard", (f"You chose the {card_name(vs.selected[0])}. Type the number of one more card "
                                   f"for {crib} crib; DEL takes it back.")
            return "discard", (f"Your cards: {numbered_cards(my_cards(game, me, vs.options.sort))}. "
                               f"Type the numbers of two cards for {crib} crib.")
        if vs.mode is Mode.PLAY:
            held = game.hands[me]
            shown = [c if c in held else None for c in my_cards(game, me, vs.options.sort)]
            return "play", (f"Your turn, count {number_words(game.count)}. Your cards: {numbered_cards(shown)}. "
                            "Type the number of a card to play.")
        if vs.mode is Mode.COUNT:
            assert game.show_turn is not None
            seat, what = game.show_turn
            cards = game.crib if what.value == "crib" else game.kept[seat]
            return "count", (f"Count your {what.value}: {cards_names(sorted(cards))}, with the starter "
                             f"{card_name(game.starter) if game.starter else 'not turned'}. "
                             "Type the points, then RETURN: ")
        if vs.mode is Mode.OVER and vs.seed_input is not None:
            return "seed", "Type your seed, then RETURN; ESC keeps yours: "
        if vs.mode is Mode.OVER:
            return "over", (f"{seating.again_question} Press Y or N. E sets your seed first."
                            if seating.asking_again else "")
        if vs.mode is Mode.CHAT:
            return "chat", f"{self._scores()} {vs.prompt}"
        if vs.holding or vs.lingering:
            return "hold", "Press a key to go on."
        if seating.absent:
            return "absent", vs.prompt
        return "wait", ""

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
            words = self._prompt()[1]
            self.display.answer(words or (f"{self.names()[1 - me]}'s turn." if game.to_act() and me not in game.to_act()
                                          else "Nobody's turn: the hand is not dealt."))
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
        if (key.name is KeyName.CHAR and not typing and not seating.leaving and not vs.holding
                and self._reread(key.char.lower())):
            return
        if vs.mode is Mode.DISCARD and key.name in (KeyName.DELETE, KeyName.BACKSPACE) and not vs.chatting:
            self.undo_choice()
            self._update()
            return
        if key.name is KeyName.CHAR and key.char.isdigit() and vs.mode in (Mode.DISCARD, Mode.PLAY) \
                and not seating.leaving and not vs.holding and not vs.chatting:
            for intent in self._by_number(int(key.char)):
                self._carry_out(intent)
            self._update()
            return
        if vs.mode in (Mode.DISCARD, Mode.PLAY) and not vs.chatting and not seating.leaving and (
                key.name in (KeyName.LEFT, KeyName.RIGHT, KeyName.UP, KeyName.DOWN, KeyName.ENTER)):
            if not self.display.terminal.has_input():  # (once for a burst of them)
                self._said = ("", "")  # RETURN or an arrow: say the choice again
            self._update()
            return
        before = self._typed()
        intents = handle_key(vs, self.game, seating, key, self.chat_limit)
        after = self._typed()
        typing = typing or vs.seed_input is not None or (before != after and vs.mode is Mode.OVER)
        if typing:
            if key.name is KeyName.ENTER:
                self.display.echo("\n")
            elif len(after) > len(before):
                self.display.echo(after[len(before):])
            elif len(after) < len(before):
                self.display.echo("\b")
        for intent in intents:
            self._carry_out(intent)
        self._update()

    def _typed(self) -> str:
        """What is being typed now: a chat line, a count or a seed."""
        vs = self.vs
        if vs.mode is Mode.CHAT or vs.chatting:
            return vs.chat_input
        if vs.mode is Mode.OVER:
            return vs.seed_input or ""
        return vs.typed

    def _carry_out(self, intent: Intent) -> None:
        if isinstance(intent, Submit) and self.table is not None and self.table.game is not None:
            self._sent = len(self.table.game.actions)
        super()._carry_out(intent)

    def _by_number(self, number: int) -> list[Intent]:
        """Card ``number`` (1 up) of the player's row: chosen for the crib
        (the second one lays both away) or played."""
        vs, game, me = self.vs, self.game, self.index
        shown = my_cards(game, me, vs.options.sort)
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
            vs.selected = []
            self.display.say(f"You lay away the {card_name(thrown[0])} and the {card_name(thrown[1])}.")
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
