"""Where the table stands for a human seat, and what it asks of the
player: :class:`Seating` (the table's state as the controller reads it)
and :func:`prompt_for`, which works out the mode of the keys and the
prompt line from the game now, one small step for each place the table
may be in (:data:`_PROMPTS`).  Pure, as the controller
(:mod:`door.play.controller`) that reads the keys."""

from __future__ import annotations

from dataclasses import dataclass

from door.play.game_view import my_cards
from door.play.view_state import Mode, ViewState
from door.ui.cells import cell_width
from door.ui.words import card_text
from engine.cards import Card
from engine.game import Game, Phase
from engine.handover import handed_over

__all__ = ["Seating", "may_replay", "prompt_for", "shown", "cursor_to_unplayed"]


@dataclass(frozen=True)
class Seating:
    """Where the table stands for seat ``me``: both ``names``; whether the
    opponent is the ``computer``; whether the hand on the table was
    ``dealt`` (else chat mode, as in the original door); whether the opponent is
    ``absent`` (line dropped) and the ``seconds_left`` for them to come
    back; whether the table is ``asking_again`` (play another game?);
    whether this player is ``leaving`` (asked Q, not yet answered);
    whether ``hints`` are given."""

    me: int
    names: tuple[str, str]
    computer: bool = True
    dealt: bool = True
    absent: bool = False
    seconds_left: int = 0
    asking_again: bool = False
    leaving: bool = False
    hints: bool = True
    """Whether hints are given (? and the best discard after the hand):
    always against the computer, between people as the house says."""
    again_question: str = "Play again?"
    """What the table asks after a game ("Rematch?" after a match)."""
    leave_question: str = "Leave this game? (Y/N)"
    """What the table asks before this player leaves on purpose (in a
    rated match, what it costs: :meth:`door.play.table.Table.leave_question`)."""
    rated: bool = False
    by_turns: bool = False
    """A game by turns (by correspondence): P lets the computer peg the
    hand for this player."""
    """A rated match (the player who stays cannot end it while the other is away)."""

    @property
    def opponent(self) -> str:
        return self.names[1 - self.me]


def may_replay(game: Game, seating: Seating) -> bool:
    """Replaying a hand is offered against the computer only (against a
    person both would have to agree)."""
    return game.can_replay() and seating.computer


def prompt_for(vs: ViewState, game: Game, seating: Seating) -> None:
    """Set ``vs.mode`` and ``vs.prompt`` from the game now (the next key
    depends on them), and keep the bar on a card that is there: the first
    of :data:`_PROMPTS` that applies to where the table stands sets them,
    else the player waits."""
    vs.before_deal = not seating.dealt and not game.over
    if not any(step(vs, game, seating) for step in _PROMPTS):
        _waiting(vs, game, seating)
    _notes_go_with_their_mode(vs)


def _leaving(vs: ViewState, game: Game, seating: Seating) -> bool:
    if seating.leaving:
        vs.prompt = seating.leave_question
    return seating.leaving


def _absent(vs: ViewState, game: Game, seating: Seating) -> bool:
    if game.over or not seating.absent:
        return False
    vs.mode = Mode.WAIT
    left = seating.seconds_left
    then = "then the match is yours by forfeit" if seating.rated else "A abandons the game"
    vs.prompt = f"Waiting for {seating.opponent} to come back ({left // 60}:{left % 60:02d}); {then}."
    return True


def _over(vs: ViewState, game: Game, seating: Seating) -> bool:
    if not game.over:
        return False
    vs.mode = Mode.OVER
    if not seating.asking_again:
        vs.seed_input = None
        vs.prompt = "Game over."
    elif vs.seed_input is not None:
        vs.prompt = "Your seed: "
    else:
        vs.prompt = f"{seating.again_question} (Y/N; S sets your seed)"
    return True


def _before_deal(vs: ViewState, game: Game, seating: Seating) -> bool:
    if seating.dealt:
        return False
    if vs.lingering:
        vs.mode = Mode.WAIT
        vs.prompt = "Press a key to go on."
        return True
    vs.mode = Mode.CHAT
    # every chat prompt says how to leave: Q and Y are chat here
    if seating.me == game.dealer or seating.computer:
        vs.prompt = "Chat, then RETURN on a blank line deals. Ctrl-C leaves the table."
        if may_replay(game, seating):
            vs.prompt = "Chat; RETURN on a blank line deals, Ctrl-R replays the hand, Ctrl-C leaves."
    else:
        vs.prompt = f"Chat; {seating.opponent} deals with RETURN on a blank line. Ctrl-C leaves."
    return True


