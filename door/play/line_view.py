"""The line seat's spoken view (:class:`SpokenView`: the view state
whose messages are said as they are made) and the kinds of its prompts
(:class:`Prompt`), which say how each is said."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from door.play.view_state import ViewState

__all__ = ["SpokenView", "Prompt", "REREAD_KEYS", "SAID_ONCE", "LINE_PROMPTS", "MOVE_PROMPTS", "nothing"]

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
