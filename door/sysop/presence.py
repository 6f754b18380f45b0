"""Who is on line and what they ask for: a connection as the console
lists it (:class:`Presence`), a page for the sysop and the invitation that
answers it, a challenge between callers, and the identities presences and
seats carry."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from door.net.peer_socket import PeerTurn
from door.net.terminal import Terminal
from door.records.clock import WALL, Clock
from door.records.identity import Identity
from door.records.ranked.match import MatchTerms
from door.sysop.doing import Activity, Doing
from door.ui.display import Presentation
from engine.rules import Rules

if TYPE_CHECKING:
    from door.play.human_seat import HumanSeat
    from door.play.table import Seat, Table
    from door.records.store import SavedGame
    from door.ui.display import Display

__all__ = ["Presence", "tell_turn_here", "Page", "Invitation", "Challenge", "Console", "account_identity", "account_of",
           "sysop_identity", "challenger_key", "challenger_keys"]


def account_identity(account_id: int) -> Identity:
    """The identity of a registered caller, as seats and presences carry it."""
    return Identity.of_account(account_id)


def account_of(identity: Identity | None) -> int | None:
    """The account id of ``identity``, else ``None`` (a sysop, a guest)."""
    return None if identity is None else identity.account


def challenger_key(presence: Presence) -> str:
    """Who sends a challenge, as a declined one is remembered: the
    account, or for a guest the address they call from, so that calling
    again (or under another name) does not lift the
    :data:`~door.sysop.lobby.CHALLENGE_COOLDOWN`."""
    if presence.identity is not None:
        return str(presence.identity)
    return "guest@" + presence.terminal.address


def challenger_keys(presence: Presence) -> tuple[str, ...]:
    """Every key a declined or withdrawn challenge is remembered by: the
    challenger's (:func:`challenger_key`) and their address's."""
    return challenger_key(presence), "from@" + presence.terminal.address


def sysop_identity(name: str) -> Identity:
    """The identity of the ``[[sysop]]`` entry ``name``."""
    return Identity.of_sysop(name)


class Console(Protocol):
    """What the lobby needs of a sysop console."""

    name: str
    available: bool
    busy: bool
    display: Display

    def lobby_changed(self) -> None:
        """Something the console lists changed: redraw."""

    def ring(self, page: Page) -> None:
        """A new page: ring the bell and show the banner."""


@dataclass(eq=False)
class Presence:
    """A connection as the console lists it: ``name`` (empty while logging
    in), what the person is ``doing``, the ``table`` of their game, and
    ``messages`` from the sysop not yet shown."""

    conn: int
    terminal: Terminal
    name: str = ""
    doing: Activity = Activity(Doing.LOGGING_IN)
    table: Table | None = None
    seat: Seat | None = None
    """The seat this connection holds at ``table``, if it plays there."""
    is_sysop: bool = False
    messages: list[str] = field(default_factory=list)
    deliver: Callable[[str], None] | None = None
    """Shows a sentence at once; set while a screen can (a game, the menu)."""
    identity: Identity | None = None
    """Who this is as the transport or a password proved it
    (:func:`account_identity`, :func:`sysop_identity`); ``None``: a guest."""
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the connection's session is over."""
    away: bool = False
    """True once the caller is handed to another node (their session goes on there)."""
    challengeable: bool = True
    """False when the caller turned challenges off (the main menu's C)."""
    presentation: Presentation = Presentation.SCREEN
    """How the caller sees the door: the console marks screen-reader mode."""
    bot: bool = False
    """A bot (a program the sysop marked, by the game protocol): shown as one wherever it is listed."""
    your_move: Callable[[int, str], None] | None = None
    """How a program is told that a game by correspondence waits on it
    (the kept game's id, the other player's name); ``None``: told as a
    message (:meth:`tell`)."""

    def your_turn(self, game: int, number: int, other: str) -> None:
        """The kept game ``game`` (game ``number`` of its match, against
        ``other``) waits on this player now: a program is sent
        ``your_move`` (:attr:`your_move`), a caller gets a line on their
        menu (:meth:`tell`)."""
        if self.your_move is not None:
            self.your_move(game, other)
        else:
            self.tell(f"Your move in game #{number} with {other} (K on the menu).")

    def tell(self, text: str) -> None:
        """Show ``text`` now if the screen can, else keep it for the menu."""
        if self.deliver is not None:
            self.deliver(text)
        else:
            self.messages.append(text)

    def activity(self) -> str:
        """``doing`` in words, with the hand and score while in a game."""
        game = self.table.game if self.table is not None else None
        if game is not None and not game.over:
            a, b = game.scores()
            return f"{self.doing.words()}, hand {game.hand_number} {a}-{b}"
        return self.doing.words()


def tell_turn_here(presences: Iterable[Presence], turn: PeerTurn) -> bool:
    """Tell each of ``presences`` that is ``turn.account``'s (a registered
    caller or a bot; not one handed to another node) that the kept game
    ``turn.game`` waits on them (:meth:`Presence.your_turn`): True when
    one was."""
    identity, told = account_identity(turn.account), False
    for presence in list(presences):
        if presence.identity == identity and not presence.away:
            presence.your_turn(turn.game, turn.number, turn.other)
            told = True
    return told


@dataclass(eq=False)
class Invitation:
    """A page accepted by ``console``; the caller's session sends the
    sysop's seat back through ``handoff`` (``None`` if the caller left)."""

    console: Console
    handoff: asyncio.Future[HumanSeat | None]


@dataclass(eq=False)
class Page:
    """``presence`` asks for the sysop, for ``reason``, until ``deadline``
    (seconds since the epoch)."""

    presence: Presence
    reason: str
    deadline: float
    answer: asyncio.Future[Invitation | None]
    clock: Clock = WALL

    @property
    def seconds_left(self) -> int:
        """Whole seconds before the page stops ringing."""
        return max(0, int(self.deadline - self.clock() + 0.999))


@dataclass(eq=False)
class Challenge:
    """``challenger`` asks ``challenged`` to play under ``rules`` until
    ``deadline`` (seconds since the epoch); with ``resume`` (a kept game
    between the two), to go on with that game.  ``answer`` gets the
    challenged caller's seat when they accept, ``None`` otherwise;
    ``declined`` says they said no, ``withdrawn`` that the challenger
    stopped waiting."""

    challenger: Presence
    challenged: Presence
    rules: Rules
    deadline: float
    answer: asyncio.Future[Seat | None]
    resume: SavedGame | None = None
    terms: MatchTerms | None = None
    """The match offered (best of N, rated), or ``None`` for games until
    one declines another (a kept game goes on that way)."""
    declined: bool = False
    withdrawn: bool = False
    clock: Clock = WALL

    @property
    def seconds_left(self) -> int:
        """Whole seconds before the challenge lapses."""
        return max(0, int(self.deadline - self.clock() + 0.999))
