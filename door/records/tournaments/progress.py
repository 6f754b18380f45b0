"""How a stored tournament stands and what comes next, pure: its Swiss's
standings and its brackets from the stored pairings (by the pure core in
:mod:`door.records.ranked`), the decision when a pairing's deadline
passes, the pairings to make next, and its finishes once it is over.

The deadline's rule: a player who did not play their game (or match) by
its deadline loses it by forfeit.  Who is late: the seat the game waits
on, when the game service said so; else whoever did not turn up.  When
both are late (neither turned up, or both did and nobody knows whose move
it waits on): in a Swiss both lose the game (each a game played and
lost, no points, no spread; having never played, they may be paired
again); in a knock-out a match must send somebody on, so the better seed
goes through by forfeit.  A forfeit scores a plain win: in a Swiss 2
game points and no spread, in a knock-out the match won without a game
lost.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass

from door.records.ranked.brackets import (
    Bracket,
    BracketState,
    advance,
    double,
    qualifying_split,
    seed_by_rating,
    single,
)
from door.records.ranked.season import Finish
from door.records.ranked.standings import Line, order_key, standings
from door.records.ranked.swiss import swiss_round
from door.records.ranked.tournament import Entrant, GameResult, Kind, MatchResult
from door.records.tournaments.values import BOTH_LOST, SWISS, Entry, Pairing, Tournament

__all__ = ["Decision", "NewPairing", "swiss_results", "swiss_standings", "brackets", "late_decision",
           "next_pairings", "finishes", "skunk_of", "no_shows"]


@dataclass(frozen=True)
class Decision:
    """How a pairing is decided: the ``winner`` (0, 1 or
    :data:`~door.records.tournaments.values.BOTH_LOST`), the ``scores``,
    ``skunk`` and ``how``."""

    winner: int
    scores: tuple[int, int]
    skunk: int
    how: str


@dataclass(frozen=True)
class NewPairing:
    """A pairing to make: its ``stage``, ``slot`` and ``players`` (the second ``None``: a bye)."""

    stage: str
    slot: str
    players: tuple[str, str | None]


def skunk_of(loser: int, skunk_line: int, double_line: int) -> int:
    """0, 1 (a skunk: the loser below ``skunk_line``) or 2 (below ``double_line``).

    >>> skunk_of(95, 91, 61), skunk_of(80, 91, 61), skunk_of(60, 91, 61)
    (0, 1, 2)
    """
    return 2 if loser < double_line else 1 if loser < skunk_line else 0


def _entrants(entries: Sequence[Entry]) -> list[Entrant]:
    return [e.entrant for e in entries]


def swiss_results(pairings: Sequence[Pairing]) -> list[GameResult]:
    """The Swiss's games decided for one side (byes and forfeits too; not those both lost)."""
    return [GameResult(p.wave, p.players, p.winner, p.scores, p.skunk) for p in pairings
            if p.stage == SWISS and p.winner is not None and p.winner != BOTH_LOST]


def swiss_standings(t: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing]) -> list[Line]:
    """The Swiss's standings, best first: the pure core's, with each game
    both players lost counted as a game played and lost by each."""
    lines = standings(_entrants(entries), swiss_results(pairings), t.settings.format.bye_spread)
    lost = [name for p in pairings if p.stage == SWISS and p.winner == BOTH_LOST for name in p.players]
    if lost:
        lines = sorted((dataclasses.replace(line, played=line.played + lost.count(line.name)) for line in lines),
                       key=order_key)
    return lines


def _swiss_over(t: Tournament, pairings: Sequence[Pairing]) -> bool:
    swiss = [p for p in pairings if p.stage == SWISS]
    return (bool(swiss) and max(p.wave for p in swiss) >= t.settings.format.rounds
            and not any(p.open for p in swiss))


def _match_results(pairings: Sequence[Pairing], stage: str) -> dict[str, MatchResult]:
    out = {}
    for p in pairings:
        if p.stage == stage and p.winner is not None and p.winner != BOTH_LOST:
            winner = p.players[p.winner]
            assert winner is not None
            out[p.slot] = MatchResult(winner, (p.scores[p.winner], p.scores[1 - p.winner]))
    return out


def brackets(t: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing]) -> list[tuple[str, BracketState]]:
    """The knock-out's brackets as the results leave them, each with its
    label (``bracket``, ``consolation``): as ``t`` kept them once drawn;
    before, as they would be drawn now; none for a Swiss, nor for a
    qualifying Swiss before its last round is over."""
    fmt = t.settings.format
    made: list[tuple[str, Bracket]] = []
    if t.seeds:  # as drawn when its first matches were paired
        made = [(label, double(seeds) if fmt.kind is Kind.DOUBLE else single(seeds))
                for label, seeds in t.seeds.items()]
    elif fmt.kind in (Kind.SINGLE, Kind.DOUBLE) and len(entries) >= 2:
        seeds = seed_by_rating(_entrants(entries))
        made = [("bracket", single(seeds) if fmt.kind is Kind.SINGLE else double(seeds))]
    elif fmt.kind is Kind.QUALIFYING and _swiss_over(t, pairings):
        top, rest = qualifying_split(swiss_standings(t, entries, pairings), fmt.qualify)
        made = [("bracket", single(top))] + ([("consolation", single(rest))] if rest else [])
    return [(label, advance(b, _match_results(pairings, label), fmt.games)) for label, b in made]


