"""A program watching a game by the game protocol: each move sent as an
``event`` seen from no seat (both hands hidden until the show), with the
sentences a watcher in screen-reader mode hears."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from door.play.api_events import event_message
from door.ui.speech import SpokenWords
from engine.events import Event

__all__ = ["NOBODY", "ApiWatcher"]

NOBODY = -1
"""The seat a watcher sees from: no hand is its own."""


class ApiWatcher:
    """A program watching a table of the players ``names``: ``send`` puts
    each move on its connection as an ``event``
    (:func:`~door.play.api_messages.event_message` from no seat, so both
    hands stay hidden until the show), with the sentences a watcher in
    screen-reader mode hears."""

    def __init__(self, send: Callable[[dict[str, Any]], None], names: tuple[str, str]) -> None:
        self.send = send
        self.spoken = SpokenWords(NOBODY, names)
        """The screen-reader mode's sentences for a watcher (both players by name)."""

    def refresh(self, events: Sequence[Event] = ()) -> None:
        for event in events:
            message = event_message(event, NOBODY)
            if message is not None:
                message["said"] = self.spoken.tell(event)
                self.send(message)
