"""The golden screens: every screen of the door as text, so that
a change of layout shows in the diff of ``tests/golden/*.txt``.

Each screen is painted by the door's own code into an in-memory terminal
(pyte, 80x24, UTF-8) at a fixed state: game 7 played by the greedy player
for both seats, a registered caller "Ann" with no games yet, the sysop
"Sysop".  Clock times are written ``HH:MM``.  ``tests/screen/test_golden.py``
compares; ``python3 scripts/golden_screens.py`` writes them anew.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pyte

from door.caller.club import final_lines
from door.caller.identity import Caller
from door.caller.login import login
from door.caller.menu import MenuState, main_menu, show_statistics, show_top_players
from door.caller.options_screen import ask_game_options
from door.caller.side import CallerSide
from door.config import CallerConfig, PagingConfig
from door.context import DoorContext
from door.net.charset import UTF8
from door.play.controller import Seating, prompt_for
from door.play.game_view import paint_game
from door.play.options import CallerOptions
from door.play.review_words import review_lines
from door.play.view_state import Mode, ViewState
from door.records.passwords import hash_password
from door.records.ranked.club_scoring import ClubResult, standings
from door.records.ranked.match import MatchTerms
from door.records.ranked.ratings import MatchRecord
from door.records.store import DATABASE_NAME, Store
from door.sysop.console import SysopConsole
from door.sysop.doing import Doing
from door.sysop.lobby import Lobby
from door.ui.canvas import Canvas
from door.ui.display import Display
from door.ui.prompts import show_page, show_pages
from door.ui.renderer import Renderer
from door.ui.words import describe
from engine.events import CutForDeal, Event, HandCounted, HandDealt
from engine.expert import ExpertPlayer
from engine.game import Game, Phase
from engine.game_review import review_game
from engine.players import GreedyPlayer, RandomPlayer
from engine.rules import Counting, Rules
from engine.shuffle import SeedChain
from engine.strategy import choose_action
from engine.tally import GameTally
from tests.support.memory_terminal import MemoryTerminal

__all__ = ["SCREENS", "render_all", "GOLDEN_DIR"]

GOLDEN_DIR = Path(__file__).resolve().parent
SCREENS = ("name", "menu", "options", "chat", "discard", "play", "show", "review", "statistics", "console",
           "watch", "match", "top_rated", "game_review", "club_standings")
NAMES = ["Ann", "Computer"]
NUMBER = 7


def _masked(text: str) -> str:
    return re.sub(r"\b\d\d:\d\d\b", "HH:MM", text)


def _painted(game: Game, vs: ViewState, me: int = 0) -> str:
    canvas = Canvas(80, 24)
    paint_game(canvas, game, me, NAMES, vs)
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(Renderer(UTF8).render(canvas))
    return "\n".join(line.rstrip() for line in screen.display)


class _Viewer:
    """Seat 0's view state fed with the game's events as the human seat
    feeds it (messages, the cut, the counts of the show and their review)."""

    def __init__(self) -> None:
        self.vs = ViewState()
        self.watched: list[str] = []  # the same events as a watcher reads them
        self.tally = GameTally()
        self.counted: list[HandCounted] = []

    def feed(self, events: list[Event]) -> None:
        self.tally.feed(events)
        vs = self.vs
        for event in events:
            if isinstance(event, CutForDeal):
                vs.cut = " ".join(describe(event, 0, NAMES)[-2:])
            elif isinstance(event, HandCounted):
                self.counted.append(event)
            elif isinstance(event, HandDealt) and self.counted:
                vs.review, self.counted = self.counted, []
                done = [h for h in self.tally.hands if h.number == event.number - 1]
                vs.recap = done[-1] if done else None
            vs.say(*describe(event, 0, NAMES))
            self.watched.extend(describe(event, -1, NAMES))


def _game_screens() -> dict[str, str]:
    """chat, discard, play, show, review and watch, from game 7."""
    out: dict[str, str] = {}
    game = Game(Rules(), NUMBER)
    viewer = _Viewer()
    vs = viewer.vs
    viewer.feed(game.start())
    greedy = GreedyPlayer()
    prompt_for(vs, game, Seating(0, ("Ann", "Computer"), dealt=False))
    out["chat"] = _painted(game, vs)
    vs.series = MatchTerms(3, rated=True).score_words((1, 0))  # a rated match's header
    out["match"] = _painted(game, vs)
    vs.series = ""
    prompt_for(vs, game, Seating(0, ("Ann", "Computer")))
    vs.cursor = 2
    vs.selected = [sorted(game.hands[0])[1]]
    prompt_for(vs, game, Seating(0, ("Ann", "Computer")))
    out["discard"] = _painted(game, vs)
    vs.selected = []

    def until(done: Callable[[], bool]) -> None:
        while not done():
            seat = game.to_act()[0]
            viewer.feed(game.apply(choose_action(game, seat, greedy)))

    until(lambda: game.phase is Phase.PLAY and 0 in game.to_act() and len(game.played[0]) >= 1)
    prompt_for(vs, game, Seating(0, ("Ann", "Computer")))
    out["play"] = _painted(game, vs)
    watcher = ViewState(mode=Mode.WAIT, spectator=True, log=list(viewer.watched), msg_top=vs.msg_top)
    watcher.prompt = "Watching Ann against Computer. ESC or Q stops watching."
    out["watch"] = _painted(game, watcher)
    until(lambda: game.phase is Phase.SHOW and 0 in game.to_act())
    prompt_for(vs, game, Seating(0, ("Ann", "Computer")))
    vs.typed = "8"
    out["show"] = _painted(game, vs)
    vs.typed = ""
    until(lambda: game.hand_number == 2)
    prompt_for(vs, game, Seating(0, ("Ann", "Computer"), dealt=False))
    out["review"] = _painted(game, vs)
    return out


async def _first_frame(terminal: MemoryTerminal, run: Callable[[], Awaitable[Any]]) -> str:
    """Start a screen's coroutine, let it paint, take the screen, stop it."""
    task = asyncio.ensure_future(run())
    for _ in range(20):
        await asyncio.sleep(0.01)
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Exception):
        pass
    return terminal.text()


