"""Does the expert gain by playing to the table's scoring?  Each objective
of :mod:`engine.objectives` against each other, scored each way.

    python3 -m bench.objectives [--games 6000] [--jobs 2]

The expert plays the expert; the two differ only in what they play for
(the chance to win, match points 1/2/3, the ACC's 2 a win and 3 a skunk).
Each deal (a game number) is played twice with the objectives' seats
swapped, and a seat's random choices come from the same seed in both
games, so the two games of a pair are the same game until the first
decision the objectives make differently: a pair's net is the effect of
the objective, with little noise from the cards.  The expert weighs its
objective only in the play near the end of a game (when either player
can go out by the end of the deal's shows), so a deal is played once up
to the first such decision, and from there on for each matchup and
seating (six endings).

For each matchup the first objective's net per game is printed under
each scoring (win share minus one half; match points; ACC points), with
a 95 % confidence interval over the pairs, and the share of pairs whose
two games differed at all.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.strength import mean_and_half_width  # noqa: E402
from engine.actions import Action  # noqa: E402
from engine.expert import ExpertPlayer  # noqa: E402
from engine.game import Game, Phase  # noqa: E402
from engine.objectives import ACC_POINTS, MATCH_POINTS, WIN_CHANCE, Objective  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import Decision, decision_for  # noqa: E402

OBJECTIVES = {o.name: o for o in (WIN_CHANCE, MATCH_POINTS, ACC_POINTS)}
MATCHUPS = [("win", "match"), ("acc", "win"), ("acc", "match")]
SCORINGS = (WIN_CHANCE, MATCH_POINTS, ACC_POINTS)

def _weighs_objective(decision: Decision) -> bool:
    """Whether the expert weighs its objective in ``decision``: a card in
    the play near the end."""
    return decision.phase is Phase.PLAY and ExpertPlayer._near_the_end(decision.where)


def _finish(game: Game, players: list[ExpertPlayer], objectives: tuple[Objective, Objective]) -> list[Action]:
    """Play ``game`` to its end, ``objectives[s]`` in seat ``s``; the
    actions taken."""
    taken: list[Action] = []
    while not game.over:
        seat = game.to_act()[0]
        action = decision_for(game, seat, objectives[seat]).take(players[seat])
        game.apply(action)
        taken.append(action)
    return taken


def deal(number: int) -> dict[tuple[str, str], tuple[list[float], bool]]:
    """Deal ``number`` played to the first decision that weighs an
    objective (the same for every objective), then on from there once for
    each matchup and seating.  For each matchup: the first objective's
    mean net per game under each scoring, and whether its two games
    differed."""
    players = [ExpertPlayer(random.Random(2 * number + seat)) for seat in (0, 1)]
    game = Game(Rules(), number)
    game.start()
    while not game.over:
        seat = game.to_act()[0]
        decision = decision_for(game, seat)
        if _weighs_objective(decision):
            break
        game.apply(decision.take(players[seat]))
    fork = pickle.dumps((game, players))
    out = {}
    for a, b in MATCHUPS:
        x, y = OBJECTIVES[a], OBJECTIVES[b]
        one, one_players = pickle.loads(fork)
        one_taken = _finish(one, one_players, (x, y))
        two, two_players = pickle.loads(fork)
        two_taken = _finish(two, two_players, (y, x))
        out[(a, b)] = [(worth(one, 0, s) + worth(two, 1, s)) / 2 for s in SCORINGS], one_taken != two_taken
    return out


def worth(game: Game, seat: int, scoring: Objective) -> float:
    """What ``game`` was worth to ``seat`` under ``scoring``, in its own
    units (a share of wins minus one half for the chance to win)."""
    assert game.result is not None
    winner = game.result.winner
    loser_points = game.scores()[1 - winner]
    if scoring is WIN_CHANCE:
        return 0.5 if winner == seat else -0.5
    value = scoring.worth(loser_points, game.rules.game_to) * scoring.win
    return value if winner == seat else -value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="games per matchup (pairs = games / 2)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    pairs = args.games // 2
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        deals = pool.map(deal, range(1, pairs + 1), chunksize=5)
    print(f"{'matchup':<14} {'games':>6} {'differed':>9}  " + "  ".join(f"{'net, ' + s.name + ' scoring':>24}"
                                                                    for s in SCORINGS))
    for matchup in MATCHUPS:
        results = [d[matchup] for d in deals]
        cells = []
        for k in range(len(SCORINGS)):
            mean, half = mean_and_half_width([r[0][k] for r in results])
            mark = "*" if abs(mean) > half else " "
            cells.append(f"{f'{mean:+.4f} ±{half:.4f}{mark}':>24}")
        differed = sum(r[1] for r in results) / len(results)
        print(f"{' vs '.join(matchup):<14} {2 * pairs:>6} {100 * differed:>8.1f}%  " + "  ".join(cells))
    print(f"(*: the 95 % interval excludes 0; win scoring: share of games won minus one half; "
          f"{time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
