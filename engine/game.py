"""The state machine of one game of two-handed cribbage, and of a match.

Seats are 0 and 1 (the door puts the caller in seat 0, the sysop or the
computer in seat 1: the original door).  A game goes

    cut for deal -> [deal -> discard -> starter (his heels) -> the play
    -> the show: pone's hand, dealer's hand, crib] ... -> game over

and ends the moment a player reaches ``rules.game_to``, wherever that happens
(his heels, a peg in the play, any count of the show); nothing more is scored.

Drive it with actions: :meth:`Game.start` returns the first events (the cut
and the first deal), then :meth:`Game.apply` takes one :class:`Discard`,
:class:`Play` or :class:`Claim` at a time and returns what happened as events.
Go and last card are declared and pegged automatically.  The whole game is a
function of ``(rules, game number, first dealer, actions)``: replaying the
actions on a new game reproduces it exactly, which is how a game is saved.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .actions import Action, Claim, Discard, HandOver, IllegalAction, Play, ReplayHand
from .cards import Card, shuffled_deck
from .claims import adjudicate
from .events import (
    CardPlayed,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GameResult,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    PlayPoint,
    SeriesReset,
    ShowTurn,
    Skunk,
    StarterTurned,
)
from .handover import handing_over
from .rules import Counting, FirstDeal, Rules
from .scoring import MAX_SHOW_POINTS, PlayKind, PlayScore, ShowScore, score_play, score_show
from .shuffle import SeededShuffle
from .state import Peg, PlayedCard, ShownDeal

__all__ = ["Phase", "Game", "other", "replay"]


def other(seat: int) -> int:
    """The opponent's seat: 0 <-> 1."""
    return 1 - seat


