"""The line seat's spoken view (:class:`SpokenView`: the view state
whose messages are said as they are made) and the kinds of its prompts
(:class:`Prompt`), which say how each is said."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from door.play.game_view import my_cards
from door.play.prompting import Seating
from door.play.view_state import Mode, ViewState
from door.ui.speech import card_name, number_words, numbered_ranks, show_cards, suited_cards
from engine.cards import Card
from engine.game import Game, Phase

__all__ = ["SpokenView", "Prompt", "REREAD_KEYS", "SAID_ONCE", "LINE_PROMPTS", "MOVE_PROMPTS", "nothing",
           "numbered", "mode_prompt"]

REREAD_KEYS = ("Keys: H your hand, T the table, S the scores, W whose turn, L the last ten events, A advice, "
               "K the shuffle's seeds, Ctrl-L this again.")
"""What the line presentation's reading keys are (said with the first hand)."""


def nothing(text: str) -> None:
    """Says nothing (a view that is not heard)."""
    return None


class Prompt(enum.Enum):
    """What a spoken prompt asks for (its kind), which says how it is said:
    once per kind (:data:`SAID_ONCE`), as a line to type into
    (:data:`LINE_PROMPTS`), or as a move (:data:`MOVE_PROMPTS`, after which
    the keys are told once a call)."""

    NONE = "none"
    """Nothing said yet (or say the next prompt again)."""
    LEAVING = "leaving"
    """The leave question (Y or N)."""
    WAIT = "wait"
    """Nothing to choose: the other player, or the table, moves."""
    DISCARD = "discard"
    """Two cards for the crib."""
    PLAY = "play"
    """A card for the play."""
    COUNT = "count"
    """The points of a hand or the crib (manual counting)."""
    SEED = "seed"
    """The caller's seed for the next game's shuffle."""
    OVER = "over"
    """The game is over: play again?"""
    CHAT = "chat"
    """Chat between hands (RETURN on a blank line deals)."""
    HOLD = "hold"
    """A key to go on (the prompt pace)."""
    ABSENT = "absent"
    """The other player's line dropped: wait, or abandon the game."""


SAID_ONCE = frozenset({Prompt.WAIT, Prompt.CHAT, Prompt.ABSENT})
"""Said when the kind comes, not again while it stays (its words may change)."""
LINE_PROMPTS = frozenset({Prompt.COUNT, Prompt.SEED})
"""Prompts of a line the caller types (the display's input line)."""
MOVE_PROMPTS = frozenset({Prompt.DISCARD, Prompt.PLAY})
"""Prompts of a move: the keys are told after the first one of a call."""


@dataclass
class SpokenView(ViewState):
    """A :class:`ViewState` whose messages and notes are also said, as
    they are made (``speak``)."""

    speak: Callable[[str], None] = nothing

    def say(self, *lines: str) -> None:
        super().say(*lines)
        for line in lines:
            self.speak(line)

    def tell(self, text: str) -> None:
        if text and text != self.note:
            self.speak(text)
        super().tell(text)


def numbered(game: Game, me: int, sort: bool) -> list[Card]:
    """Seat ``me``'s cards in the order their numbers go: by suit while
    discarding (the suits said once each; a flush is seen at once), else
    as the screen holds them (by rank, when ``sort``)."""
    cards = my_cards(game, me, sort)
    if game.phase is Phase.DISCARD:
        return sorted(cards, key=lambda c: (c.suit, c.rank))
    return cards


def mode_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str] | None:
    """The prompt of the modes that always have one (discard, play, count,
    the game over, chat), as ``(kind, words)``; ``None`` in another mode.
    ``told_chat``: the chat prompt's keys were said in full at this table
    (then it is said briefly)."""
    said = _MODE_PROMPTS.get(vs.mode)
    return said(vs, game, seating, told_chat) if said is not None else None


def _discard_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str]:
    crib = "your" if game.dealer == seating.me else f"{seating.opponent}'s"
    if vs.selected:
        return Prompt.DISCARD, f"You chose the {card_name(vs.selected[0])}: one more for {crib} crib, or DEL."
    cards = numbered(game, seating.me, vs.options.sort)
    return Prompt.DISCARD, f"Your cards: {suited_cards(cards)}. Type two for {crib} crib."


def _play_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str]:
    """Only the cards that can be played now, each by its number in the hand."""
    me = seating.me
    held, ranks = game.hands[me], set()
    shown: list[Card | None] = []
    for c in my_cards(game, me, vs.options.sort):  # (two cards of a rank are one choice: the play scores ranks)
        playable = c in held and game.count + c.pip <= 31 and c.rank not in ranks
        shown.append(c if playable else None)
        ranks |= {c.rank} if playable else set()
    return Prompt.PLAY, f"Your turn at {number_words(game.count)}: {numbered_ranks(shown)}."


def _count_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str]:
    assert game.show_turn is not None and game.starter is not None
    seat, what = game.show_turn
    cards = game.crib if what.value == "crib" else game.kept[seat]
    return Prompt.COUNT, f"Count your {what.value}: {show_cards(sorted(cards), game.starter)}. Points: "


def _over_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str]:
    if vs.seed_input is not None:
        return Prompt.SEED, "Type your seed, then RETURN; ESC keeps yours: "
    return Prompt.OVER, (f"{seating.again_question} Press Y or N. E sets your seed first."
                         if seating.asking_again else "")


def _chat_prompt(vs: ViewState, game: Game, seating: Seating, told_chat: bool) -> tuple[Prompt, str]:
    """The keys said in full the first time at this table, then briefly."""
    if not told_chat:
        return Prompt.CHAT, vs.prompt
    if seating.computer:
        return Prompt.CHAT, "RETURN deals."
    if seating.me == game.dealer:
        return Prompt.CHAT, "Chat, or RETURN on a blank line deals."
    return Prompt.CHAT, f"{seating.opponent} deals with RETURN on a blank line."


_MODE_PROMPTS: dict[Mode, Callable[[ViewState, Game, Seating, bool], tuple[Prompt, str]]] = {
    Mode.DISCARD: _discard_prompt, Mode.PLAY: _play_prompt, Mode.COUNT: _count_prompt, Mode.OVER: _over_prompt,
    Mode.CHAT: _chat_prompt}
