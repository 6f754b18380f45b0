"""The human seat's pure controller, key by key, in every mode: no
sockets, no table; a real engine game brought to the state under test."""

from __future__ import annotations

from door.net.keys import Key, KeyName
from door.play.controller import (
    Abandon,
    Again,
    Beep,
    Deal,
    Leave,
    Release,
    Say,
    Seating,
    Submit,
    handle_key,
    prompt_for,
)
from door.play.game_view import my_cards
from door.play.view_state import Mode, ViewState
from engine.actions import Claim, Discard, HandOver, Play, ReplayHand
from engine.game import Game, Phase
from engine.players import GreedyPlayer
from engine.rules import Rules
from engine.strategy import choose_action

ME = 0
NAMES = ("Ann", "Computer")


def key(name: KeyName | str) -> Key:
    return Key(KeyName.CHAR, name) if isinstance(name, str) else Key(name)


def game_at(phase: Phase, number: int = 7) -> Game:
    """Game ``number`` played by the greedy computer for both seats until
    seat 0 must act in ``phase``."""
    game = Game(Rules(), number)
    game.start()
    player = GreedyPlayer()
    while not (game.phase is phase and ME in game.to_act()):
        assert not game.over, "the game ended before the state under test"
        seat = game.to_act()[0]
        game.apply(choose_action(game, seat, player))
    return game


SEATED = Seating(ME, NAMES)


def ready(game: Game, seating: Seating = SEATED) -> ViewState:
    vs = ViewState()
    prompt_for(vs, game, seating)
    return vs


def test_discard_mode_moves_the_bar_selects_two_and_lays_them_away() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert vs.mode is Mode.DISCARD and "Choose 2 cards for" in vs.prompt
    assert handle_key(vs, game, seating, key(KeyName.LEFT)) == [] and vs.cursor == 5  # wraps round
    assert handle_key(vs, game, seating, key(KeyName.RIGHT)) == [] and vs.cursor == 0
    handle_key(vs, game, seating, key(KeyName.ENTER))
    handle_key(vs, game, seating, key("l"))
    handle_key(vs, game, seating, key(" "))
    assert len(vs.selected) == 2
    prompt_for(vs, game, seating)
    assert vs.prompt.startswith("RETURN lays away")
    thrown = (vs.selected[0], vs.selected[1])
    intents = handle_key(vs, game, seating, key(KeyName.ENTER))
    assert intents == [Submit(Discard(ME, thrown))]
    assert vs.selected == [] and vs.discard_note == ""  # (worked out by the seat, off the event loop)


def test_discard_mode_unselects_and_refuses_a_card_twice() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    handle_key(vs, game, seating, key(KeyName.ENTER))
    handle_key(vs, game, seating, key(KeyName.ENTER))
    assert len(vs.selected) == 1 and "already selected" in vs.note
    handle_key(vs, game, seating, key(KeyName.DELETE))
    assert vs.selected == []
    assert handle_key(vs, game, seating, key("z")) == [Beep()]
    assert vs.note == "Arrows move the bar, RETURN selects, DEL unselects."


def test_hint_marks_the_hard_computers_discard() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert handle_key(vs, game, seating, key("?")) == []
    assert len(vs.hint) == 2 and vs.note.startswith("Hint: lay away")


def test_play_mode_plays_the_card_under_the_bar_and_skips_played_cards() -> None:
    game = game_at(Phase.PLAY)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert vs.mode is Mode.PLAY and vs.prompt.startswith(f"Your turn, count {game.count}")
    playable = [c for c in game.hands[ME] if game.count + c.pip <= 31]
    while True:
        card = my_cards(game, ME, vs.options.sort)[vs.cursor]
        if card in playable:
            break
        handle_key(vs, game, seating, key(KeyName.RIGHT))
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [Submit(Play(ME, card))]


