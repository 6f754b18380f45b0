"""Bringing a store to this program's schema without pulling it from under
a node of an older release (rolling upgrades: one node at a time).

Every step of :data:`~door.records.schema.MIGRATIONS` from version
:data:`PAIRED_FROM` on is one of two kinds:

- an *expand* step (its version in :data:`EXPAND`) only adds (a table, a
  column with a default): a program of the schema before it still uses
  the store, never knowing; it runs whenever a node of this release starts;
- a *contract* step takes something away or changes it: programs of the
  schema before it cannot use the store afterwards.  It runs when no node
  is on line in the store (none registered), or when the sysop says every
  node runs the new release (``cribbage-door records contract``).

The store keeps two numbers.  The one every release has always checked
(SQLite's ``user_version``, PostgreSQL's ``schema_version``) is the
*kept* version: the last contract step's, so that a program refuses a
store only when a step it cannot live with was made.  ``schema_steps``
keeps how many steps were made in all (expand steps included).  A
program of schema *M* uses a store whose kept version is at most *M*
(whatever expand steps of newer releases it holds), and refuses a newer
one with what to do.  Every step made is one warning line in the log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from door.records.connection import Connection
from door.records.database import StoreError
from door.records.schema import MIGRATIONS, render

__all__ = ["EXPAND", "PAIRED_FROM", "kept_version", "migrate_one", "refusal", "StoreState", "store_state"]

log = logging.getLogger(__name__)

PAIRED_FROM = 18
"""Steps taking a store past this version are paired (expand or contract);
those before it ran as one kind, before nodes shared stores."""

EXPAND: frozenset[int] = frozenset({19, 20, 21, 22, 23, 24, 25})
"""The versions whose step only adds (programs of the schema before it go on).
A release's expand steps come before its contract step (a node of the
release works while its contract step waits for older nodes to go)."""


def kept_version(applied: int, expand: frozenset[int] = EXPAND) -> int:
    """The version a store with ``applied`` steps made tells programs that
    check it: that of its last step that was not an expand step.

    >>> kept_version(18), kept_version(19), kept_version(21, frozenset({19, 21}))
    (18, 18, 20)
    """
    while applied in expand:
        applied -= 1
    return applied


def refusal(where: str, kept: int, known: int) -> str:
    """Why a program of schema ``known`` does not use the store at ``where`` (kept version ``kept``), and what to do."""
    return (f"{where}: the store's schema is version {kept}, which a newer release of cribbage-door made; this "
            f"program knows version {known} and cannot use it. Upgrade this node to the release the others run "
            "(docs/machines.md, \"Upgrading nodes one at a time\"), or restore the store from a backup")


class StoreState:
    """Where a store stands: ``kept`` (the version programs check),
    ``applied`` (the steps made), ``pending`` (steps this program would
    make) and ``waiting`` (the first of them, if it is a contract step
    that waits for ``records contract``; else ``None``)."""

    def __init__(self, kept: int, applied: int, known: int, waiting: int | None) -> None:
        self.kept, self.applied, self.known, self.waiting = kept, applied, known, waiting

    @property
    def pending(self) -> int:
        """Steps this program has that the store has not made."""
        return max(0, self.known - self.applied)


def _applied(db: Connection, kept: int) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS schema_steps (version INTEGER NOT NULL)")
    row = db.execute("SELECT version FROM schema_steps").fetchone()
    if row is None:
        db.execute("INSERT INTO schema_steps (version) VALUES (?)", (kept,))
        return kept
    return max(kept, int(row[0]))


def _nodes_on_line(db: Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM nodes").fetchone()[0])


def store_state(db: Connection, kept: int, migrations: Sequence[object] = MIGRATIONS,
                expand: frozenset[int] = EXPAND) -> StoreState:
    """Where the store (kept version ``kept``, read by the caller) stands for this program."""
    applied = _applied(db, kept)
    known = len(migrations)
    waiting = applied if (PAIRED_FROM <= applied < known and applied + 1 not in expand) else None
    return StoreState(kept, applied, known, waiting)


def migrate_one(db: Connection, where: str, dialect: str, kept: int, script: Callable[[Connection, str], None],
                contract: bool = False, migrations: Sequence[str | Callable[[Connection], None]] = MIGRATIONS,
                expand: frozenset[int] = EXPAND) -> int | None:
    """Make the store's next step, in the caller's transaction (an SQL
    step rendered for ``dialect`` and run by ``script(db, sql)``): the kept
    version to write afterwards, or ``None`` when there is no step to make
    now (all made, or a contract step waits: nodes are on line and
    ``contract`` was not asked).  Raises :class:`StoreError` when the
    store's kept version is newer than this program
    (:func:`refusal`)."""
    known = len(migrations)
    if kept > known:
        raise StoreError(refusal(where, kept, known))
    applied = _applied(db, kept)
    if applied >= known:
        if applied > known:
            log.info("%s: the store has %d step(s) of a newer release, which this program (schema %d) may ignore",
                     where, applied - known, known)
        return None
    paired = applied >= PAIRED_FROM
    if paired and applied + 1 not in expand and not contract:
        nodes = _nodes_on_line(db)
        if nodes:
            log.warning("%s: schema step %d -> %d contracts the store (programs of schema %d cannot use it "
                        "afterwards) and %d node(s) are on line: it waits; once every node runs this release, "
                        "run `cribbage-door records contract`", where, applied, applied + 1, applied, nodes)
            return None
    step = migrations[applied]
    if callable(step):
        step(db)
    else:
        script(db, render(step, dialect))
    applied += 1
    db.execute("UPDATE schema_steps SET version = ?", (applied,))
    new_kept = kept_version(applied, expand)
    kind = ("" if not paired else
            f": expand, programs of schema {new_kept} and later still use the store" if applied in expand else
            f": contract, programs of schema {applied - 1} and older can no longer use the store")
    log.log(logging.WARNING if paired else logging.INFO, "%s: schema %d -> %d%s", where, applied - 1, applied, kind)
    return new_kept
