"""The verifiable shuffle: the algorithm as the manual gives it
(docs/shuffle.md), its record, and the checks of ``cribbage-door verify``."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.records.verify import RecordedDeals, check_game
from engine.cards import FULL_DECK, format_cards, shuffled_deck
from engine.game import Game, replay
from engine.rules import Rules
from engine.shuffle import COMPUTER_SEED, SeededShuffle, ShuffleError, commitment, player_seed, seeded_deck

SERVER = "7ab35da5310e76767f713c4764c9f5adf019abc8e6426d23ea93a58db01cddd2"
ANN = player_seed("my lucky words")
MANUAL = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"

hexes = st.binary(min_size=32, max_size=32).map(bytes.hex)


def readme_deal():  # type: ignore[no-untyped-def]
    """The manual's checker, run as written."""
    code = re.search(r"```python\n(.*?)```", MANUAL.read_text(), re.S)
    assert code, "the manual gives the algorithm in Python"
    scope: dict[str, object] = {}
    exec(code.group(1), scope)
    return scope["deal"]


def test_a_known_deal_stays_the_same() -> None:
    # a fixed answer: a change to the algorithm would break every checker written from the manual
    dealt = format_cards(seeded_deck(SERVER, (ANN, COMPUTER_SEED), 12345, 1)[:13])
    assert dealt == "9S 5H KH TH KC AD QD KS 7D 3S 9H AH 6H"


@settings(max_examples=60, deadline=None)
@given(hexes, hexes, hexes, st.integers(1, 999_999), st.integers(0, 20))
def test_the_readme_checker_deals_as_the_door(server: str, a: str, b: str, game: int, hand: int) -> None:
    deck = seeded_deck(server, (a, b), game, hand)
    assert sorted(deck) == sorted(FULL_DECK)  # a permutation
    assert readme_deal()(server, game, hand, a, b) == [c.to_str() for c in deck]


def test_each_part_changes_the_deal() -> None:
    base = seeded_deck(SERVER, (ANN, COMPUTER_SEED), 7, 1)
    assert seeded_deck(SERVER, (COMPUTER_SEED, ANN), 7, 1) != base
    assert seeded_deck(SERVER, (ANN, COMPUTER_SEED), 8, 1) != base
    assert seeded_deck(SERVER, (ANN, COMPUTER_SEED), 7, 2) != base
    assert seeded_deck("0" * 63 + "1", (ANN, COMPUTER_SEED), 7, 1) != base
    assert base != shuffled_deck(7, 1)


def test_the_commitment_is_the_sha256_of_the_seed_bytes() -> None:
    assert commitment(SERVER) == hashlib.sha256(bytes.fromhex(SERVER)).hexdigest()
    assert player_seed("my lucky words") == hashlib.sha256(b"my lucky words").hexdigest()
    assert player_seed(SERVER.upper()) == SERVER  # 64 hex digits are a seed as typed


@pytest.mark.parametrize("bad", ["", "xyz", SERVER[:-1], SERVER.upper(), SERVER + "0", None])
def test_a_malformed_seed_is_refused_with_a_message(bad: object) -> None:
    with pytest.raises(ShuffleError, match="64 lowercase hex digits"):
        SeededShuffle(5, bad, (ANN, ANN))  # type: ignore[arg-type]
    with pytest.raises(ShuffleError, match="player seed 1"):
        SeededShuffle(5, SERVER, (ANN, bad))  # type: ignore[arg-type]


def test_the_record_round_trips_and_a_wrong_commitment_is_refused() -> None:
    shuffle = SeededShuffle(42, SERVER, (ANN, COMPUTER_SEED))
    data = json.loads(json.dumps(shuffle.to_dict()))
    assert SeededShuffle.from_dict(42, data) == shuffle
    with pytest.raises(ShuffleError, match="commitment does not match"):
        SeededShuffle.from_dict(42, data | {"commitment": commitment(ANN)})
    with pytest.raises(ShuffleError, match="not a cribbage-door/1 shuffle"):
        SeededShuffle.from_dict(42, data | {"version": "other/2"})
    with pytest.raises(ShuffleError, match="player seeds"):
        SeededShuffle.from_dict(42, data | {"player_seeds": [ANN]})


def test_a_seeded_game_deals_from_its_seeds_and_keeps_what_it_dealt() -> None:
    shuffle = SeededShuffle(42, SERVER, (ANN, COMPUTER_SEED))
    game = Game(Rules(), 42, shuffle=shuffle)
    game.start()
    hand = shuffle.deck(1)
    assert game.dealt[1] == tuple(hand[:13])
    assert sorted(game.hands[game.pone]) == sorted(hand[0:12:2])
    assert 0 in game.dealt and game.dealt[0] == tuple(shuffle.deck(0)[:len(game.dealt[0])])
    again, _ = replay(Rules(), 42, game.actions, None, shuffle)  # a resumed game deals the same
    assert again.hands == game.hands
    with pytest.raises(ValueError, match="game 42's, not game 43's"):
        Game(Rules(), 43, shuffle=shuffle)


def test_check_game_finds_a_changed_seed_or_deal() -> None:
    shuffle = SeededShuffle(42, SERVER, (ANN, COMPUTER_SEED))
    game = Game(Rules(), 42, shuffle=shuffle)
    game.start()
    dealt = {k: format_cards(v) for k, v in game.dealt.items()}
    record = RecordedDeals(1, 42, json.dumps(shuffle.to_dict()), dict(dealt))
    verdict = check_game(record)
    assert verdict.ok and verdict.seeded and verdict.checked == 2, verdict
    changed = dict(dealt)
    cards = changed[1].split()
    cards[0], cards[12] = cards[12], cards[0]  # the starter swapped into the pone's hand
    changed[1] = " ".join(cards)
    assert check_game(RecordedDeals(1, 42, record.shuffle, changed)).problems[0].startswith("hand 1 was")
    other = json.dumps(SeededShuffle(42, "1" * 64, (ANN, COMPUTER_SEED)).to_dict())  # another seed, its own commitment
    assert not check_game(RecordedDeals(1, 42, other, dict(dealt))).ok
    assert "not checked" in check_game(RecordedDeals(1, 42, None, {})).line()
    numbered = Game(Rules(), 42)
    numbered.start()
    verdict = check_game(RecordedDeals(2, 42, None, {k: format_cards(v) for k, v in numbered.dealt.items()}))
    assert verdict.ok and not verdict.seeded and "from its game number" in verdict.line()