def test_the_play_starts_with_the_bar_on_the_first_playable_card() -> None:
    """The bar stayed in the slot the discard left it in, over
    whichever card moved under it; the first RETURN of the play played it."""
    for number in range(1, 40):
        game = game_at(Phase.DISCARD, number)
        seating = Seating(ME, NAMES)
        vs = ready(game, seating)
        for _ in range(5):  # the bar on the sixth card, where the last of a discard often leaves it
            handle_key(vs, game, seating, key(KeyName.RIGHT))
        player = GreedyPlayer()
        while not (game.phase is Phase.PLAY and ME in game.to_act()):
            game.apply(choose_action(game, game.to_act()[0], player))
            prompt_for(vs, game, seating)
        shown = my_cards(game, ME, vs.options.sort)
        assert vs.mode is Mode.PLAY
        assert vs.cursor == next(i for i, c in enumerate(shown) if c in game.playable(ME)), number


def test_no_hints_between_people_unless_the_house_says_so() -> None:
    """? and the best discard after the hand worked in games
    against the sysop and other callers; now a house rule, off by default."""
    game = game_at(Phase.DISCARD)
    person = Seating(ME, ("Ann", "Sysop"), computer=False, hints=False)
    vs = ready(game, person)
    assert handle_key(vs, game, person, key("?")) == [] and vs.hint == []
    assert "No hints in a game between people" in vs.note
    handle_key(vs, game, person, key(KeyName.ENTER))
    handle_key(vs, game, person, key(KeyName.RIGHT))
    handle_key(vs, game, person, key(KeyName.ENTER))
    assert handle_key(vs, game, person, key(KeyName.ENTER))[0].__class__ is Submit
    assert vs.discard_note == ""  # no "the best was ..." after the hand
    allowed = Seating(ME, ("Ann", "Sysop"), computer=False, hints=True)
    vs = ready(game, allowed)
    handle_key(vs, game, allowed, key("?"))
    assert len(vs.hint) == 2


def test_count_mode_takes_digits_and_claims() -> None:
    game = game_at(Phase.SHOW)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert vs.mode is Mode.COUNT and vs.prompt.startswith("Count your")
    for ch in "123":
        handle_key(vs, game, seating, key(ch))
    assert vs.typed == "12"  # two digits at most
    handle_key(vs, game, seating, key(KeyName.BACKSPACE))
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [Submit(Claim(ME, 1))]
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [] and "Type the points" in vs.note
    handle_key(vs, game, seating, key("3"))
    handle_key(vs, game, seating, key("0"))
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [] and "No hand scores more than 29" in vs.note
    assert handle_key(vs, game, seating, key("q")) == [Beep()]  # Q does not leave while counting


def test_chat_mode_sends_lines_deals_and_replays() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES, computer=True, dealt=False)
    vs = ready(game, seating)
    assert vs.mode is Mode.CHAT and "RETURN on a blank line deals" in vs.prompt
    for ch in "hi":
        handle_key(vs, game, seating, key(ch))
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [Say("hi")]
    assert handle_key(vs, game, seating, key(KeyName.ENTER)) == [Deal()]
    assert handle_key(vs, game, seating, key(KeyName.CTRL_R)) == []  # nothing to replay before hand 1
    person = Seating(ME, ("Ann", "Sysop"), computer=False, dealt=False)
    vs2 = ready(game, person)
    if game.dealer != ME:
        assert vs2.prompt == "Chat; Sysop deals with RETURN on a blank line. Ctrl-C leaves."
    long = ViewState(mode=Mode.CHAT)
    for _ in range(80):
        handle_key(long, game, seating, key("x"), chat_limit=70)
    assert len(long.chat_input) == 70
    assert "A chat line holds 70 characters: RETURN sends it." in long.note  # not cut without a word (33.3f)


def test_every_chat_prompt_says_how_to_leave() -> None:
    """In chat mode Q and Y are typed as chat ("> qy" reached the sysop)."""
    game = game_at(Phase.DISCARD)
    for seating in (Seating(ME, NAMES, computer=True, dealt=False), Seating(ME, ("Ann", "Sysop"), dealt=False),
                    Seating(1 - ME, ("Ann", "Sysop"), dealt=False)):
        vs = ready(game, seating)
        assert vs.mode is Mode.CHAT and "Ctrl-C leaves" in vs.prompt and len(vs.prompt) <= 78, vs.prompt
        assert handle_key(vs, game, seating, key(KeyName.CTRL_C)) == [Leave()]


