"""The words the door says for every kind of score (the original door's terms)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.ui.words import describe, play_score_text, strip_controls, wrap_text
from engine.cards import Card, parse_cards
from engine.claims import ClaimOutcome, Verdict
from engine.events import CardPlayed, GameOver, GameResult, HandCounted, PlayPoint, ShowTurn, Skunk, StarterTurned
from engine.scoring import PlayKind, PlayScore, score_show

NAMES = ["Ann", "Computer"]


@pytest.mark.parametrize("score,text", [
    (PlayScore(PlayKind.FIFTEEN, 2), "Fifteen for 2"),
    (PlayScore(PlayKind.THIRTY_ONE, 2), "Thirty-one for 2"),
    (PlayScore(PlayKind.PAIR, 2), "Pair for 2"),
    (PlayScore(PlayKind.PAIR_ROYAL, 6), "Pair royal for 6"),
    (PlayScore(PlayKind.DOUBLE_PAIR_ROYAL, 12), "Double pair royal for 12"),
    (PlayScore(PlayKind.RUN, 4, 4), "Run of 4 for 4"),
    (PlayScore(PlayKind.GO, 1), "Go for 1"),
    (PlayScore(PlayKind.LAST_CARD, 1), "Last card for 1"),
])
def test_play_scores_in_words(score, text) -> None:
    assert play_score_text(score) == text


def test_events_from_each_side() -> None:
    c = Card.from_str
    played = CardPlayed(1, c("5H"), 15, (PlayScore(PlayKind.FIFTEEN, 2),))
    assert describe(played, 0, NAMES) == ["Computer plays 5\u2665, count 15. Fifteen for 2."]
    assert describe(played, 1, NAMES) == ["You play 5\u2665, count 15. Fifteen for 2."]
    assert describe(StarterTurned(c("JC"), 0, 2), 0, NAMES) == ["The starter is J\u2663. His heels for 2 to You!"]
    assert describe(PlayPoint(1, PlayScore(PlayKind.GO, 1)), 0, NAMES) == ["Go for 1 to Computer."]
    over = GameOver(GameResult(0, (121, 80), Skunk.SKUNK, 2))
    assert describe(over, 0, NAMES) == ["You win 121 to 80! Skunk! It counts 2 games."]


def test_replay_in_words() -> None:
    from engine.events import HandReplayed
    assert describe(HandReplayed(0, 3, (40, 37)), 0, NAMES) == [
        "You replay hand 3: the scores go back to 40 - 37; it does not count in the statistics."]


def test_claims_in_words() -> None:
    show = score_show(parse_cards("4D 4H 5S 6D"), Card.from_str("KC"))
    under = HandCounted(0, ShowTurn.HAND, show, 10, ClaimOutcome(Verdict.UNDER, 10, 4))
    lines = describe(under, 0, NAMES)
    assert lines[0].startswith("Your hand 4\u2666 4\u2665 5\u2660 6\u2666 + K\u2663: 14 (fifteens 6, pairs 2, runs 6)")
    assert lines[-1] == "You claimed 10, 4 short. Muggins! Computer takes 4."
    over = HandCounted(0, ShowTurn.HAND, show, 16, ClaimOutcome(Verdict.OVER, 0, 14))
    assert describe(over, 1, NAMES)[-1] == "Ann claimed 16, but it is worth 14: Ann pegs nothing and You peg 14."
    assert any(l.strip().startswith("2 runs of 3") for l in lines)


def test_untrusted_text_is_stripped() -> None:
    assert strip_controls("Ann\x1b[2J\x07\x9b", 20) == "Ann[2J"
    assert strip_controls("x" * 50, 20) == "x" * 20


async def test_table_chat_is_stripped_and_limited() -> None:
    from door.play.computer_seat import ComputerSeat
    from door.play.table import Table
    from door.play.table_settings import TableSettings
    from engine.rules import Rules

    class Ear(ComputerSeat):
        def __init__(self, name: str) -> None:
            super().__init__(name)
            self.heard: list = []

        def on_chat(self, line) -> None:
            self.heard.append(line)

    ears = [Ear("A"), Ear("B")]
    table = Table(Rules(), ears, TableSettings(chat_limit=20))
    table.chat(0, "\x1b[2J\x1b]0;owned\x07hello\x9b31m" + "x" * 50)
    assert [line[2] for line in ears[0].heard] == ["[2J]0;ownedhello31mx"]
    assert all("\x1b" not in line[2] and "\x07" not in line[2] for line in ears[1].heard)
    table.chat(1, "\x1b\x1b\x07")  # nothing left: not sent
    assert len(ears[0].heard) == 1


def test_a_counted_hand_shows_its_cards_as_the_screen_does() -> None:
    """"Your hand 3♠ J♥ 9♦ 6♠" under a hand shown 3♠ 6♠ 9♦ J♥."""
    from door.ui.words import describe
    from engine.cards import Card, parse_cards
    from engine.claims import adjudicate
    from engine.events import HandCounted, ShowTurn
    from engine.rules import Rules
    from engine.scoring import score_show

    show = score_show(parse_cards("3S JH 9D 6S"), Card.from_str("2C"))
    event = HandCounted(0, ShowTurn.HAND, show, None, adjudicate(show.total, show.total, Rules()))
    assert describe(event, 0, ("Ann", "Computer"))[0].startswith("Your hand 3\u2660 6\u2660 9\u2666 J\u2665 + 2\u2663")
    assert describe(event, 0, ("Ann", "Computer"), sort=False)[0].startswith("Your hand 3\u2660 J\u2665 9\u2666 6\u2660")


def test_a_game_s_messages_are_wrapped_by_its_own_view_not_kept_for_good() -> None:
    """Every session's messages in one global memo (8,192
    texts) made the 2,000-game soak's memory grow as long as it ran; they
    are memoized by the view, which goes with the session, and bounded."""
    from door.play.view_state import WRAP_MEMO, ViewState
    from door.ui.words import wrap

    before = wrap.cache_info().currsize
    vs = ViewState()
    for i in range(3 * WRAP_MEMO):
        text = f"You kept 6\u2666 J\u2666 J\u2665 J\u2660: {i / 10:.1f} expected, as good as any discard."
        assert vs.wrap(text, 78) == vs.wrap(text, 78)
    assert len(vs.wrapped) <= WRAP_MEMO
    assert wrap.cache_info().currsize == before


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=" ab\u2665\t\n\r\x0b\x0c\u00a05,", max_size=16), st.integers(1, 16))
def test_wrapping_a_text_that_fits_gives_what_textwrap_gives(text: str, width: int) -> None:
    """A text that fits its width is left whole without textwrap (most messages fit, and wrapping them was a tenth of a frame's
    painting), with exactly textwrap's lines in every case."""
    import textwrap

    indent = len(text) - len(text.lstrip(" "))
    assert wrap_text(text, width) == (tuple(textwrap.wrap(text, width, subsequent_indent=" " * (indent + 2)))
                                      or ("",))
