"""Tournaments by the game protocol: the open and running ones
(``tournaments``), entering one or withdrawing before it starts
(``enter``, ``withdraw``) and one as it stands (``standings``), over the
flows the screens' T uses (:mod:`door.caller.tournaments`)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.tournaments import enter_or_withdraw, tournament_list, tournament_standings

__all__ = ["entry", "send_tournaments", "standings"]


async def send_tournaments(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``tournaments``: the open and running tournaments, each with whether the program entered."""
    side.send({"type": "tournaments", "tournaments": await tournament_list(side, side.who.name)})
    return False


async def entry(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``enter`` or ``withdraw``: a ``notice``, or an ``error`` on ``name`` saying why not."""
    enter = message["type"] == "enter"
    refused = await enter_or_withdraw(side, message["name"], side.who.name, enter) if side.who.account else \
        "tournaments are for registered callers and bots"
    if refused is None:
        side.notice(f"You are {'in' if enter else 'out of'} {message['name']}.")
    else:
        side.error("name", refused)
    return False


async def standings(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``standings``: the tournament ``name`` as it stands, or an ``error`` on ``name``."""
    shown = await tournament_standings(side, message["name"])
    if isinstance(shown, str):
        side.error("name", shown)
    else:
        side.send(shown)
    return False
