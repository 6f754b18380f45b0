"""A table's decision clocks and its seats' failures, without sockets:
a player who stalls (sending only refused moves) loses the match on
time while the other waits; the clocks stand still while a line is
down; a chat line that breaks a presentation costs its sender; a seat
that fails when told what happened voids a rated match and charges
nobody; a session that ends leaves its seat once."""

from __future__ import annotations

import asyncio

import pytest

from door.play.decision_clock import ClockTerms, DecisionClocks, clock_words, shown_clock
from door.play.match_end import VOID_MESSAGE
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.records.identity import Identity
from door.records.ranked.match import MatchTerms
from door.sysop.doing import Doing
from engine.actions import Play
from engine.cards import Card
from engine.game import Game
from engine.rules import Rules
from tests.unit.test_lobby import lobby_of
from tests.unit.test_table import Scripted

ANN, BOB = Identity.of_account(1), Identity.of_account(2)


class Staller(Scripted):
    """A seat that never makes its move but sends a refused one (a card
    played during the discard) every tenth of a second."""

    def __init__(self, name: str, identity: Identity | None = None) -> None:
        super().__init__(name, identity)
        self.acting = False
        self.refused = 0
        self.nagging: asyncio.Task[None] | None = None

    def notify(self, game: Game, events: object) -> None:
        super().notify(game, events)  # type: ignore[arg-type]
        if self.nagging is None:
            self.nagging = asyncio.get_running_loop().create_task(self._nag())

    async def _nag(self) -> None:
        while self.table is not None and not self.finished:
            self.table.submit(self.index, Play(self.index, Card.from_str("AS")))
            await asyncio.sleep(0.1)

    def rejected(self, message: str) -> None:
        self.refused += 1

    def finish(self) -> None:
        super().finish()
        if self.nagging is not None:
            self.nagging.cancel()


def rated_table(seats: list[Scripted], seconds: float = 0.6, warning: float = 0.3) -> Table:
    return Table(Rules(game_to=61), seats, TableSettings(
        terms=MatchTerms(3, True), decision_clock=ClockTerms(seconds, warning), rejoin_timeout=60, auto_deal=True))


def test_clock_words_round_up_and_the_clocks_follow_each_decision() -> None:
    assert clock_words(0.2) == "0:01" and clock_words(61) == "1:01"
    clocks = DecisionClocks(ClockTerms(10, 3))
    assert clocks.follow({0: "a", 1: "b"}, 100.0) == [0, 1]
    assert clocks.follow({0: "a", 1: "b"}, 105.0) == []  # (the same decisions: the same clocks)
    assert clocks.left(0, 105.0) == 5.0 and clocks.next_wake(105.0) == 2.0
    assert clocks.due(107.5) == ([0, 1], [])  # warned once each
    assert clocks.due(108.0) == ([], [])
    clocks.pause(108.0)
    assert clocks.due(200.0) == ([], []) and clocks.left(0, 200.0) == 2.0 and clocks.next_wake(200.0) is None
    clocks.resume(200.0)
    assert clocks.follow({0: "a2"}, 201.0) == [0]  # seat 0 made its move and owes the next; seat 1 owes none
    assert clocks.left(0, 201.0) == 10.0 and clocks.left(1, 201.0) is None
    assert clocks.due(211.0) == ([], [0])
    assert shown_clock(clocks, 205.0, 1, ["Ann", "Bob"]) == "Ann's clock 0:06"
    assert shown_clock(clocks, 205.0, 0, ["Ann", "Bob"]) == "Your clock 0:06"
    with pytest.raises(ValueError):
        ClockTerms(0)


async def test_a_staller_loses_the_match_on_time_and_refused_moves_do_not_reset_the_clock() -> None:
    ann, bob = Scripted("Ann", ANN), Staller("Bob", BOB)
    table = rated_table([ann, bob], seconds=1.0, warning=0.5)
    await asyncio.wait_for(table.run(), 10)
    assert bob.refused >= 1  # (a refused move every tenth of a second, and still the clock ran out)
    assert table.ending.forfeit == 1 and table.series.result is not None and table.series.result.winner == 0
    assert table.series.result.forfeit and not table.ending.voided
    assert any(n.startswith("Your clock: 0:01 left for this move, then you lose the match") for n in bob.notices)
    assert "Your clock ran out: Ann wins the match." in bob.notices
    assert "Bob's clock ran out: you win the match." in ann.notices
    assert not any("Your clock:" in n for n in ann.notices), ann.notices  # (Ann moved in time: never warned)
    assert table.ending.parting[0].startswith("Ann wins the match by forfeit")


async def test_a_waiting_player_is_not_awaited_and_the_clocks_stand_still_while_a_line_is_down() -> None:
    ann, bob = Scripted("Ann", ANN), Staller("Bob", BOB)
    table = rated_table([ann, bob], seconds=0.8, warning=0.0)
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.2)
    assert table.awaits(1) and not table.awaits(0)  # Ann laid away: she waits on Bob, and is never idle
    table.leave(1, bob)
    await asyncio.sleep(0.05)
    left = table.clock_left(1)
    await asyncio.sleep(1.0)  # longer than the clock: it stands still while Bob's line is down
    assert not running.done() and table.clock_left(1) == left and table.absent == {1}
    assert not table.awaits(0)
    back = Staller("Bob", BOB)
    table.rejoin(1, back)
    await asyncio.wait_for(running, 5)
    assert table.ending.forfeit == 1 and "Your clock ran out: Ann wins the match." in back.notices


