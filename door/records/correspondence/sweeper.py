"""The sweeper of correspondence games: on one node at a time, it ends the
games whose time ran out and lapses the offers nobody answered.

Each step first takes (or renews) the store's lease :data:`LEASE`
(:mod:`door.records.leases`); a node that does not hold it does nothing,
and a node that dies holding it delays the sweep by the lease's length at
most (:data:`LEASE_SECONDS`): another node takes it then.  Nothing is lost
while no node sweeps: a deadline that passed is judged at the next sweep,
as it stood.

For each game the game service names (a :class:`Candidate`, from its query
over the saved games), :func:`verdict` decides, purely:

- the deadline passed (the kept one, or later when the mover's vacations
  since the last move push it: a vacation that began before it ran out
  stops it, one that began after it does not save the game): the player
  to move loses on time (``"time"``), or, when nobody has moved in the
  game yet, it is dropped (``"dropped"``: a game that never started has no
  result);
- no move by either player for ``abandon_days`` days: the game is aborted
  (``"abandoned"``, nobody loses).

The game service ends the games judged in a step, all at once
(:class:`EndAll`: a few transactions for many games, :mod:`.endings`), or
one at a time (``end_game``); a loss on time is counted in the loser's
record (:mod:`.results`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field

from door.records.clock import Clock
from door.records.correspondence.deadlines import DAY, Interval, deadline
from door.records.correspondence.forfeit_hands import record_hands
from door.records.database import StoreError
from door.records.store import Store

__all__ = ["Candidate", "SweepRules", "Verdict", "Swept", "Judged", "EndAll", "verdict", "due", "judge", "one_by_one",
           "sweep", "run_sweeper", "LEASE", "LEASE_SECONDS", "EVERY"]

log = logging.getLogger(__name__)

LEASE = "correspondence-sweeper"
"""The lease's name."""

LEASE_SECONDS = 300.0
"""How long the lease is taken for at each step (seconds): the longest a dead node delays the sweep."""

EVERY = 60.0
"""Seconds between the steps of :func:`run_sweeper` (well inside the lease's length)."""


@dataclass(frozen=True)
class Candidate:
    """A correspondence game under way, as the game service's query gives
    it: ``saved_id`` (its saved game); ``to_move``, the seat the game waits
    on (``None``: nobody, as between deals); its kept ``deadline`` (seconds
    since the epoch; ``None``: none); ``last_move``, when either player
    last moved (or when it began); ``accounts``, the players' account ids
    by seat; ``days`` per move; ``started``: whether anybody has moved yet;
    ``moves``: how many actions its log held when read (``None``: not known)."""

    saved_id: int
    to_move: int | None
    deadline: float | None
    last_move: float
    accounts: tuple[int | None, ...]
    days: int
    started: bool = True
    moves: int | None = None


@dataclass(frozen=True)
class SweepRules:
    """The sweeper's settings (``[correspondence]``): whether ``weekends``
    count towards a deadline, and the ``abandon_days`` with no move before
    a game is aborted."""

    weekends: bool = True
    abandon_days: float = 60.0


@dataclass(frozen=True)
class Verdict:
    """What to do with a game: end it, with ``loser`` the seat that lost
    (``None``: nobody) and ``how``: ``"time"``, ``"dropped"`` or ``"abandoned"``."""

    loser: int | None
    how: str


def due(game: Candidate, rules: SweepRules, away: Sequence[Interval] = ()) -> float | None:
    """When the player to move in ``game`` runs out of time: its kept
    deadline, or later when their vacations ``away`` since the last move
    push it (``None``: no deadline)."""
    if game.deadline is None or game.to_move is None:
        return None
    if not away:
        return game.deadline
    return max(game.deadline, deadline(game.last_move, game.days, rules.weekends, away))


def verdict(game: Candidate, now: float, rules: SweepRules, away: Sequence[Interval] = ()) -> Verdict | None:
    """What the sweeper does with ``game`` at ``now``, the player to move
    being away during ``away`` (their vacations, ``(start, end)``): a
    :class:`Verdict`, or ``None`` to leave it (see the module's text).

    >>> rules = SweepRules(abandon_days=60)
    >>> verdict(Candidate(1, 0, 100.0, 0.0, (7, 8), 1), 99.0, rules) is None
    True
    >>> verdict(Candidate(1, 0, 100.0, 0.0, (7, 8), 1), 100.0, rules)
    Verdict(loser=0, how='time')
    >>> verdict(Candidate(1, 1, 100.0, 0.0, (7, 8), 1), 150.0, rules, [(50.0, 200.0)]) is None  # away
    True
    """
    idle = now - game.last_move >= rules.abandon_days * DAY
    end = due(game, rules, away)
    if end is not None and now >= end:
        return Verdict(game.to_move, "time") if game.started else Verdict(None, "dropped")
    return Verdict(None, "abandoned" if game.started else "dropped") if idle else None


@dataclass
class Swept:
    """What one step did: ``ended``, each game ended as ``(saved_id,
    verdict)``; ``lapsed``, offers lapsed."""

    ended: list[tuple[int, Verdict]] = field(default_factory=list)
    lapsed: int = 0


