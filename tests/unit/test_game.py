"""The game state machine: deal, discard, his heels, the play with go and
last card, the show with claims, game end, skunks, matches and replay."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Claim, Discard, IllegalAction, Play, ReplayHand
from engine.cards import Card, parse_cards
from engine.claims import Verdict
from engine.events import (
    CardPlayed,
    CutForDeal,
    GameOver,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    PlayPoint,
    SeriesReset,
    ShowTurn,
    Skunk,
    StarterTurned,
)
from engine.game import Game, Phase, replay
from engine.match import Match
from engine.rules import Counting, FirstDeal, Rules
from engine.scoring import PlayKind, RunMode


def stack(pone: str, dealer: str, starter: str) -> list[Card]:
    """A deck giving the pone and the dealer these six cards and this starter."""
    p, d = parse_cards(pone), parse_cards(dealer)
    deck = [c for pair in zip(p, d) for c in pair] + [Card.from_str(starter)]
    used = set(deck)
    from engine.cards import FULL_DECK
    return deck + [c for c in FULL_DECK if c not in used]


def caller_deals(**kw) -> Rules:
    return Rules(first_deal=FirstDeal.SYSOP, **kw)  # seat 1 deals, seat 0 is pone


def card(s: str) -> Card:
    return Card.from_str(s)


# Golden first deals: a game number replays the same cut and deals forever.
GOLDEN_FIRST_DEALS = {
    # cut, dealer, seat 0's and seat 1's cards in the order dealt, starter
    1: ("9S", "6H", 1, "7H TS KS JD JS QC", "5H 8C JC KD 6S KH", "5D"),
    32767: ("TS", "JD", 0, "AH 6C TS QH TH QD", "JH 7H TD 8S 8D AD", "4D"),
}


@pytest.mark.parametrize("number", GOLDEN_FIRST_DEALS)
def test_golden_first_deals(number: int) -> None:
    cut0, cut1, dealer, hand0, hand1, starter = GOLDEN_FIRST_DEALS[number]
    g = Game(Rules(), number)
    cut, dealt = g.start()
    assert cut == CutForDeal(((card(cut0), card(cut1)),), dealer)
    assert dealt.hands == (parse_cards(hand0), parse_cards(hand1))
    g.apply(Discard(0, dealt.hands[0][:2]))
    events = g.apply(Discard(1, dealt.hands[1][:2]))
    assert g.starter == card(starter) and StarterTurned(card(starter), dealer, 0) in events


def test_start_cuts_and_deals() -> None:
    g = Game(Rules(), 1)
    events = g.start()
    assert isinstance(events[0], CutForDeal) and isinstance(events[1], HandDealt)
    cut = events[0]
    a, b = cut.cuts[-1]
    assert cut.dealer == (0 if a.rank < b.rank else 1)
    assert g.dealer == cut.dealer and g.phase is Phase.DISCARD
    assert all(len(h) == 6 for h in g.hands)
    assert set(g.hands[0]).isdisjoint(g.hands[1])
    with pytest.raises(RuntimeError):
        g.start()


def test_cut_ties_recut_and_low_card_deals() -> None:
    for n in range(1, 2000):
        cut = Game(Rules(), n).start()[0]
        assert isinstance(cut, CutForDeal)
        if len(cut.cuts) > 1:
            assert all(a.rank == b.rank for a, b in cut.cuts[:-1])
            a, b = cut.cuts[-1]
            assert a.rank != b.rank and cut.dealer == (0 if a.rank < b.rank else 1)
            return
    pytest.fail("no tied cut in 2000 games")


@pytest.mark.parametrize("mode,dealer", [(FirstDeal.CALLER, 0), (FirstDeal.SYSOP, 1)])
def test_fixed_first_deal(mode, dealer) -> None:
    g = Game(Rules(first_deal=mode), 5)
    assert g.start()[0] == CutForDeal((), dealer)


def test_go_last_card_and_thirty_one_sequence() -> None:
    # pone (seat 0) keeps TH TD 9C 2S; dealer (seat 1) keeps KS QS 5H 6C.
    deck = stack("TH TD 9C 2S 3D 4D", "KS QS 5H 6C 7D 8D", "AC")
    g = Game(caller_deals(), 1, stacked=[deck])
    g.start()
    g.apply(Discard(0, (card("3D"), card("4D"))))
    events = g.apply(Discard(1, (card("7D"), card("8D"))))
    assert events[-1:] == [StarterTurned(card("AC"), 1, 0)] and g.turn == 0
    g.apply(Play(0, card("TH")))
    g.apply(Play(1, card("KS")))
    events = g.apply(Play(0, card("TD")))  # count 30: the dealer cannot play, nor can the pone
    assert events[1:] == [GoDeclared(1, 30), PlayPoint(0, events[2].score), SeriesReset(1)]
    assert events[2].score.kind is PlayKind.GO and g.scores() == (1, 0)
    g.apply(Play(1, card("QS")))
    g.apply(Play(0, card("9C")))
    g.apply(Play(1, card("5H")))
    events = g.apply(Play(0, card("2S")))  # 26: the dealer's 6 would make 32
    assert [type(e) for e in events] == [CardPlayed, GoDeclared, PlayPoint, SeriesReset]
    assert g.scores() == (2, 0) and g.turn == 1
    events = g.apply(Play(1, card("6C")))
    assert isinstance(events[1], PlayPoint) and events[1].score.kind is PlayKind.LAST_CARD
    assert g.scores() == (2, 1) and g.phase is Phase.SHOW and g.show_turn == (0, ShowTurn.HAND)
    # play-order numbers and series, as shown above the cards (the original door)
    assert [(p.card.to_str(), p.order, p.series) for p in g.played[0]] == [
        ("TH", 1, 0), ("TD", 3, 0), ("9C", 2, 1), ("2S", 4, 1)]


def test_thirty_one_resets_without_go() -> None:
    deck = stack("TH TD AC 2S 3D 4D", "KS 9S 5H 6C 7D 8D", "QC")
    g = Game(caller_deals(), 1, stacked=[deck])
    g.start()
    g.apply(Discard(0, (card("3D"), card("4D"))))
    g.apply(Discard(1, (card("7D"), card("8D"))))
    g.apply(Play(0, card("TH")))
    g.apply(Play(1, card("KS")))
    g.apply(Play(0, card("TD")))  # 30
    # dealer holds 9S 5H 6C: cannot play; pone plays AC for 31
    assert g.turn == 0
    events = g.apply(Play(0, card("AC")))
    assert events[0].scores[0].kind is PlayKind.THIRTY_ONE
    assert not any(isinstance(e, PlayPoint) for e in events)
    assert isinstance(events[-1], SeriesReset) and g.count == 0 and g.turn == 1


def test_his_heels_and_illegal_actions() -> None:
    deck = stack("TH TD AC 2S 3D 4D", "KS 9S 5H 6C 7D 8D", "JC")
    g = Game(caller_deals(), 1, stacked=[deck])
    g.start()
    with pytest.raises(IllegalAction, match="discard two different cards"):
        g.apply(Discard(0, (card("KS"), card("3D"))))
    with pytest.raises(IllegalAction, match="not seat"):
        g.apply(Play(0, card("TH")))
    g.apply(Discard(0, (card("3D"), card("4D"))))
    with pytest.raises(IllegalAction):
        g.apply(Discard(0, (card("TH"), card("TD"))))
    events = g.apply(Discard(1, (card("7D"), card("8D"))))
    assert events[-1] == StarterTurned(card("JC"), 1, 2) and g.scores() == (0, 2)
    with pytest.raises(IllegalAction, match="not seat 1's move"):
        g.apply(Play(1, card("KS")))
    g.apply(Play(0, card("TH")))
    g.apply(Play(1, card("KS")))
    g.apply(Play(0, card("TD")))  # 30: the dealer's 9S, 5H, 6C all pass 31
    assert g.turn == 0
    with pytest.raises(IllegalAction, match="past 31"):
        g.apply(Play(0, card("2S")))
    with pytest.raises(IllegalAction, match="not in hand"):
        g.apply(Play(0, card("KS")))


def play_out(g: Game) -> None:
    """Play the cards in hand order (first playable)."""
    while g.phase is Phase.PLAY:
        seat = g.turn
        g.apply(Play(seat, g.playable(seat)[0]))


def at_the_show(**rules) -> Game:
    """A hand played out to the show: the pone (seat 0) keeps 4D 4H 5S 6D
    (14 with the KC starter), the dealer keeps 2C 3C 8H 9H."""
    deck = stack("4D 4H 5S 6D AS AH", "2C 3C 8H 9H QD QH", "KC")
    g = Game(caller_deals(**rules), 1, stacked=[deck])
    g.start()
    g.apply(Discard(0, (card("AS"), card("AH"))))
    g.apply(Discard(1, (card("QD"), card("QH"))))
    play_out(g)
    return g


def test_show_claims_muggins_and_forfeit() -> None:
    g = at_the_show()
    before = g.scores()
    events = g.apply(Claim(0, 10))  # under-claim by 4: muggins
    counted = events[0]
    assert isinstance(counted, HandCounted) and counted.show.total == 14
    assert counted.outcome.verdict is Verdict.UNDER
    assert g.scores() == (before[0] + 10, before[1] + 4)
    with pytest.raises(IllegalAction, match="0 to 29"):
        g.apply(Claim(1, 30))
    dealer_true = g.current_show().total
    before = g.scores()
    g.apply(Claim(1, dealer_true + 3))  # over-claim: forfeit, the opponent pegs it
    assert g.scores() == (before[0] + dealer_true, before[1])
    assert g.show_turn == (1, ShowTurn.CRIB)
    crib_true = g.current_show().total
    events = g.apply(Claim(1, crib_true))
    assert isinstance(events[-1], HandDealt) and g.hand_number == 2 and g.dealer == 0


def test_automatic_counting_needs_no_claims() -> None:
    deck = stack("4D 4H 5S 6D AS AH", "2C 3C 8H 9H QD QH", "KC")
    g = Game(caller_deals(counting=Counting.AUTOMATIC), 1, stacked=[deck])
    g.start()
    g.apply(Discard(0, (card("AS"), card("AH"))))
    g.apply(Discard(1, (card("QD"), card("QH"))))
    while g.phase is Phase.PLAY:
        g.apply(Play(g.turn, g.playable(g.turn)[0]))
    assert g.phase is Phase.DISCARD and g.hand_number == 2
    assert Claim(0, 0) not in g.legal_actions(0)


def test_game_ends_in_the_show_before_the_dealer_counts() -> None:
    g = at_the_show()
    g.pegs[0].front, g.pegs[1].front = 110, 60  # stage the end of a game
    events = g.apply(Claim(0, 14))
    assert isinstance(events[-1], GameOver)
    result = events[-1].result
    assert result.winner == 0 and result.scores == (121, 60) and result.skunk is Skunk.DOUBLE
    assert result.value == 3 and g.over and g.to_act() == ()
    with pytest.raises(IllegalAction):
        g.apply(Claim(1, 0))


@pytest.mark.parametrize("game_to,loser,skunk", [
    (121, 91, Skunk.NONE), (121, 90, Skunk.SKUNK), (121, 61, Skunk.SKUNK), (121, 60, Skunk.DOUBLE),
    (61, 31, Skunk.NONE), (61, 30, Skunk.SKUNK), (61, 15, Skunk.DOUBLE),
])
def test_skunk_lines(game_to, loser, skunk) -> None:
    g = at_the_show(game_to=game_to)
    g.pegs[0].front, g.pegs[1].front = game_to - 1, loser
    g.apply(Claim(0, 14))
    assert g.result is not None and g.result.skunk is skunk


def random_game(number: int, rules: Rules, rnd: random.Random) -> Game:
    g = Game(rules, number)
    g.start()
    while not g.over:
        seat = rnd.choice(g.to_act())
        actions = [a for a in g.legal_actions(seat) if not isinstance(a, ReplayHand)]
        if isinstance(actions[0], Claim):
            true = g.current_show().total
            action = Claim(seat, rnd.choice([true, true, max(0, true - 2), min(29, true + 1)]))
        else:
            action = rnd.choice(actions)
        g.apply(action)
        assert g.count <= 31
        assert all(0 <= p.back <= p.front <= rules.game_to for p in g.pegs)
    return g


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**9), st.integers(0, 10**6), st.sampled_from([121, 61]),
       st.sampled_from(list(RunMode)), st.sampled_from(list(Counting)))
def test_every_game_ends_with_one_winner_and_replays(number, seed, game_to, run_mode, counting) -> None:
    rules = Rules(game_to=game_to, run_mode=run_mode, counting=counting)
    g = random_game(number, rules, random.Random(seed))
    assert g.result is not None
    scores = g.result.scores
    assert scores[g.result.winner] == game_to and scores[1 - g.result.winner] < game_to
    again, _ = replay(rules, number, g.actions)
    assert again.result == g.result and again.hand_number == g.hand_number


def test_match_loser_deals_first() -> None:
    m = Match(Rules())
    rnd = random.Random(3)
    for number in (7, 8, 9):
        g = m.new_game(number)
        with pytest.raises(RuntimeError):
            m.new_game(99)
        g.start()
        while not g.over:
            seat = g.to_act()[0]
            actions = [a for a in g.legal_actions(seat) if not isinstance(a, ReplayHand)]
            g.apply(Claim(seat, g.current_show().total) if isinstance(actions[0], Claim) else rnd.choice(actions))
        if len(m.games) > 1:
            prev = m.games[-2].result
            assert g.first_dealer == 1 - prev.winner
    assert sum(m.points) == sum(g.result.value for g in m.games)


def test_replay_hand_restores_the_pegs_and_deals_the_same_cards() -> None:
    g = Game(Rules(), 77)
    first = g.start()[-1]
    rnd = random.Random(5)
    while g.hand_number == 1:
        seat = g.to_act()[0]
        actions = [a for a in g.legal_actions(seat) if not isinstance(a, ReplayHand)]
        g.apply(Claim(seat, g.current_show().total) if isinstance(actions[0], Claim) else rnd.choice(actions))
    assert g.scores() != (0, 0) and g.can_replay() and ReplayHand(0) in g.legal_actions(0)
    assert [d.hand_number for d in g.shown] == [1]
    assert all(len(d.kept[s]) == 4 and len(d.thrown[s]) == 2 for d in g.shown for s in (0, 1))
    g.apply(Discard(1, tuple(g.hands[1][:2])))  # the next hand already begun
    events = g.apply(ReplayHand(0))
    assert g.shown == []  # the hand played over is not shown twice
    assert events[0] == HandReplayed(0, 1, (0, 0)) and isinstance(events[1], HandDealt)
    assert events[1] == first and g.scores() == (0, 0) and g.hand_number == 1 and g.replays == 1
    assert all(p.back == 0 for p in g.pegs)
    again, _ = replay(Rules(), 77, g.actions)
    assert again.hands == g.hands and again.replays == 1
    with pytest.raises(IllegalAction, match="replayed only"):
        g.apply(ReplayHand(0))  # hand 1 has no earlier hand to replay


def test_muggins_off_loses_an_under_claim() -> None:
    g = at_the_show(muggins=False)
    before = g.scores()
    g.apply(Claim(0, 10))  # the hand is worth 14
    assert g.scores() == (before[0] + 10, before[1])


@pytest.mark.parametrize("overclaim,claimer,opponent", [("forfeit", 0, 14), ("capped", 14, 0)])
def test_over_claim_forfeit_or_capped(overclaim, claimer, opponent) -> None:
    g = at_the_show(overclaim=overclaim)
    before = g.scores()
    g.apply(Claim(0, 17))
    assert g.scores() == (before[0] + claimer, before[1] + opponent)