def late_decision(t: Tournament, p: Pairing, seeds: Sequence[str] = ()) -> Decision:
    """How ``p``, past its deadline with no result, is decided (the rule
    in this module's summary); ``seeds``: its bracket's seeds, best first
    (a knock-out's both-late match goes to the better)."""
    late = ({p.waiting} if p.waiting is not None else {seat for seat in (0, 1) if not p.shown >> seat & 1})
    if not late:
        late = {0, 1}
    knock_out = p.stage != SWISS
    if late == {0, 1}:
        if not knock_out:
            return Decision(BOTH_LOST, (0, 0), 0, "both late")
        ranks = [seeds.index(n) if n in seeds else len(seeds) for n in p.players]
        winner = 0 if ranks[0] <= ranks[1] else 1
        how = "both late, the better seed goes on"
    else:
        winner = 1 - late.pop()
        how = "forfeit"
    if not knock_out:
        return Decision(winner, (0, 0), 0, how)
    games = t.settings.format.to_win
    return Decision(winner, (games, 0) if winner == 0 else (0, games), 0, how)


def no_shows(t: Tournament, pairings: Sequence[Pairing], now: float) -> list[Pairing]:
    """The open games of a live round whose players were not both at the
    table (checked in) ``show_minutes`` after it was paired, at ``now``
    (a deadline the sysop extended moves that time with it); each as
    :func:`late_decision` should judge it: by who turned up, not by whose
    move a game waits on (none of them began)."""
    show = t.settings.show_seconds
    if show is None:
        return []
    before = t.settings.round_seconds - show  # (the time to come, counted back from the deadline)
    return [dataclasses.replace(p, waiting=None) for p in pairings
            if p.open and p.players[1] is not None and p.deadline is not None and p.shown != 3
            and p.deadline - before <= now]


def next_pairings(t: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing],
                  now: float) -> list[NewPairing]:
    """The pairings to make now (none while the Swiss's round is being
    played, before a live round's set time, or once it is over): the
    Swiss's next round (its byes among them), or every knock-out match
    whose players are both known and that is not paired yet."""
    fmt = t.settings.format
    if fmt.kind in (Kind.SWISS, Kind.QUALIFYING) and not _swiss_over(t, pairings):
        swiss = [p for p in pairings if p.stage == SWISS]
        if any(p.open for p in swiss):
            return []
        round_ = 1 + max((p.wave for p in swiss), default=0)
        if now < t.settings.set_time(t.started or now, round_):
            return []
        pairs = swiss_round(_entrants(entries), swiss_results(pairings), fmt.bye_spread)
        return [NewPairing(SWISS, f"{round_}-{table}", pair) for table, pair in enumerate(pairs, 1)]
    made = {(p.stage, p.slot) for p in pairings}
    out = []
    for label, state in brackets(t, entries, pairings):
        for m in state.ready():
            a, b = state.matches[m.id].players
            if (label, m.id) not in made and isinstance(a, str) and isinstance(b, str):
                out.append(NewPairing(label, m.id, (a, b)))
    return out


def _swiss_wins(entries: Sequence[Entry], pairings: Sequence[Pairing]) -> dict[str, int]:
    """Games each entrant won in the Swiss (byes not counted)."""
    won = {e.name: 0 for e in entries}
    for p in pairings:
        if p.stage == SWISS and p.winner in (0, 1) and p.players[1] is not None:
            name = p.players[p.winner]
            assert name is not None
            won[name] += 1
    return won


def _bracket_places(states: Sequence[tuple[str, BracketState]],
                    swiss_won: dict[str, int]) -> tuple[dict[str, int], dict[str, int], int]:
    """Each bracket's players' places, one bracket after another (the
    knock-out's, then the consolation's), the games each won with the
    Swiss's added, and the places the brackets took in all."""
    placed: dict[str, int] = {}
    won = dict(swiss_won)
    offset = 0
    for _, state in states:
        for s in state.matches.values():
            if s.result is not None and isinstance(s.loser, str):
                won[s.result.winner] += s.result.games[0]
                won[s.loser] += s.result.games[1]
        for name in state.bracket.seeds:
            placed[name] = offset + state.places[name]
        offset += len(state.bracket.seeds)
    return placed, won, offset


def finishes(t: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing], when: float) -> list[Finish] | None:
    """Every entrant's finish (place, games won) once the tournament is
    over, its year that of ``when`` (UTC); ``None`` while it is not over.
    In a qualifying Swiss the knock-out's places come first, then the
    consolation's after them; games won count the Swiss's (byes not) and
    the matches'."""
    fmt = t.settings.format
    if any(p.open for p in pairings):
        return None
    year = time.gmtime(when).tm_year
    swiss_won = _swiss_wins(entries, pairings)
    if fmt.kind is Kind.SWISS:
        if not _swiss_over(t, pairings):
            return None
        return [Finish(year, line.name, place, swiss_won[line.name])
                for place, line in enumerate(swiss_standings(t, entries, pairings), 1)]
    states = brackets(t, entries, pairings)
    if not states or any(s.champion is None for _, s in states):
        return None
    placed, won, offset = _bracket_places(states, swiss_won)
    lines = swiss_standings(t, entries, pairings) if fmt.kind is Kind.QUALIFYING else []
    for line in lines:  # a lone player left out of the consolation places after it
        placed.setdefault(line.name, offset + 1)
    return sorted((Finish(year, n, place, won[n]) for n, place in placed.items()), key=lambda f: (f.place, f.name))
