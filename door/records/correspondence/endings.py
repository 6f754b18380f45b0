"""Ending many correspondence games at once, as the sweeper judged them:
one transaction a batch of games (:data:`BATCH`), so that a pass that ends
a thousand games writes a few times, not a thousand, and the store's one
thread is free between batches for the moves of the callers on line.

Each game is ended only as it stood when it was judged: a game gone
meanwhile, or whose log has grown (a move made at another node after the
sweeper read it), is left as it is."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from door.records.connection import Connection
from door.records.games import GAME_COLUMNS, GAME_VALUES, GameRecord, game_row, write_record
from door.records.ranked.ratings import MatchRecord, keep_matches
from door.records.store import Store

__all__ = ["BATCH", "Ending", "end_all"]

BATCH = 100
"""Games ended in one transaction at most."""


@dataclass(frozen=True)
class Ending:
    """One game to end: the saved game ``saved_id`` as it was read with
    ``moves`` actions in its log; ``record``, the game to keep in its place
    (a loss on time kept as a forfeit), or ``None`` to drop it with no
    record (a game never begun, or long idle); ``lost_on_time``, the
    account whose count of games lost on time goes up by one (``None``:
    nobody's); ``hands_later``: the record's hands (and deals) are not in
    it yet, to be recorded after the pass (:mod:`.forfeit_hands`);
    ``match``: the match the loss on time forfeits (kept, and a rated
    one's ratings moved, in the same transaction)."""

    saved_id: int
    moves: int
    record: GameRecord | None = None
    lost_on_time: int | None = None
    hands_later: bool = False
    match: MatchRecord | None = None


_RECORD_PG = (
    f"WITH s AS (SELECT id FROM saved_games WHERE id = ?), "
    f"g AS (INSERT INTO games ({GAME_COLUMNS}) SELECT {GAME_VALUES} FROM s RETURNING id), "
    "h AS (INSERT INTO game_hands_due (game_id, actions) SELECT g.id, (SELECT string_agg(action, chr(10) ORDER BY "
    "seq) FROM saved_actions WHERE saved_id = ?) FROM g) "
    "DELETE FROM saved_games WHERE id IN (SELECT id FROM s)")
"""PostgreSQL: a record kept in place of its saved game (its hands listed
as due, with its moves in one line each, the saved game dropped) in one
statement, so that a batch of them goes in one pipeline
(``executemany``) rather than a round trip each statement each game.  Its
moves go to ``game_actions`` with its hands (:mod:`.forfeit_hands`): a row
each, each checked against ``games``, they were most of the pass's time."""


def _fresh(db: Connection, chunk: Sequence[Ending]) -> list[Ending]:
    """The endings of ``chunk`` whose saved game is there with the log it
    was judged with (locked for the transaction on PostgreSQL: a move made
    meanwhile waits for it)."""
    marks = ", ".join("?" * len(chunk))
    lock = "" if isinstance(db, sqlite3.Connection) else " FOR UPDATE OF g"
    moves = {int(i): int(n) for i, n in db.execute(
        f"SELECT g.id, (SELECT COUNT(*) FROM saved_actions a WHERE a.saved_id = g.id) FROM saved_games g "
        f"WHERE g.id IN ({marks}){lock}", [e.saved_id for e in chunk]).fetchall()}
    return [e for e in chunk if moves.get(e.saved_id) == e.moves]


def _end(db: Connection, chunk: Sequence[Ending], now: float) -> list[Ending]:
    """End the games of ``chunk`` that are as they were judged, in the
    transaction of ``db``: those it ended (see :func:`end_all`)."""
    fresh = _fresh(db, chunk)
    recorded = [e for e in fresh if e.record is not None]
    piped = [] if isinstance(db, sqlite3.Connection) else [e for e in recorded if e.hands_later]
    if piped:
        db.executemany(_RECORD_PG, [(e.saved_id, *game_row(e.record, now), e.saved_id) for e in piped
                                    if e.record is not None])
    in_pipe = {e.saved_id for e in piped}
    for e in recorded:
        if e.saved_id not in in_pipe and e.record is not None:
            game_id = write_record(db, e.saved_id, e.record, now)
            if e.hands_later:
                db.execute("INSERT INTO game_hands_due (game_id) VALUES (?)", (game_id,))
    db.executemany("DELETE FROM saved_games WHERE id = ?", [(e.saved_id,) for e in fresh if e.record is None])
    keep_matches(db, [e.match for e in fresh if e.match is not None], now)
    db.executemany("INSERT INTO correspondence_results (account_id, lost_on_time) VALUES (?, 1) "
                   "ON CONFLICT (account_id) DO UPDATE SET lost_on_time = correspondence_results.lost_on_time + 1",
                   [(e.lost_on_time,) for e in fresh if e.lost_on_time is not None])
    return fresh


def _batch(chunk: Sequence[Ending], now: float) -> Callable[[Connection], list[Ending]]:
    """The transaction that ends the games of ``chunk``: those it ended."""
    return lambda db: _end(db, chunk, now)


async def end_all(store: Store, endings: Sequence[Ending], batch: int = BATCH) -> list[int]:
    """End each of ``endings`` (records kept, logs dropped, losses on time
    counted), ``batch`` games a transaction (at least 1): the ids of the
    saved games ended, in order.  A game that is gone, or whose log no
    longer has the ``moves`` it was judged with, is left.  Raises
    :class:`~door.records.database.StoreError` when the store cannot
    answer (the batches before it stay written)."""
    ended: list[int] = []
    size = max(1, batch)
    for start in range(0, len(endings), size):
        done = await store.database.tx(_batch(endings[start:start + size], store.clock()))
        store.games.finished(sum(1 for e in done if e.record is not None))
        ended.extend(e.saved_id for e in done)
    return ended
