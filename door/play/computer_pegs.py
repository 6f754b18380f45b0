"""The pegging of a hand handed to the computer at a table by turns ("let
the computer peg this hand for me"): a player hands it over with
:class:`~engine.actions.HandOver` (a key at the screens, the protocol's
``peg_for_me``), and the table plays that player's cards in the hand's
play as the expert would, at once.  The action stays in the game's
actions, so the record, a kept game taken up at the next sitting and the
review know which plays were the computer's.  Only the pegging: the
discard and the counting stay the player's."""

from __future__ import annotations

import random

from door.play.thinking import IN_THREAD, Thinking
from engine.actions import Action, HandOver, IllegalAction, Play
from engine.expert import ExpertPlayer
from engine.game import Game, Phase
from engine.handover import handed_over
from engine.objectives import Objective
from engine.strategy import decision_for

__all__ = ["computer_play", "check_hand_over"]


def check_hand_over(action: Action, game: Game, by_turns: bool, by_door: bool = False) -> None:
    """Raise :class:`~engine.actions.IllegalAction` for a
    :class:`~engine.actions.HandOver` at a table that is not by turns (a
    live game is the players' own to peg), and for a player's own card in
    a hand they let the computer peg (``by_door``: the door's move, the
    computer's card, passes); anything else passes."""
    if isinstance(action, HandOver) and not by_turns:
        raise IllegalAction("only a game by turns lets the computer peg a hand for a player")
    if isinstance(action, Play) and not by_door and game.phase is Phase.PLAY and handed_over(game, action.seat):
        raise IllegalAction("the computer pegs this hand for you")


async def computer_play(game: Game, objective: Objective, thinking: Thinking = IN_THREAD) -> Play | None:
    """The expert's play (for ``objective``, thought in ``thinking`` when it
    weighs a choice) for the player whose turn it is in ``game``'s play,
    when they handed this hand's pegging to the computer; ``None`` when
    it is nobody's such turn."""
    if game.phase is not Phase.PLAY or not handed_over(game, game.turn):
        return None
    decision = decision_for(game, game.turn, objective)
    expert = ExpertPlayer(random.Random(game.number * 131 + game.hand_number))
    action = await thinking.decide(expert, decision) if decision.needs_thought else decision.take(expert)
    return action if isinstance(action, Play) else None
