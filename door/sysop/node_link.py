"""This serve process as one node of several on a shared store
(PostgreSQL, or the SQLite file of ``serve --workers``): it registers its
peer port (:mod:`door.net.peer_socket`), publishes who is on line
here, and learns who is on line on the other nodes
(:mod:`door.records.nodes`).

Every :data:`BEAT` seconds a node counts a heartbeat (one small write)
and reads the others (one small read; presence is only read again from a
node whose version moved).  A change here (somebody logs in, opens a
screen, a sysop sits down) is published at once, after :data:`SETTLE`
seconds so that a burst of changes is one write.  The others hear of it
through the store's wake-up (:meth:`~door.records.database.Database.listen`):
on PostgreSQL the NOTIFY the change sends; on the SQLite file a change of
its ``data_version``, which any commit makes; and read after
:data:`SETTLE` seconds, without writing (a heartbeat is itself a commit:
a wake-up that wrote would wake the others again).  A node that stops
beating is treated as gone after :data:`STALE` seconds (judged by this
process's clock) and deleted after
:data:`~door.records.nodes.FORGET_AFTER`.

A game by turns that comes to wait on a player on line at another node
(a move made here, a tournament's pairing seated here) is told to that
node alone, over its peer port (:class:`~door.net.peer_socket.PeerTurn`,
:meth:`NodeLink.tell_turn`): it works alike on PostgreSQL and on the
workers' SQLite file (whose wake-up carries no payload), costs the store
nothing, and wakes no node but the player's.  The turns wait in a queue
of at most :data:`TURNS_WAITING`; a node that cannot be reached misses
them (its player finds the game in their list).

An account logging in here by the game protocol while its one session is
at another live node takes it over there, over that node's peer port
(:class:`~door.net.peer_socket.PeerTakeOver`, :meth:`NodeLink.take_over`):
a program cannot be handed to another node as a caller at the screens is.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections.abc import Callable, Sequence

from door.net.logs import Fault
from door.net.peer_notes import PeerTakeOver
from door.net.peer_socket import TAKE_WAIT, PeerKick, PeerTurn, secret_fingerprint, send_kick, send_take_over, send_turn
from door.net.private import SecretFileError
from door.records.database import StoreError, Unreachable
from door.records.nodes import CHANNEL, FORGET_AFTER, Node, Present
from door.records.store import Store
from door.sysop.lobby import Lobby
from door.sysop.presence import account_identity, tell_turn_here

__all__ = ["NodeLink", "SecretMismatch", "BEAT", "STALE", "TURNS_WAITING", "taken_here", "told_here"]

log = logging.getLogger(__name__)

BEAT = 0.5
"""Seconds between heartbeats."""

SETTLE = 0.05
"""Seconds a change here waits for more before it is written (so at most
about 1 / SETTLE writes a second however busy the node; each rewrites the
node's presence rows whole)."""

STALE = 3.0
"""Seconds without a heartbeat after which another node counts as gone."""


TURNS_WAITING = 256
"""Turns to tell players on line at other nodes (:meth:`NodeLink.tell_turn`)
that may wait at once to be sent; one more is dropped, and logged: a flood
of moves cannot grow a node's memory, and the player it was for finds the
game in their list (the login counts the games that wait on them)."""

SENDERS = 4
"""Turns sent to other nodes at once (each over a connection of its own)."""


def told_here(lobby: Lobby, turn: PeerTurn) -> bool:
    """Another node says a game waits on ``turn.account``'s player: tell
    them if they are on line here, in ``lobby`` (a program by ``your_move``,
    a caller on their menu), as if the move had been made here.  True when
    they were told (the peer port answers ``TOLD``)."""
    told = tell_turn_here(lobby.presences.values(), turn)
    log.debug("another node says game %d waits on account %d: %s", turn.game, turn.account,
              "told" if told else "not on line here")
    return told


async def taken_here(lobby: Lobby, take: PeerTakeOver) -> bool:
    """Another node says ``take.account`` logs in there by the game
    protocol: close that account's sessions on line here, in ``lobby``
    (each told why, its game saved first: :meth:`Lobby.close_sessions`).
    True once none is left (the peer port answers ``TAKEN``), False when
    one did not end within :data:`~door.net.peer_socket.TAKE_WAIT` seconds."""
    log.info("account %d logs in at another node by the game protocol: its sessions here are closed", take.account)
    return await lobby.close_sessions(account_identity(take.account), timeout=TAKE_WAIT)


class SecretMismatch(SecretFileError):
    """This node's peer secret is not the one the store's nodes prove (its
    fingerprint, ``ours``, is not the one the store keeps, ``kept``): it
    could hand no caller to them, nor take one.  The message says what to
    copy where."""

    def __init__(self, ours: str, kept: str) -> None:
        super().__init__(
            f"this node's peer secret (fingerprint {ours[:16]}) is not the one the other nodes of the store prove "
            f"(fingerprint {kept[:16]}): copy the peer secret file of a node already running (by default "
            "data/peer_secret, or [store] peer_secret_file) to this machine's, mode 0600, and start again")
        self.ours, self.kept = ours, kept


class NodeLink:
    """This process's place among the nodes of ``store``: reachable at
    ``address``:``port``; ``secret`` is the peer secret the nodes prove to
    each other that they hold (:mod:`door.net.peer_socket`); keeps ``lobby``'s view of the other nodes
    (:meth:`Lobby.set_elsewhere`) up to date."""

    def __init__(self, store: Store, lobby: Lobby, address: str, port: int, secret: bytes = b"",
                 tls: ssl.SSLContext | None = None) -> None:
        self.store = store
        self.lobby = lobby
        self.address = address
        self.port = port
        self.secret = secret
        self.tls = tls
        """The TLS context this node calls the others with (``None``: the link is plain TCP)."""
        self.node_id: int | None = None
        self._published: list[tuple[str, str, bool]] | None = None
        self._seen: dict[int, tuple[int, float]] = {}
        """Other node id -> (its beats when last read, when they last moved, by this clock)."""
        self._versions: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._stop_listening: Callable[[], None] | None = None
        self._soon = asyncio.Event()
        """Set when this node's people changed, or the store did: read (and publish, if :attr:`_dirty`) now."""
        self._dirty = False
        """True when this node's people changed since they were last published."""
        self._stopping = False
        self._fault = Fault(log, "node heartbeat failed")
        self._turns: asyncio.Queue[tuple[Present, PeerTurn]] = asyncio.Queue(TURNS_WAITING)
        """Turns to tell other nodes, oldest first (:meth:`tell_turn`)."""
        self._senders: list[asyncio.Task[None]] = []
        self._releasing: set[asyncio.Task[None]] = set()
        """Claims of sessions that ended while games of theirs here went on (:meth:`release_after`)."""
        self.turns_dropped = 0
        """Turns not sent because :data:`TURNS_WAITING` were waiting already."""

    async def start(self) -> None:
        """Register and start beating.  Raises :class:`StoreError`, and
        :class:`SecretMismatch` when this node's peer secret is not the
        one the store's nodes prove."""
        if self.secret:
            ours = secret_fingerprint(self.secret)
            kept = await self.store.nodes.agree_secret(ours)
            if kept != ours:
                raise SecretMismatch(ours, kept)
        self.node_id = await self.store.nodes.register(self.address, self.port)
        log.info("node %d of the shared store; peers reach it on %s:%d", self.node_id, self.address, self.port)
        self.lobby.on_change = self._changed_here
        self.lobby.kick_elsewhere = self.kick
        self.lobby.turn_elsewhere = self.tell_turn
        self._senders = [asyncio.create_task(self._send_turns()) for _ in range(SENDERS)]
        loop = asyncio.get_running_loop()

        def news() -> None:  # (on the listening thread, which may outlive the loop by a connection attempt)
            try:
                loop.call_soon_threadsafe(self._soon.set)
            except RuntimeError:
                pass  # the loop is closed: nobody is left to tell
        self._stop_listening = self.store.database.listen(CHANNEL, news)
        self._task = asyncio.create_task(self._run())

    def _changed_here(self) -> None:
        self._dirty = True
        self._soon.set()

    async def stop(self) -> None:
        """Stop beating and leave the store (the other nodes forget this one at once)."""
        self.lobby.on_change = None
        self.lobby.kick_elsewhere = None
        self.lobby.turn_elsewhere = None
        for task in (*self._senders, *self._releasing):
            task.cancel()
        await asyncio.gather(*self._senders, *self._releasing, return_exceptions=True)
        self._senders = []
        if self._stop_listening is not None:
            self._stop_listening()
        self._stopping = True
        self._soon.set()
        if self._task is not None:
            # a cancel can be lost (Python 3.11's wait_for swallows one that comes as its wait ends, and the
            # beat then waited its next 30 s for ever after): cancel until it is over
            while not self._task.done():
                self._task.cancel()
                await asyncio.wait({self._task}, timeout=1.0)
        if self.node_id is not None:
            try:
                await self.store.nodes.forget([self.node_id])
            except StoreError as exc:
                log.warning("could not leave the store's nodes: %s", exc)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = loop.time()
        while not self._stopping:
            try:
                if self._dirty or loop.time() >= next_beat:
                    self._dirty = False
                    next_beat = loop.time() + BEAT
                    await self.publish()
                await self.read()
                self._fault.ok()
            except Unreachable:
                pass  # (the store logs its outage: once at the start, once a minute, once at the end)
            except StoreError as exc:
                self._fault.failed(exc)  # (twice a second while the store is away: a line a minute)
            try:
                await asyncio.wait_for(self._soon.wait(), max(0.0, next_beat - loop.time()))
                await asyncio.sleep(SETTLE)
            except TimeoutError:
                pass
            self._soon.clear()

    async def claim(self, account_id: int, conn: int, force: bool = False) -> Node | None:
        """Make connection ``conn`` here the one session of ``account_id``
        across the nodes: ``None`` when it is (an older session here is
        then this process's to close: :meth:`Lobby.take_over`), or the
        live node that holds that session (the caller goes there).  With
        ``force`` (a caller another node handed here) it is claimed here
        whatever holds it.  A claim held by a node not alive now is taken.
        Raises :class:`StoreError`."""
        assert self.node_id is not None
        alive = self.lobby.nodes  # (replaced, never changed, by each beat)
        holder = await self.store.nodes.claim(account_id, self.node_id, conn, alive.keys(), force)
        return None if holder == self.node_id else alive[holder]

    async def kick(self, person: Present, by: str) -> bool | None:
        """Ask ``person``'s node, over its peer port, to end their call
        (``by``: the sysop's name, for its log): True when it did, False
        when they were no longer on line there, ``None`` when the node
        cannot be reached or did not prove it holds the peer secret."""
        node = self.lobby.nodes.get(person.node_id)
        if node is None:
            return None
        done = await send_kick(node.address, node.port, self.secret, PeerKick(person.name, by), self.tls,
                               source=self.address)
        log.info("%s asked node %d to end the call of %r: %s", by, node.id, person.name,
                 {True: "ended", False: "nobody of that name", None: "no answer"}[done])
        return done

    async def take_over(self, node: Node, account_id: int) -> bool | None:
        """Ask ``node``, over its peer port, to close the sessions of
        ``account_id`` on line there (it logs in here by the game
        protocol, which cannot be handed over): True once none is left,
        False when one did not end in time there, ``None`` when the node
        cannot be reached or did not prove it holds the peer secret."""
        done = await send_take_over(node.address, node.port, self.secret, PeerTakeOver(account_id), self.tls,
                                    source=self.address)
        log.info("asked node %d to close the sessions of account %d: %s", node.id, account_id,
                 {True: "closed", False: "one did not end", None: "no answer"}[done])
        return done

    def tell_turn(self, person: Present, turn: PeerTurn) -> None:
        """Ask ``person``'s node, over its peer port, to tell them that
        the game ``turn`` names waits on them (:class:`PeerTurn`); returns
        at once (the turn is sent in a moment, or dropped and logged when
        :data:`TURNS_WAITING` wait already; a node that cannot be reached
        misses it: its player finds the game in their list)."""
        try:
            self._turns.put_nowait((person, turn))
        except asyncio.QueueFull:
            self.turns_dropped += 1
            if self.turns_dropped % 100 == 1:
                log.warning("%d turns waiting to be told to other nodes: game %d's dropped (%d so far); its player "
                            "finds it in their list", TURNS_WAITING, turn.game, self.turns_dropped)

    async def _send_turns(self) -> None:
        while True:
            person, turn = await self._turns.get()
            node = self.lobby.nodes.get(person.node_id)
            if node is None:
                continue  # (gone since: its player finds the game in their list at their next call)
            try:
                told = await send_turn(node.address, node.port, self.secret, turn, self.tls, source=self.address)
            except Exception:  # (not CancelledError: stopping) a sender that died would leave turns unsent for ever
                log.exception("telling node %d that game %d waits on %r failed", node.id, turn.game, person.name)
                continue
            log.debug("told node %d that game %d waits on %r: %s", node.id, turn.game, person.name,
                      {True: "told", False: "not on line there", None: "no answer"}[told])

    def release_after(self, waits: Sequence[asyncio.Event], account_id: int, conn: int) -> None:
        """Release the claim of ``account_id``'s ended session ``conn``
        here once every one of ``waits`` is set (the games of theirs that
        went on here have ended: a game that waits for them keeps the
        claim, so that calling any node takes them back to it); the node
        stopping first leaves the store, and the claim with it."""
        async def released() -> None:
            for ended in waits:
                await ended.wait()
            await self.release(account_id, conn)
        task = asyncio.create_task(released())
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def release(self, account_id: int, conn: int) -> None:
        """The session ``conn`` here of ``account_id`` ended (a claim
        another session took over is left alone)."""
        if self.node_id is not None:
            try:
                await self.store.nodes.release(account_id, self.node_id, conn)
            except StoreError as exc:
                log.warning("could not release the session of account %d: %s", account_id, exc)

    async def beat(self) -> None:
        """One heartbeat: :meth:`publish`, then :meth:`read`."""
        await self.publish()
        await self.read()

    async def publish(self) -> None:
        """Count a heartbeat, and write this node's people if they changed."""
        assert self.node_id is not None
        people = self.lobby.local_people()  # (a console's state changes without a word: looked at each beat)
        changed = people != self._published
        if not await self.store.nodes.beat(self.node_id, people if changed else None):
            log.warning("node %d was forgotten by the store (a long stall): registering again", self.node_id)
            self.node_id = await self.store.nodes.register(self.address, self.port)
            self._published = None
            return
        self._published = people

    async def read(self) -> None:
        """Read the other nodes and, where their presence moved, who is on
        line there."""
        assert self.node_id is not None
        now = time.monotonic()
        alive: list[Node] = []
        dead: list[int] = []
        for node in await self.store.nodes.others(self.node_id):
            beats, moved = self._seen.get(node.id, (node.beats, now))
            if beats != node.beats:
                moved = now
            self._seen[node.id] = (node.beats, moved)
            if now - moved <= STALE:
                alive.append(node)
            elif now - moved > FORGET_AFTER:
                dead.append(node.id)
        if dead:
            await self.store.nodes.forget(dead)
            for node_id in dead:
                self._seen.pop(node_id, None)
        versions = {node.id: node.version for node in alive}
        if versions != self._versions:
            self.lobby.set_elsewhere({node.id: node for node in alive},
                                     await self.store.nodes.people(list(versions)))
            self._versions = versions
