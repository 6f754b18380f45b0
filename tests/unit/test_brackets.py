"""Knock-outs: seeding by rating into the standard positions, byes to a
power of two for the top seeds, single and double elimination advanced
from results; the properties (one champion, every loss counted) checked
by Hypothesis over whole brackets."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.records.ranked.brackets import (
    Empty,
    Section,
    advance,
    double,
    positions,
    qualifying_split,
    seed_by_rating,
    single,
)
from door.records.ranked.standings import Line
from door.records.ranked.tournament import Entrant, Kind, MatchResult

NAMES = [f"P{i:02d}" for i in range(1, 33)]


def test_standard_positions_put_one_against_sixteen_and_eight_against_nine() -> None:
    order = positions(16)
    pairs = [(order[i], order[i + 1]) for i in range(0, 16, 2)]
    assert pairs == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


def test_seeds_go_by_rating_then_name() -> None:
    assert seed_by_rating([Entrant("Cy", 1500), Entrant("Ann", 1700), Entrant("Bob", 1500)]) == ["Ann", "Bob", "Cy"]


def test_byes_fall_to_the_top_seeds() -> None:
    state = advance(single(NAMES[:5]), {})
    walkovers = [s.winner for s in state.matches.values() if s.match.round == 1 and s.walkover]
    assert sorted(walkovers) == ["P01", "P02", "P03"]        # 8 places, 5 players: 3 byes
    assert [m.id for m in state.ready()] == ["W1-2", "W2-2"]   # 4 v 5, and 2 v 3 (both had byes)


def test_an_eight_player_double_elimination_has_its_rounds_and_a_reset() -> None:
    b = double(NAMES[:8])
    assert [len(r) for r in b.rounds(Section.WINNERS)] == [4, 2, 1]
    assert [len(r) for r in b.rounds(Section.LOSERS)] == [2, 2, 1, 1]
    assert [m.id for m in b.rounds(Section.FINAL)[0]] + [m.id for m in b.rounds(Section.FINAL)[1]] == ["F1", "F2"]


def _finish(bracket, rng: random.Random, upset: bool):
    results: dict[str, MatchResult] = {}
    while True:
        state = advance(bracket, results)
        ready = state.ready()
        if not ready:
            return state, results
        for m in ready:
            a, b = state.matches[m.id].players
            assert isinstance(a, str) and isinstance(b, str)
            winner = (b if upset else a) if rng.random() < 0.5 else (a if upset else b)
            results[m.id] = MatchResult(winner, (2, rng.randrange(2)))


def test_the_reset_is_played_only_when_the_losers_bracket_champion_wins_the_final() -> None:
    b = double(["Ann", "Bob"])
    state = advance(b, {"W1-1": MatchResult("Ann", (2, 0)), "F1": MatchResult("Ann", (2, 1))})
    assert state.champion == "Ann" and state.matches["F2"].walkover
    state = advance(b, {"W1-1": MatchResult("Ann", (2, 0)), "F1": MatchResult("Bob", (2, 1))})
    assert state.champion is None and [m.id for m in state.ready()] == ["F2"]
    state = advance(b, {"W1-1": MatchResult("Ann", (2, 0)), "F1": MatchResult("Bob", (2, 1)),
                        "F2": MatchResult("Bob", (2, 0))})
    assert state.champion == "Bob" and state.losses == {"Ann": 2, "Bob": 1}
    assert state.places == {"Bob": 1, "Ann": 2}


@pytest.mark.parametrize("results", [
    {"W9-1": MatchResult("Ann", (2, 0))},                   # no such match
    {"W1-1": MatchResult("Zed", (2, 0))},                   # not a player of it
    {"W1-1": MatchResult("Ann", (3, 0))},                   # not how a best of 3 ends
    {"W2-1": MatchResult("Ann", (2, 0))},                   # its players are not known yet
])
def test_a_result_that_cannot_be_is_an_error(results) -> None:
    with pytest.raises(ValueError):
        advance(single(["Ann", "Bob", "Cy", "Dee"]), results)


def test_a_qualifying_swiss_sends_its_top_quarter_on_and_the_rest_to_the_consolation() -> None:
    lines = [Line(n) for n in NAMES[:18]]
    main, consolation = qualifying_split(lines)
    assert main == NAMES[:4] and consolation == NAMES[4:18]
    assert qualifying_split(lines[:5], Fraction(1, 4)) == (NAMES[:2], NAMES[2:5])
    assert qualifying_split(lines[:3], Fraction(1, 2)) == (NAMES[:2], [])


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 20), st.sampled_from([Kind.SINGLE, Kind.DOUBLE]), st.integers(0, 2**32), st.booleans())
def test_a_bracket_always_ends_with_one_champion_and_every_loss_counted(n, kind, seed, upset) -> None:
    seeds = NAMES[:n]
    bracket = single(seeds) if kind is Kind.SINGLE else double(seeds)
    state, results = _finish(bracket, random.Random(seed), upset)
    assert state.champion in seeds
    others = [p for p in seeds if p != state.champion]
    if kind is Kind.SINGLE:
        assert state.losses[state.champion] == 0 and all(state.losses[p] == 1 for p in others)
        assert len(results) == n - 1
    else:
        assert state.losses[state.champion] <= 1 and all(state.losses[p] == 2 for p in others)
    assert sum(state.losses.values()) == len(results)                     # every match played is one loss
    assert not any(s.players.count(Empty.PENDING) for s in state.matches.values())
    assert sorted(state.places) == sorted(seeds) and list(state.places.values()).count(1) == 1
    assert list(state.places.values()).count(2) == 1