def test_replay_is_offered_against_the_computer_after_a_hand() -> None:
    game = game_at(Phase.DISCARD)
    player = GreedyPlayer()
    hand = game.hand_number
    while game.hand_number == hand or ME not in game.to_act():
        game.apply(choose_action(game, game.to_act()[0], player))
    seating = Seating(ME, NAMES, computer=True, dealt=False)
    vs = ready(game, seating)
    assert "Ctrl-R replays the hand" in vs.prompt
    assert handle_key(vs, game, seating, key(KeyName.CTRL_R)) == [Submit(ReplayHand(ME))]


def test_chat_window_during_the_discard_against_a_person() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, ("Ann", "Sysop"), computer=False)
    vs = ready(game, seating)
    assert handle_key(vs, game, seating, key("c")) == [] and vs.chatting
    prompt_for(vs, game, seating)
    assert vs.prompt.startswith("Chat: RETURN sends")
    assert handle_key(vs, game, seating, key(KeyName.ESCAPE)) == [] and not vs.chatting
    against_computer = Seating(ME, NAMES)
    handle_key(vs, game, against_computer, key("c"))
    assert not vs.chatting


def test_wait_mode_says_whose_turn_and_releases_a_hold() -> None:
    game = game_at(Phase.DISCARD)
    game.apply(choose_action(game, ME, GreedyPlayer()))
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert vs.mode is Mode.WAIT and vs.prompt == "Waiting for Computer to lay away two cards..."
    assert handle_key(vs, game, seating, key("x")) == [Beep()]
    assert vs.note == "Please wait: it is Computer's turn."
    vs.holding = True
    prompt_for(vs, game, seating)
    assert vs.prompt == "Press a key to go on."
    assert handle_key(vs, game, seating, key("x")) == [Release()]


def test_an_absent_opponent_shows_a_countdown_and_a_abandons() -> None:
    game = game_at(Phase.DISCARD)
    game.apply(choose_action(game, ME, GreedyPlayer()))
    seating = Seating(ME, ("Ann", "Sysop"), computer=False, absent=True, seconds_left=125)
    vs = ready(game, seating)
    assert vs.prompt == "Waiting for Sysop to come back (2:05); A abandons the game."
    assert handle_key(vs, game, seating, key("a")) == [Abandon()]


def test_leaving_asks_first() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    assert handle_key(vs, game, seating, key("q")) == [Leave()]
    assert handle_key(vs, game, seating, key(KeyName.CTRL_C)) == [Leave()]
    asking = Seating(ME, NAMES, leaving=True)
    prompt_for(vs, game, asking)
    assert vs.prompt == "Leave this game? (Y/N)"
    assert handle_key(vs, game, asking, key("n")) == [Leave(asking=False)]
    assert handle_key(vs, game, asking, key("y")) == [Leave(asking=False, confirmed=True)]


def test_over_mode_asks_to_play_again() -> None:
    game = Game(Rules(game_to=61), 3)
    game.start()
    player = GreedyPlayer()
    while not game.over:
        game.apply(choose_action(game, game.to_act()[0], player))
    seating = Seating(ME, NAMES, asking_again=True)
    vs = ready(game, seating)
    assert vs.mode is Mode.OVER and vs.prompt == "Play again? (Y/N; S sets your seed)"
    assert handle_key(vs, game, seating, key("y")) == [Again(True)]
    assert handle_key(vs, game, seating, key("n")) == [Again(False)]
    assert handle_key(vs, game, seating, key("x")) == [Beep()]
    done = Seating(ME, NAMES)
    prompt_for(vs, game, done)
    assert vs.prompt == "Game over." and handle_key(vs, game, done, key("y")) == []


