"""Taking a caller to another node: when no sysop is at this
server's console but one is at another serve process's on the same
store, "Play the sysop" hands the caller over to that process
(:mod:`door.net.peer_socket`), which runs the rest of their session: its
menu, the page, the game.  A registered caller whose account is on line
at another node is handed there at login, so that one node closes the
older session (one session per account across the workers).  This process only relays the caller's bytes
until either side ends, and the caller's line ends with it; but when the
other process dies, its caller stays here, told what happened."""

from __future__ import annotations

from typing import Literal

from door.caller.side import CallerSide
from door.net.peer_socket import PeerHello, connect_peer
from door.net.relay import relay
from door.net.terminal import HungUp
from door.records.database import StoreError
from door.records.nodes import Node
from door.sysop.doing import Doing
from door.ui.prompts import show_page

__all__ = ["hand_over", "Purpose"]

Purpose = Literal["sysop", "challenge", "session"]
"""Why a caller is handed over (see :func:`hand_over`)."""


async def hand_over(side: CallerSide, node: Node, purpose: Purpose = "sysop", challenge: str = "") -> None:
    """Relay ``caller`` to ``node`` until that session or the caller's line
    ends, then raise :class:`~door.net.terminal.HungUp` (this session is
    over: the caller's line ends with the one there).  Returns when the
    node cannot be reached: after telling the caller (back to the menu),
    but for ``"session"``.  ``purpose``: ``"sysop"`` (the sysop is at that node's
    console), ``"challenge"`` (to challenge the caller ``challenge``, at
    that node's main menu) or ``"session"`` (the caller's account is on
    line there: that node closes the older session and goes on with this
    one; unreachable, it is taken for dead, and this session goes on here).
    When that node dies while it has the caller (the relay ends without
    its session's orderly end), the caller stays here: told so, then back
    to what handed them over (the menu, or the login for ``"session"``)."""
    display, ctx, caller, presence, log = side.display, side.ctx, side.caller, side.presence, side.log
    terminal = display.terminal
    side.doing(Doing.GOING_TO_SYSOP if purpose == "sysop" else Doing.GOING_ELSEWHERE)
    assert ctx.link is not None  # (a node is known only through the link)
    hello = PeerHello.for_terminal(caller.name, caller.account.id if caller.account is not None else None,
                                   terminal, challenge)
    link = await connect_peer(node.address, node.port, ctx.link.secret, hello, tls=ctx.link.tls,
                              source=ctx.link.address if ctx.link.address not in ("0.0.0.0", "::", "") else None)
    if link is None:
        log.warning("node %d at %s:%d cannot be reached", node.id, node.address, node.port)
        if purpose == "session":
            return
        who = "The sysop is" if purpose == "sysop" else f"{challenge} is"
        await show_page(display, "Play the sysop" if purpose == "sysop" else "Play another caller", [
            f"{who} on another of this door's servers, which cannot be",
            "reached right now. Please try again in a minute.",
        ])
        return
    presence.away = True
    side.doing(Doing.ON_NODE, whom=str(node.id))
    log.info("%r handed to node %d at %s:%d (%s)", caller.name, node.id, node.address, node.port, purpose)
    idle, terminal.idle_timeout = terminal.idle_timeout, None  # the other node keeps the caller's idle time now
    orderly = await relay(terminal, link[0], link[1], b"")
    if orderly or terminal.closed:
        log.info("%r came back from node %d", caller.name, node.id)
        raise HungUp(f"the session went on at node {node.id}")
    # the other node died under the caller, whose own line is up: they stay here
    log.warning("node %d ended %r's session without a word (it died): %r is kept here", node.id, caller.name,
                caller.name)
    presence.away = False
    terminal.idle_timeout = idle
    if ctx.link is not None and caller.account is not None:
        try:
            await ctx.link.claim(caller.account.id, presence.conn, force=True)  # their one session is here now
        except StoreError as exc:
            log.warning("could not claim %r's session here: %s", caller.name, exc)
    display.redraw()  # (the screen shows what the other node drew)
    await show_page(display, "Back on this server", [
        f"The server you were on (node {node.id}) stopped. You are back on this one.",
        "", "A game you were playing is kept: the main menu offers it when it can go on."])
