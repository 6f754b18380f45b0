"""One node at a time runs a live game's table.

A live tournament game is seated at the node whose director paired its
round, and a player may open it at any node of the store.  Were a second
node to build a table for it too, two tables would play one kept game,
each writing its moves.  So the node that runs a live game's table holds
the store's lease on it (:class:`~door.records.leases.Leases`, named
:func:`lease_name`), renewed while the table runs and given up when it
ends; another node that is asked to open the game while the lease is
held says where it is played (:class:`PlayedElsewhere`) rather than build
a table.  A node that dies stops renewing: after :data:`HOLD` seconds the
lease lapses and the game may be taken up elsewhere (with the ranked
grace for the player not there), as any live game of a dead node is.

On a store without nodes (one serve process), nothing is leased."""

from __future__ import annotations

import asyncio
import logging

from door.games.house import GameHouse
from door.play.table import Table
from door.records.database import StoreError

__all__ = ["HOLD", "PlayedElsewhere", "keep", "lease_name", "take"]

log = logging.getLogger(__name__)

HOLD = 30.0
"""Seconds a live game's lease lasts without renewal (renewed every third
of it while its table runs): how long a dead node's live game waits before
another node may take it up."""

_KEEPING: set[asyncio.Task[None]] = set()
"""The renewing tasks (one a live table here; each ends with its table)."""


class PlayedElsewhere(Exception):
    """The live game is played at another node now: ``node`` (its id in the
    store's nodes), whose table holds the game's lease."""

    def __init__(self, node: int) -> None:
        super().__init__(f"the game is played at node {node}")
        self.node = node


def lease_name(saved_id: int) -> str:
    """The name of the lease on the kept game ``saved_id``'s live table."""
    return f"live table {saved_id}"


def _holder(node: int) -> str:
    return f"node {node}"


async def take(house: GameHouse, saved_id: int) -> None:
    """Take the lease on kept game ``saved_id`` for this node (the house's
    :attr:`~door.games.house.GameHouse.node`; nothing on a store without
    nodes).  Raises :class:`PlayedElsewhere` when another node holds it; a
    store that cannot answer is logged and lets this node go on (a table
    is then built as it would be without nodes)."""
    node = house.node()
    if node is None:
        return
    leases, name = house.store.leases, lease_name(saved_id)
    try:
        if await leases.take(name, _holder(node), HOLD):
            return
        there = await leases.holder(name)
    except StoreError as exc:
        log.warning("the lease on live game %d could not be taken: %s", saved_id, exc)
        return
    if there is not None and there.startswith("node ") and there[5:].isdigit():
        raise PlayedElsewhere(int(there[5:]))


def keep(house: GameHouse, saved_id: int, table: Table) -> None:
    """Keep this node's lease on kept game ``saved_id`` (taken by
    :func:`take`) renewed while ``table`` runs, and give it up when it
    ends.  Nothing on a store without nodes."""
    node = house.node()
    if node is None:
        return
    task = asyncio.create_task(_keep(house, lease_name(saved_id), _holder(node), table))
    _KEEPING.add(task)
    task.add_done_callback(_KEEPING.discard)


async def _keep(house: GameHouse, name: str, holder: str, table: Table) -> None:
    """Renew lease ``name`` for ``holder`` every third of :data:`HOLD` until
    ``table`` ends, then release it."""
    leases = house.store.leases
    while not table.ended.is_set():
        try:
            await asyncio.wait_for(table.ended.wait(), HOLD / 3)
        except TimeoutError:
            pass
        try:
            if table.ended.is_set():
                await leases.release(name, holder)
            else:
                await leases.take(name, holder, HOLD)
        except StoreError as exc:
            log.warning("the lease %r could not be renewed: %s", name, exc)