def _review() -> list[str]:
    """The review of Ann's game 7 to 61 (Ann plays at random, the expert against her), first page."""
    rules = Rules(game_to=61, counting=Counting.AUTOMATIC)
    game = Game(rules, NUMBER)
    game.start()
    players = [RandomPlayer(random.Random(NUMBER)), ExpertPlayer(random.Random(-NUMBER))]
    while not game.over:
        seat = game.to_act()[0]
        game.apply(choose_action(game, seat, players[seat]))
    return review_lines(review_game(rules, NUMBER, game.actions, 0), NUMBER, "Computer")


async def _rated_matches(store: Store, ann: int) -> None:
    """Ann and Bob play 21 rated matches, Ann winning two in three
    (both established: RD under 100), then Bob beats Cy and Cy beats Dee
    (provisional): the ratings page has both kinds."""
    ids = {"Ann": ann}
    for name in ("Bob", "Cy", "Dee"):
        ids[name] = (await store.accounts.create(name, hash_password(f"{name}-secret"))).id
    played = [("Ann", "Bob", i % 3 != 2) for i in range(21)] + [("Bob", "Cy", True), ("Cy", "Dee", True)]
    for a, b, first_won in played:
        await store.ratings.record(MatchRecord((a, b), (ids[a], ids[b]), 3, True, (2, 1) if first_won else (1, 2),
                                               0 if first_won else 1))


async def _door_screens() -> dict[str, str]:
    """name, menu, options, statistics and console, on in-memory terminals."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / DATABASE_NAME)
        try:
            account = await store.accounts.create("Ann", hash_password("ann-secret"))
            ann = Caller("Ann", account)
            await _rated_matches(store, account.id)
            lobby = Lobby(PagingConfig())
            ctx = DoorContext(Rules(), 0.0, store, lobby=lobby)
            screens: dict[str, Callable[[Display], Awaitable[Any]]] = {
                "name": lambda d: login(CallerSide(d, ctx, Lobby(PagingConfig()).join(99, d.terminal),
                                                   logging.getLogger(__name__)), None, None),
                "menu": lambda d: main_menu(d, ann, MenuState(sysop_available=lambda: True)),
                "options": lambda d: ask_game_options(d, Rules(), CallerConfig(), CallerOptions(),
                                                      commitment=SeedChain("ab" * 32).anchor),
                "statistics": lambda d: show_statistics(d, store, ann),
                "top_rated": lambda d: show_top_players(d, store),
                "game_review": lambda d: show_pages(d, "Game review", _review()),
                "club_standings": lambda d: show_page(d, "Club night", final_lines(standings(
                    ["Ann", "Bob", "Cy", "Dee", "Eve"],
                    [ClubResult(1, ("Ann", "Bob"), 0, (121, 85), skunk=True), ClubResult(1, ("Cy", "Dee"), 0, (121, 110)),
                     ClubResult(1, ("Eve", None), 1, (97, 121)), ClubResult(2, ("Ann", "Cy"), 1, (119, 121)),
                     ClubResult(2, ("Bob", "Eve"), 1, (100, 121)), ClubResult(2, ("Dee", None), 0, (121, 104))]))),
            }
            for name, run in screens.items():
                terminal = MemoryTerminal()
                out[name] = await _first_frame(terminal, lambda run=run, t=terminal: run(Display(t)))
            # the console: two callers on line, one in the menu, one choosing options
            for conn, (who, doing) in enumerate((("Ann", Doing.MAIN_MENU), ("Bob", Doing.CHOOSING_OPTIONS)), 1):
                presence = lobby.join(conn, MemoryTerminal())
                presence.name = who
                lobby.update(presence, doing)
            terminal = MemoryTerminal()
            sysop = lobby.join(9, terminal)
            console = SysopConsole(Display(terminal), lobby, "Sysop", sysop)
            sysop.is_sysop = True
            console.say("you are available")
            out["console"] = await _first_frame(terminal, console.run)
        finally:
            await store.close()
    return out


async def render_all() -> dict[str, str]:
    """Every golden screen's text, by name (:data:`SCREENS`)."""
    out = _game_screens()
    out.update(await _door_screens())
    return {name: _masked(out[name]) + "\n" for name in SCREENS}
