"""A caller's session (seed 004's flow, with accounts and records): who is
calling, an unfinished game to resume, the main menu, then games against the
computer until the caller leaves or hangs up."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets

from engine.notation import replay_with_events
from engine.rules import Rules
from engine.strategy import EasyPlayer, SensiblePlayer, Strategy

from .context import DoorContext
from .display import Display
from .journal import Journal
from .login import Caller, login
from .menus import main_menu, show_recent_games, show_statistics, show_top_players
from .options import CallerOptions, Pace, Skill
from .options_screen import ask_game_options
from .prompts import ask_choice, ask_line, goodbye
from .seats import ComputerSeat, HumanSeat
from .store import SavedGame
from .table import Table, new_game_number
from .terminal import Terminal

__all__ = ["caller_session"]

Log = logging.Logger | logging.LoggerAdapter[logging.Logger]


async def caller_session(terminal: Terminal, ctx: DoorContext, log: Log) -> None:
    """Run one caller from the welcome screen to goodbye."""
    display = Display(terminal)
    caller = await login(display, ctx, terminal.username, terminal.account, log)
    if caller is None:
        return
    options = CallerOptions.from_dict(caller.account.options if caller.account else {}, ctx.caller.defaults())
    log.info("caller is %r%s", caller.name, " (guest)" if caller.guest else "")
    if not await _offer_key_link(display, ctx, caller, terminal):
        return
    saved = await ctx.store.saved_game(caller.account.id) if caller.account else None
    if saved is not None:
        answer = await _offer_resume(display, saved, caller)
        if answer is None:
            return
        if answer:
            if not await _play(display, ctx, caller, options, log, resume=saved):
                return
        else:
            await ctx.store.drop_saved_game(saved.id)
    while True:
        choice = await main_menu(display, caller)
        if choice is None:
            return
        if choice == "Q":
            break
        if choice == "1":
            ok = await _play(display, ctx, caller, options, log)
        elif choice == "2":
            text = await ask_line(display, "Numbered game", [
                "Play the deals of a numbered game (Black Dog Cribbage's Game | Select).",
                "The same number always gives the same cards.",
            ], "Game number: ", "", 6)
            if text is None:
                return
            ok = True
            if text.isdigit() and int(text) >= 1:
                fixed = await ctx.store.recorded_rules(int(text))
                ok = await _play(display, ctx, caller, options, log, number=int(text), fixed=fixed)
        elif choice == "3":
            ok = await show_statistics(display, ctx.store, caller)
        elif choice == "4":
            ok = await show_top_players(display, ctx.store)
        else:
            ok = await show_recent_games(display, ctx.store, caller)
        if not ok or terminal.closed:
            return
    goodbye(display, f"Thanks for playing cribbage, {caller.name}. Goodbye!")
    await terminal.drain()


async def _offer_key_link(display: Display, ctx: DoorContext, caller: Caller, terminal: Terminal) -> bool:
    """After a password login over SSH, offer to link the public key the
    client showed.  False on hang-up."""
    key = terminal.offered_key
    if caller.account is None or key is None:
        return True
    if await ctx.store.key_matches(caller.account.id, key):
        return True
    tail = key.split()[1][-12:] if len(key.split()) > 1 else key[-12:]
    answer = await ask_choice(display, "SSH key", [
        "Your SSH client offered a public key:",
        f"  {key.split()[0]} ...{tail}",
        "",
        f"Link it to {caller.name}, so that `ssh {caller.name}@...` logs you in without a password? (Y/N)",
    ], "YN")
    if answer is None:
        return False
    if answer == "Y":
        await ctx.store.add_ssh_key(caller.account.id, key)
    return True


async def _offer_resume(display: Display, saved: SavedGame, caller: Caller) -> bool | None:
    game, _ = replay_with_events(saved.rules, saved.number, saved.actions, saved.first_dealer)
    you, them = game.scores()
    answer = await ask_choice(display, "Unfinished game", [
        f"You have an unfinished game #{saved.number} against the computer:",
        f"hand {game.hand_number}, you {you}, Computer {them}.",
        "",
        "Resume it? (Y/N; N forgets it)",
    ], "YN")
    return None if answer is None else answer == "Y"


async def _play(display: Display, ctx: DoorContext, caller: Caller, options: CallerOptions, log: Log,
                number: int | None = None, resume: SavedGame | None = None, fixed: Rules | None = None) -> bool:
    """Games against the computer until the caller stops; False when the
    connection is gone.  ``options`` are set on the options screen first
    (and remembered for a registered caller); a resumed game keeps the rules
    it was played with, and so does a numbered game on record (``fixed``)."""
    if resume is not None:
        rules = resume.rules
    else:
        if await ask_game_options(display, ctx.rules, ctx.caller, options, fixed=fixed) is None:
            return False
        if caller.account is not None:
            await ctx.store.save_options(caller.account.id, options.to_dict())
        rules = fixed or options.game_rules(ctx.rules, [*ctx.caller.may_change, "run_mode"])
    human = HumanSeat(display, caller.name, options)
    rng = random.Random(secrets.randbits(64))
    strategy: Strategy = EasyPlayer(rng) if options.skill is Skill.EASY else SensiblePlayer(rng)
    pace = options.pace is Pace.PAUSE
    computer = ComputerSeat(strategy=strategy, delay=ctx.computer_delay,
                            pegging_pause=ctx.caller.pegging_pause if pace else 0.0,
                            hand_pause=ctx.caller.hand_pause if pace else 0.0)
    journal = None
    if caller.account is not None:
        journal = Journal(ctx.store, caller.account.id, (caller.name, computer.name), (caller.account.id, None),
                          "computer", warn=human.notice)
    numbers = iter([number]) if number is not None else iter(())
    table = Table(rules, [human, computer], lambda: next(numbers, None) or new_game_number(), journal)
    keys = asyncio.create_task(human.run())
    try:
        await table.run(resume)
    finally:
        keys.cancel()
        computer.stop()
    return not display.terminal.closed
