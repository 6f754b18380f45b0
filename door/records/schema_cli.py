"""``cribbage-door records schema`` (where the store's schema stands) and
``records contract`` (make the contract steps that wait for every node to
run this release): :mod:`door.records.migrate`."""

from __future__ import annotations

import argparse
from typing import TextIO

from door.records.connection import Connection
from door.records.migrate import StoreState, store_state
from door.records.store import Store

__all__ = ["SCHEMA_ACTIONS", "run_schema"]

SCHEMA_ACTIONS = ("schema", "contract")
"""The ``records`` actions this module carries out (``contract`` opens the store with contract steps allowed)."""


async def run_schema(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """Say where the store's schema stands (after ``contract``'s steps, made
    as it was opened); the exit status."""
    sqlite = store.database.dialect == "sqlite"

    def read(db: Connection) -> StoreState:
        kept = db.execute("PRAGMA user_version" if sqlite else "SELECT version FROM schema_version").fetchone()[0]
        return store_state(db, int(kept))
    state = await store.database.tx(read)
    print(f"Steps made: {state.applied} (this program has {state.known}). Programs of schema {state.kept} "
          "and later may use the store.", file=out)
    if state.waiting is not None:
        print(f"Step {state.waiting} -> {state.waiting + 1} contracts the store and waits: once every node runs "
              "this release, run `cribbage-door records contract`.", file=out)
    elif args.action == "contract":
        print("No step waits: the store is contracted as far as this release goes.", file=out)
    return 0
