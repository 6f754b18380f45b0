"""The hands of the games the sweeper recorded as lost on time, recorded
after the pass that ended them.

A pass ends every game due at once from where each stands (its scores and
the seat it waits on, kept with its last move), without replaying its
log; each such record is listed in ``game_hands_due`` (on PostgreSQL with
its moves, one a line, written to ``game_actions`` here: a row each,
checked against ``games``, is slow on PostgreSQL).  Then, still under
the sweeper's lease, :func:`record_hands` replays each listed game from
its recorded moves (in a thread: the event loop goes on) and keeps its
hands' figures and its deals, as a game recorded at its table has them:
a batch of games a transaction.  A node that stops meanwhile leaves the
list for the next pass, on whichever node holds the lease then."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence

from door.records.connection import Connection
from door.records.games import RecordedMoves, write_hands
from door.records.store import Store
from engine.cards import Card
from engine.game import replay
from engine.notation import NotationError
from engine.tally import GameTally, HandRecord

__all__ = ["BATCH", "hands_due", "record_hands"]

log = logging.getLogger(__name__)

BATCH = 20
"""Games whose hands are recorded in one transaction at most (a few, so
that the store's one thread answers the callers' moves between them: on
PostgreSQL a hundred games' moves written at once held it for half a
second on the bench)."""

Figures = tuple[int, Sequence[HandRecord], Mapping[int, Sequence[Card]]]
"""A recorded game's id, its hands' figures and the cards each shuffle dealt."""


def figures(moves: RecordedMoves) -> Figures:
    """The hands and deals of the recorded game ``moves``, replayed (pure)."""
    game, events = replay(moves.rules, moves.number, moves.actions, moves.first_dealer, moves.shuffle)
    tally = GameTally()
    tally.feed(events)
    return moves.game_id, tally.hands, game.dealt


def _figures_of(games: Sequence[RecordedMoves]) -> list[Figures]:
    """:func:`figures` of each of ``games`` whose moves replay (one that
    does not is logged, and keeps no hands)."""
    found = []
    for moves in games:
        try:
            found.append(figures(moves))
        except ValueError as exc:  # (IllegalAction, NotationError: a log that does not replay)
            log.warning("recorded game %d does not replay, its hands are not kept: %s", moves.game_id, exc)
    return found


async def hands_due(store: Store) -> int:
    """How many recorded games wait for their hands."""
    row = await store.database.query(lambda db: db.execute("SELECT COUNT(*) FROM game_hands_due").fetchone())
    return int(row[0])


def _keep(ids: Sequence[int], found: Sequence[Figures]) -> Callable[[Connection], int]:
    """The transaction that keeps the hands ``found`` of the games ``ids``
    still listed, and takes them all off the list: how many got theirs."""
    def tx(db: Connection) -> int:
        kept = 0
        by_id = {f[0]: f for f in found}
        for game_id in ids:
            if db.execute("DELETE FROM game_hands_due WHERE game_id = ?", (game_id,)).rowcount != 1:
                continue  # (done meanwhile)
            if game_id in by_id:
                _, hands, dealt = by_id[game_id]
                write_hands(db, game_id, hands, dealt)
                kept += 1
        return kept
    return tx


def _moves_in(ids: Sequence[int]) -> Callable[[Connection], None]:
    """The transaction that writes to ``game_actions`` the moves of the
    games ``ids`` that their entries in ``game_hands_due`` still hold (one
    line each: the pass keeps them so on PostgreSQL), and empties them."""
    def tx(db: Connection) -> None:
        marks = ", ".join("?" * len(ids))
        rows = db.execute(f"SELECT game_id, actions FROM game_hands_due WHERE game_id IN ({marks}) AND actions <> ''",
                          list(ids)).fetchall()
        db.executemany("INSERT INTO game_actions (game_id, seq, action) VALUES (?, ?, ?)",
                       [(int(g), seq, text) for g, actions in rows for seq, text in enumerate(actions.split("\n"))])
        db.executemany("UPDATE game_hands_due SET actions = '' WHERE game_id = ?", [(int(g),) for g, _ in rows])
    return tx


async def record_hands(store: Store, batch: int = BATCH) -> int:
    """Record the hands and deals of every game listed in
    ``game_hands_due``, ``batch`` games a transaction, the replays in a
    thread; how many games got theirs.  A game whose moves do not read is
    logged and taken off the list (its record keeps no hands).  Raises
    :class:`~door.records.database.StoreError` when the store cannot
    answer (the batches before it stay written)."""
    kept = 0
    size = max(1, batch)
    while True:
        ids = await store.database.query(lambda db: [int(r[0]) for r in db.execute(
            "SELECT game_id FROM game_hands_due ORDER BY game_id LIMIT ?", (size,))])
        if not ids:
            return kept
        await store.database.tx(_moves_in(ids))
        games = []
        for game_id in ids:
            try:
                moves = await store.games.moves(game_id)
            except NotationError as exc:
                log.warning("recorded game %d does not read, its hands are not kept: %s", game_id, exc)
                continue
            if moves is not None:
                games.append(moves)
        found = await asyncio.to_thread(_figures_of, games)
        kept += await store.database.tx(_keep(ids, found))