class Phase(enum.Enum):
    """Where a game stands."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


@dataclass
class Game:
    """One game.  Construct, call :meth:`start`, then :meth:`apply` actions.

    ``rules``: the :class:`Rules`; ``number``: the game number (>= 1) that
    fixes every shuffle; ``first_dealer``: 0 or 1 to fix who deals first
    (a match's later games: the loser deals), or ``None`` to follow
    ``rules.first_deal``; ``stacked``: for tests and worked examples only, the
    deck of each hand in order (at least 13 cards each: the pone's six cards
    at even places 0..10, the dealer's at odd places 1..11, the starter 13th),
    used instead of the numbered shuffle while it lasts; ``shuffle``: the
    seeds every shuffle comes from instead of the number (a verifiable
    shuffle, :mod:`engine.shuffle`; its game number is ``number``).

    Public state (read it, never write it): ``phase``, ``dealer``,
    ``hand_number``, ``hands`` (cards still held, per seat), ``kept`` (the
    four cards kept for the show, per seat), ``crib``, ``starter``,
    ``played`` (per seat, :class:`PlayedCard` in order), ``series`` (cards of
    the current series), ``count``, ``turn``, ``pegs`` (a :class:`Peg` per
    seat), ``show_turn`` (who counts what next in the show), ``result``,
    ``shown`` (the deals that reached the show, :class:`ShownDeal`, oldest
    first), ``last_play`` (the hand before this one: its number, each
    seat's kept cards and cards played, as ``kept`` and ``played`` held
    them; ``None`` before the second deal).
    """

    rules: Rules
    number: int
    first_dealer: int | None = None
    stacked: Sequence[Sequence[Card]] | None = None
    shuffle: SeededShuffle | None = None
    phase: Phase = field(init=False, default=Phase.DISCARD)
    dealer: int = field(init=False, default=0)
    hand_number: int = field(init=False, default=0)
    hands: list[list[Card]] = field(init=False, default_factory=lambda: [[], []])
    kept: list[tuple[Card, ...]] = field(init=False, default_factory=lambda: [(), ()])
    crib: list[Card] = field(init=False, default_factory=list)
    starter: Card | None = field(init=False, default=None)
    played: list[list[PlayedCard]] = field(init=False, default_factory=lambda: [[], []])
    series: list[Card] = field(init=False, default_factory=list)
    series_number: int = field(init=False, default=0)
    count: int = field(init=False, default=0)
    turn: int = field(init=False, default=0)
    last_player: int | None = field(init=False, default=None)
    pegs: list[Peg] = field(init=False, default_factory=lambda: [Peg(), Peg()])
    show_turn: tuple[int, ShowTurn] | None = field(init=False, default=None)
    result: GameResult | None = field(init=False, default=None)
    last_play: tuple[int, list[tuple[Card, ...]], list[list[PlayedCard]]] | None = field(init=False, default=None)
    actions: list[Action] = field(init=False, default_factory=list)
    _started: bool = field(init=False, default=False)
    _discarded: list[bool] = field(init=False, default_factory=lambda: [False, False])
    _next_starter: Card | None = field(init=False, default=None)
    _hand_starts: list[tuple[tuple[int, int], tuple[int, int]]] = field(init=False, default_factory=list)
    shown: list[ShownDeal] = field(init=False, default_factory=list)
    _thrown: list[tuple[Card, ...]] = field(init=False, default_factory=lambda: [(), ()])
    replays: int = field(init=False, default=0)
    """How many times a hand of this game was played over (as in Cribbage Partner)."""
    dealt: dict[int, tuple[Card, ...]] = field(init=False, default_factory=dict)
    """The cards each shuffle gave, by shuffle (0 the cut for first deal:
    the cards cut, in pairs; *k* hand *k*: the 13 cards dealt, the pone's at
    even places, the dealer's at odd places, then the starter), for the
    record a verifiable shuffle is checked against."""

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or self.number < 1:
            raise ValueError(f"game number must be an integer >= 1, got {self.number!r}")
        if self.first_dealer not in (None, 0, 1):
            raise ValueError(f"first_dealer must be 0, 1 or None, got {self.first_dealer!r}")
        if self.shuffle is not None and self.shuffle.game != self.number:
            raise ValueError(f"the shuffle is game {self.shuffle.game}'s, not game {self.number}'s")

    # -- queries ---------------------------------------------------------------

    @property
    def pone(self) -> int:
        """The non-dealer's seat."""
        return other(self.dealer)

    @property
    def over(self) -> bool:
        """True once a player has reached the target."""
        return self.phase is Phase.OVER

    def scores(self) -> tuple[int, int]:
        """Both scores in points, seat 0 first."""
        return (self.pegs[0].front, self.pegs[1].front)

    def to_act(self) -> tuple[int, ...]:
        """The seats whose action the game waits for (both, during the
        discard; none when over)."""
        if self.phase is Phase.DISCARD:
            return tuple(s for s in (0, 1) if not self._discarded[s])
        if self.phase is Phase.PLAY:
            return (self.turn,)
        if self.phase is Phase.SHOW and self.show_turn is not None:
            return (self.show_turn[0],)
        return ()

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now without passing 31 (empty when it
        is not that seat's turn in the play)."""
        if self.phase is not Phase.PLAY or seat != self.turn:
            return []
        return [c for c in self.hands[seat] if self.count + c.pip <= 31]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now.  For a manual count these are
        the claims 0..29 points."""
        if seat not in self.to_act():
            return []
        if self.phase is Phase.DISCARD:
            actions: list[Action] = [Discard(seat, (a, b)) for a, b in combinations(self.hands[seat], 2)]
            if self.can_replay():
                actions.append(ReplayHand(seat))
            return actions
        if self.phase is Phase.PLAY:
            return [Play(seat, c) for c in self.playable(seat)]
        return [Claim(seat, p) for p in range(MAX_SHOW_POINTS + 1)]

    def can_replay(self) -> bool:
        """True when the hand just finished may be played over: a later hand
        is being laid away (as in Cribbage Partner)."""
        return self.phase is Phase.DISCARD and self.hand_number >= 2

    def show_cards(self, seat: int, what: ShowTurn) -> tuple[Card, ...]:
        """The four cards counted for ``what`` by ``seat`` in the show."""
        return tuple(self.crib) if what is ShowTurn.CRIB else self.kept[seat]

    def current_show(self) -> ShowScore | None:
        """The true breakdown of what is being counted now (``None`` outside
        the show)."""
        if self.show_turn is None or self.starter is None:
            return None
        seat, what = self.show_turn
        return score_show(self.show_cards(seat, what), self.starter, what is ShowTurn.CRIB)

    # -- driving ---------------------------------------------------------------

    def _shuffled(self, stream: int) -> list[Card]:
        """The deck of shuffle ``stream`` (0 the cut, *k* hand *k*)."""
        if self.shuffle is not None:
            return self.shuffle.deck(stream)
        return shuffled_deck(self.number, stream)

    def start(self) -> list[Event]:
        """Cut for first deal (or take the fixed dealer) and deal hand 1.
        Raises ``RuntimeError`` when called twice."""
        if self._started:
            raise RuntimeError("game already started")
        self._started = True
        events: list[Event] = []
        if self.first_dealer is not None:
            dealer = self.first_dealer
            events.append(CutForDeal((), dealer))
        elif self.rules.first_deal is FirstDeal.CUT:
            deck = self._shuffled(0)
            cuts: list[tuple[Card, Card]] = []
            for i in range(0, 52, 2):
                a, b = deck[i], deck[i + 1]
                cuts.append((a, b))
                if a.rank != b.rank:
                    break
            a, b = cuts[-1]
            self.dealt[0] = tuple(deck[:2 * len(cuts)])
            dealer = 0 if a.rank < b.rank else 1
            events.append(CutForDeal(tuple(cuts), dealer))
        else:
            dealer = 0 if self.rules.first_deal is FirstDeal.CALLER else 1
            events.append(CutForDeal((), dealer))
        self.dealer = other(dealer)  # _deal swaps
        events.extend(self._deal())
        return events

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return the events it caused, in order.

        Raises :class:`IllegalAction` (the state unchanged) when the action is
        not legal now: wrong phase or seat, a card not held, a card that would
        pass 31, a claim outside 0..29.
        """
        if not self._started:
            raise IllegalAction(f"{action!r}: the game has not started")
        seat = getattr(action, "seat", None)
        if isinstance(action, ReplayHand | HandOver) and seat in (0, 1):
            events = self._replay_hand(action) if isinstance(action, ReplayHand) else handing_over(self, action)
            self.actions.append(action)
            return events
        if seat not in self.to_act():
            raise IllegalAction(f"{action!r}: not seat {seat!r}'s move in phase {self.phase.value}"
                                f" (waiting for {self.to_act()!r})")
        expected = {Phase.DISCARD: Discard, Phase.PLAY: Play, Phase.SHOW: Claim}.get(self.phase)
        if expected is None or not isinstance(action, expected):
            raise IllegalAction(f"{action!r}: not seat {seat!r}'s move in phase {self.phase.value}"
                                f" (a {expected.__name__ if expected else 'nothing'} is expected)")
        if isinstance(action, Discard):
            events = self._discard(action)
        elif isinstance(action, Play):
            events = self._play(action)
        elif isinstance(action, Claim):
            events = self._claim(action)
        else:
            raise IllegalAction(f"not an action: {action!r}")
        self.actions.append(action)
        return events

    # -- internals ---------------------------------------------------------------

    def _peg(self, seat: int, points: int, events: list[Event]) -> bool:
        """Peg ``points`` for ``seat``; returns True when that ends the game."""
        if points <= 0 or self.phase is Phase.OVER:
            return self.phase is Phase.OVER
        peg = self.pegs[seat]
        peg.back = peg.front
        peg.front = min(peg.front + points, self.rules.game_to)
        if peg.front >= self.rules.game_to:
            self._finish(seat, events)
            return True
        return False

    def _finish(self, winner: int, events: list[Event]) -> None:
        loser = self.pegs[other(winner)].front
        if loser < self.rules.double_skunk:
            skunk, value = Skunk.DOUBLE, self.rules.double_skunk_value
        elif loser < self.rules.skunk:
            skunk, value = Skunk.SKUNK, self.rules.skunk_value
        else:
            skunk, value = Skunk.NONE, self.rules.win_value
        self.phase = Phase.OVER
        self.show_turn = None
        self.result = GameResult(winner, self.scores(), skunk, value)
        events.append(GameOver(self.result))

    def _replay_hand(self, action: ReplayHand) -> list[Event]:
        if not self.can_replay():
            raise IllegalAction(f"{action!r}: a hand can be replayed only while the next one is laid away")
        number = self.hand_number - 1
        fronts, backs = self._hand_starts[number - 1]
        del self._hand_starts[number - 1:]
        self.shown = [d for d in self.shown if d.hand_number < number]
        for seat in (0, 1):
            self.pegs[seat].front, self.pegs[seat].back = fronts[seat], backs[seat]
        self.replays += 1
        events: list[Event] = [HandReplayed(action.seat, number, fronts)]
        # The next hand's dealer holds the deal now; _deal passes it back, so
        # hand n's dealer deals hand n again, from the same shuffle.
        self.hand_number = number - 1
        events.extend(self._deal())
        return events

    def _deal(self) -> list[Event]:
        if self.hand_number:
            self.last_play = (self.hand_number, self.kept, self.played)  # (replaced below, not changed)
        self.dealer = other(self.dealer)
        self.hand_number += 1
        self._hand_starts.append(((self.pegs[0].front, self.pegs[1].front), (self.pegs[0].back, self.pegs[1].back)))
        if self.stacked is not None and self.hand_number <= len(self.stacked):
            deck = list(self.stacked[self.hand_number - 1])
        else:
            deck = self._shuffled(self.hand_number)
        self.dealt[self.hand_number] = tuple(deck[:13])
        pone = self.pone
        hands: list[list[Card]] = [[], []]
        for i in range(12):
            hands[pone if i % 2 == 0 else self.dealer].append(deck[i])
        self.hands = hands  # in the order dealt; screens sort them when the player likes
        self._next_starter = deck[12]
        self.kept = [(), ()]
        self.crib = []
        self.starter = None
        self.played = [[], []]
        self.series = []
        self.series_number = 0
        self.count = 0
        self.last_player = None
        self.show_turn = None
        self._discarded = [False, False]
        self.phase = Phase.DISCARD
        return [HandDealt(self.hand_number, self.dealer, (tuple(self.hands[0]), tuple(self.hands[1])))]

    def _discard(self, action: Discard) -> list[Event]:
        seat, cards = action.seat, tuple(action.cards)
        hand = self.hands[seat]
        if len(cards) != 2 or cards[0] == cards[1] or any(c not in hand for c in cards):
            raise IllegalAction(f"{action!r}: discard two different cards from the hand "
                                f"{[str(c) for c in hand]}")
        for c in cards:
            hand.remove(c)
        self.crib.extend(cards)
        self.kept[seat] = tuple(hand)
        self._thrown[seat] = cards
        self._discarded[seat] = True
        events: list[Event] = [Discarded(seat, (cards[0], cards[1]))]
        if all(self._discarded):
            self.crib.sort()
            starter = self._next_starter
            assert starter is not None  # set by _deal
            self.starter = starter
            heels = 2 if starter.rank == 11 else 0
            events.append(StarterTurned(starter, self.dealer, heels))
            if self._peg(self.dealer, heels, events):
                return events
            self.phase = Phase.PLAY
            self.turn = self.pone
            self._advance_play(events)
        return events

    def _play(self, action: Play) -> list[Event]:
        seat, card = action.seat, action.card
        if card not in self.hands[seat]:
            raise IllegalAction(f"{action!r}: {card} is not in hand {[str(c) for c in self.hands[seat]]}")
        if self.count + card.pip > 31:
            raise IllegalAction(f"{action!r}: {card} would take the count from {self.count} past 31")
        self.hands[seat].remove(card)
        self.series.append(card)
        self.count += card.pip
        order = sum(1 for p in self.played[0] + self.played[1] if p.series == self.series_number) + 1
        self.played[seat].append(PlayedCard(card, order, self.series_number))
        self.last_player = seat
        scores = score_play(self.series, self.rules.run_mode)
        events: list[Event] = [CardPlayed(seat, card, self.count, scores)]
        if self._peg(seat, sum(s.points for s in scores), events):
            return events
        self.turn = other(seat)
        self._advance_play(events)
        return events

    def _can_play(self, seat: int) -> bool:
        return any(self.count + c.pip <= 31 for c in self.hands[seat])

    def _reset_series(self, events: list[Event]) -> None:
        assert self.last_player is not None
        self.series = []
        self.series_number += 1
        self.count = 0
        self.turn = other(self.last_player)
        events.append(SeriesReset(self.turn))

    def _advance_play(self, events: list[Event]) -> None:
        """Move the play on until a player must choose a card, declaring go,
        pegging go / last card and resetting series as needed."""
        said_go = False
        while True:
            if not self.hands[0] and not self.hands[1]:
                if self.count != 31 and self.last_player is not None:
                    events.append(PlayPoint(self.last_player, PlayScore(PlayKind.LAST_CARD, 1)))
                    if self._peg(self.last_player, 1, events):
                        return
                self._begin_show(events)
                return
            if self.count == 31:
                self._reset_series(events)
                said_go = False
                continue
            if self._can_play(self.turn):
                return
            opponent = other(self.turn)
            if self.hands[self.turn] and not said_go:
                events.append(GoDeclared(self.turn, self.count))
                said_go = True
            if self._can_play(opponent):
                self.turn = opponent
                return
            # Neither can play: the last to play pegs the go.
            assert self.last_player is not None
            events.append(PlayPoint(self.last_player, PlayScore(PlayKind.GO, 1)))
            if self._peg(self.last_player, 1, events):
                return
            self._reset_series(events)
            said_go = False

    def _begin_show(self, events: list[Event]) -> None:
        self.phase = Phase.SHOW
        self.shown.append(ShownDeal(self.hand_number, self.dealer, (self.kept[0], self.kept[1]),
                                    (self._thrown[0], self._thrown[1])))
        self.show_turn = (self.pone, ShowTurn.HAND)
        self._auto_count(events)

    def _next_show_turn(self, events: list[Event]) -> None:
        assert self.show_turn is not None
        seat, what = self.show_turn
        if seat == self.pone:
            self.show_turn = (self.dealer, ShowTurn.HAND)
        elif what is ShowTurn.HAND:
            self.show_turn = (self.dealer, ShowTurn.CRIB)
        else:
            events.extend(self._deal())
            return
        self._auto_count(events)

    def _auto_count(self, events: list[Event]) -> None:
        if self.rules.counting is Counting.AUTOMATIC and self.phase is Phase.SHOW:
            self._count(None, events)

    def _claim(self, action: Claim) -> list[Event]:
        if self.rules.counting is not Counting.MANUAL:
            raise IllegalAction(f"{action!r}: counting is automatic")
        if not isinstance(action.points, int) or not 0 <= action.points <= MAX_SHOW_POINTS:
            raise IllegalAction(f"{action!r}: a hand scores 0 to {MAX_SHOW_POINTS} points")
        events: list[Event] = []
        self._count(action.points, events)
        return events

    def _count(self, claim: int | None, events: list[Event]) -> None:
        assert self.show_turn is not None
        seat, what = self.show_turn
        show = self.current_show()
        assert show is not None
        actual = show.total
        outcome = adjudicate(actual, actual if claim is None else claim, self.rules)
        events.append(HandCounted(seat, what, show, claim, outcome))
        if self._peg(seat, outcome.claimer, events):
            return
        if self._peg(other(seat), outcome.opponent, events):
            return
        self._next_show_turn(events)


def replay(rules: Rules, number: int, actions: Iterable[Action],
           first_dealer: int | None = None, shuffle: SeededShuffle | None = None) -> tuple[Game, list[Event]]:
    """Rebuild a game from its rules, number, first dealer and actions, and
    return it with every event it produced, in order (what a screen needs
    to show the game as it stood).  The one way a game is rebuilt: resuming
    a saved game, checking a log, the tests.  Raises :class:`IllegalAction`
    when an action does not fit the game."""
    game = Game(rules, number, first_dealer, shuffle=shuffle)
    events = game.start()
    for action in actions:
        events.extend(game.apply(action))
    return game, events
