"""The advice a seat works out for its caller where the computer thinks,
off the event loop: the analysis of a discard."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from door.play.human_seat import HumanSeat
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.play.thinking import Thinking
from door.play.view_state import Mode
from door.records.identity import Identity
from door.ui.display import Display
from engine.game import Phase
from engine.rules import Rules
from tests.support.memory_terminal import MemoryTerminal


@pytest.mark.parametrize("hints", [True, False])
async def test_a_discards_analysis_is_worked_out_where_the_computer_thinks_only_where_hints_are_given(
        hints: bool) -> None:
    """The analysis of a caller's discard (about half a millisecond of
    search) is worked out where the computer thinks, off the event loop,
    once the discard is laid away, and kept for the end of the
    hand; in a game between people without the house's hints, never."""
    terminal = MemoryTerminal()
    thinking = Thinking(1)  # one worker process: what it answered is counted
    mine = HumanSeat(Display(terminal), "Ann", identity=Identity.of_account(1), thinking=thinking)
    theirs = HumanSeat(Display(MemoryTerminal()), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(), [mine, theirs], TableSettings(auto_deal=True, hints=hints))
    running = asyncio.create_task(table.run())
    playing = asyncio.create_task(mine.play())

    async def until(done: Callable[[], bool]) -> None:
        for _ in range(500):
            if done():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("timed out")

    try:
        await until(lambda: table.game is not None and table.game.phase is Phase.DISCARD
                    and mine.vs.mode is Mode.DISCARD)
        terminal.feed(b"\r\x1b[C\r\r")  # select, move on, select, lay the two away
        await until(lambda: table.game is not None and len(table.game.hands[0]) == 4)
        if hints:
            await until(lambda: mine.vs.discard_note.startswith("You kept"))
            assert thinking.answered == 1  # worked out in the worker, not on the event loop
        else:
            await asyncio.sleep(0.3)
            assert mine.vs.discard_note == "" and thinking.answered == 0
    finally:
        thinking.close()
        terminal.lost()
        playing.cancel()
        running.cancel()
        await asyncio.gather(playing, running, return_exceptions=True)


async def test_a_discard_submitted_again_before_it_is_applied_is_analysed_once() -> None:
    """A burst of keys can submit the same discard again before the table
    applies the first (a paste of RETURNs): its analysis is asked of the
    worker where the computer thinks, which also makes every computer's
    moves, once."""
    from door.play.controller import Submit
    from engine.actions import Discard

    thinking = Thinking(1)
    mine = HumanSeat(Display(MemoryTerminal()), "Ann", identity=Identity.of_account(1), thinking=thinking)
    theirs = HumanSeat(Display(MemoryTerminal()), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(), [mine, theirs], TableSettings(auto_deal=True, hints=True))
    running = asyncio.create_task(table.run())
    try:
        for _ in range(500):
            if table.game is not None and table.game.phase is Phase.DISCARD:
                break
            await asyncio.sleep(0.02)
        game = table.game
        assert game is not None
        discard = Submit(Discard(0, (game.hands[0][0], game.hands[0][1])))
        for _ in range(5):
            mine._carry_out(discard)
        asked = list(mine._notes)
        assert len(asked) == 1
        assert (await asyncio.wait_for(asked[0], 30)).startswith("You kept")
    finally:
        thinking.close()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_a_note_of_advice_ready_after_the_game_is_over_leaves_the_result_the_last_message() -> None:
    """The analysis of the last discard can be worked out after the game
    is over (a count reached the winning hole first): it goes to the chat
    window, and the game's result stays the last thing in the messages,
    where the caller reads it (it used to push the result off the screen)."""
    import random

    from tests.unit.test_game import random_game

    mine = HumanSeat(Display(MemoryTerminal()), "Ann", identity=Identity.of_account(1))
    theirs = HumanSeat(Display(MemoryTerminal()), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(game_to=61), [mine, theirs], TableSettings(hints=True))
    mine.table = table
    table.game = random_game(5, Rules(game_to=61), random.Random(5))
    assert table.game.over
    mine.vs.say("Bob wins 61 to 40!")
    mine._say_note("You kept 7C 7S 8C QS: 1.9 expected; best was 6D 7C 7S 8C: 9.4.", later=True)
    assert mine.vs.log[-1] == "Bob wins 61 to 40!"
    assert mine.vs.chat[-1][1:] == ("***", "You kept 7C 7S 8C QS: 1.9 expected; best was 6D 7C 7S 8C: 9.4.")


async def test_a_hint_asked_at_the_discard_stays_when_the_other_player_lays_away() -> None:
    """Ann asks for a hint (?) at the discard; Bob lays away meanwhile
    (the computer thinking a while over its discard does the same): her
    hint still holds, and stays on her screen, both marks and sentence (it
    was wiped by Bob's discard, so a caller who asked while the computer
    thought saw nothing)."""
    ann_terminal, bob_terminal = MemoryTerminal(), MemoryTerminal()
    mine = HumanSeat(Display(ann_terminal), "Ann", identity=Identity.of_account(1))
    theirs = HumanSeat(Display(bob_terminal), "Bob", identity=Identity.of_account(2))
    table = Table(Rules(), [mine, theirs], TableSettings(auto_deal=True, hints=True))
    running = asyncio.create_task(table.run())
    playing = [asyncio.create_task(mine.play()), asyncio.create_task(theirs.play())]

    async def until(done: Callable[[], bool]) -> None:
        for _ in range(500):
            if done():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("timed out")

    try:
        await until(lambda: table.game is not None and table.game.phase is Phase.DISCARD
                    and mine.vs.mode is Mode.DISCARD and theirs.vs.mode is Mode.DISCARD)
        ann_terminal.feed(b"?")
        await until(lambda: len(mine.vs.hint) == 2 and mine.vs.note.startswith("Hint: lay away"))
        hint, note = list(mine.vs.hint), mine.vs.note
        bob_terminal.feed(b"\r\x1b[C\r\r")  # Bob lays two away
        await until(lambda: table.game is not None and len(table.game.hands[1]) == 4)
        await asyncio.sleep(0.1)
        assert mine.vs.hint == hint and mine.vs.note == note
    finally:
        for terminal in (ann_terminal, bob_terminal):
            terminal.lost()
        for task in (*playing, running):
            task.cancel()
        await asyncio.gather(*playing, running, return_exceptions=True)
