"""What the computer plays for: the objectives, their tables,
and the objective each kind of table gives its computer."""

from __future__ import annotations

import dataclasses

import pytest

from engine import win_tables
from engine.game import Game
from engine.objectives import ACC_POINTS, MATCH_POINTS, WIN_CHANCE, objective_of, rules_objective
from engine.rules import Rules
from engine.strategy import decision_for, situation


def test_worth_by_how_the_loser_finished() -> None:
    assert [WIN_CHANCE.worth(x, 121) for x in (100, 80, 50)] == [1, 1, 1]
    assert [MATCH_POINTS.worth(x, 121) for x in (91, 90, 61, 60)] == [1, 2, 2, 3]
    assert [ACC_POINTS.worth(x, 121) for x in (91, 90, 60)] == [1, 1.5, 1.5]  # 2, 3, 3 in plain wins
    assert [MATCH_POINTS.worth(x, 61) for x in (31, 30, 15)] == [1, 2, 3]


def test_objectives_are_named_by_their_ratios() -> None:
    assert objective_of(1, 1, 1) is WIN_CHANCE and objective_of(2, 2, 2) is WIN_CHANCE
    assert objective_of(2, 4, 6) is MATCH_POINTS and objective_of(2, 3, 3) is ACC_POINTS
    other = objective_of(1, 2, 2)
    assert other.name == "1/2/2" and other.worth(50, 121) == 2
    with pytest.raises(ValueError):
        objective_of(2, 1, 3)
    with pytest.raises(ValueError):
        objective_of(0, 1, 1)


def test_the_rules_credit_is_the_default_objective() -> None:
    assert rules_objective(Rules()) is MATCH_POINTS
    assert rules_objective(Rules(skunk_value=1, double_skunk_value=1)) is WIN_CHANCE
    game = Game(Rules(), 7)
    game.start()
    assert situation(game, 0).objective is MATCH_POINTS
    assert situation(game, 0, ACC_POINTS).objective is ACC_POINTS
    assert decision_for(game, game.to_act()[0], WIN_CHANCE).where.objective is WIN_CHANCE


def test_tables_differ_only_where_a_skunk_can_happen() -> None:
    for objective in win_tables.SHIPPED:
        # both near the end: nobody can be skunked, every objective is the chance to win
        assert win_tables.dealer_value(110, 112, 121, objective) == pytest.approx(
            win_tables.dealer_value(110, 112, 121, WIN_CHANCE), abs=2e-4)
    # the dealer far behind: losing costs more when a skunk counts, and the ACC's
    # skunk (1.5 wins) less than match points' (2 wins, 3 for a double)
    win, acc, match = (win_tables.dealer_value(40, 110, 121, o) for o in (WIN_CHANCE, ACC_POINTS, MATCH_POINTS))
    assert match < acc < win < 0


def test_an_objective_not_shipped_is_solved_and_agrees_with_its_neighbours() -> None:
    between = objective_of(1, 1.75, 1.75)  # between the ACC's 1.5 and match points' 2 for a skunk
    value = win_tables.dealer_value(40, 110, 121, between)
    assert win_tables.dealer_value(40, 110, 121, MATCH_POINTS) < value < win_tables.dealer_value(40, 110, 121, ACC_POINTS)


def test_each_kind_of_table_gives_its_computer_the_table_s_objective() -> None:
    from door.play.computer_seat import ComputerSeat
    from door.play.table import Table
    from door.play.table_settings import TableSettings
    from door.records.ranked.match import MatchTerms

    def table(rules: Rules | None = None, **kw: object) -> Table:
        return Table(rules or Rules(), [ComputerSeat("North"), ComputerSeat("South")], TableSettings(**kw))  # type: ignore[arg-type]

    assert table().objective is MATCH_POINTS  # a game credits 1, 2 or 3
    assert table(dataclasses.replace(Rules(), skunk_value=1, double_skunk_value=1)).objective is WIN_CHANCE
    assert table(terms=MatchTerms(3)).objective is WIN_CHANCE  # a match counts games won
    assert table(terms=MatchTerms(1), objective=ACC_POINTS).objective is ACC_POINTS  # a club night
