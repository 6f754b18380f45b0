"""The table alone, without sockets or screens: two scripted
seats, the queue's commands, and what the table says and keeps when a
player leaves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from door.play.commands import Abandon, Leave, Quit, Submit
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from engine.actions import Action
from engine.events import Event, GameOver
from engine.game import Game
from engine.players import GreedyPlayer
from engine.rules import Rules
from engine.shuffle import player_seed
from engine.strategy import choose_action

ANN = Identity.of_account(1)


class Scripted:
    """A seat that plays greedily at once, remembers what it was told, and
    answers "play again?" with ``again``."""

    computer = False

    def __init__(self, name: str, identity: Identity | None = None, again: bool = False) -> None:
        self.name, self.identity, self.again = name, identity, again
        self.shuffle_seed = player_seed(name)
        self.table: Table | None = None
        self.index = 0
        self.player = GreedyPlayer(random.Random(len(name)))
        self.notices: list[str] = []
        self.events: list[Event] = []
        self.finished = False
        self.acting = True

    def attach(self, table: Table, index: int) -> None:
        self.table, self.index = table, index

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        self.events.extend(events)
        if self.acting and self.index in game.to_act() and not game.over:
            assert self.table is not None
            action: Action = choose_action(game, self.index, self.player)
            self.table.submit(self.index, action)

    def rejected(self, message: str) -> None:
        self.notices.append(f"refused: {message}")  # (a move asked twice for one turn: the second is refused)

    async def play_again(self) -> bool:
        return self.again

    def on_chat(self, line: tuple[float, str, str]) -> None:
        pass

    def notice(self, text: str) -> None:
        self.notices.append(text)

    def finish(self) -> None:
        self.finished = True


def test_the_queue_carries_frozen_commands() -> None:
    table = Table(Rules(), [Scripted("Ann"), Scripted("Bob")], TableSettings(auto_deal=True))
    game = Game(Rules(), 1)
    game.start()
    move = choose_action(game, 0, GreedyPlayer())
    table.submit(0, move)
    table.leave(1)
    table.quit(0)
    table.abandon(1)
    queued = [table._queue.get_nowait() for _ in range(4)]
    assert [type(c) for c in queued] == [Submit, Leave, Quit, Abandon]
    assert [c.seat for c in queued] == [0, 1, 0, 1] and queued[0] == Submit(0, move)


async def test_two_seats_play_a_whole_game() -> None:
    seats = [Scripted("Ann"), Scripted("Bob")]
    table = Table(Rules(game_to=61), seats, TableSettings(numbers=lambda: 7, auto_deal=True))
    await asyncio.wait_for(table.run(), 30)
    assert table.game is not None and table.game.over
    assert any(isinstance(e, GameOver) for e in seats[0].events)
    assert all(s.finished for s in seats) and table.ended.is_set()
    assert table.ending.forfeit is None and not table.ending.parting


async def test_a_game_the_door_numbers_is_dealt_from_seeds_and_each_player_is_told_the_commitment() -> None:
    seats = [Scripted("Ann"), Scripted("Bob")]
    table = Table(Rules(game_to=61), seats, TableSettings(auto_deal=True))
    await asyncio.wait_for(table.run(), 30)
    game = table.game
    assert game is not None and game.shuffle is not None and game.shuffle.game == game.number
    assert game.shuffle.player_seeds == (player_seed("Ann"), player_seed("Bob"))
    assert game.dealt[1] == tuple(game.shuffle.deck(1)[:13])
    for seat in seats:
        said = [n for n in seat.notices if "commits to" in n]
        assert said == [f"Shuffle: the door's seed commits to {game.shuffle.commitment} (SHA-256); your seed is "
                        f"{seat.shuffle_seed}. The seed is shown when the game ends."]
    # a number given (a numbered game, a daily deal) deals that number's shuffle: no seeds
    numbered = Table(Rules(game_to=61), [Scripted("Ann"), Scripted("Bob")], TableSettings(numbers=lambda: 7, auto_deal=True))
    await asyncio.wait_for(numbered.run(), 30)
    assert numbered.game is not None and numbered.game.shuffle is None


async def test_a_player_who_quits_a_game_against_a_person_forfeits_it_and_the_other_is_told() -> None:
    seats = [Scripted("Ann", ANN), Scripted("Sysop", Identity.of_sysop("Sysop"))]
    seats[0].acting = seats[1].acting = False  # nobody moves: the quit comes first
    table = Table(Rules(), seats, TableSettings(rejoin_timeout=60, auto_deal=True))
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.quit(1)
    await asyncio.wait_for(running, 5)
    assert table.ending.forfeit == 1 and table.ending.left == 1
    assert table.ending.parting == {0: "Sysop left the game: you win by forfeit."}
    assert any("left the game" in n for n in seats[0].notices)


async def test_a_guest_whose_line_drops_between_people_forfeits_at_once() -> None:
    seats = [Scripted("Ann", ANN), Scripted("Gus", None)]
    seats[0].acting = seats[1].acting = False
    table = Table(Rules(), seats, TableSettings(rejoin_timeout=60, auto_deal=True))
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.leave(1)
    await asyncio.wait_for(running, 5)
    assert table.ending.forfeit == 1 and "a guest cannot come back" in table.ending.parting[0]


async def test_a_registered_player_whose_line_drops_is_waited_for() -> None:
    seats = [Scripted("Ann", ANN), Scripted("Bob", Identity.of_account(2))]
    seats[0].acting = seats[1].acting = False
    table = Table(Rules(), seats, TableSettings(rejoin_timeout=0.3, auto_deal=True))
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.leave(1)
    await asyncio.sleep(0.1)
    assert table.absent == {1} and not running.done()
    assert any("line dropped" in n for n in seats[0].notices)
    await asyncio.wait_for(running, 5)  # nobody came back within the 0.3 s
    assert table.ending.forfeit is None and table.ending.abandoned is None


async def test_abandoning_ends_the_match() -> None:
    seats = [Scripted("Ann", ANN), Scripted("Bob", Identity.of_account(2))]
    seats[0].acting = seats[1].acting = False
    table = Table(Rules(), seats, TableSettings(rejoin_timeout=60, auto_deal=True))
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.abandon(0)
    await asyncio.wait_for(running, 5)
    assert table.ending.abandoned == 0 and table.ending.forfeit is None
