"""The lobby alone, without sockets: presences and what they
are doing, challenges and their cool-downs, pages, the games that wait for
a dropped player, and what the other nodes are told and tell."""

from __future__ import annotations

import asyncio

from door.config import PagingConfig
from door.records.identity import Identity
from door.records.nodes import Node, Present
from door.sysop.doing import Activity, Doing
from door.sysop.lobby import CHALLENGE_COOLDOWN, Lobby
from door.sysop.presence import Presence, challenger_key
from engine.rules import Rules
from tests.support.memory_terminal import MemoryTerminal


def lobby_of(*names: str, clock: list[float] | None = None) -> tuple[Lobby, list[Presence]]:
    """A lobby with one caller at the main menu per name (connections 1, 2, ...)."""
    lobby = Lobby(PagingConfig(page_timeout=30))
    if clock is not None:
        lobby.clock = lambda: clock[0]
    people = []
    for conn, name in enumerate(names, 1):
        p = lobby.join(conn, MemoryTerminal())
        p.name = name
        lobby.update(p, Doing.MAIN_MENU)
        lobby.at_menu(p, True)
        people.append(p)
    return lobby, people


async def test_what_a_caller_does_is_set_in_one_place_and_worded_when_shown() -> None:
    lobby, (ann,) = lobby_of("Ann")
    changes: list[int] = []
    lobby.on_change = lambda: changes.append(1)
    lobby.update(ann, Doing.VS_CALLER, whom="Bob")
    assert ann.doing == Activity(Doing.VS_CALLER, "Bob") and ann.activity() == "vs Bob"
    assert changes  # the node link hears of it
    assert lobby.local_people() == [("Ann", "VS_CALLER Bob", False)]


async def test_the_other_nodes_are_read_by_value_not_by_words() -> None:
    lobby, _ = lobby_of()
    nodes = {2: Node(2, "127.0.0.1", 4000, 1, 1)}
    people = [Present(2, "Syd", Activity(Doing.AVAILABLE).encode(), True),
              Present(2, "Ann", Activity(Doing.MAIN_MENU).encode(), False),
              Present(2, "Bob", "main menu", False)]  # words of another version: not a menu to challenge at
    lobby.set_elsewhere(nodes, people)
    assert lobby.sysop_elsewhere() == nodes[2]
    assert [p.name for p in lobby.opponents_elsewhere()] == ["Ann"]


async def test_leaving_ends_what_the_presence_was_part_of() -> None:
    lobby, (ann, bob) = lobby_of("Ann", "Bob")
    waiting = asyncio.create_task(lobby.challenge(ann, bob, Rules()))
    await asyncio.sleep(0)
    assert lobby.challenge_for(bob) is not None
    lobby.leave(bob)
    challenge = await asyncio.wait_for(waiting, 1)
    assert challenge.answer.result() is None and bob.ended.is_set()
    assert bob.conn not in lobby.presences and bob not in lobby.opponents(ann)


async def test_a_declined_challenge_cools_down_for_the_challenger_and_their_address() -> None:
    clock = [1000.0]
    lobby, (ann, bob, cy) = lobby_of("Ann", "Bob", "Cy", clock=clock)
    ann.identity = Identity.of_account(1)
    waiting = asyncio.create_task(lobby.challenge(ann, bob, Rules()))
    await asyncio.sleep(0)
    challenge = lobby.challenge_for(bob)
    assert challenge is not None and lobby.answer_challenge(challenge, None)
    await waiting
    assert bob not in lobby.opponents(ann)  # the account
    assert bob not in lobby.opponents(cy)  # anybody at the same address (all MemoryTerminals share one)
    assert challenger_key(ann) == "account:1" and challenger_key(cy).startswith("guest@")
    clock[0] += CHALLENGE_COOLDOWN
    assert bob in lobby.opponents(ann)


async def test_a_caller_who_turned_challenges_off_is_not_offered() -> None:
    lobby, (ann, bob) = lobby_of("Ann", "Bob")
    bob.challengeable = False
    assert lobby.opponents(ann) == [] and not lobby.has_opponents(ann)


async def test_a_page_rings_until_a_sysop_answers() -> None:
    class Desk:
        name, available, busy = "Sysop", True, False
        display = None
        rung: list[object] = []

        def lobby_changed(self) -> None:
            pass

        def ring(self, page: object) -> None:
            self.rung.append(page)

    lobby, (ann,) = lobby_of("Ann")
    desk = Desk()
    lobby.add_console(desk)  # type: ignore[arg-type]
    assert lobby.sysop_available()
    paging = asyncio.create_task(lobby.page(ann, "a game?"))
    await asyncio.sleep(0)
    assert desk.rung and lobby.pages[0].reason == "a game?"
    assert lobby.answer(lobby.pages[0], None)
    assert await asyncio.wait_for(paging, 1) is None
    assert not lobby.pages


async def test_a_waiting_game_goes_back_to_the_identity_that_left_it_never_to_a_name() -> None:
    from door.play.table import Table
    from door.play.table_settings import TableSettings
    from tests.unit.test_table import Scripted

    lobby, _ = lobby_of()
    flo = Identity.of_account(7)
    seats = [Scripted("Flo", flo), Scripted("Sysop", Identity.of_sysop("Sysop"))]
    table = Table(Rules(), seats, TableSettings(rejoin_timeout=60, auto_deal=True))
    lobby.tables.add(table)
    table.absent.add(0)
    assert lobby.waiting_table(flo) == (table, 0)
    assert lobby.waiting_table(Identity.of_account(8)) is None and lobby.waiting_table(None) is None
    assert lobby.at_a_table(Identity.of_sysop("SYSOP"))  # the same sysop, whatever the case
