"""Two nodes of one board on one store, for a benchmark: the accounts
made, both doors started on loopback with a shared peer secret, and
stopped after (as the tests' two-node cases run them)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from door.records.passwords import hash_password
from door.records.store import Store
from door.server import DoorServer
from engine.rules import Rules

__all__ = ["two_nodes"]


@asynccontextmanager
async def two_nodes(url: str, folder: Path, names: Sequence[str], password: str,
                    rules: Rules | None = None) -> AsyncIterator[list[DoorServer]]:
    """Accounts ``names`` (each with ``password``) in the store at
    ``url``, then two running doors on it (their data below ``folder``;
    ``rules``: the house rules, default the configuration's), stopped when
    the block ends."""
    from tests.support.server import make_config

    store = await Store.open(url)
    try:
        for name in names:
            await store.accounts.create(name, hash_password(password))
    finally:
        await store.close()
    nodes = []
    for name in ("a", "b"):
        config = make_config(folder / f"node-{name}")
        if rules is not None:
            config.rules = rules
        config.store.url = url
        config.store.peer_secret_file = str(folder / "peer_secret")
        nodes.append(DoorServer(config))
    try:
        for node in nodes:
            await node.start()
        yield nodes
    finally:
        for node in nodes:
            await node.stop()
