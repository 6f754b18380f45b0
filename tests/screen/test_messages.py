"""Each message belongs to a state and goes when the state
goes; a watcher is nobody's "you"; the screen says which hand it is about."""

from __future__ import annotations

import pyte

from door.net.charset import UTF8
from door.net.keys import Key, KeyName
from door.play.controller import Seating, handle_key, prompt_for
from door.play.game_view import paint_game, rules_summary
from door.play.options import CallerOptions
from door.play.view_state import Mode, ViewState
from door.ui.canvas import Canvas
from door.ui.renderer import Renderer
from engine.actions import Discard
from engine.game import Game, Phase
from engine.players import GreedyPlayer
from engine.rules import Counting, FirstDeal, Rules
from engine.strategy import choose_action

NAMES = ["Ann", "Computer"]


def screen_of(game: Game, vs: ViewState, me: int = 0) -> str:
    canvas = Canvas(80, 24)
    paint_game(canvas, game, me, NAMES, vs)
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(Renderer(UTF8).render(canvas))
    return "\n".join(screen.display)


def discarding() -> Game:
    game = Game(Rules(first_deal=FirstDeal.SYSOP), 3)
    game.start()
    return game


def test_a_hint_and_a_key_s_help_go_when_the_discard_is_over() -> None:
    game = discarding()
    seating = Seating(0, ("Ann", "Computer"))
    vs = ViewState()
    prompt_for(vs, game, seating)
    handle_key(vs, game, seating, Key(KeyName.CHAR, "?"))
    assert "Hint: lay away" in screen_of(game, vs)
    handle_key(vs, game, seating, Key(KeyName.CHAR, "z"))  # a wrong key: what keys do here
    assert "Arrows move the bar" in screen_of(game, vs) and "Hint" not in screen_of(game, vs)
    hand = game.hands[0]
    game.apply(Discard(0, (hand[0], hand[1])))
    game.apply(choose_action(game, 1, GreedyPlayer()))
    assert game.phase is Phase.PLAY
    prompt_for(vs, game, seating)
    shown = screen_of(game, vs)
    assert "Arrows move the bar" not in shown and "Hint" not in shown and vs.note == ""


def test_the_watcher_is_nobody_s_you() -> None:
    game = discarding()
    vs = ViewState(mode=Mode.WAIT, spectator=True)
    shown = screen_of(game, vs)
    assert "Dealer: Computer" in shown and "You" not in shown and "Your cards" not in shown


def test_before_a_hand_the_header_says_it_is_the_next_one() -> None:
    game = discarding()
    vs = ViewState(mode=Mode.CHAT)
    shown = screen_of(game, vs)
    assert "Next deal: Computer" in shown and "Hand 1 next" in shown
    vs.mode = Mode.DISCARD
    assert "Dealer: Computer" in screen_of(game, vs)


def test_the_cut_is_shown_before_the_first_hand_says_who_deals() -> None:
    game = Game(Rules(), 7)
    game.start()
    vs = ViewState(mode=Mode.CHAT, cut="You cut 3\u2663, Computer cut 9\u2666: low card deals.")
    shown = screen_of(game, vs)
    assert shown.index("Before hand 1") < shown.index("low card deals")


def test_automatic_counting_says_nothing_of_muggins() -> None:
    text = rules_summary(Rules(counting=Counting.AUTOMATIC), CallerOptions())
    assert "muggins" not in text and "over-claim" not in text and text.startswith("automatic count")


def test_an_absent_opponent_before_the_deal_leaves_the_chat_screen_as_it_was() -> None:
    """A caller who dropped during the chat made the sysop's screen jump
    to the next hand's cards."""
    game = discarding()
    vs = ViewState()
    prompt_for(vs, game, Seating(0, ("Ann", "Computer"), computer=False, dealt=False, absent=True,
                                 seconds_left=300))
    shown = screen_of(game, vs)
    assert vs.mode is Mode.WAIT and "Waiting for Computer to come back" in shown
    assert "Before hand 1" in shown and "Your cards" not in shown
