"""The serve processes sharing one store, and who is on line on each: each process (a *node*) registers the address of its peer
port (:mod:`door.net.peer_socket`), and every
:data:`~door.sysop.node_link.BEAT` seconds counts a heartbeat and, when
its people changed, rewrites its rows of ``presence`` and bumps its
``version``.  The others read a node's rows again only when its version
moved, so a quiet node costs one small write and one small read a beat.

A node that rewrote its rows also sends a notification on
:data:`CHANNEL` (PostgreSQL's NOTIFY; on SQLite the commit itself is
what the others notice), so they read at once instead of at their next
beat.

A registered caller has one session across the nodes: ``sessions`` says
which node holds it (:meth:`Nodes.claim`), and a login elsewhere is
handed over to that node, which closes the older session there.

A node is alive while its ``beats`` keep counting, judged by the reader's
own clock (machines' clocks need not agree); one that stopped counting for
:data:`FORGET_AFTER` seconds is deleted by whoever notices (its presence
rows go with it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database, StoreError

__all__ = ["Node", "Present", "Nodes", "FORGET_AFTER", "CHANNEL"]

CHANNEL = "cribbage_nodes"
"""The PostgreSQL notification channel a node's changed presence is announced on."""

FORGET_AFTER = 60.0
"""Seconds without a heartbeat after which a node is deleted."""


@dataclass(frozen=True)
class Node:
    """Another serve process: its ``id``, where its peer port listens
    (``address``, ``port``), its heartbeat count ``beats`` and presence
    ``version``.  (Nothing here lets anybody in: the nodes prove to each
    other that they hold the peer secret, which is not in the store.)"""

    id: int
    address: str
    port: int
    beats: int
    version: int


@dataclass(frozen=True)
class Present:
    """Somebody on line on another node: ``name``, what they are
    ``doing``, and whether they are a sysop at that node's console."""

    node_id: int
    name: str
    doing: str
    sysop: bool


class Nodes:
    """The ``nodes``, ``presence`` and ``sessions`` tables in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def agree_secret(self, fingerprint: str) -> str:
        """The fingerprint of the peer secret the store's nodes prove: the
        one already kept, or ``fingerprint`` (kept now) for the first node
        of the store.  The caller compares (:func:`~door.net.peer_socket.secret_fingerprint`)."""
        def tx(db: Connection) -> str:
            row = db.execute("SELECT fingerprint FROM peer_secret").fetchone()
            if row is not None:
                return str(row[0])
            db.execute("INSERT INTO peer_secret (fingerprint) VALUES (?)", (fingerprint,))
            return fingerprint
        return await self.database.tx(tx)

    async def register(self, address: str, port: int) -> int:
        """Add this process as a node reachable at ``address``:``port``;
        returns its id."""
        return await self.database.tx(lambda db: int(db.execute(
            "INSERT INTO nodes (address, port, token, started) VALUES (?, ?, ?, ?) RETURNING id",
            (address, port, "", self.clock())).fetchone()[0]))  # (the token column: no longer used)

    async def beat(self, node_id: int, people: Sequence[tuple[str, str, bool]] | None) -> bool:
        """Count a heartbeat of ``node_id`` and, when ``people`` is given
        (it changed), replace its presence rows with those ``(name,
        doing, sysop)``.  False when the node is no longer registered
        (forgotten after a long stall): register again."""
        def tx(db: Connection) -> bool:
            bump = 0 if people is None else 1
            if db.execute("UPDATE nodes SET beats = beats + 1, version = version + ? WHERE id = ?",
                          (bump, node_id)).rowcount == 0:
                return False
            if people is not None:
                self.database.notify(db, CHANNEL)  # the other nodes read at once
                db.execute("DELETE FROM presence WHERE node_id = ?", (node_id,))
                if people:
                    db.executemany("INSERT INTO presence (node_id, name, doing, sysop) VALUES (?, ?, ?, ?)",
                                   [(node_id, name, doing, int(sysop)) for name, doing, sysop in people])
            return True
        return await self.database.tx(tx)

    async def others(self, node_id: int) -> list[Node]:
        """Every node but ``node_id``, alive or not (the caller judges by
        whether ``beats`` moves)."""
        return await self.database.query(lambda db: [Node(*row) for row in db.execute(
            "SELECT id, address, port, beats, version FROM nodes WHERE id <> ? ORDER BY id", (node_id,))])

    async def people(self, node_ids: Sequence[int]) -> list[Present]:
        """Who is on line on the nodes ``node_ids``, sysops first."""
        if not node_ids:
            return []
        marks = ", ".join("?" for _ in node_ids)
        return await self.database.query(lambda db: [Present(r[0], r[1], r[2], bool(r[3])) for r in db.execute(
            f"SELECT node_id, name, doing, sysop FROM presence WHERE node_id IN ({marks}) "
            "ORDER BY sysop DESC, node_id, name", list(node_ids))])

    async def claim(self, account_id: int, node_id: int, conn: int, alive: Collection[int],
                    force: bool = False) -> int:
        """Make connection ``conn`` of node ``node_id`` the one session of
        ``account_id``, unless another node in ``alive`` holds it (and not
        ``force``): returns the node that holds it now (``node_id`` when
        the claim is this node's).  Atomic on both databases: an insert that
        does nothing when a claim exists, then a compare-and-set on the
        holder seen, tried again if somebody moved it in between.  Raises
        :class:`~door.records.database.StoreError`."""
        def tx(db: Connection) -> int | None:
            if db.execute("INSERT INTO sessions (account_id, node_id, conn) VALUES (?, ?, ?) "
                          "ON CONFLICT (account_id) DO NOTHING", (account_id, node_id, conn)).rowcount == 1:
                return node_id
            row = db.execute("SELECT node_id FROM sessions WHERE account_id = ?", (account_id,)).fetchone()
            if row is None:
                return None  # released in between: try again
            holder = int(row[0])
            if holder != node_id and holder in alive and not force:
                return holder
            moved = db.execute("UPDATE sessions SET node_id = ?, conn = ? WHERE account_id = ? AND node_id = ?",
                               (node_id, conn, account_id, holder)).rowcount
            return node_id if moved == 1 else None

        for _ in range(5):
            holder = await self.database.tx(tx)
            if holder is not None:
                return holder
        raise StoreError(f"the session of account {account_id} keeps moving between nodes")

    async def release(self, account_id: int, node_id: int, conn: int) -> None:
        """The session ``conn`` of node ``node_id`` ended: its claim on
        ``account_id`` goes (one another session took over is left)."""
        await self.database.tx(lambda db: db.execute(
            "DELETE FROM sessions WHERE account_id = ? AND node_id = ? AND conn = ?", (account_id, node_id, conn)))

    async def forget(self, node_ids: Sequence[int]) -> None:
        """Delete the nodes ``node_ids`` and their presence rows and
        session claims (stopped, or dead)."""
        if node_ids:
            marks = ", ".join("?" for _ in node_ids)
            await self.database.tx(lambda db: db.execute(f"DELETE FROM nodes WHERE id IN ({marks})", list(node_ids)))
