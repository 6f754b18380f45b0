"""Ending many correspondence games at once, as the sweeper judged them:
one transaction a batch of games (:data:`BATCH`), so that a pass that ends
a thousand games writes a few times, not a thousand, and the store's one
thread is free between batches for the moves of the callers on line.

Each game is ended only as it stood when it was judged: a game gone
meanwhile, or whose log has grown (a move made at another node after the
sweeper read it), is left as it is."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from door.records.connection import Connection
from door.records.games import GameRecord, write_record
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
    it yet, to be recorded after the pass (:mod:`.forfeit_hands`)."""

    saved_id: int
    moves: int
    record: GameRecord | None = None
    lost_on_time: int | None = None
    hands_later: bool = False


def _end(db: Connection, ending: Ending, now: float) -> bool:
    """End one game in the transaction of ``db`` (see :func:`end_all`)."""
    row = db.execute("SELECT (SELECT COUNT(*) FROM saved_actions WHERE saved_id = ?) FROM saved_games WHERE id = ?",
                     (ending.saved_id, ending.saved_id)).fetchone()
    if row is None or int(row[0]) != ending.moves:
        return False  # (gone, or moved on meanwhile)
    if ending.record is None:
        db.execute("DELETE FROM saved_games WHERE id = ?", (ending.saved_id,))
    else:
        game_id = write_record(db, ending.saved_id, ending.record, now)
        if ending.hands_later:
            db.execute("INSERT INTO game_hands_due (game_id) VALUES (?)", (game_id,))
    if ending.lost_on_time is not None:
        db.execute("INSERT INTO correspondence_results (account_id, lost_on_time) VALUES (?, 1) "
                   "ON CONFLICT (account_id) DO UPDATE SET lost_on_time = correspondence_results.lost_on_time + 1",
                   (ending.lost_on_time,))
    return True


def _batch(chunk: Sequence[Ending], now: float) -> Callable[[Connection], list[Ending]]:
    """The transaction that ends the games of ``chunk``: those it ended."""
    return lambda db: [e for e in chunk if _end(db, e, now)]


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
