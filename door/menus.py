"""The main menu and the record screens: a player's statistics, the top
players, and the recent games with date and time (seeds 001, 002, 003)."""

from __future__ import annotations

import time
from typing import Sequence

from .display import Display
from .login import Caller
from .prompts import ask_choice, show_page
from .store import GameSummary, Store

__all__ = ["main_menu", "show_statistics", "show_top_players", "show_recent_games", "game_line"]


async def main_menu(display: Display, caller: Caller, sysop_available: bool = False,
                    messages: Sequence[str] = ()) -> str | None:
    """The caller's menu; returns the key chosen (``"1"``..``"6"``, ``"Q"``)
    or ``None`` on hang-up.  "Play the sysop" is offered while a sysop is
    available; ``messages`` from the sysop show as they arrive."""
    who = f"Welcome, {caller.name}." if not caller.guest else f"Welcome, {caller.name} (guest: nothing is kept)."
    lines = [
        who,
        "",
        "  1  Play the computer",
        "  2  Play a numbered game (the same deals as game N, 1 to 999999)",
        "  3  Your statistics",
        "  4  Top players",
        "  5  Recent games",
    ]
    keys = "12345Q"
    if sysop_available:
        lines.append("  6  Play the sysop (page the sysop)")
        keys += "6"
    lines.append("  Q  Leave the door")
    return await ask_choice(display, "Main menu", lines, keys, live=messages)


async def show_statistics(display: Display, store: Store, caller: Caller) -> bool:
    """The caller's statistics page; False on hang-up."""
    if caller.guest:
        return await show_page(display, "Statistics", [
            "Guests have no statistics.", "", "Register your name at the next call to keep your games."])
    stats = await store.statistics(caller.name)
    assert stats is not None
    lines = [f"Statistics of {stats.name}", ""]
    lines += [f"{label:<40} {value}" for label, value in stats.rows()]
    return await show_page(display, "Statistics", lines)


async def show_top_players(display: Display, store: Store) -> bool:
    """The top players by games credited; False on hang-up."""
    top = await store.top_players(12)
    lines = ["Top players", "", f"{'':>3} {'Name':<20} {'Games':>6} {'Won':>5} {'Win %':>6} {'Credited':>9}"]
    for i, p in enumerate(top, 1):
        lines.append(f"{i:>3} {p.name:<20} {p.games:>6} {p.wins:>5} {p.win_rate:>5.0f}% {p.credited:>9}")
    if not top:
        lines.append("    No games recorded yet.")
    return await show_page(display, "Top players", lines)


def game_line(g: GameSummary) -> str:
    """``"2026-11-21 11:58  #639040  Ann 121 - Computer 98  skunk"``."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.ended))
    skunk = {0: "", 1: "  skunk", 2: "  double skunk"}.get(g.skunk, "")
    a, b = g.players
    return f"{when}  #{g.number:<6}  {a} {g.scores[0]} - {b} {g.scores[1]}{skunk}"


async def show_recent_games(display: Display, store: Store, caller: Caller) -> bool:
    """The latest games (the caller's own when registered); False on hang-up."""
    games = await store.games(None if caller.guest else caller.name, limit=14)
    title = "Recent games" if caller.guest else f"Recent games of {caller.name}"
    lines = [title, ""] + [game_line(g) for g in games]
    if not games:
        lines.append("No games recorded yet.")
    return await show_page(display, "Recent games", lines)