EndGame = Callable[[int, int | None, str], Awaitable[bool]]
"""The game service's ``end_game(saved_id, loser_seat, how)``, one game at
a time: True when it ended the game, False when the game had moved on (a
move made meanwhile, on another node) or was gone.  :func:`sweep` counts
a loss on time in the loser's record after it."""


@dataclass(frozen=True)
class Judged:
    """A game the sweeper judged: its ``saved_id``, the :class:`Verdict`,
    the account of the player it waited on (``mover``; ``None``: nobody),
    and how many ``moves`` its log held when judged (``None``: not known;
    a game whose log has grown since is not ended)."""

    saved_id: int
    verdict: Verdict
    mover: int | None
    moves: int | None = None


@dataclass(frozen=True)
class EndAll:
    """The game service's end of every game judged in a step at once:
    ``end(judged)`` ends each (a loss on time counted in the loser's record
    in the same write) and returns the ids of those it ended (a game moved
    on meanwhile, or gone, is not)."""

    end: Callable[[Sequence[Judged]], Awaitable[Collection[int]]]


Candidates = Callable[[float], Awaitable[Sequence[Candidate]]]
"""The game service's query: the correspondence games under way at ``now``
whose deadline has passed or whose last move is older than the abandon
days (it may give others too: :func:`verdict` leaves them)."""


def _mover(game: Candidate) -> int | None:
    """The account of the player ``game`` waits on, if any."""
    if game.to_move is None or not 0 <= game.to_move < len(game.accounts):
        return None
    return game.accounts[game.to_move]


async def judge(store: Store, now: float, candidates: Candidates, rules: SweepRules = SweepRules()) -> list[Judged]:
    """The games of ``candidates`` at ``now`` that the sweeper ends, each
    with its :class:`Verdict` (the movers' vacations read in one query)."""
    games = [(game, _mover(game)) for game in await candidates(now)]
    movers = {m for _, m in games if m is not None}
    earliest = min((g.last_move for g, m in games if m is not None), default=now)
    vacations = await store.correspondence.vacations.intervals_of(movers, earliest, now + DAY)
    judged = []
    for n, (game, mover) in enumerate(games):
        if n % 500 == 499:
            await asyncio.sleep(0)  # (thousands of verdicts at once would hold the event loop)
        away = [] if mover is None else [v for v in vacations.get(mover, ()) if v[1] > game.last_move]
        found = verdict(game, now, rules, away)
        if found is not None:
            judged.append(Judged(game.saved_id, found, mover, game.moves))
    return judged


def one_by_one(store: Store, end_game: EndGame) -> EndAll:
    """``end_game`` made an :class:`EndAll`: each game ended in turn, and
    a loss on time counted after it."""
    async def end(judged: Sequence[Judged]) -> list[int]:
        ended = []
        for j in judged:
            if not await end_game(j.saved_id, j.verdict.loser, j.verdict.how):
                continue
            ended.append(j.saved_id)
            if j.verdict.how == "time" and j.mover is not None:
                await store.correspondence.results.count_loss_on_time(j.mover)
        return ended
    return EndAll(end)


async def sweep(store: Store, holder: str, now: float, end_game: EndGame | EndAll, candidates: Candidates,
                rules: SweepRules = SweepRules()) -> Swept | None:
    """One step of the sweeper as ``holder`` (this node's name) at
    ``now``: ``None`` when another holder has the lease (nothing done);
    else the games ended (by ``end_game``: all at once when it is an
    :class:`EndAll`, else one by one) and the offers lapsed.  A loss on
    time is counted in the loser's record.  Raises
    :class:`~door.records.database.StoreError` when the store cannot answer."""
    if not await store.leases.take(LEASE, holder, LEASE_SECONDS):
        return None
    swept = Swept(lapsed=await store.correspondence.offers.lapse())
    judged = await judge(store, now, candidates, rules)
    ender = end_game if isinstance(end_game, EndAll) else one_by_one(store, end_game)
    ended = set(await ender.end(judged))
    for n, j in enumerate(j for j in judged if j.saved_id in ended):
        swept.ended.append((j.saved_id, j.verdict))
        log.info("correspondence game %d ended: %s (seat %s)", j.saved_id, j.verdict.how, j.verdict.loser)
        if n % 100 == 99:
            await asyncio.sleep(0)  # (a thousand lines logged at once would hold the event loop)
    return swept


async def run_sweeper(store: Store, holder: str, end_game: EndGame | EndAll, candidates: Candidates,
                      rules: SweepRules = SweepRules(), every: float = EVERY, clock: Clock | None = None) -> None:
    """Sweep every ``every`` seconds for ever (cancel the task to stop):
    the loop each serve node runs; only the lease's holder acts, and after
    each of its steps records the hands of the games lost on time
    (:func:`~door.records.correspondence.forfeit_hands.record_hands`).  A store
    that cannot answer is logged and tried again at the next step."""
    read = clock or store.clock
    while True:
        try:
            if await sweep(store, holder, read(), end_game, candidates, rules) is not None:
                await record_hands(store)
        except StoreError as exc:
            log.warning("correspondence sweeper: %s; trying again in %g s", exc, every)
        except Exception:  # (a game it could not end is logged; the loop, and every other game, go on)
            log.exception("correspondence sweeper: a step failed; trying again in %g s", every)
        await asyncio.sleep(every)
