"""Forced actions: a decision with one answer, which the door may make for
the player at once so that only real decisions wait (a correspondence
game's days, a clock's seconds).

In the play a player must play when able (the ACC's rules): one who
holds a single card that can be played without passing 31 has no choice
to make.  The go is already declared by the game itself, the cut for
the first deal and the starter are turned by it; a discard (fifteen
ways) and a claim at a manual count are never forced.
"""

from __future__ import annotations

from .actions import Action
from .game import Game, Phase

__all__ = ["forced_action"]


def forced_action(game: Game, seat: int) -> Action | None:
    """The action ``seat`` must take in ``game`` now when it is the only
    legal one (a sole playable card, the last card in hand), else ``None``.

    >>> from engine.rules import Rules
    >>> game = Game(Rules(), 7)
    >>> _ = game.start()
    >>> forced_action(game, game.to_act()[0]) is None  # (the discard: never forced)
    True
    """
    if game.phase is not Phase.PLAY or seat not in game.to_act():
        return None
    legal = game.legal_actions(seat)
    return legal[0] if len(legal) == 1 else None
