"""Where the computer thinks: a worker process at a lower priority than the
door, replaced when it dies."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest

from door.play.computer_seat import ComputerSeat
from door.play.table import Table
from door.play.table_settings import TableSettings
from door.play.thinking import NICENESS, Thinking
from engine.actions import Action, Claim, Discard, Play
from engine.cards import Card, parse_cards
from engine.expert import ExpertPlayer
from engine.game import Game, Phase
from engine.hard import HardPlayer
from engine.rules import Rules
from engine.strategy import Decision, Situation, Strategy, choose_action, decision_for, situation

ROOT = Path(__file__).resolve().parents[2]


def _dealt(number: int = 31) -> Game:
    game = Game(Rules(), number, first_dealer=0)
    game.start()
    return game


class Pid(HardPlayer):
    """Hard's discard, laying away the cards named by the process it ran in
    (the one card of the six whose index is the pid's remainder, and the
    next), so that the test can see where it was decided."""

    deliberate = True

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        i = os.getpid() % 5
        return hand[i], hand[i + 1]


class SlowInWorker(HardPlayer):
    """Hard's discard, after 5 s of thought when it runs in a worker process
    (at once on the door's own thread)."""

    deliberate = True

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        if multiprocessing.parent_process() is not None:
            time.sleep(5)
        return super().choose_discard(hand, is_dealer, situation)


async def test_the_expert_thinks_in_a_worker_process_below_the_doors_priority() -> None:
    """The expert's move comes from a process of its own, running
    :data:`NICENESS` lower than the door, and it is the move the expert
    makes in the door's own process from the same seed."""
    thinking = Thinking(1)
    try:
        pids = await thinking.worker_pids()
        assert len(pids) == 1 and pids[0] != os.getpid()
        assert os.getpriority(os.PRIO_PROCESS, pids[0]) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
        game = _dealt()
        action = await thinking.decide(Pid(random.Random(1)), decision_for(game, 0))
        assert isinstance(action, Discard)
        i = pids[0] % 5
        assert action.cards == (game.hands[0][i], game.hands[0][i + 1])
        for seat in (0, 1):
            seed = 77
            expert = ExpertPlayer(random.Random(seed))
            mine = choose_action(game, seat, ExpertPlayer(random.Random(random.Random(seed).getrandbits(64))))
            assert await thinking.decide(expert, decision_for(game, seat)) == mine
    finally:
        thinking.close()


async def test_a_killed_thinking_process_is_replaced_and_the_move_is_still_made() -> None:
    """A worker killed in the middle of a move (the out-of-memory killer, a
    sysop's ``kill``): the move is made on the thread at once, and the next
    moves go to a new worker."""
    thinking = Thinking(1)
    try:
        [first] = await thinking.worker_pids()
        game = _dealt()
        deciding = asyncio.create_task(thinking.decide(SlowInWorker(), decision_for(game, 0)))
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)
        async with asyncio.timeout(3):
            action = await deciding
        assert isinstance(action, Discard) and len(action.cards) == 2
        [second] = await thinking.worker_pids()
        assert second != first
        action = await thinking.decide(Pid(), decision_for(game, 1))
        assert isinstance(action, Discard) and action.cards[0] == game.hands[1][second % 5]
    finally:
        thinking.close()


async def _two_experts_play(thinking: Thinking, claims: int) -> Game:
    """Two expert computers thinking in ``thinking`` play at a real table
    until ``claims`` counts of the show are made; returns the game."""
    seats = [ComputerSeat(f"C{i}", ExpertPlayer(random.Random(i)), delay=0.0, thinking=thinking) for i in (0, 1)]
    table = Table(Rules(), seats, TableSettings(auto_deal=True))
    running = asyncio.create_task(table.run())
    try:
        async with asyncio.timeout(20):
            while table.game is None or sum(isinstance(a, Claim) for a in table.game.actions) < claims:
                await asyncio.sleep(0.02)
        return table.game
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        for seat in seats:
            seat.stop()


async def test_a_computer_thinking_in_a_process_plays_a_hand_at_a_real_table() -> None:
    """Two expert computers, both thinking in one worker process, play
    a whole hand: discards, the play and the show."""
    thinking = Thinking(1)
    try:
        game = await _two_experts_play(thinking, 3)
        assert sum(isinstance(a, Discard) for a in game.actions) >= 2
        assert sum(isinstance(a, Play) for a in game.actions) >= 8  # the hand's eight cards
    finally:
        thinking.close()


