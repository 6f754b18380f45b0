"""A tournament's Swiss: pairing by the standings with no pair twice while
another pairing exists, one bye for the odd player, and standings in one
total order; the properties checked by Hypothesis over whole tournaments."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.records.ranked.standings import order_key, standings
from door.records.ranked.swiss import meetings, pair_in_order, swiss_round
from door.records.ranked.tournament import Entrant, Format, GameResult, Kind, MatchResult

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit"]


def test_round_one_folds_the_field_by_rating() -> None:
    entrants = [Entrant(n, r) for n, r in zip(NAMES[:8], (1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200), strict=True)]
    assert swiss_round(entrants, []) == [("Ann", "Eve"), ("Bob", "Fay"), ("Cy", "Gus"), ("Dee", "Hal")]


def test_the_lowest_rated_has_round_ones_bye_and_it_counts_as_a_win() -> None:
    entrants = [Entrant("Ann", 1700), Entrant("Bob", 1600), Entrant("Cy", 1500)]
    pairs = swiss_round(entrants, [])
    assert pairs == [("Ann", "Bob"), ("Cy", None)]
    lines = standings(entrants, [GameResult(1, ("Ann", "Bob"), 1, (110, 121)), GameResult(1, ("Cy", None))],
                      bye_spread=5)
    cy = next(line for line in lines if line.name == "Cy")
    assert (cy.points, cy.won, cy.played, cy.spread, cy.byes) == (2, 1, 1, 5, 1)


def test_later_rounds_pair_by_points_then_games_won_then_spread() -> None:
    entrants = [Entrant(n) for n in NAMES[:4]]
    results = [GameResult(1, ("Ann", "Cy"), 0, (121, 80), skunk=1),   # Ann 3 points
               GameResult(1, ("Bob", "Dee"), 0, (121, 119))]          # Bob 2 points
    assert [line.name for line in standings(entrants, results)] == ["Ann", "Bob", "Dee", "Cy"]
    assert swiss_round(entrants, results) == [("Ann", "Bob"), ("Dee", "Cy")]


def test_backtracking_finds_the_pairing_without_a_rematch_that_greedy_misses() -> None:
    met = {frozenset(("A", "B")): 1, frozenset(("B", "D")): 1}
    # greedy: A takes C, leaving B with D whom B has met; the search pairs A-D, B-C
    assert pair_in_order(["A", "B", "C", "D"], met) == [("A", "D"), ("B", "C")]


def test_a_rematch_only_when_nothing_else_is_left() -> None:
    met = Counter({frozenset(p): 1 for p in (("A", "B"), ("A", "C"), ("A", "D"))})
    assert pair_in_order(["A", "B", "C", "D"], met, 0) is None
    assert pair_in_order(["A", "B", "C", "D"], met) == [("A", "B"), ("C", "D")]


def test_the_standings_tie_breaks_end_at_rating_then_name() -> None:
    entrants = [Entrant("Bob", 1500), Entrant("Ann", 1500), Entrant("Cy", 1600)]
    assert [line.name for line in standings(entrants, [])] == ["Cy", "Ann", "Bob"]


@pytest.mark.parametrize("make", [
    lambda: Format(Kind.SWISS),                                   # no rounds
    lambda: Format(Kind.SINGLE, rounds=3),                         # rounds in a knock-out
    lambda: Format(Kind.DOUBLE, games=4),                          # best of an even number
    lambda: Format(Kind.QUALIFYING, rounds=5, qualify=Fraction(0)),
    lambda: Entrant(""),
    lambda: Entrant("Ann\x1b[2J"),
    lambda: Entrant("Ann", -1),
    lambda: GameResult(0, ("Ann", "Bob")),
    lambda: GameResult(1, ("Ann", "Ann")),
    lambda: GameResult(1, ("Ann", None), 1),
    lambda: GameResult(1, ("Ann", "Bob"), 0, (121, 80), skunk=3),
    lambda: MatchResult("Ann", (1, 2)),
])
def test_bad_values_are_errors_where_they_enter(make) -> None:
    with pytest.raises(ValueError):
        make()


def test_a_result_naming_a_stranger_is_an_error() -> None:
    with pytest.raises(ValueError, match="'Zed'"):
        standings([Entrant("Ann"), Entrant("Bob")], [GameResult(1, ("Ann", "Zed"))])


def _rematch_free_exists(players: list[str], met: Counter[frozenset[str]], byes: dict[str, int]) -> bool:
    """Whether any pairing of ``players`` (a bye to one with the fewest, when odd) has no rematch."""
    def even(left: list[str]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        return any(frozenset((first, o)) not in met and even([p for p in rest if p != o]) for o in rest)
    if len(players) % 2 == 0:
        return even(players)
    fewest = min(byes[p] for p in players)
    return any(even([p for p in players if p != out]) for out in players if byes[out] == fewest)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], int, random.Random]:
    n = draw(st.integers(2, 9))
    ratings = draw(st.lists(st.sampled_from([1400, 1500, 1600]), min_size=n, max_size=n))
    rounds = draw(st.integers(1, n + 1))
    return [Entrant(NAMES[i], r) for i, r in enumerate(ratings)], rounds, random.Random(draw(st.integers(0, 2**32)))


def _play(rng: random.Random, number: int, a: str, b: str | None) -> GameResult:
    if b is None:
        return GameResult(number, (a, None))
    winner, loser = 121, rng.randrange(40, 120)
    skunk = 2 if loser < 61 else 1 if loser < 91 else 0
    return GameResult(number, (a, b), rng.randrange(2), (winner, loser) if rng.random() < 0.5 else (loser, winner),
                      skunk)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_every_round_seats_everybody_once_without_a_needless_rematch(t) -> None:
    entrants, rounds, rng = t
    names = [e.name for e in entrants]
    results: list[GameResult] = []
    for number in range(1, rounds + 1):
        met = meetings(results)
        byes = {line.name: line.byes for line in standings(entrants, results)}
        pairs = swiss_round(entrants, results)
        seated = [n for p in pairs for n in p if n is not None]
        assert sorted(seated) == sorted(names), pairs                       # once a round, nobody left out
        bye = [p[0] for p in pairs if p[1] is None]
        assert len(bye) == len(names) % 2                                   # a bye only for the odd player
        if bye:
            assert byes[bye[0]] == min(byes.values())                        # no second bye while one has none
        rematch = any(frozenset(p) in met for p in pairs if p[1] is not None)
        if _rematch_free_exists(names, met, byes):
            assert not rematch, (pairs, met)
        results += [_play(rng, number, a, b) for a, b in pairs]
    counted = Counter(r.players[0] for r in results if r.bye)
    if rounds <= len(names):
        assert all(v <= 1 for v in counted.values())                        # each player at most one bye


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_standings_order_is_total_and_does_not_depend_on_the_input_order(t, shuffler) -> None:
    entrants, rounds, rng = t
    results: list[GameResult] = []
    for number in range(1, rounds + 1):
        results += [_play(rng, number, a, b) for a, b in swiss_round(entrants, results)]
    lines = standings(entrants, results)
    keys = [order_key(line) for line in lines]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)             # strictly ordered: no two tie
    shuffled_entrants, shuffled_results = list(entrants), list(results)
    shuffler.shuffle(shuffled_entrants)
    shuffler.shuffle(shuffled_results)
    assert standings(shuffled_entrants, shuffled_results) == lines
    assert sum(line.played for line in lines) == sum(2 - r.bye for r in results)
