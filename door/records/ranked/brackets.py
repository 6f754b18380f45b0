"""Knock-outs, pure: seeding, single and double elimination brackets with
byes to a power of two, a qualifying Swiss's split into the knock-out and
the consolation, and a bracket advanced from its matches' results.

The rules, as built:

- Seeds go by rating as entered (highest first, then name), or, after a
  qualifying Swiss, by place in its standings.
- A bracket has the next power of two of places (at least 2), filled in
  the standard order, so that the first seed meets the sixteenth, the eighth
  the ninth, and the
  top seeds would meet only at the end; the places past the last seed
  are byes, which fall to the top seeds (a walkover: no game is played,
  nobody takes a loss).
- Single elimination: a match lost is out.
- Double elimination: a first loss drops a player to the losers'
  ("bruised") bracket, a second is out.  The losers' first round pairs
  the first round's losers; then each round alternates: the survivors
  meet the players just dropped from the winners' bracket (in reverse
  order in every other round, so players do not meet again so soon), and
  the survivors meet each other.  The grand final is the winners'
  bracket's champion against the losers' bracket's; when the losers'
  bracket's champion wins it, both have lost once, and a second final
  (the bracket reset) decides.  So the champion has at most one loss and
  everybody else exactly two.
- A qualifying Swiss's top fraction (a quarter by default, rounded down,
  at least 2) goes on to a single-elimination knock-out; the rest, when
  there are 2 or more, play a single-elimination consolation.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from door.records.ranked.standings import Line
from door.records.ranked.tournament import Entrant, Kind, MatchResult, check_entrants

__all__ = ["Section", "Source", "Match", "Bracket", "Empty", "Slot", "MatchState", "BracketState",
           "seed_by_rating", "positions", "single", "double", "advance", "qualifying_split"]


class Section(enum.Enum):
    """Where a match is in the bracket."""

    WINNERS = "W"
    """The winners' bracket (a single elimination's only one)."""
    LOSERS = "L"
    """The losers' ("bruised") bracket of a double elimination."""
    FINAL = "F"
    """The grand final (1) and the bracket reset (2)."""


class Empty(enum.Enum):
    """A slot with no player: a bye, or one whose match is not decided yet."""

    BYE = "bye"
    PENDING = "pending"


Slot = str | Empty
"""A match's place: a player's name, or :class:`Empty`."""


@dataclass(frozen=True)
class Source:
    """Where a match's player comes from: a seed (``name``; ``None``: a
    bye), or the winner or the loser of match ``match`` (its id)."""

    name: str | None = None
    match: str | None = None
    loser: bool = False


@dataclass(frozen=True)
class Match:
    """A match of a bracket: its ``section``, ``round`` (1, 2, ... in its
    section) and ``number`` in the round (1, 2, ...), and its two
    ``sources``.  Its ``id`` is ``"W1-1"``, ``"L2-1"``, ``"F1"``."""

    section: Section
    round: int
    number: int
    sources: tuple[Source, Source]

    @property
    def id(self) -> str:
        if self.section is Section.FINAL:
            return f"F{self.round}"
        return f"{self.section.value}{self.round}-{self.number}"


@dataclass(frozen=True)
class Bracket:
    """A knock-out: its ``kind`` (single or double elimination), the
    ``seeds`` (names, the best seed first), its ``size`` (places: a power of
    two) and its ``matches`` by section, then round, then number."""

    kind: Kind
    seeds: tuple[str, ...]
    size: int
    matches: tuple[Match, ...]

    def match(self, match_id: str) -> Match:
        """The match called ``match_id``.  Raises ``ValueError`` for no such match."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise ValueError(f"this bracket has no match {match_id!r}")

    def rounds(self, section: Section) -> list[list[Match]]:
        """``section``'s matches, round by round."""
        out: list[list[Match]] = []
        for m in self.matches:
            if m.section is section:
                if m.round > len(out):
                    out.append([])
                out[m.round - 1].append(m)
        return out


def seed_by_rating(entrants: Sequence[Entrant]) -> list[str]:
    """The entrants' names by seed: highest rating first, then name.
    Raises ``ValueError`` for fewer than two or a name twice."""
    check_entrants(entrants)
    return [e.name for e in sorted(entrants, key=lambda e: (-e.rating, e.name))]