def test_the_thinking_process_ends_when_the_door_is_killed(tmp_path: Path) -> None:
    """A worker waiting for moves did not notice its door killed with
    ``kill -9`` and stayed behind for good (one more with every restart)."""
    door = subprocess.Popen([sys.executable, "-c", (
        "import asyncio, sys\n"
        "from door.play.thinking import Thinking\n"
        "thinking = Thinking(1)\n"
        "async def main():\n"
        "    print(*(await thinking.worker_pids()), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n")], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert door.stdout is not None
        [worker] = [int(pid) for pid in door.stdout.readline().split()]
        assert Path(f"/proc/{worker}").exists()
    finally:
        door.kill()
        door.wait()
    deadline = time.monotonic() + 10
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(worker)


def _running(pid: int) -> bool:
    """Whether process ``pid`` is alive (not gone, and not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class Recording(Thinking):
    """Thinking on the thread that keeps each decision it was given."""

    def __init__(self) -> None:
        super().__init__(0)
        self.given: list[Decision] = []

    async def decide(self, strategy: Strategy, decision: Decision) -> Action:
        self.given.append(decision)
        return await super().decide(strategy, decision)


async def test_only_a_choice_to_weigh_goes_to_the_thinking() -> None:
    """The count of a show and a card of the only rank that fits are made
    on the spot: each sent to a thinking process cost the door a round
    trip (about 0.15 ms of its CPU) and the worker a search of the
    opponent's holdings for nothing."""
    thinking = Recording()
    game = await _two_experts_play(thinking, 6)
    assert thinking.given and all(d.needs_thought for d in thinking.given)
    made = sum(isinstance(a, (Discard, Play, Claim)) for a in game.actions)
    assert made > len(thinking.given)  # (the shows and the last cards at least)


async def test_thinking_in_a_process_starts_no_thread_in_the_door() -> None:
    """The door reaches its thinking processes from the event loop alone:
    ``concurrent.futures``' process pool ran two threads in the door (its
    manager, its queue's feeder), and the loop waited for the interpreter
    lock behind them at every decision sent (a mean 1.35 ms in
    ``bench.load --profile``)."""
    before = threading.active_count()
    thinking = Thinking(1)
    try:
        await thinking.worker_pids()
        game = _dealt()
        for seat in (0, 1):
            action = await thinking.decide(ExpertPlayer(random.Random(seat)), decision_for(game, seat))
            assert isinstance(action, Discard)
        assert threading.active_count() == before
    finally:
        thinking.close()


async def test_a_strategys_error_in_a_process_is_raised_for_the_move() -> None:
    """A decision the strategy cannot make raises in the door as it did in
    the process, and the process goes on to the next."""
    thinking = Thinking(1)
    try:
        game = _dealt()
        with pytest.raises(ValueError, match="no card"):
            await thinking.decide(ExpertPlayer(), Decision(0, Phase.PLAY, parse_cards("5H"), situation(game, 0),
                                                           series=parse_cards("KS QS JS")))
        action = await thinking.decide(ExpertPlayer(), decision_for(game, 0))
        assert isinstance(action, Discard)
    finally:
        thinking.close()


async def test_a_thinking_process_that_cannot_start_is_not_started_again_for_every_move(
        caplog: pytest.LogCaptureFixture) -> None:
    """A process that ends before it is ready (here its interpreter is
    ``false``) cannot think: the moves are decided on the thread, with one
    error in the log, and no process is started for each move (each cost
    the door a fork and an exec, about 1.2 ms of its CPU)."""
    spawn = multiprocessing.get_context("spawn")
    spawn.set_executable("/bin/false")
    thinking = Thinking(1)
    try:
        game = _dealt()
        for seat in (0, 1, 0, 1):
            action = await thinking.decide(ExpertPlayer(random.Random(seat)), decision_for(game, seat))
            assert isinstance(action, Discard)
        assert thinking.unable and await thinking.worker_pids() == []
    finally:
        spawn.set_executable(sys.executable)
        thinking.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "before it was ready" in errors[0]


class Lingering(HardPlayer):
    """Hard's discard, after a second of thought in a worker process."""

    deliberate = True

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        if multiprocessing.parent_process() is not None:
            time.sleep(1.0)
        return super().choose_discard(hand, is_dealer, situation)


@pytest.mark.parametrize("ending", ["door closes mid-move", "SIGTERM"])
def test_a_thinking_process_stops_quietly(ending: str) -> None:
    """A stopping door left a thinking process's traceback
    header ("Process cribbage-door computer:") in its log.  A worker whose
    door closes while it thinks, or that gets SIGTERM (a service manager
    stops the whole group), ends without a word."""
    door = subprocess.run([sys.executable, "-c", (
        "import asyncio, os, signal, sys\n"
        "from door.play.thinking import Thinking\n"
        "from engine.strategy import decision_for\n"
        "from tests.unit.test_thinking import Lingering, _dealt\n"
        "thinking = Thinking(1)\n"
        "async def main():\n"
        "    [pid] = await thinking.worker_pids()\n"
        "    move = asyncio.ensure_future(thinking.decide(Lingering(), decision_for(_dealt(), 0)))\n"
        "    await asyncio.sleep(0.3)\n"
        f"    if {ending == 'SIGTERM'}:\n"
        "        os.kill(pid, signal.SIGTERM)\n"
        "        await asyncio.sleep(0.5)\n"
        "        print('alive' if os.path.exists(f'/proc/{pid}') and open(f'/proc/{pid}/stat').read()"
        ".rsplit(')', 1)[1].split()[0] != 'Z' else 'killed', flush=True)\n"
        "    thinking.close()\n"
        "    await asyncio.sleep(1.5)  # the worker finishes the move and finds the door gone\n"
        "asyncio.run(main())\n")], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert door.returncode == 0, door.stderr
    assert "Traceback" not in door.stderr and "Process cribbage-door computer" not in door.stderr, door.stderr
    if ending == "SIGTERM":
        assert door.stdout.strip() == "killed"


async def test_other_work_of_the_computers_kind_runs_in_a_worker_process_and_its_error_is_raised() -> None:
    """Thinking.run (the pegging looked back on after a hand):
    the call runs in a worker process, not the door's, and what it raises
    is raised in the door; with no processes it runs on the thread."""
    thinking = Thinking(1)
    try:
        [pid] = await thinking.worker_pids()
        assert await thinking.run(os.getpid) == pid != os.getpid()
        with pytest.raises(ValueError, match="invalid literal"):
            await thinking.run(partial(int, "not a number"))
    finally:
        thinking.close()
    on_thread = Thinking(0)
    assert await on_thread.run(threading.get_ident) != threading.get_ident()


def _show_tables_ready() -> tuple[bool, int]:
    """(whether the show's rank table is built, the crib values' cache
    size) in the process that runs it."""
    from engine import crib_values, scoring
    return bool(scoring._RANK_POINTS), crib_values.load_table.cache_info().currsize


async def test_a_worker_has_every_table_before_its_first_call() -> None:
    """The show's rank table is built, not read, in 0.2-0.5 s: a worker
    built it at its first decision, which came that much late."""
    thinking = Thinking(1)
    try:
        await thinking.worker_pids()
        assert await thinking.run(_show_tables_ready) == (True, 1)
    finally:
        thinking.close()


async def test_many_first_decisions_at_once_share_one_connection_to_the_process(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifty calls at the same moment on a fresh process (fifty games'
    first discards, as when programs arrive together) all go through one
    connection to it: none finds the process 'dead' (two connections were
    opened on its one socket, and it was taken for dead and replaced)."""
    opened = 0
    real_open = asyncio.open_unix_connection

    async def counting(*args: object, **kwargs: object) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        nonlocal opened
        opened += 1
        return await real_open(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio, "open_unix_connection", counting)
    thinking = Thinking(1)
    thinking.start()
    try:
        answers = await asyncio.gather(*(thinking.run(partial(pow, 2, n)) for n in range(50)))
        assert opened == 1
        assert answers == [2 ** n for n in range(50)]
        assert thinking.answered == 50
        assert not [r for r in caplog.records if "died" in r.getMessage()]
    finally:
        thinking.close()


async def test_a_process_that_ends_as_it_is_first_used_is_found_gone_not_waited_for() -> None:
    """A process that ends as the door first connects to it (here its
    interpreter is ``false``): the call raises WorkerGone, and is not left
    waiting for an answer nobody will send (its reader may be done before
    the call asks; the whole suite once hung there)."""
    from door.play.thinking import WorkerGone, _Worker

    spawn = multiprocessing.get_context("spawn")
    spawn.set_executable("/bin/false")
    worker = _Worker(NICENESS)
    try:
        worker.process.join(10)  # (ended before the first call: its end of the socket is closed already)
        for _ in range(3):
            with pytest.raises(WorkerGone):
                await asyncio.wait_for(worker.run(partial(pow, 2, 3)), 10)
    finally:
        spawn.set_executable(sys.executable)
        worker.close()
