"""Cards: parsing, formatting, pip values, and numbered decks (golden)."""

import pytest

from engine.cards import FULL_DECK, Card, CardParseError, Suit, format_cards, parse_cards, shuffled_deck


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_round_trip_every_card(card: Card) -> None:
    assert Card.from_str(card.to_str()) is card
    assert eval(repr(card)) is card
    assert Card.from_index(card.index) is card


@pytest.mark.parametrize("text,rank,suit,pip", [
    ("AC", 1, Suit.CLUBS, 1), ("5h", 5, Suit.HEARTS, 5), ("TD", 10, Suit.DIAMONDS, 10),
    ("10d", 10, Suit.DIAMONDS, 10), ("JS", 11, Suit.SPADES, 10), ("QH", 12, Suit.HEARTS, 10),
    ("KC", 13, Suit.CLUBS, 10), (" 9s ", 9, Suit.SPADES, 9),
])
def test_parse(text: str, rank: int, suit: Suit, pip: int) -> None:
    c = Card.from_str(text)
    assert (c.rank, c.suit, c.pip) == (rank, suit, pip)


@pytest.mark.parametrize("text", ["", "1H", "ZZ", "5X", "5HH", "11C", "H5"])
def test_parse_errors_quote_input(text: str) -> None:
    with pytest.raises(CardParseError) as err:
        Card.from_str(text)
    assert repr(text) in str(err.value)


def test_parse_cards_rejects_repeats() -> None:
    assert format_cards(parse_cards("4d 4H,5S")) == "4D 4H 5S"
    with pytest.raises(CardParseError, match="repeated"):
        parse_cards("4D 4D")


def test_cards_order_by_rank_then_suit() -> None:
    assert sorted(parse_cards("KC 2S AH 2C")) == list(parse_cards("AH 2C 2S KC"))


# Golden decks: these orders are part of the game-number contract (a game
# number replays the same deals forever, on every Python version).
GOLDEN = {
    (1, 1): "7H 5H TS 8C KS JC JD KD JS 6S QC KH 5D 6H 3S 2S 4C 9C QD 4H 8H 4S AH 2H TD 8D "
            "JH 6D 3H AD TH 2C AC 7S 3C 9H 5S 2D 9S AS TC 6C 5C QH 4D 9D 7D 3D 8S KC QS 7C",
    (32767, 1): "JH AH 7H 6C TD TS 8S QH 8D TH AD QD 4D 5H 9H JS 3S 4S KD 9S KC 4H 5D 2S 6S AS "
                "7S 9D 6H 2C 4C 7C 2D 8C TC QC 7D QS 2H JD 3C KS 5C KH 6D JC 5S AC 3H 8H 9C 3D",
}


@pytest.mark.parametrize("key", GOLDEN)
def test_golden_decks(key: tuple[int, int]) -> None:
    assert format_cards(shuffled_deck(*key)) == GOLDEN[key]


def test_decks_are_permutations_and_streams_differ() -> None:
    for n in (1, 2, 32767, 10**12):
        decks = [shuffled_deck(n, s) for s in range(4)]
        for d in decks:
            assert sorted(d) == sorted(FULL_DECK)
        assert len({tuple(d) for d in decks}) == 4


@pytest.mark.parametrize("number,stream", [(0, 1), (-5, 1), (1, -1)])
def test_bad_game_numbers(number: int, stream: int) -> None:
    with pytest.raises(ValueError):
        shuffled_deck(number, stream)


def test_a_card_pickles_as_its_index_and_comes_back_as_the_same_card() -> None:
    """A decision crosses to a thinking process as a pickle: a
    card goes as its index, a few bytes, and comes back as the one card
    of that index, not a copy built field by field."""
    import pickle

    from engine.cards import FULL_DECK
    for card in FULL_DECK:
        assert pickle.loads(pickle.dumps(card)) is card
    hand = tuple(FULL_DECK[:6])
    assert len(pickle.dumps(hand)) < 100