def positions(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for ``size`` places (a power
    of two): each first-round match is a neighbouring pair, the better
    seed first, and the two best seeds can meet only in the final, the four
    best only
    in the semi-finals, and so on.  Raises ``ValueError`` for a size that
    is not a power of two of at least 2.

    >>> positions(8)
    [1, 8, 4, 5, 3, 6, 2, 7]
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, at least 2, got {size!r}")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for i, seed in enumerate(order) for s in ((seed, n - seed) if i % 2 == 0 else (n - seed, seed))]
    return [s for i in range(0, size, 2) for s in sorted(order[i:i + 2])]


def _first_round(seeds: Sequence[str]) -> tuple[int, list[Match]]:
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise ValueError(f"a bracket needs 2 or more different players, got {list(seeds)!r}")
    size = 1 << math.ceil(math.log2(len(seeds)))
    order = positions(size)

    def source(seed: int) -> Source:
        return Source(seeds[seed - 1] if seed <= len(seeds) else None)
    return size, [Match(Section.WINNERS, 1, i + 1, (source(order[2 * i]), source(order[2 * i + 1])))
                  for i in range(size // 2)]


def _halve(section: Section, number: int, previous: Sequence[Match]) -> list[Match]:
    """The next round of ``section``: the winners of neighbouring matches meet."""
    return [Match(section, number, i + 1, (Source(match=previous[2 * i].id), Source(match=previous[2 * i + 1].id)))
            for i in range(len(previous) // 2)]


def single(seeds: Sequence[str]) -> Bracket:
    """A single-elimination bracket of ``seeds`` (names, the best seed first).
    Raises ``ValueError`` for fewer than two or a name twice."""
    size, rnd = _first_round(seeds)
    matches = list(rnd)
    while len(rnd) > 1:
        rnd = _halve(Section.WINNERS, rnd[0].round + 1, rnd)
        matches += rnd
    return Bracket(Kind.SINGLE, tuple(seeds), size, tuple(matches))


def double(seeds: Sequence[str]) -> Bracket:
    """A double-elimination bracket of ``seeds`` (names, the best seed first),
    with its losers' bracket, grand final and reset.  Raises
    ``ValueError`` for fewer than two or a name twice."""
    size, first = _first_round(seeds)
    winners = [first]
    while len(winners[-1]) > 1:
        winners.append(_halve(Section.WINNERS, len(winners) + 1, winners[-1]))
    losers: list[list[Match]] = []
    if len(winners) > 1:
        losers.append([Match(Section.LOSERS, 1, i + 1, (Source(match=first[2 * i].id, loser=True),
                                                        Source(match=first[2 * i + 1].id, loser=True)))
                       for i in range(len(first) // 2)])
        for r, dropped in enumerate(winners[1:], 2):
            order = list(reversed(dropped)) if r % 2 == 0 else list(dropped)
            losers.append([Match(Section.LOSERS, len(losers) + 1, i + 1,
                                 (Source(match=survivor.id), Source(match=order[i].id, loser=True)))
                           for i, survivor in enumerate(losers[-1])])
            if len(losers[-1]) > 1:
                losers.append(_halve(Section.LOSERS, len(losers) + 1, losers[-1]))
    champion = Source(match=winners[-1][0].id)
    bruised = Source(match=losers[-1][0].id) if losers else Source(match=first[0].id, loser=True)
    final = Match(Section.FINAL, 1, 1, (champion, bruised))
    reset = Match(Section.FINAL, 2, 1, (Source(match="F1"), Source(match="F1", loser=True)))
    matches = [m for rnd in winners for m in rnd] + [m for rnd in losers for m in rnd] + [final, reset]
    return Bracket(Kind.DOUBLE, tuple(seeds), size, tuple(matches))


def qualifying_split(lines: Sequence[Line], qualify: Fraction = Fraction(1, 4)) -> tuple[list[str], list[str]]:
    """A qualifying Swiss's final standings (``lines``, best first) split
    into the knock-out's seeds (the top ``qualify`` of the field, rounded
    down, at least 2) and the consolation's (the rest; none when fewer
    than 2 are left).  Raises ``ValueError`` for fewer than two players or
    a fraction not above 0 and at most 1."""
    if len(lines) < 2:
        raise ValueError(f"a knock-out needs at least 2 players, got {len(lines)}")
    if not 0 < qualify <= 1:
        raise ValueError(f"the fraction that qualifies is above 0 and at most 1, got {qualify!r}")
    count = max(2, math.floor(len(lines) * qualify))
    names = [line.name for line in lines]
    rest = names[count:]
    return names[:count], rest if len(rest) >= 2 else []


@dataclass(frozen=True)
class MatchState:
    """A match as the results leave it: the ``match``, its two
    ``players`` (:data:`Slot`), its ``result`` (``None``: not played, or a
    walkover), its ``winner`` and ``loser`` (:data:`Slot`; a walkover's
    loser is a bye), and whether it is ``ready`` to be played (both
    players known, no result yet)."""

    match: Match
    players: tuple[Slot, Slot]
    result: MatchResult | None
    winner: Slot
    loser: Slot

    @property
    def ready(self) -> bool:
        return all(isinstance(p, str) for p in self.players) and self.result is None

    @property
    def walkover(self) -> bool:
        """Decided without a game: a bye, or a reset that was not needed."""
        return self.result is None and self.winner is not Empty.PENDING


@dataclass(frozen=True)
class BracketState:
    """A bracket with its results: each match's state by id (``matches``),
    the ``champion`` (``None`` until decided), the ``losses`` of every
    seed (matches lost), and the ``places`` of those whose place is known
    (1 the champion; players out in the same round share a place)."""

    bracket: Bracket
    matches: dict[str, MatchState]
    champion: str | None
    losses: dict[str, int]
    places: dict[str, int]

    def ready(self) -> list[Match]:
        """The matches that can be played now, in the bracket's order."""
        return [s.match for s in self.matches.values() if s.ready]


def advance(bracket: Bracket, results: Mapping[str, MatchResult], games: int = 3) -> BracketState:
    """``bracket`` after ``results`` (by match id), matches being best of
    ``games``.  Raises ``ValueError`` for a result of no such match, of a
    match whose players are not both known or that is a walkover, naming
    a winner who is not one of its players, or with a score that does not
    end a best of ``games`` (the winner's games must be ``games // 2 + 1``)."""
    ids = {m.id for m in bracket.matches}
    for match_id, result in results.items():
        if match_id not in ids:
            raise ValueError(f"this bracket has no match {match_id!r}")
        if result.games[0] != games // 2 + 1:
            raise ValueError(f"a best of {games} is won with {games // 2 + 1} games, match {match_id} "
                             f"says {result.games!r}")
    states: dict[str, MatchState] = {}
    for m in bracket.matches:
        a, b = (_resolve(src, states) for src in m.sources)
        states[m.id] = _decide(m, (a, b), results.get(m.id), states)
    champion = states[bracket.matches[-1].id].winner
    losses = {name: 0 for name in bracket.seeds}
    for s in states.values():
        if s.result is not None and isinstance(s.loser, str):
            losses[s.loser] += 1
    won = champion if isinstance(champion, str) else None
    return BracketState(bracket, states, won, losses, _places(bracket, states, losses, won))


def _resolve(source: Source, states: Mapping[str, MatchState]) -> Slot:
    if source.match is None:
        return source.name if source.name is not None else Empty.BYE
    state = states[source.match]
    return state.loser if source.loser else state.winner


def _decide(m: Match, players: tuple[Slot, Slot], result: MatchResult | None,
            states: Mapping[str, MatchState]) -> MatchState:
    a, b = players
    if m.section is Section.FINAL and m.round == 2:
        final = states["F1"]
        if isinstance(final.winner, str) and final.winner == final.players[0]:
            a, b = final.winner, Empty.BYE  # the winners' bracket's champion won: no reset
            players = (a, b)
    if Empty.PENDING in (a, b) or Empty.BYE in (a, b):
        if result is not None:
            raise ValueError(f"match {m.id} has no result to take: its players are {players!r}")
        if Empty.PENDING in (a, b):
            return MatchState(m, players, None, Empty.PENDING, Empty.PENDING)
        return MatchState(m, players, None, b if a is Empty.BYE else a, Empty.BYE)
    if result is None:
        return MatchState(m, players, None, Empty.PENDING, Empty.PENDING)
    if result.winner not in players:
        raise ValueError(f"match {m.id} is {a!r} against {b!r}, not {result.winner!r}")
    return MatchState(m, players, result, result.winner, b if result.winner == a else a)


def _stage(m: Match) -> int:
    """How late in the event a match is: a player out later places higher."""
    if m.section is Section.FINAL:
        return 1000 + m.round
    return m.round


def _places(bracket: Bracket, states: Mapping[str, MatchState], losses: Mapping[str, int],
            champion: str | None) -> dict[str, int]:
    """Places of the players who are out (and the champion's, 1)."""
    limit = 1 if bracket.kind is Kind.SINGLE else 2
    out: dict[str, int] = {}  # name -> stage of the match that put them out
    for s in states.values():
        if s.result is not None and isinstance(s.loser, str) and losses[s.loser] >= limit:
            out[s.loser] = _stage(s.match)
    if champion is not None:
        out.pop(champion, None)
    places = {name: 1 + sum(1 for other in bracket.seeds if other not in out or out[other] > stage)
              for name, stage in out.items()}
    if champion is not None:
        places[champion] = 1
    return places
