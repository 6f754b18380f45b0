"""The game protocol's rendering of the engine's events: each kind of
event as the ``event`` message a seat may see (the third rendering of
the one vocabulary, :class:`~door.ui.telling.Telling`, beside the
screen's words and the spoken sentences; a kind of event it does not
render cannot be made, as for the other two).

What a seat is sent is what it may see: the other player's hand and what
they laid away stay hidden until the show (a hand dealt says their six
cards by count only; their discard by who only); a watcher (seat -1)
sees neither hand."""

from __future__ import annotations

from typing import Any

from door.play.api_messages import card_list
from door.ui.telling import Telling
from engine.events import (
    CardPlayed,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    PeggingHandedOver,
    PlayPoint,
    SeriesReset,
    StarterTurned,
)

__all__ = ["EventMessages", "event_message"]

Body = dict[str, Any] | None
"""An event message's fields without its ``type`` (``None``: not sent)."""


class EventMessages(Telling[Body]):
    """The events as ``event`` messages for seat ``me`` (-1: a watcher):
    each method gives the message's fields, ``event`` naming its kind."""

    def untold(self) -> Body:
        return None

    def cut_for_deal(self, event: CutForDeal) -> Body:
        return {"event": "cut", "cuts": [card_list(pair) for pair in event.cuts], "dealer": event.dealer}

    def hand_replayed(self, event: HandReplayed) -> Body:
        return {"event": "replay", "seat": event.seat, "hand_number": event.number, "scores": list(event.scores)}

    def pegging_handed_over(self, event: PeggingHandedOver) -> Body:
        return {"event": "computer_pegs", "seat": event.seat, "hand_number": event.number}

    def hand_dealt(self, event: HandDealt) -> Body:
        return {"event": "deal", "hand_number": event.number, "dealer": event.dealer,
                "hand": card_list(event.hands[self.me]) if self.me in (0, 1) else []}

    def discarded(self, event: Discarded) -> Body:
        body: dict[str, Any] = {"event": "discard", "seat": event.seat}
        if event.seat == self.me:
            body["cards"] = card_list(event.cards)
        return body

    def starter_turned(self, event: StarterTurned) -> Body:
        return {"event": "starter", "card": str(event.card), "dealer": event.dealer, "heels": event.heels}

    def card_played(self, event: CardPlayed) -> Body:
        return {"event": "card", "seat": event.seat, "card": str(event.card), "count": event.count,
                "pegs": [{"kind": s.kind.name.lower(), "points": s.points} for s in event.scores]}

    def go_declared(self, event: GoDeclared) -> Body:
        return {"event": "go", "seat": event.seat, "count": event.count}

    def play_point(self, event: PlayPoint) -> Body:
        return {"event": "peg", "seat": event.seat,
                "pegs": [{"kind": event.score.kind.name.lower(), "points": event.score.points}]}

    def series_reset(self, event: SeriesReset) -> Body:
        return {"event": "reset", "seat": event.turn}

    def hand_counted(self, event: HandCounted) -> Body:
        show = event.show
        return {"event": "show", "seat": event.seat, "what": event.what.value, "cards": card_list(show.hand),
                "starter": str(show.starter), "total": show.total,
                "items": [{"kind": item.kind.name.lower(), "cards": card_list(item.cards), "points": item.points}
                          for item in show.items],
                "claim": event.claim, "verdict": event.outcome.verdict.name.lower(),
                "pegged": event.outcome.claimer, "muggins": event.outcome.opponent}

    def game_over(self, event: GameOver) -> Body:
        r = event.result
        return {"event": "over", "winner": r.winner, "scores": list(r.scores), "skunk": r.skunk.name.lower(),
                "value": r.value}


def event_message(event: Event, me: int) -> dict[str, Any] | None:
    """``event`` as the ``event`` message seat ``me`` may see (``None``
    for one not sent)."""
    body = EventMessages(me, ("", "")).tell(event)
    return None if body is None else {"type": "event", **body}
