"""Serve processes handing callers to one another (across
processes and machines sharing one store), and how they know each other
.

Each serve process on a shared store listens on a *peer port* (TCP) and
registers its address in the store (:mod:`door.records.nodes`).  When a
caller wants the sysop and the sysop is at another process's console,
their process connects to that one's peer port and the two prove to each
other that they hold the *peer secret*, a file the sysop gives every node
(``[store] peer_secret_file``; by default ``peer_secret`` in the data
folder, made on first start: the workers of one ``serve`` share it).  The
secret is never sent and is not in the store, so reading the store's
tables, or the wire, gives nobody a way in:

1. the port says ``NONCE <64 hex digits>``: 32 random bytes, new for every
   connection;
2. the node that hands over answers ``PEER {json}``: the
   :class:`PeerHello` (the caller's name and account, their own address,
   window size, charset, terminal type and whom they come to challenge),
   its own nonce, and ``mac``: HMAC-SHA256 under the secret of the port's
   nonce and every other field;
3. the port answers ``WELCOME <mac>`` (HMAC-SHA256 of both nonces), which
   the other node checks before it relays a byte of the caller's: a node
   that does not hold the secret gets no caller's keys either.

A hello is single-use and bound to its connection (the port's nonce is in
its MAC, so a hello sniffed on the wire does not open another connection),
and short-lived (:data:`HELLO_TIMEOUT`).  After the welcome the caller's
bytes are relayed both ways (:func:`door.net.relay.relay`) and the caller
is a session of this process, as a BBS node's caller is of the local
server.

A connection that does not finish the handshake within
:data:`HELLO_TIMEOUT` seconds is closed; one address may have at most
:data:`PENDING_PER_ADDRESS` connections waiting, and all addresses
:data:`PENDING_LIMIT`, past which the oldest waiting connection of the
address holding the most places is closed to make room: silent
connections cannot fill the port, and an honest node, which answers
within a round trip and holds one place at a time, is not the one closed
while any address holds more.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets
import ssl
import tempfile
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from door.net.charset import Charset
from door.net.gate import address_of
from door.net.hello import (
    HELLO_LIMIT,
    check_charset,
    check_flag,
    check_name,
    check_whole,
    hello_fields,
    printable,
    profile_named,
)
from door.net.listener import Bind, Listener
from door.net.logs import SOURCE
from door.net.peer_notes import NONCE_BYTES, PeerKick, PeerTakeOver, PeerTurn, canonical, sign
from door.net.private import SecretFileError, check_private
from door.net.relay import RelayedTerminal
from door.net.terminal import Terminal, TerminalKind

__all__ = ["peer_tls", "PeerHello", "PeerKick", "PeerTakeOver", "PeerTurn", "send_kick", "send_take_over",
           "send_turn", "PeerTerminal", "start_peers", "connect_peer", "load_peer_secret", "HELLO_LIMIT",
           "HELLO_TIMEOUT", "PENDING_LIMIT", "PENDING_PER_ADDRESS", "PEER_SECRET", "REFUSAL", "TAKE_WAIT"]

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 5.0
"""Seconds a new connection has to finish the handshake (either side)."""

TAKE_WAIT = HELLO_TIMEOUT - 1.0
"""Seconds a node asked to close an account's sessions (:class:`PeerTakeOver`)
waits for them to end before it answers that one is still held (within the
asking node's :data:`HELLO_TIMEOUT`)."""

PENDING_LIMIT = 64
"""Connections that may be waiting to finish the handshake at once; a new
one past it closes the oldest."""

PENDING_PER_ADDRESS = 4
"""Connections from one address that may be waiting at once; more are closed at once."""

TERM_LIMIT = 40
"""The longest terminal type a hello carries, in characters."""

ADDRESS_LIMIT = 64
"""The longest caller's address a hello carries, in characters."""

PEER_SECRET = "peer_secret"
"""The peer secret's file name in the data folder, when ``[store]
peer_secret_file`` names none."""

REFUSAL = b"\r\nThis port is only for the door's own servers.\r\n"
"""What a connection that is not a node is told before it is closed."""

_HELLO_LABEL = b"cribbage-door peer hello v2"
_WELCOME_LABEL = b"cribbage-door peer welcome v2"


def secret_fingerprint(secret: bytes) -> str:
    """A fingerprint of the peer secret that says nothing of it
    (HMAC-SHA256 of a fixed text under the secret, as 64 hex digits): the
    store keeps it, so that a node with another secret is told at start."""
    return hmac.new(secret, b"cribbage-door peer secret fingerprint", hashlib.sha256).hexdigest()


def load_peer_secret(path: Path) -> bytes:
    """The peer secret in ``path``, made (64 random hex digits, mode 0600)
    when there is no such file.  It appears whole or not at all (written
    to a file of its own, then linked into place), so a worker starting
    beside the one that makes it never reads it half written.  Raises
    ``OSError`` when it cannot be read or made, and
    :class:`~door.net.private.SecretFileError` when others can read it or
    it holds fewer than 32 characters."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, made = tempfile.mkstemp(prefix=".peer_secret-", dir=path.parent)  # (mode 0600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
            os.link(made, path)
            log.info("made the peer secret %s (give the same file to every node of the store)", path)
        except FileExistsError:
            pass  # another worker made it first: theirs is the one
        finally:
            os.unlink(made)
    check_private(path, "the peer secret")
    secret = path.read_bytes().strip()
    if len(secret) < 32:
        raise SecretFileError(f"{path}: the peer secret must hold at least 32 characters (remove the file to have "
                              "one made, and copy it to every node)")
    return secret


@dataclass(frozen=True)
class PeerHello:
    """What a serve process says of the caller it hands over: the caller's
    ``name`` and ``account`` id (``None`` for a guest), the window size
    ``cols`` x ``rows`` in cells, the output ``charset`` name, the terminal
    type ``term``, whom they come to ``challenge`` and the ``address`` they
    call from (for cool-downs, limits and the log at the other end)."""

    name: str
    account: int | None
    cols: int
    rows: int
    charset: str
    term: str
    challenge: str = ""
    """A caller at this node's main menu whom the caller comes to challenge
    (a challenge across nodes); empty: none."""
    address: str = ""
    """The caller's own address, as the node they called saw it."""
    plain: bool = False
    """The caller is in screen-reader mode: so they stay."""

    def encode(self, secret: bytes, nonce: bytes) -> tuple[bytes, bytes]:
        """The hello line ``PEER {json}\\n`` for the port that sent
        ``nonce``, signed with ``secret``, and this side's own nonce (which
        the port's welcome must cover)."""
        mine = secrets.token_bytes(NONCE_BYTES)
        fields: dict[str, Any] = {**asdict(self), "nonce": mine.hex()}
        mac = sign(secret, _HELLO_LABEL, nonce, canonical(fields))
        return b"PEER " + json.dumps({**fields, "mac": mac}).encode("utf-8") + b"\n", mine

    @classmethod
    def for_terminal(cls, name: str, account: int | None, terminal: Terminal,
                     challenge: str = "") -> PeerHello:
        """The hello for the caller at ``terminal``: its size, charset,
        terminal type (what the client sent, made printable) and address,
        and whom they come to ``challenge``."""
        return cls(name, account, terminal.cols, terminal.rows, terminal.charset.name,
                   printable(terminal.term_type, TERM_LIMIT), challenge, printable(terminal.address, ADDRESS_LIMIT),
                   terminal.plain)

    @classmethod
    def decode(cls, line: bytes, secret: bytes, nonce: bytes) -> tuple[PeerHello, bytes]:
        """Read a hello line sent to the port that sent ``nonce``: the
        hello and the other side's nonce.  Raises ``ValueError`` (saying
        what is wrong) for anything but a well-formed hello whose MAC under
        ``secret`` is right."""
        fields = hello_fields(line, "PEER", [*cls.__dataclass_fields__, "nonce", "mac"])
        mac = fields.pop("mac")
        if not isinstance(mac, str) or not hmac.compare_digest(
                mac.encode("ascii", "replace"), sign(secret, _HELLO_LABEL, nonce, canonical(fields)).encode()):
            raise ValueError("wrong MAC (not signed with this store's peer secret, or not for this connection)")
        theirs = fields.pop("nonce")
        try:
            their_nonce = bytes.fromhex(theirs) if isinstance(theirs, str) else b""
        except ValueError:
            their_nonce = b""
        if len(their_nonce) != NONCE_BYTES:
            raise ValueError(f"nonce: {NONCE_BYTES * 2} hex digits")
        name, account = fields["name"], fields["account"]
        cols, rows, charset, term = fields["cols"], fields["rows"], fields["charset"], fields["term"]
        challenge, address = fields["challenge"], fields["address"]
        check_name(name)
        if account is not None and (not isinstance(account, int) or isinstance(account, bool) or account < 1):
            raise ValueError("account: a positive whole number or null")
        for label, value in (("cols", cols), ("rows", rows)):
            check_whole(label, value)
        check_charset(charset)
        if not isinstance(term, str) or term != printable(term, TERM_LIMIT):
            raise ValueError(f"term: up to {TERM_LIMIT} printable characters")
        if challenge != "":
            check_name(challenge)
        if not isinstance(address, str) or address != printable(address, ADDRESS_LIMIT):
            raise ValueError(f"address: up to {ADDRESS_LIMIT} printable characters")
        return cls(name, account, cols, rows, charset, term, challenge, address,
                   check_flag("plain", fields["plain"])), their_nonce

    @property
    def profile(self) -> Charset:
        """The :class:`Charset` named by ``charset``."""
        return profile_named(self.charset)


async def _open(address: str, port: int, tls: ssl.SSLContext | None,
                source: str | None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to the peer port at ``address``:``port`` (over TLS with
    ``tls``, from the local address ``source``), or ``None`` when it cannot
    be made within :data:`HELLO_TIMEOUT` seconds."""
    try:
        return await asyncio.wait_for(asyncio.open_connection(
            address, port, limit=HELLO_LIMIT, ssl=tls, local_addr=(source, 0) if source else None,
            ssl_handshake_timeout=HELLO_TIMEOUT if tls is not None else None), HELLO_TIMEOUT)
    except (TimeoutError, OSError, ssl.SSLError):
        return None


async def _ask(address: str, port: int, line: Callable[[bytes], bytes], tls: ssl.SSLContext | None,
               source: str | None) -> bytes | None:
    """Send the port at ``address``:``port`` the signed line ``line(its
    nonce)`` and read its one-line answer: ``None`` when it cannot be
    reached or does not answer within :data:`HELLO_TIMEOUT` seconds a step."""
    opened = await _open(address, port, tls, source)
    if opened is None:
        return None
    reader, writer = opened
    try:
        said = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
        if not said.startswith(b"NONCE "):
            return None
        writer.write(line(bytes.fromhex(said[6:].strip().decode("ascii"))))
        return await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
    except (TimeoutError, OSError, ValueError, UnicodeDecodeError):
        return None
    finally:
        writer.close()


async def send_kick(address: str, port: int, secret: bytes, kick: PeerKick, tls: ssl.SSLContext | None = None,
                    source: str | None = None) -> bool | None:
    """Ask the node at ``address``:``port`` to end ``kick.name``'s call:
    True when it did, False when nobody of that name is on line there,
    ``None`` when the node cannot be reached or does not answer within
    :data:`HELLO_TIMEOUT` seconds a step (``tls``, ``source``: as
    :func:`connect_peer`)."""
    answer = await _ask(address, port, lambda nonce: kick.encode(secret, nonce), tls, source)
    return {b"KICKED\n": True, b"NOBODY\n": False}.get(answer or b"")


async def send_turn(address: str, port: int, secret: bytes, turn: PeerTurn, tls: ssl.SSLContext | None = None,
                    source: str | None = None) -> bool | None:
    """Tell the node at ``address``:``port`` that a game waits on
    ``turn.account``'s player: True when they were told there, False when
    they are not on line there, ``None`` when the node cannot be reached or
    does not answer within :data:`HELLO_TIMEOUT` seconds a step (``tls``,
    ``source``: as :func:`connect_peer`)."""
    answer = await _ask(address, port, lambda nonce: turn.encode(secret, nonce), tls, source)
    return {b"TOLD\n": True, b"NOBODY\n": False}.get(answer or b"")


async def send_take_over(address: str, port: int, secret: bytes, take: PeerTakeOver,
                         tls: ssl.SSLContext | None = None, source: str | None = None) -> bool | None:
    """Ask the node at ``address``:``port`` to close the sessions of
    ``take.account`` on line there (it logs in here by the game protocol):
    True once none is, False when one did not end in time (within
    :data:`TAKE_WAIT` seconds), ``None`` when the node cannot be reached or
    does not answer within :data:`HELLO_TIMEOUT` seconds a step (``tls``,
    ``source``: as :func:`connect_peer`)."""
    answer = await _ask(address, port, lambda nonce: take.encode(secret, nonce), tls, source)
    return {b"TAKEN\n": True, b"HELD\n": False}.get(answer or b"")


def welcome(secret: bytes, nonce: bytes, their_nonce: bytes) -> bytes:
    """The port's answer to a right hello: ``WELCOME <mac>\\n`` over both
    nonces (``nonce`` the port's own)."""
    return b"WELCOME " + sign(secret, _WELCOME_LABEL, their_nonce, nonce).encode() + b"\n"


class PeerTerminal(RelayedTerminal):
    """A :class:`Terminal` over a peer connection: a caller relayed by the
    serve process they called."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: PeerHello) -> None:
        node = address_of(writer.get_extra_info("peername"))
        address = hello.address or node
        super().__init__(TerminalKind.PEER, f"{address} via {node}", hello.term or "ansi", hello.cols, hello.rows, reader,
                         writer, address=address)
        self.charset = hello.profile
        self.screen_reader = hello.plain


def peer_tls(certfile: str, keyfile: str, cafile: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """The TLS contexts of the peer link: the listener's and the caller's
    (both sides show a certificate the sysop's own authority, ``cafile``,
    signed: ``certfile`` and ``keyfile``, PEM).  The nodes are named by
    address, so a certificate is checked against the authority, not a
    host name.  Raises ``OSError`` or ``ssl.SSLError`` when a file cannot
    be read."""
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=cafile)
    server.load_cert_chain(certfile, keyfile)
    server.verify_mode = ssl.CERT_REQUIRED
    client = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=cafile)
    client.check_hostname = False
    client.load_cert_chain(certfile, keyfile)
    return server, client


async def start_peers(bind: Bind, secret: bytes,
                      session: Callable[[PeerTerminal, PeerHello], Awaitable[None]],
                      tls: ssl.SSLContext | None = None,
                      kick: Callable[[PeerKick], bool] | None = None,
                      turn: Callable[[PeerTurn], bool] | None = None,
                      take: Callable[[PeerTakeOver], Awaitable[bool]] | None = None) -> Listener:
    """Listen where ``bind`` says and run
    ``session(terminal, hello)`` for each caller another node hands over
    with a hello signed with ``secret`` for that connection; ``tls``: the
    link runs over TLS (:func:`peer_tls`: nodes on different machines,
    where the hello's names and addresses must not cross a network in the
    clear); ``kick(request)``: end a call another node's sysop asks to end
    (:class:`PeerKick`), True when somebody of that name was on line;
    ``turn(request)``: tell a player on line here that a game waits on them
    (:class:`PeerTurn`), True when they were; ``take(request)``: close the
    sessions here of an account that logs in at another node by the game
    protocol (:class:`PeerTakeOver`), True once none is left (within
    :data:`TAKE_WAIT` seconds)."""
    waiting: OrderedDict[asyncio.StreamWriter, str] = OrderedDict()
    """Connections in the handshake, oldest first, with their addresses."""
    by_address: Counter[str] = Counter()

    async def handshake(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        address: str) -> PeerHello | None:
        nonce = secrets.token_bytes(NONCE_BYTES)
        writer.write(b"NONCE " + nonce.hex().encode() + b"\n")
        try:
            async with asyncio.timeout(HELLO_TIMEOUT):
                line = await reader.readline()
            if not line:  # gone without a word (or closed to make room): nothing to refuse, nothing to log
                writer.transport.abort()
                return None
            if line.startswith(b"KICK ") and kick is not None:
                request = PeerKick.decode(line, secret, nonce)
                writer.write(b"KICKED\n" if kick(request) else b"NOBODY\n")
                writer.close()
                return None
            if line.startswith(b"TURN ") and turn is not None:
                told = turn(PeerTurn.decode(line, secret, nonce))
                writer.write(b"TOLD\n" if told else b"NOBODY\n")
                writer.close()
                return None
            if line.startswith(b"TAKE ") and take is not None:
                taken = await take(PeerTakeOver.decode(line, secret, nonce))
                writer.write(b"TAKEN\n" if taken else b"HELD\n")
                writer.close()
                return None
            hello, theirs = PeerHello.decode(line, secret, nonce)
        except (TimeoutError, ValueError, ConnectionError) as exc:  # (a line over the limit: ValueError)
            SOURCE.set(address)  # one stranger's refusals are rate-limited in the log (door.net.logs)
            log.warning("peer hello from %s refused: %s", address, exc or "no hello in time")
            writer.write(REFUSAL)
            writer.close()
            return None
        writer.write(welcome(secret, nonce, theirs))
        return hello

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = address_of(writer.get_extra_info("peername"))
        if by_address[address] >= PENDING_PER_ADDRESS:
            writer.transport.abort()
            return
        if len(waiting) >= PENDING_LIMIT:  # room is made at the address that holds the most places
            crowded = max(by_address.values())
            oldest = next(w for w, a in waiting.items() if by_address[a] == crowded)
            by_address[waiting.pop(oldest)] -= 1
            oldest.transport.abort()  # (its handshake then ends, without a word)
        waiting[writer] = address
        by_address[address] += 1
        try:
            hello = await handshake(reader, writer, address)
        finally:
            if waiting.pop(writer, None) is not None:
                by_address[address] -= 1
            if by_address[address] <= 0:
                del by_address[address]
        if hello is None or writer.is_closing():
            return
        terminal = PeerTerminal(reader, writer, hello)
        try:
            await terminal.run_session(lambda _: session(terminal, hello))
        except asyncio.CancelledError:
            pass  # the server is stopping; this handler is the task's outermost frame

    class Gated(asyncio.StreamReaderProtocol):
        """A connection from an address with all its waiting places taken
        is aborted here, before a stream or a task is made for it (a
        stranger renewing silent connections costs the door as little as
        it can)."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            if by_address[address_of(transport.get_extra_info("peername"))] >= PENDING_PER_ADDRESS:
                assert isinstance(transport, asyncio.Transport)
                transport.abort()
                return
            super().connection_made(transport)

    server = await asyncio.get_running_loop().create_server(
        lambda: Gated(asyncio.StreamReader(limit=HELLO_LIMIT), handle), bind.host, bind.port, ssl=tls,
        ssl_handshake_timeout=HELLO_TIMEOUT if tls is not None else None)
    return Listener("peer", server, server.sockets)


async def connect_peer(address: str, port: int, secret: bytes, hello: PeerHello,
                       tls: ssl.SSLContext | None = None,
                       source: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """Hand ``hello``'s caller to the node at ``address``:``port``: the
    connection once the handshake is done and the node proved it holds
    ``secret``, ready to relay the caller's bytes; ``None`` when it cannot
    be reached, or does not prove it, within :data:`HELLO_TIMEOUT` seconds
    a step.  ``tls``: over TLS (:func:`peer_tls`); ``source``: the local
    address to call from (this node's ``peer_host``, so that a firewall
    rule written for it holds)."""
    opened = await _open(address, port, tls, source)
    if opened is None:
        return None
    reader, writer = opened
    try:
        line = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
        if not line.startswith(b"NONCE "):
            raise ValueError("no nonce")
        nonce = bytes.fromhex(line[6:].strip().decode("ascii"))
        if len(nonce) != NONCE_BYTES:
            raise ValueError("a nonce of the wrong length")
        sent, mine = hello.encode(secret, nonce)
        writer.write(sent)
        answer = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
        if not hmac.compare_digest(answer, welcome(secret, nonce, mine)):
            raise ValueError("no welcome signed with this store's peer secret")
    except (TimeoutError, OSError, ValueError, UnicodeDecodeError) as exc:
        log.warning("node at %s:%d did not prove itself: %s", address, port, exc or "no answer in time")
        writer.close()
        return None
    return reader, writer
