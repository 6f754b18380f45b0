"""A club night's arithmetic: ACC scoring, standings by
points, wins and spread, and Swiss pairings without rematches."""

from __future__ import annotations

import random

from door.records.ranked.club_scoring import ClubResult, acc_points, standings, swiss_pairs


def test_acc_scoring_two_a_win_three_a_skunk() -> None:
    assert acc_points(ClubResult(1, ("Ann", "Bob"), 0, (121, 100))) == (2, 0)
    assert acc_points(ClubResult(1, ("Ann", "Bob"), 1, (80, 121), skunk=True)) == (0, 3)
    assert acc_points(ClubResult(1, ("Ann", "Bob"), 1, (80, 95), skunk=True, forfeit=True)) == (0, 2)


def test_standings_go_by_points_then_wins_then_spread() -> None:
    results = [ClubResult(1, ("Ann", "Bob"), 0, (121, 85), skunk=True),   # Ann 3, +36
               ClubResult(1, ("Cy", "Dee"), 0, (121, 110)),               # Cy 2, +11
               ClubResult(2, ("Ann", "Cy"), 1, (119, 121)),               # Cy 2, +2
               ClubResult(2, ("Bob", "Dee"), 1, (100, 121))]              # Dee 2, +21
    order = [(s.name, s.points, s.won, s.spread) for s in standings(["Ann", "Bob", "Cy", "Dee"], results)]
    assert order == [("Cy", 4, 2, 13), ("Ann", 3, 1, 34), ("Dee", 2, 1, 10), ("Bob", 0, 0, -57)]


def test_swiss_pairs_similar_records_and_no_rematch() -> None:
    names = ["Ann", "Bob", "Cy", "Dee"]
    first = swiss_pairs(names, [], random.Random(1))
    assert sorted(n for p in first for n in p if n) == sorted(names) and len(first) == 2
    results = [ClubResult(1, ("Ann", "Bob"), 0, (121, 100)), ClubResult(1, ("Cy", "Dee"), 0, (121, 90))]
    # the winners meet, the losers meet, never a rematch of round 1
    assert swiss_pairs(names, results, random.Random(1)) == [("Cy", "Ann"), ("Bob", "Dee")]


def test_an_odd_player_out_meets_the_computer_once() -> None:
    names = ["Ann", "Bob", "Cy"]
    r1 = swiss_pairs(names, [], random.Random(3))
    assert r1[-1][1] is None and len(r1) == 2
    out = r1[-1][0]
    results = [ClubResult(1, r1[0], 0, (121, 100)), ClubResult(1, r1[1], 0, (121, 100))]
    r2 = swiss_pairs(names, results, random.Random(3))
    assert r2[-1][1] is None and r2[-1][0] != out


def test_no_rematch_while_another_pairing_of_the_night_exists() -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    results = [ClubResult(1, ("Eve", "Cy"), 0, (121, 111)), ClubResult(1, ("Bob", "Ann"), 1, (82, 121)),
               ClubResult(1, ("Fay", "Dee"), 0, (121, 89)), ClubResult(2, ("Ann", "Fay"), 1, (103, 121)),
               ClubResult(2, ("Eve", "Dee"), 1, (81, 121)), ClubResult(2, ("Cy", "Bob"), 1, (111, 121))]
    # nearest-first alone leaves Eve and Cy, who met in round 1, to meet again
    pairs = swiss_pairs(names, results, random.Random(1))
    met = {frozenset(r.players) for r in results}
    assert not any(frozenset(p) in met for p in pairs), pairs
    assert sorted(n for p in pairs for n in p if n) == sorted(names)