def _chat_window(vs: ViewState, game: Game, seating: Seating) -> bool:
    if vs.chatting:
        vs.prompt = "Chat: RETURN sends, RETURN on a blank line or ESC goes back to your cards."
    return vs.chatting


def _discarding(vs: ViewState, game: Game, seating: Seating) -> bool:
    me, opponent = seating.me, seating.opponent
    if me not in game.to_act() or game.phase is not Phase.DISCARD:
        return False
    vs.mode = Mode.DISCARD
    crib = "your" if game.dealer == me else (f"{opponent}'s" if cell_width(opponent) <= 10 else "their")
    if len(vs.selected) < 2:
        vs.prompt = f"Choose 2 cards for {crib} crib: arrows, RETURN selects, DEL unselects."
    else:
        vs.prompt = (f"RETURN lays away {card_text(vs.selected[0])} {card_text(vs.selected[1])}"
                     f" to {crib} crib; DEL unselects.")
    vs.cursor = min(vs.cursor, len(game.hands[me]) - 1)
    return True


def _playing(vs: ViewState, game: Game, seating: Seating) -> bool:
    me = seating.me
    if me not in game.to_act() or game.phase is not Phase.PLAY or handed_over(game, me):
        return False  # (not this player's card to choose: the computer pegs this hand for them)
    first_turn = vs.mode is not Mode.PLAY and len(game.hands[me]) == 4
    vs.mode = Mode.PLAY
    vs.prompt = f"Your turn, count {game.count}: arrows choose a card, RETURN plays it."
    if seating.by_turns:  # (P: the computer pegs the rest of this hand: door.play.computer_pegs)
        vs.prompt = f"Your turn, count {game.count}: arrows choose, RETURN plays; P: the computer pegs this hand."
    if first_turn:  # the bar starts the play on the first card that may be played, not where the discard left it
        playable = game.playable(me)
        vs.cursor = next((i for i, c in enumerate(shown(vs, game, me)) if c in playable), 0)
    cursor_to_unplayed(vs, game, me, 0)
    return True


def _counting(vs: ViewState, game: Game, seating: Seating) -> bool:
    if seating.me not in game.to_act() or game.phase is not Phase.SHOW:
        return False
    assert game.show_turn is not None
    if vs.mode is not Mode.COUNT:
        vs.typed = ""
    vs.mode = Mode.COUNT
    vs.prompt = f"Count your {game.show_turn[1].value} (type the points, RETURN): "
    return True


def _waiting(vs: ViewState, game: Game, seating: Seating) -> None:
    vs.mode = Mode.WAIT
    if vs.holding:
        vs.prompt = "Press a key to go on."
    elif game.phase is Phase.DISCARD:
        vs.prompt = f"Waiting for {seating.opponent} to lay away two cards..."
    else:
        vs.prompt = f"{seating.opponent}'s turn..."


_PROMPTS = (_leaving, _absent, _over, _before_deal, _chat_window, _discarding, _playing, _counting)
"""Where the table may stand, in the order they are asked: the first that
applies sets the mode and the prompt."""


def _notes_go_with_their_mode(vs: ViewState) -> None:
    if vs.note and vs.note_mode is not vs.mode:
        vs.note, vs.note_mode = "", None


def shown(vs: ViewState, game: Game, me: int) -> list[Card]:
    """The player's cards in the order on the screen."""
    return my_cards(game, me, vs.options.sort)


def cursor_to_unplayed(vs: ViewState, game: Game, me: int, step: int) -> None:
    """Move the bar ``step`` cards among those still in hand (0: onto the
    nearest one still in hand)."""
    held = game.hands[me]
    indexes = [i for i, c in enumerate(shown(vs, game, me)) if c in held]
    if not indexes:
        return
    if step == 0:
        if vs.cursor not in indexes:
            vs.cursor = min(indexes, key=lambda i: (i < vs.cursor, abs(i - vs.cursor)))
        return
    pos = indexes.index(vs.cursor) if vs.cursor in indexes else 0
    vs.cursor = indexes[(pos + step) % len(indexes)]
