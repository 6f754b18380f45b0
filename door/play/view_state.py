"""What a player's screen holds beyond the game itself: the mode of the
keys, the highlight bar, the selected cards, the count being typed, the
message log, the chat and the review of the last show.  Pure data, shared
by the seat's controller (:mod:`door.play.controller`), which changes it,
and the game screen (:mod:`door.play.game_view`), which paints it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from door.play.options import CallerOptions
from door.ui.canvas import Band
from door.ui.words import wrap_text
from engine.cards import Card
from engine.events import HandCounted
from engine.tally import HandRecord

__all__ = ["Mode", "ViewState"]


class Mode(enum.Enum):
    """What the player's keys do now."""

    WAIT = "wait"          # nothing to do but watch
    DISCARD = "discard"    # choose two cards for the crib
    PLAY = "play"          # choose a card to play
    COUNT = "count"        # type the points of a hand or crib
    CHAT = "chat"          # before a hand: the last show, chat; the dealer deals (as in the original door)
    OVER = "over"          # the game is over: play again?


CHAT_KEPT = 100
"""Lines a chat window keeps (as the table's chat log: the window shows
the last few dozen)."""

WRAP_MEMO = 128
"""Texts a view keeps wrapped (the messages and chat lines on its screen
are a few dozen)."""


@dataclass
class ViewState:
    """Everything on the screen that is not in the game: ``cursor`` (index
    into the player's cards), ``selected`` cards, the ``typed`` count, the
    message ``log`` (``msg_top``: the first entry in the message area), the
    ``review`` of the last hand's show with its ``recap`` (points by
    category), whether the hand on the table is a replay (``replayed_hand``),
    the ``prompt``, the games won in the match (``match_points``), the
    caller's ``options`` (hand order, the rules box), whether the game
    waits for a key to go on (``holding``, the "prompt" pace), the ``chat``
    lines with the line being typed (``chat_input``; ``chatting`` when the
    chat window is open during the discard), whether this is a
    ``spectator``'s view (both hands hidden until the show, unless
    ``reveal``: the demonstration), the cards a ``hint`` recommends, and the
    analysis of the player's discard (``discard_note``, shown when the hand
    is over)."""

    mode: Mode = Mode.WAIT
    cursor: int = 0
    selected: list[Card] = field(default_factory=list)
    typed: str = ""
    seed_input: str | None = None
    """The seed being typed at "Play again?" (S), or ``None``."""
    log: list[str] = field(default_factory=list)
    review: list[HandCounted] = field(default_factory=list)
    recap: HandRecord | None = None
    replayed_hand: bool = False
    counted: list[HandCounted] = field(default_factory=list)
    prompt: str = ""
    match_points: tuple[int, int] = (0, 0)
    clock: str = ""
    """The decision clock that runs, as shown ("Your clock 1:25"); empty: none."""
    series: str = ""
    """The series score for the title bar ("Best of 3: 1-0"); empty: the
    games credited (``match_points``)."""
    options: CallerOptions = field(default_factory=CallerOptions)
    holding: bool = False
    chat: list[tuple[float, str, str]] = field(default_factory=list)
    """The chat window's lines (when, who, what; ``"***"`` for the door's
    own notices), the last :data:`CHAT_KEPT` only: :meth:`add_chat`."""
    chat_input: str = ""
    chatting: bool = False
    spectator: bool = False
    reveal: bool = False
    computer: bool = True
    hint: list[Card] = field(default_factory=list)
    lingering: bool = False
    """The hand is over but its show (the crib's verdict last) stays on
    screen until a key or the pause is over; then chat mode."""
    hint_for: int = -1
    """The number of game actions when :attr:`hint` was worked out (a
    repeated ``?`` in the same state is not worked out again)."""
    discard_note: str = ""
    msg_top: int = 0
    msg_painted: int = 0
    log_limit: int = 200
    wrapped: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """The memo of :meth:`wrap`."""
    log_version: int = 0
    """Counts the lines :meth:`say` added (the message area is painted
    again only when it changed)."""
    bands: dict[str, Band] = field(default_factory=dict, repr=False, compare=False)
    """The game screen's parts as last painted (:class:`~door.ui.canvas.Band`), by name."""

    before_deal: bool = False
    """The hand on the table is not dealt yet (chat mode, as in the original door)."""
    cut: str = ""
    """The cut for the first deal, in words ("You cut 5♥, Computer cut J♣:
    low card deals."), shown before the first hand."""
    note: str = ""
    """A sentence that belongs to the state it was said in (a hint, what a
    key does here): shown under the messages until the mode changes or the
    game moves on, never left behind in the log."""
    note_mode: Mode | None = None

    def add_chat(self, line: tuple[float, str, str]) -> None:
        """Add ``line`` (when, who, what) to the chat window, which keeps
        the last :data:`CHAT_KEPT` lines."""
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]

    def tell(self, text: str) -> None:
        """Show ``text`` as the :attr:`note` of the current mode."""
        self.note, self.note_mode = text, self.mode

    def band(self, name: str) -> Band:
        """The :class:`~door.ui.canvas.Band` called ``name`` of this view's screen."""
        band = self.bands.get(name)
        if band is None:
            band = self.bands[name] = Band()
        return band

    def wrap(self, text: str, width: int) -> tuple[str, ...]:
        """:func:`~door.ui.words.wrap_text` of a message or chat line of
        this view, memoized here (every frame wraps the same lines again):
        the memo goes with the session, and past :data:`WRAP_MEMO` texts it
        starts again."""
        key = (text, width)
        lines = self.wrapped.get(key)
        if lines is None:
            if len(self.wrapped) >= WRAP_MEMO:
                self.wrapped.clear()
            lines = self.wrapped[key] = wrap_text(text, width)
        return lines

    def say(self, *lines: str) -> None:
        """Add lines to the message log (the oldest fall off past the limit)."""
        self.log.extend(lines)
        self.log_version += 1
        if len(self.log) > self.log_limit:
            cut = len(self.log) - self.log_limit
            del self.log[:cut]
            self.msg_top = max(0, self.msg_top - cut)
            self.msg_painted = max(0, self.msg_painted - cut)