def test_a_seed_is_typed_at_play_again_after_the_commitment() -> None:
    """S at "Play again?" types the player's seed for the next game (whose
    commitment was shown with the result); every letter is the seed's
    there, RETURN sets it, ESC keeps the old one."""
    from door.play.controller import SetSeed

    game = Game(Rules(game_to=61), 3)
    game.start()
    player = GreedyPlayer()
    while not game.over:
        game.apply(choose_action(game, game.to_act()[0], player))
    seating = Seating(ME, NAMES, asking_again=True)
    vs = ready(game, seating)
    assert handle_key(vs, game, seating, key("s")) == []
    prompt_for(vs, game, seating)
    assert vs.seed_input == "" and vs.prompt == "Your seed: "
    for char in "oqy?n":
        assert handle_key(vs, game, seating, key(char)) == []
    assert vs.seed_input == "oqy?n" and vs.options.box  # (O typed, not the rules box turned off)
    assert handle_key(vs, game, seating, Key(KeyName.ENTER)) == [SetSeed("oqy?n")]
    prompt_for(vs, game, seating)
    assert vs.seed_input is None and vs.prompt.startswith("Play again?")
    handle_key(vs, game, seating, key("S"))
    handle_key(vs, game, seating, key("z"))
    assert handle_key(vs, game, seating, Key(KeyName.ESCAPE)) == [] and vs.seed_input is None


def test_o_turns_the_rules_box_on_and_off() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    before = vs.options.box
    handle_key(vs, game, seating, key("o"))
    assert vs.options.box is not before


def test_a_flood_of_question_marks_works_the_hint_out_once(monkeypatch) -> None:
    """200 KB of ``?`` in a game was 56 s of CPU; the same
    state's hint is worked out once, and again after the game moves on."""
    import door.play.controller as controller

    calls = []
    real = controller.hint

    def counting(game: Game, me: int):  # type: ignore[no-untyped-def]
        calls.append(len(game.actions))
        return real(game, me)

    monkeypatch.setattr(controller, "hint", counting)
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    for _ in range(1000):
        handle_key(vs, game, seating, key("?"))
    assert len(calls) == 1 and vs.hint
    game.apply(choose_action(game, 1, GreedyPlayer()))  # the computer lays away: a new state
    handle_key(vs, game, seating, key("?"))
    assert len(calls) == 2


def test_home_and_end_put_the_bar_on_the_first_and_last_card() -> None:
    """Every form of Home and End the README promises."""
    from door.net.keys import KeyDecoder

    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES)
    vs = ready(game, seating)
    vs.cursor = 2
    for home, end in [(b"\x1b[1~", b"\x1b[4~"), (b"\x1b[H", b"\x1b[F"), (b"\x1bOH", b"\x1bOF"),
                      (b"\x1b[7~", b"\x1b[8~")]:
        handle_key(vs, game, seating, KeyDecoder().feed(end)[0])
        assert vs.cursor == 5
        handle_key(vs, game, seating, KeyDecoder().feed(home)[0])
        assert vs.cursor == 0
    play = game_at(Phase.PLAY)
    vs = ready(play, seating)
    held = [i for i, c in enumerate(my_cards(play, ME, vs.options.sort)) if c in play.hands[ME]]
    handle_key(vs, play, seating, key(KeyName.END))
    assert vs.cursor == held[-1]
    handle_key(vs, play, seating, key(KeyName.HOME))
    assert vs.cursor == held[0]


def test_c_against_the_computer_says_what_chat_is_for() -> None:
    game = game_at(Phase.DISCARD)
    seating = Seating(ME, NAMES, computer=True)
    vs = ready(game, seating)
    assert handle_key(vs, game, seating, key("c")) == []
    assert not vs.chatting and "Chat is for games against the sysop" in vs.note


def test_p_lets_the_computer_peg_this_hand_only_in_a_game_by_turns() -> None:
    game = game_at(Phase.PLAY)
    live = Seating(ME, ("Ann", "Bob"), computer=False)
    vs = ready(game, live)
    assert "P: the computer pegs" not in vs.prompt
    assert handle_key(vs, game, live, key("p")) == [Beep()]  # (a live game's play is the player's own)
    by_turns = Seating(ME, ("Ann", "Bob"), computer=False, by_turns=True)
    vs = ready(game, by_turns)
    assert vs.prompt.endswith("P: the computer pegs this hand.") and len(vs.prompt) <= 80
    assert handle_key(vs, game, by_turns, key("P")) == [Submit(HandOver(ME))]
    game.apply(HandOver(ME))
    prompt_for(vs, game, by_turns)
    assert vs.mode is not Mode.PLAY  # (no card of this hand is the player's to choose now)
    assert handle_key(vs, game, by_turns, key("p")) == [] and "already" in vs.note
