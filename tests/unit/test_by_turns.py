"""A table by correspondence, alone: each player sits down in turn with
the other away; the table makes the forced moves, takes the sitting
player's decisions, and stops, its game kept as it stands, as soon as it
waits only on the player who is away.  A player who leaves is away, not
absent: nothing is forfeited and no grace runs."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from door.play.api_messages import ask_message
from door.play.away_seat import AwaySeat, away
from door.play.computer_pegs import check_hand_over
from door.play.review_data import review_decisions
from door.play.review_words import review_lines
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.records.ranked.match import MatchTerms
from door.records.saved_games import SavedGame
from door.ui.speech import SpokenWords
from door.ui.words import ScreenWords
from engine.actions import Claim, Discard, HandOver, IllegalAction, Play
from engine.events import Event, HandCounted, PeggingHandedOver, ShowTurn
from engine.game import Game, Phase, replay
from engine.game_review import review_game
from engine.handover import handed_over
from engine.notation import action_from_text, action_to_text
from engine.rules import Counting, Rules
from engine.scoring import score_show
from tests.unit.test_table import Scripted

ANN, BOB = Identity.of_account(1), Identity.of_account(2)
RULES = Rules(game_to=61, counting=Counting.AUTOMATIC)


def _settings(number: int = 7, best_of: int = 1) -> TableSettings:
    return TableSettings(lambda: number, auto_deal=True, terms=MatchTerms(best_of), rematch=False, forced_moves=True,
                         by_turns=True)


def _kept(game: Game, carried: tuple[int, int] = (0, 0)) -> SavedGame:
    """The game as the store keeps it (``carried``: what its log keeps of
    its match so far), to be taken up at the next sitting."""
    return SavedGame(1, 1, "caller", game.number, game.first_dealer, game.rules, list(game.actions), carried, 0.0,
                     0, 2, ("Ann", "Bob"), game.shuffle)


class ShortCounter(Scripted):
    """A player who claims one point less than each hand and crib is
    worth (nothing less than nothing)."""

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        if game.phase is Phase.SHOW and game.show_turn is not None and game.show_turn[0] == self.index:
            self.events.extend(events)
            seat, what = game.show_turn
            assert self.table is not None and game.starter is not None
            worth = score_show(game.show_cards(seat, what), game.starter, what is ShowTurn.CRIB).total
            self.table.submit(self.index, Claim(self.index, max(0, worth - 1)))
            return
        super().notify(game, events)


async def _sitting(seat: int, kept: SavedGame | None, best_of: int = 1, rules: Rules = RULES,
                   ann: type[Scripted] = Scripted) -> Table:
    """One sitting of ``seat``'s player (0 Ann, played by ``ann``; 1 Bob),
    the other away."""
    me = ann("Ann", ANN) if seat == 0 else Scripted("Bob", BOB)
    other = AwaySeat("Bob" if seat == 0 else "Ann", BOB if seat == 0 else ANN)
    seats = [me, other] if seat == 0 else [other, me]
    table = Table(rules, seats, _settings(best_of=best_of))
    await asyncio.wait_for(table.run(kept), 10)
    return table


async def test_a_match_by_turns_goes_on_from_sitting_to_sitting_until_one_has_won_two() -> None:
    """A best of three played in sittings: each new game's log keeps the
    games each side won before it, so the match ends when one side has two
    (it went on for ever when a table that took up a later game of the
    match counted only the games played at it)."""
    kept: SavedGame | None = None
    seat, sittings = 0, 0
    while True:
        table = await _sitting(seat, kept, best_of=3)
        sittings += 1
        assert sittings < 1000, "the match never ended"
        if table.series.result is not None:
            break
        game = table.game
        assert game is not None and table.ending.waiting
        kept, seat = _kept(game, table.series.carried()), game.to_act()[0]
    result = table.series.result
    assert sorted(result.wins) in ([0, 2], [1, 2]) and result.wins[result.winner] == 2 and not result.forfeit


async def test_two_players_who_are_never_at_the_table_together_finish_a_game() -> None:
    kept: SavedGame | None = None
    sittings = 0
    decisions = {0: 0, 1: 0}
    seat = 0
    while True:
        before = len(kept.actions) if kept is not None else 0
        table = await _sitting(seat, kept)
        sittings += 1
        game = table.game
        assert game is not None and table.ending.forfeit is None and table.ending.left is None
        assert len(game.actions) > before or kept is None  # every sitting moves the game on
        if game.over:
            break
        assert table.ending.waiting  # stopped: the game waits on the player who is away
        owed = game.to_act()
        assert owed and all(away(table.seats[s]) for s in owed)
        decisions[seat] += 1
        kept, seat = _kept(game), owed[0]
        assert sittings < 400
    assert game.result is not None and max(game.result.scores) >= 61
    assert decisions[0] > 3 and decisions[1] > 3  # they took turns, many times each


async def test_claims_and_muggins_go_across_sittings_of_a_game_counted_by_hand() -> None:
    """Counted by hand, by turns: each claim is its player's decision, made
    at their own sitting, and muggins on a short claim is taken at once for
    the other player while they are away (nobody waits on them to be on
    line for it); the game goes on to its end, sitting by sitting."""
    manual = Rules(game_to=61, counting=Counting.MANUAL, muggins=True)
    kept: SavedGame | None = None
    seat, claims, muggins_to_the_away = 0, {0: 0, 1: 0}, 0
    for _ in range(400):
        table = await _sitting(seat, kept, rules=manual, ann=ShortCounter)
        sitter = table.seats[seat]
        assert isinstance(sitter, Scripted)
        before = 0 if kept is None else len(replay(manual, kept.number, kept.actions, kept.first_dealer,
                                                   kept.shuffle)[1])
        for event in table.history[before:]:  # (what happened at this sitting)
            if isinstance(event, HandCounted) and event.claim is not None:
                assert event.seat == seat  # each claim at its own player's sitting
                claims[seat] += 1
                if seat == 0 and event.outcome.opponent > 0:
                    assert away(table.seats[1])
                    muggins_to_the_away += 1
        game = table.game
        assert game is not None
        if game.over:
            break
        assert table.ending.waiting
        owed = game.to_act()
        assert owed and all(away(table.seats[s]) for s in owed)
        kept, seat = _kept(game), owed[0]
    else:
        raise AssertionError("the game never ended")
    assert game.result is not None and max(game.result.scores) >= 61
    assert claims[0] > 2 and claims[1] > 2 and muggins_to_the_away > 0


async def test_a_player_who_leaves_a_table_by_turns_is_away_and_forfeits_nothing() -> None:
    ann, bob = Scripted("Ann", ANN), Scripted("Bob", BOB)
    bob.acting = False  # Bob sits and does not move: Ann discards, then the table waits on Bob
    table = Table(RULES, [ann, bob], _settings())
    running = asyncio.create_task(table.run())
    for _ in range(200):
        if table.game is not None and table.game.to_act() == (1,):
            break
        await asyncio.sleep(0.01)
    assert table.game is not None and table.game.to_act() == (1,) and not running.done()
    table.leave(1, bob)  # Bob's line drops: he is away now
    await asyncio.wait_for(running, 5)
    assert table.ending.waiting and table.ending.forfeit is None and table.ending.abandoned is None
    assert isinstance(table.seats[1], AwaySeat) and table.seats[1].identity == BOB and bob.finished
    assert "Bob left the table: the game waits for their next move." in ann.notices


async def test_the_away_player_who_opens_the_game_meanwhile_is_seated_at_once() -> None:
    ann = Scripted("Ann", ANN)
    ann.acting = False
    table = Table(RULES, [ann, AwaySeat("Bob", BOB)], _settings())
    running = asyncio.create_task(table.run())
    for _ in range(200):
        if table.game is not None:
            break
        await asyncio.sleep(0.01)
    bob = Scripted("Bob", BOB)
    bob.acting = False
    table.rejoin(1, bob)  # Bob opens the game while Ann sits at it: both play live
    assert table.seats[1] is bob and "Bob is back." in ann.notices
    table.leave(0, ann)
    table.leave(1, bob)
    await asyncio.wait_for(running, 5)
    assert table.ending.waiting and table.ending.forfeit is None


class HandsOver(Scripted):
    """A player who lets the computer peg the first hand (and never plays a
    card of it), and plays the rest of the game themself."""

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        if game.hand_number == 1 and game.phase is Phase.PLAY and game.hands[self.index]:
            self.events.extend(events)
            if not handed_over(game, self.index) and self.index in game.to_act():
                assert self.table is not None
                self.table.submit(self.index, HandOver(self.index))
            return
        super().notify(game, events)


async def test_a_hand_pegged_by_the_computer_across_sittings_and_marked_in_the_record() -> None:
    """Ann lets the computer peg the first hand: the table plays her cards
    of that hand as the expert would, at her sittings and at Bob's while
    she is away; Bob is told of it; her discards, her counts and every
    later hand stay hers; the record (the actions, as the store keeps them
    in text) says so, and the review shows that hand's plays as the
    computer's, not counted against her."""
    kept: SavedGame | None = None
    seat, told_bob = 0, []
    for _ in range(400):
        table = await _sitting(seat, kept, ann=HandsOver)
        game = table.game
        assert game is not None
        if seat == 1:
            told_bob += [e for e in table.history if isinstance(e, PeggingHandedOver)]
        if game.over:
            break
        assert table.ending.waiting
        kept, seat = _kept(game), game.to_act()[0]
    else:
        raise AssertionError("the game never ended")
    assert game.actions.count(HandOver(0)) == 1 and HandOver(1) not in game.actions
    assert told_bob and told_bob[0] == PeggingHandedOver(0, 1)
    assert ScreenWords(1, ("Ann", "Bob")).tell(told_bob[0]) == ["Ann lets the computer peg this hand."]
    assert SpokenWords(0, ("Ann", "Bob")).tell(told_bob[0]) == ["You let the computer peg this hand."]

    texts = [action_to_text(a) for a in game.actions]  # (the log the store keeps)
    assert "H0" in texts
    actions = [action_from_text(t) for t in texts]
    again, _ = replay(RULES, game.number, actions, game.first_dealer, game.shuffle)
    assert again.scores() == game.scores()
    review = review_game(RULES, game.number, actions, 0, game.first_dealer, game.shuffle)
    first = [p for p in review.plays if p.hand == 1]
    assert len(first) == 4 and all(p.computer for p in first)
    assert review.plays[len(first):] and not any(p.computer for p in review.plays if p.hand > 1)
    assert any(d.hand == 1 for d in review.discards)  # (her discard of that hand is hers)
    lines = review_lines(review, game.number, "Bob")
    assert any(line.startswith("  The computer pegged this hand for you:") for line in lines)
    assert [row["computer"] for row in review_decisions(review) if row["kind"] == "play" and row["hand"] == 1] \
        == [True] * 4


def test_only_a_table_by_turns_lets_the_computer_peg_a_hand_and_then_only_the_computer_pegs_it() -> None:
    game = Game(RULES, 3)
    game.start()
    check_hand_over(HandOver(0), game, by_turns=True)
    with pytest.raises(IllegalAction, match="only a game by turns"):
        check_hand_over(HandOver(0), game, by_turns=False)
    game.apply(HandOver(0))
    assert handed_over(game, 0) and not handed_over(game, 1)
    with pytest.raises(IllegalAction, match="already"):
        game.apply(HandOver(0))
    for seat in (0, 1):
        game.apply(Discard(seat, (game.hands[seat][0], game.hands[seat][1])))
    assert game.phase is Phase.PLAY and game.turn == 0 and handed_over(game, 0) and ask_message(game, 0) is None
    card = game.hands[0][0]
    with pytest.raises(IllegalAction, match="the computer pegs this hand for you"):
        check_hand_over(Play(0, card), game, by_turns=True)  # (her own card: refused)
    check_hand_over(Play(0, card), game, by_turns=True, by_door=True)  # (the computer's: played)
