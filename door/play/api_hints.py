"""The ``hint`` and ``advice`` a program asks for at its seat, as the
screens' ``?`` and the screen-reader mode's A give them."""

from __future__ import annotations

from typing import Any

from door.play.api_messages import ask_message, card_list, error_message
from door.play.api_seat import ApiSeat
from door.play.hints import discard_analysis, hand_play, hint, pegging_note
from engine.actions import Discard
from engine.game import Phase

__all__ = ["advice_message", "hint_message"]


def hint_message(seat: ApiSeat) -> dict[str, Any]:
    """The ``hint`` for ``seat`` now, as the screens' ``?`` gives it
    (:func:`door.play.hints.hint`: the cards, and what they are worth), or
    an ``error``: no hints between people unless the table gives them, and
    a hint is for a discard or a card to play, when it is asked."""
    table = seat.table
    game = table.game if table is not None else None
    if table is None or game is None:
        return error_message("type", "no game is under way")
    if not table.against_computer(seat.index) and not table.hints:
        return error_message("type", "no hints in a game between people (a house rule)")
    ask = ask_message(game, seat.index)
    if ask is None or ask["ask"] == "count":
        return error_message("type", "a hint is for a discard or a card to play, when it is your turn")
    cards, text = hint(game, seat.index)
    return {"type": "hint", "cards": card_list(cards), "text": text}


def advice_message(seat: ApiSeat) -> dict[str, Any]:
    """The ``advice`` for ``seat`` now, as the screen-reader mode's A says
    it: the analysis of its last discard (:func:`door.play.hints.discard_analysis`)
    and the pegging of the last hand played out, both hands known
    (:func:`door.play.hints.pegging_note`; about 2 ms together), or an
    ``error`` where no hints are given."""
    table = seat.table
    game = table.game if table is not None else None
    if table is None or game is None:
        return error_message("type", "no game is under way")
    if not table.against_computer(seat.index) and not table.hints:
        return error_message("type", "no advice in a game between people (a house rule)")
    me, notes = seat.index, []
    thrown = [a for a in game.actions if isinstance(a, Discard) and a.seat == me]
    if thrown and game.kept[me]:  # this hand's discard
        notes.append(discard_analysis((*game.kept[me], *thrown[-1].cards), thrown[-1].cards, game.dealer == me))
    elif thrown and game.last_play is not None:  # the hand before's (dealt by the other)
        notes.append(discard_analysis((*game.last_play[1][me], *thrown[-1].cards), thrown[-1].cards,
                                      game.dealer != me))
    hand = game.hand_number if game.phase in (Phase.SHOW, Phase.OVER) else game.hand_number - 1
    play = hand_play(game, hand) if hand >= 1 else None
    if play is not None:
        note = pegging_note(game.rules, hand, *play, me, table.seats[1 - me].name)
        if note:
            notes.append(note)
    return {"type": "advice", "notes": notes or ["No advice yet: it comes after your first discard."]}
