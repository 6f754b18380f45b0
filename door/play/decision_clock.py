"""The clock on each decision of a game between people.

Time is part of the rules of play between people: each decision a player
owes (laying away two cards, a card in the play, a claim at a manual
count, dealing the hand from chat mode) has its own clock of
``ClockTerms.seconds``; the player is warned ``ClockTerms.warning`` seconds
before it runs out, and whose clock runs out loses the match (Cribbage
Pro's turn limit and the ACC's rule that a player must play when able,
kept as a clock a person can live with).  A move the table refuses does
not stop or reset the clock: only a move it takes ends the decision.
While a player's line is down the grace period rules instead, and every
clock stands still (nobody loses time to the other's absence).

The clocks are pure bookkeeping over times given in seconds (the table's
clock): :class:`DecisionClocks` says which clocks to start, when the table
must wake next, and whom to warn or time out; the table acts on it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from engine.game import Game

__all__ = ["ClockTerms", "DecisionClocks", "clock_words", "clock_notice", "owed_decisions", "shown_clock"]


@dataclass(frozen=True)
class ClockTerms:
    """``seconds`` for each decision (> 0), and the ``warning``: seconds
    before the end at which the player is told (0: no warning).  Raises
    ``ValueError`` for a clock of no time."""

    seconds: float
    warning: float = 20.0

    def __post_init__(self) -> None:
        if self.seconds <= 0:
            raise ValueError(f"a decision clock needs some time, got {self.seconds!r} seconds")


def clock_words(seconds: float) -> str:
    """Seconds left as a clock shows them, ``m:ss`` (rounded up: a clock
    never shows 0:00 while time is left).

    >>> clock_words(90), clock_words(4.2), clock_words(0)
    ('1:30', '0:05', '0:00')
    """
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_notice(terms: ClockTerms, match: bool) -> str:
    """What both players are told when a table with clocks begins (a
    ``match``, or a game).

    >>> clock_notice(ClockTerms(90, 20), True)
    'Each move has a clock of 90 seconds (you are warned 20 seconds before it runs out): whoever runs out of time loses the match.'
    """
    warned = f" (you are warned {terms.warning:g} seconds before it runs out)" if 0 < terms.warning < terms.seconds \
        else ""
    return (f"Each move has a clock of {terms.seconds:g} seconds{warned}: whoever runs out of time loses the "
            f"{'match' if match else 'game'}.")


def owed_decisions(game: Game, dealt: bool) -> dict[int, Hashable]:
    """The seats that owe a decision in ``game`` now, each with a token
    that changes when it has made it and owes the next: before the deal
    (``dealt`` false: chat mode) the dealer owes the deal; then whoever the
    game waits for (both at the discard).  A game over owes nothing."""
    if game.over:
        return {}
    if not dealt:
        return {game.dealer: ("deal", game.number, game.hand_number)}
    return {seat: (game.number, game.hand_number, game.phase.name, sum(1 for a in game.actions if a.seat == seat))
            for seat in game.to_act()}


class DecisionClocks:
    """The clocks of one table's decisions, by seat (0, 1), under ``terms``.

    :meth:`follow` is told, after every change of the game, which seats owe
    a decision and what decision it is (any hashable token that changes
    when one decision is made and the next is owed: the table uses the
    hand, the phase and the moves the seat has made); :meth:`due` says whom
    to warn and whose time is out; :meth:`pause` and :meth:`resume` stop
    and restart every clock (a player's line down)."""

    def __init__(self, terms: ClockTerms) -> None:
        self.terms = terms
        self._deadline: dict[int, float] = {}
        self._decision: dict[int, Hashable] = {}
        self._warned: set[int] = set()
        self._paused_at: float | None = None

    @property
    def paused(self) -> bool:
        """True while the clocks stand still."""
        return self._paused_at is not None

    def follow(self, owed: Mapping[int, Hashable], now: float) -> list[int]:
        """``owed``: each seat that owes a decision now, with its token.
        A seat with a new decision gets a new clock; a seat that owes none
        has none.  Returns the seats whose clock just started."""
        started = []
        for seat in (0, 1):
            decision = owed.get(seat)
            if decision is None:
                self._drop(seat)
            elif self._decision.get(seat) != decision or seat not in self._decision:
                self._decision[seat] = decision
                self._deadline[seat] = (self._paused_at if self._paused_at is not None else now) + self.terms.seconds
                self._warned.discard(seat)
                started.append(seat)
        return started

    def _drop(self, seat: int) -> None:
        self._deadline.pop(seat, None)
        self._decision.pop(seat, None)
        self._warned.discard(seat)

    def left(self, seat: int, now: float) -> float | None:
        """Seconds left on ``seat``'s clock (``None``: it owes nothing)."""
        deadline = self._deadline.get(seat)
        if deadline is None:
            return None
        return max(0.0, deadline - (self._paused_at if self._paused_at is not None else now))

    def running(self) -> dict[int, float]:
        """The deadline of each clock that runs, by seat (empty while paused)."""
        return {} if self._paused_at is not None else dict(self._deadline)

    def next_wake(self, now: float) -> float | None:
        """Seconds from ``now`` until the next warning or time-out, or
        ``None`` when no clock runs."""
        if self._paused_at is not None or not self._deadline:
            return None
        times = []
        for seat, deadline in self._deadline.items():
            times.append(deadline)
            if self.terms.warning > 0 and seat not in self._warned and self.terms.warning < self.terms.seconds:
                times.append(deadline - self.terms.warning)
        return max(0.0, min(times) - now)

    def due(self, now: float) -> tuple[list[int], list[int]]:
        """(Seats to warn now, seats whose time is out), each told once.
        Nothing is due while paused."""
        if self._paused_at is not None:
            return [], []
        warn, out = [], []
        for seat, deadline in sorted(self._deadline.items()):
            if now >= deadline:
                out.append(seat)
            elif (self.terms.warning > 0 and seat not in self._warned and self.terms.warning < self.terms.seconds
                  and now >= deadline - self.terms.warning):
                self._warned.add(seat)
                warn.append(seat)
        return warn, out

    def pause(self, now: float) -> None:
        """Stop every clock at ``now`` (their time left is kept)."""
        if self._paused_at is None:
            self._paused_at = now

    def resume(self, now: float) -> None:
        """Start every clock again at ``now`` with the time it had left."""
        if self._paused_at is None:
            return
        stood = now - self._paused_at
        self._paused_at = None
        for seat in self._deadline:
            self._deadline[seat] += stood


def shown_clock(clocks: DecisionClocks | None, now: float, me: int, names: Sequence[str]) -> str:
    """The decision clock that runs, as seat ``me``'s screen shows it
    ("Your clock 1:25", "Bob's clock 0:40"; this player's own first when
    both owe a decision), or empty when none runs."""
    if clocks is None:
        return ""
    for seat in (me, 1 - me):
        left = clocks.left(seat, now)
        if left is not None:
            return f"{'Your' if seat == me else names[seat] + chr(39) + 's'} clock {clock_words(left)}"
    return ""