class Fragile(Scripted):
    """A seat whose presentation raises on a chat line, or when told of
    events after ``break_after`` of them."""

    def __init__(self, name: str, identity: Identity | None = None, break_after: int | None = None) -> None:
        super().__init__(name, identity)
        self.break_after = break_after

    def on_chat(self, line: tuple[float, str, str]) -> None:
        raise UnicodeEncodeError("cp437", line[2], 0, 1, "surrogates not allowed")

    def notify(self, game: Game, events: object) -> None:
        super().notify(game, events)  # type: ignore[arg-type]
        if self.break_after is not None and len(self.events) > self.break_after:
            raise RuntimeError("the door's own bug, telling a move")


async def test_a_chat_line_that_breaks_the_other_presentation_costs_its_sender() -> None:
    ann, bob = Scripted("Ann", ANN), Fragile("Bob", BOB)
    ann.acting = bob.acting = False
    table = rated_table([ann, bob], seconds=30)
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.chat(0, "\ud800x")
    await asyncio.sleep(0.05)
    assert table.absent == {0}  # Ann's seat left as a dropped line does: the grace runs for her
    assert any(n.startswith("Ann's line dropped.") for n in bob.notices)  # Bob is told at once
    table.abandon(0)  # (Ann gives it up: she forfeits, Bob wins)
    await asyncio.wait_for(running, 5)
    assert table.series.result is not None and table.series.result.winner == 1


async def test_a_seat_that_fails_when_told_what_happened_voids_a_rated_match() -> None:
    ann, bob = Scripted("Ann", ANN), Fragile("Bob", BOB, break_after=8)
    table = rated_table([ann, bob], seconds=30)
    await asyncio.wait_for(table.run(), 10)
    result = table.series.result
    assert table.ending.voided and result is not None and result.void and result.aborted and result.leaver is None
    assert VOID_MESSAGE in ann.notices and VOID_MESSAGE in bob.notices
    assert result.words(("Ann", "Bob")) == "The door failed during the match: it is void, and not rated."
    assert table.ending.forfeit is None and table.ending.parting == {0: VOID_MESSAGE, 1: VOID_MESSAGE}


async def test_a_session_that_ends_leaves_its_seat_once_and_never_a_seat_taken_back() -> None:
    ann, bob = Scripted("Ann", ANN), Scripted("Bob", BOB)
    ann.acting = bob.acting = False
    table = rated_table([ann, bob], seconds=30)
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.05)
    table.leave_seat(bob)  # the key loop says so
    table.leave_seat(bob)  # and the end of the session again: one drop, the game waits
    await asyncio.sleep(0.05)
    assert table.absent == {1} and not running.done()
    back = Scripted("Bob", BOB)
    back.acting = False
    table.rejoin(1, back)
    table.leave_seat(bob)  # the old session's end, late: the seat is Bob's new one's now
    await asyncio.sleep(0.05)
    assert table.absent == set() and not running.done()
    table.quit(1)
    await asyncio.wait_for(running, 5)


async def test_a_session_that_ends_or_goes_on_to_anything_else_leaves_the_seat_it_held() -> None:
    """The lobby is the one place: a connection that ends (whatever ended
    its session) or a session that goes on to the menu while its seat is
    still at a running table leaves that seat as a dropped line does."""
    lobby, (ann_here, bob_here) = lobby_of("Ann", "Bob")
    ann, bob = Scripted("Ann", ANN), Scripted("Bob", BOB)
    ann.acting = bob.acting = False
    table = rated_table([ann, bob], seconds=30)
    running = asyncio.create_task(table.run())
    lobby.update(ann_here, Doing.VS_CALLER, table, "Bob", ann)
    lobby.update(bob_here, Doing.VS_CALLER, table, "Ann", bob)
    lobby.update(bob_here, Doing.VS_CALLER, table, "Ann", bob)  # (the same seat again: nothing)
    await asyncio.sleep(0.05)
    assert table.absent == set()
    lobby.update(bob_here, Doing.MAIN_MENU)  # Bob's screen failed and he is at the menu: his seat is left
    await asyncio.sleep(0.05)
    assert table.absent == {1} and any(n.startswith("Bob's line dropped.") for n in ann.notices)
    table.rejoin(1, back := Scripted("Bob", BOB))
    back.acting = False
    lobby.leave(ann_here)  # Ann's connection ends, however her session ended
    await asyncio.sleep(0.05)
    assert table.absent == {0} and any(n.startswith("Ann's line dropped.") for n in back.notices)
    table.abandon(0)
    await asyncio.wait_for(running, 5)


async def test_a_player_who_drops_and_comes_back_again_and_again_has_one_grace_in_all() -> None:
    """At a table with clocks the clocks stand still while a line is down,
    so each drop must not bring a grace of its own: a staller could drop
    and come back for ever. The drops share one grace; past it, the
    player who keeps leaving forfeits."""
    ann, bob = Scripted("Ann", ANN), Staller("Bob", BOB)
    table = Table(Rules(game_to=61), [ann, bob], TableSettings(
        terms=MatchTerms(3, True), decision_clock=ClockTerms(30, 0), rejoin_timeout=0.6, auto_deal=True))
    running = asyncio.create_task(table.run())
    await asyncio.sleep(0.1)
    seat: Scripted = bob
    for _ in range(2):  # away 0.35 s, twice: more than the one grace of 0.6 s in all
        table.leave(1, seat)
        await asyncio.sleep(0.35)
        if running.done():
            break
        seat = Staller("Bob", BOB)
        table.rejoin(1, seat)
        await asyncio.sleep(0.05)
    await asyncio.wait_for(running, 5)
    assert table.ending.forfeit == 1 and table.series.result is not None and table.series.result.winner == 0
    assert any(n.endswith("waits up to 1 second for them to come back.") for n in ann.notices)
