"""One vocabulary for the events: every kind of event the engine returns
is named once (door.ui.telling), and both renderings, the screen's words
and the spoken sentences, say each one for a player (or leave it unsaid
on purpose)."""

from __future__ import annotations

import typing
from abc import abstractmethod

import pytest

from door.play.api_events import EventMessages
from door.ui.speech import SpokenWords
from door.ui.telling import _METHODS, Telling
from door.ui.words import ScreenWords
from engine import events
from engine.game import Game
from engine.players import GreedyPlayer
from engine.rules import Rules
from engine.strategy import choose_action


def test_every_kind_of_event_has_its_method() -> None:
    kinds = set(typing.get_args(events.Event))
    assert kinds == set(_METHODS)
    for name in _METHODS.values():
        assert getattr(Telling, name).__isabstractmethod__


def test_a_rendering_that_leaves_a_kind_out_cannot_be_made() -> None:
    class Half(Telling):
        def cut_for_deal(self, event: events.CutForDeal) -> list[str]:
            return []

    with pytest.raises(TypeError):
        Half(0, ["Ann", "Computer"])  # type: ignore[abstract]
    assert ScreenWords(0, ["Ann", "Computer"]).who == ["You", "Computer"]


@pytest.mark.parametrize("rendering", [ScreenWords, SpokenWords, EventMessages])
def test_a_new_kind_of_event_that_a_rendering_does_not_say_fails_it(rendering: type[Telling[object]]) -> None:
    """A kind of event added to the vocabulary (an abstract method of
    Telling) that a rendering does not say makes that rendering one that
    cannot be made: the game protocol's as well as the screen's and the
    spoken words."""
    class Newer(Telling[object]):
        @abstractmethod
        def clock_started(self, event: object) -> object:
            """A new kind of event."""

    class Behind(rendering, Newer):  # type: ignore[valid-type, misc]
        pass

    with pytest.raises(TypeError, match="clock_started"):
        Behind(0, ["Ann", "Computer"])
    rendering(0, ["Ann", "Computer"])  # (today's vocabulary: every rendering says it all)


@pytest.mark.parametrize("rendering", [ScreenWords, SpokenWords])
def test_both_renderings_tell_a_whole_game(rendering: type[Telling[list[str]]]) -> None:
    """A whole game between two greedy players: every event that changes
    what a player knows is told (only the reset of the count may be left
    to the next card in speech), for each seat and for a watcher."""
    game = Game(Rules(game_to=61), 7)
    told: dict[type, int] = {}
    happened = list(game.start())
    players = [GreedyPlayer(), GreedyPlayer()]
    while not game.over:
        seat = game.to_act()[0]
        happened += game.apply(choose_action(game, seat, players[seat]))
    for me in (0, 1, -1):
        telling = rendering(me, ["Ann", "Computer"])
        for event in happened:
            lines = telling.tell(event)
            told[type(event)] = told.get(type(event), 0) + len(lines)
            assert all(isinstance(line, str) and line for line in lines)
    silent = {events.SeriesReset} if rendering is SpokenWords else set()
    for kind in {type(e) for e in happened} - silent:
        assert told[kind] > 0, kind.__name__
