"""A season's points: the grass-roots table of a year from places and
games won, by the sysop's formula kept as data."""

from __future__ import annotations

import pytest

from door.records.ranked.brackets import advance, single
from door.records.ranked.season import Finish, SeasonFormula, bracket_finishes, season_table, swiss_finishes
from door.records.ranked.standings import Line
from door.records.ranked.tournament import MatchResult


def test_the_default_formula_scores_places_and_games_won() -> None:
    f = SeasonFormula()
    assert (f.points(1, 0), f.points(2, 3), f.points(7, 0), f.points(8, 4)) == (10, 10, 1, 4)


def test_the_year_goes_by_points_then_firsts_then_games_won() -> None:
    finishes = [Finish(2026, "Ann", 1, 5), Finish(2026, "Bob", 2, 8), Finish(2026, "Cy", 3, 10),
                Finish(2025, "Cy", 1, 20),            # another year: left out
                Finish(2026, "Bob", 1, 2), Finish(2026, "Ann", 3, 2)]
    table = season_table(2026, finishes)
    assert [(s.name, s.points, s.events, s.firsts, s.won) for s in table] == [
        ("Bob", 27, 2, 1, 10), ("Ann", 22, 2, 1, 7), ("Cy", 15, 1, 0, 10)]


def test_the_sysops_formula_comes_from_settings_and_bad_ones_are_errors() -> None:
    f = SeasonFormula.from_mapping({"places": [5, 3], "per_game": 0, "per_event": 1})
    assert (f.points(1, 9), f.points(3, 9)) == (6, 1)
    for bad in ({"place": [1]}, {"places": "10,7"}, {"places": [10, -1]}, {"per_game": 1.5}, {"per_event": True}):
        with pytest.raises(ValueError):
            SeasonFormula.from_mapping(bad)


def test_finishes_from_a_swiss_and_from_a_knock_out() -> None:
    lines = [Line("Ann", won=3, played=3, byes=1), Line("Bob", won=1, played=3)]
    assert swiss_finishes(2026, lines) == [Finish(2026, "Ann", 1, 2), Finish(2026, "Bob", 2, 1)]
    bracket = single(["Ann", "Bob", "Cy"])
    with pytest.raises(ValueError):
        bracket_finishes(2026, advance(bracket, {}))
    state = advance(bracket, {"W1-2": MatchResult("Cy", (2, 1)), "W2-1": MatchResult("Ann", (2, 0))})
    assert sorted(bracket_finishes(2026, state), key=lambda f: f.place) == [
        Finish(2026, "Ann", 1, 2), Finish(2026, "Cy", 2, 2), Finish(2026, "Bob", 3, 1)]


def test_the_manual_states_the_default_formula() -> None:
    import re
    from pathlib import Path
    page = (Path(__file__).parents[2] / "docs" / "tournaments.md").read_text("utf-8")
    section = page.split("## Season points")[1].split("##")[0]
    stated = [int(n) for n in re.findall(r"\*\*(\d+)\*\*", section)]
    f = SeasonFormula()
    assert stated == [*f.places, f.per_game]
