"""The interface of a computer player (and of the hint for a human).

A :class:`Strategy` chooses discards, chooses a card in the play and counts
a hand.  The players live beside this module: :class:`engine.hard.HardPlayer`
(the door's default opponent and the hints), and the simpler
:mod:`engine.players` (easy, greedy, random) used as the Easy level and as
sparring partners in the benchmarks.  :func:`choose_action` turns a
strategy's decision into an action for the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from .actions import Claim, Discard, Play
from .cards import Card
from .game import Game, Phase
from .objectives import WIN_CHANCE, Objective, rules_objective
from .rules import RunMode
from .scoring import mean_show_points, show_points

__all__ = ["tie_break", "ExactCounter", "TIE", "Strategy", "Situation", "Decision", "expected_hand", "choose_action", "prepare_action", "decision_for",
           "situation", "legal_cards", "DISCARDS_KEPT"]


@dataclass(frozen=True, slots=True)
class Situation:
    """What a player knows of the game beyond its cards: both scores in
    points (``mine``, ``theirs``), the target ``game_to``, how many cards
    the opponent still holds in the play (``their_cards``), and whether this
    player is the dealer.

    What the expert computer infers from (:mod:`engine.expert`): the two
    cards this player laid away this hand (``thrown``, so not the
    opponent's), the cards the opponent has played this hand
    (``their_played``), and ``their_floor``: every card the opponent still
    holds has a pip value above it, because they said go (or could not
    play) on a count of ``31 - their_floor`` (0: nothing known).  And
    ``objective``: what a won game is worth by how the loser finished
    (:mod:`engine.objectives`: the chance to win, match points, the ACC's
    game points), which the expert plays for near the end.  In the
    play, this player's four ``kept`` cards and the ``starter``, and
    ``play_order``: every card played this hand so far, in order, as
    ``(series number, whether this player played it, card)``.  And
    ``their_discards``: how the opponent laid away in the last
    :data:`DISCARDS_KEPT` deals that reached the show, oldest first, as
    ``(whether they dealt, the four cards they kept, the two they threw)``."""

    mine: int = 0
    theirs: int = 0
    game_to: int = 121
    their_cards: int = 4
    dealer: bool = False
    thrown: tuple[Card, ...] = ()
    their_played: tuple[Card, ...] = ()
    their_floor: int = 0
    objective: Objective = WIN_CHANCE
    kept: tuple[Card, ...] = ()
    starter: Card | None = None
    play_order: tuple[tuple[int, bool, Card], ...] = ()
    their_discards: tuple[tuple[bool, tuple[Card, ...], tuple[Card, ...]], ...] = ()


DISCARDS_KEPT = 12
"""Past deals of the opponent a :class:`Situation` lists (a decision is
copied to a worker process; a game to 121 has about nine deals)."""


class Strategy(Protocol):
    """What a computer player (or a hint) decides."""

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        """Two cards of the six in ``hand`` to lay away to the crib."""
        ...

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        """A card of ``hand`` to play on the current ``series`` (its count
        plus the card must not pass 31).  ``seen``: every card this player
        has seen (own hand, starter, cards played)."""
        ...

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        """The points claimed for a hand in the show."""
        ...


def legal_cards(hand: Sequence[Card], series: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that keep the count of ``series`` within 31.
    Raises ``ValueError`` when there are none (the player must say go, which
    the game does by itself)."""
    count = sum(c.pip for c in series)
    legal = [c for c in hand if count + c.pip <= 31]
    if not legal:
        raise ValueError(f"no card of {[str(c) for c in hand]} can be played on {count}")
    return legal


def expected_hand(kept: Sequence[Card], unseen: Sequence[Card]) -> float:
    """The mean show points of the four ``kept`` cards (a hand, not a crib)
    over every starter in ``unseen`` (usually the 46 cards not in the six
    dealt), in points (:func:`~engine.scoring.mean_show_points`)."""
    return mean_show_points(kept, unseen)


def situation(game: Game, seat: int, objective: Objective | None = None) -> Situation:
    """What ``seat`` knows of ``game`` now; ``objective``: what the table
    plays for (by default the games the rules credit a win:
    :func:`~engine.objectives.rules_objective`)."""
    mine, theirs = game.pegs[seat].front, game.pegs[1 - seat].front
    their_cards = len(game.hands[1 - seat]) if game.phase is Phase.PLAY else 4
    thrown: tuple[Card, ...] = ()
    if game.phase is not Phase.DISCARD:
        for action in reversed(game.actions):
            if isinstance(action, Discard) and action.seat == seat:
                thrown = tuple(action.cards)
                break
    rules = game.rules
    return Situation(mine, theirs, rules.game_to, their_cards, game.dealer == seat, thrown,
                     tuple(p.card for p in game.played[1 - seat]), _their_floor(game, seat),
                     objective or rules_objective(rules), tuple(game.kept[seat]), game.starter,
                     _play_order(game, seat), _their_discards(game, seat))


def _their_discards(game: Game, seat: int) -> tuple[tuple[bool, tuple[Card, ...], tuple[Card, ...]], ...]:
    """:class:`Situation`'s ``their_discards`` for ``seat``."""
    them = 1 - seat
    past = [d for d in game.shown if d.hand_number < game.hand_number][-DISCARDS_KEPT:]
    return tuple((d.dealer == them, d.kept[them], d.thrown[them]) for d in past)


def _plays(game: Game) -> list[tuple[int, int, Card]]:
    """This hand's cards played so far, in order: ``(series number, seat,
    card)``."""
    plays = sorted((p.series, p.order, s, p.card) for s in (0, 1) for p in game.played[s])
    return [(series, s, card) for series, _, s, card in plays]


def _play_order(game: Game, seat: int) -> tuple[tuple[int, bool, Card], ...]:
    """:class:`Situation`'s ``play_order`` for ``seat``."""
    return tuple((series, s == seat, card) for series, s, card in _plays(game))


def _their_floor(game: Game, seat: int) -> int:
    """The pip value every card the opponent of ``seat`` still holds is
    above (see :class:`Situation`), from the gos of this hand's play: they
    could not play after ``seat``'s card when ``seat`` played again in the
    same series, nor when a series ended short of 31, nor now, when
    ``seat`` is to play after its own card."""
    plays = _plays(game)
    floor = 0
    count = 0
    for i, (series, who, card) in enumerate(plays):
        count += card.pip
        following = plays[i + 1] if i + 1 < len(plays) else None
        if following is not None and following[0] == series:
            if who == seat and following[1] == seat:
                floor = max(floor, 31 - count)
        elif following is not None or series != game.series_number:
            if count != 31:
                floor = max(floor, 31 - count)
            count = 0
        elif who == seat and game.phase is Phase.PLAY and game.turn == seat:
            floor = max(floor, 31 - count)  # the series goes on: they said go
    return floor


def choose_action(game: Game, seat: int, player: Strategy, objective: Objective | None = None
                  ) -> Discard | Play | Claim:
    """The action ``player`` takes for ``seat`` in ``game`` now, playing for
    ``objective`` (by default what the rules credit a win, as for
    :func:`situation`).

    Raises ``ValueError`` when ``seat`` has nothing to do."""
    return decision_for(game, seat, objective).take(player)


def prepare_action(game: Game, seat: int, player: Strategy) -> Callable[[], Discard | Play | Claim]:
    """:func:`choose_action` in two steps: what ``seat`` knows of ``game``
    is copied now, and the returned function decides from the copy alone,
    so it may run in another thread while the game goes on (the other
    player's discard, say).

    Raises ``ValueError`` when ``seat`` has nothing to do."""
    return partial(decision_for(game, seat).take, player)


@dataclass(frozen=True, slots=True)
class Decision:
    """What ``seat`` knows of a game when it must act, copied from the game
    (:func:`decision_for`), so that it can be decided anywhere: in another
    thread, or pickled to another process.  ``phase`` says which decision:
    the discard (``hand``: the six cards; ``where.dealer``), a card in the
    play (``hand``: the cards left; the ``series`` so far; ``seen``: every
    card this seat has seen; the game's ``run_mode``), or the count of the
    show (``hand``: the four cards shown, with the ``starter``, a crib when
    ``is_crib``)."""

    seat: int
    phase: Phase
    hand: tuple[Card, ...]
    where: Situation
    series: tuple[Card, ...] = ()
    seen: tuple[Card, ...] = ()
    run_mode: RunMode = RunMode.UNORDERED
    starter: Card | None = None
    is_crib: bool = False

    @property
    def needs_thought(self) -> bool:
        """Whether a player can choose here: the discard, or a play with
        cards of more than one rank that fit (cards of one rank peg alike:
        the play scores ranks, and the kept cards' suits are already
        fixed for the show).  ``False`` for the count of a show and for a
        play whose only choice is a suit: a deliberating computer makes
        those on the spot rather than in a thinking process."""
        if self.phase is not Phase.PLAY:
            return self.phase is Phase.DISCARD
        try:
            return len({c.rank for c in legal_cards(self.hand, self.series)}) > 1
        except ValueError:  # nothing fits: the player says so wherever it decides
            return False

    def take(self, player: Strategy) -> Discard | Play | Claim:
        """The action ``player`` chooses."""
        if self.phase is Phase.DISCARD:
            return Discard(self.seat, player.choose_discard(self.hand, self.where.dealer, self.where))
        if self.phase is Phase.PLAY:
            return Play(self.seat, player.choose_play(self.hand, self.series, self.seen, self.run_mode, self.where))
        assert self.starter is not None
        return Claim(self.seat, player.count(self.hand, self.starter, self.is_crib))


def decision_for(game: Game, seat: int, objective: Objective | None = None) -> Decision:
    """What ``seat`` must decide in ``game`` now, and what it knows
    (``objective``: what the table plays for, as for :func:`situation`).

    Raises ``ValueError`` when ``seat`` has nothing to do."""
    if seat not in game.to_act():
        raise ValueError(f"seat {seat} has nothing to do in phase {game.phase.value}")
    where = situation(game, seat, objective)
    hand = tuple(game.hands[seat])
    if game.phase is Phase.DISCARD:
        return Decision(seat, Phase.DISCARD, hand, where)
    if game.phase is Phase.PLAY:
        seen = list(game.kept[seat]) + [p.card for p in game.played[1 - seat]]
        if game.starter is not None:
            seen.append(game.starter)
        return Decision(seat, Phase.PLAY, hand, where, tuple(game.series), tuple(seen), game.rules.run_mode)
    show = game.current_show()
    assert show is not None and game.starter is not None
    return Decision(seat, game.phase, tuple(show.hand), where, starter=game.starter, is_crib=show.is_crib)


T = TypeVar("T")

TIE = 1e-9
"""Values this close to the best count as equal (sums of floats)."""


def tie_break(rng: random.Random, scored: Iterable[tuple[float, T]], tolerance: float = TIE) -> T:
    """One of the best of ``scored`` (``(value, choice)`` pairs): chosen by
    ``rng`` among those within ``tolerance`` of the best value, in the
    order given, so that a seeded player is reproducible.  Raises
    ``ValueError`` when ``scored`` is empty.

    >>> tie_break(random.Random(1), [(1.0, "a"), (3.0, "b"), (3.0, "c")])
    'b'
    """
    pairs = list(scored)
    if not pairs:
        raise ValueError("nothing to choose from")
    top = max(v for v, _ in pairs)
    return rng.choice([t for v, t in pairs if v >= top - tolerance])


class ExactCounter:
    """A player who counts its hand and crib exactly, as every computer
    player here does (the standard rules' show: fifteens, pairs, runs,
    flush, nobs)."""

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        """The true points of ``hand`` with ``starter`` (``is_crib``: a crib's flush needs five)."""
        return show_points(hand, starter, is_crib)
