"""The collector's policy for a serving door: start-up
objects frozen for good, the first threshold raised, the oldest
generation never collected by Python itself, and collected by the door
(start-up left frozen) once the door's memory is FULL_GROWTH times what
its connected callers account for, so that cycles that became garbage
there are given back and callers arriving do not set it off."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from door import collector as collector_module
from door.collector import GC_THRESHOLDS, OLDEST_NEVER, Collector


class Node:
    """An object that can sit in a cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def restored() -> Iterator[None]:
    """The interpreter's collector as it was, whatever the test did."""
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_start_up_objects_are_frozen_and_the_thresholds_raised(restored: None) -> None:
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    before = gc.get_threshold()
    try:
        policy.start()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 1000  # the modules, the computer's tables
        assert policy.start_blocks == policy.blocks > 0
        assert policy.callers == 0
        assert GC_THRESHOLDS[0] > before[0]
        assert GC_THRESHOLDS[1:] == (10, OLDEST_NEVER)
    finally:
        policy.stop()
        loop.close()
    assert gc.get_threshold() == before


def test_what_survives_an_older_collection_is_not_traced_again_until_a_full_one(restored: None) -> None:
    """A live object that survives a collection of generation 1 goes to
    the oldest generation, which Python never collects on its own: the
    young and middle collections that follow do not trace it."""
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    try:
        policy.start()
        survivor = [Node() for _ in range(100)]
        gc.collect(1)
        oldest = {id(o) for o in gc.get_objects(2)}
        assert all(id(node) in oldest for node in survivor)
        for _ in range(3 * GC_THRESHOLDS[1]):
            gc.collect(0)
            assert sum(gc.get_count()) < OLDEST_NEVER  # (Python's own clock never reaches the oldest)
        traced = {id(o) for o in gc.get_objects(0)} | {id(o) for o in gc.get_objects(1)}
        assert not any(id(node) in traced for node in survivor)
        assert gc.get_threshold()[2] == OLDEST_NEVER
    finally:
        policy.stop()
        loop.close()


def test_a_full_collection_leaves_start_up_frozen(restored: None) -> None:
    """What start-up made stays frozen through a full collection: only
    what came later is traced (bench.load at 1,000 callers: 23 ms rather
    than 52 ms with start-up unfrozen), and a cycle that became garbage
    after start-up is still given back."""
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    traced: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            traced.append(gc.get_freeze_count())

    try:
        policy.start()
        frozen = gc.get_freeze_count()
        node = Node()
        node.other = node
        gc.collect(1)  # to the oldest generation
        watched = weakref.ref(node)
        del node
        gc.callbacks.append(watch)
        policy.collect_all()
        assert traced and traced[-1] >= frozen > 1000
        assert watched() is None
    finally:
        if watch in gc.callbacks:
            gc.callbacks.remove(watch)
        policy.stop()
        loop.close()


class Caller:
    """What a connected caller's session holds: ``blocks`` small objects
    in a reference cycle (as a session's tasks and frames are), watched
    by a weak reference."""

    def __init__(self, blocks: int) -> None:
        self.held: list[object] = [[] for _ in range(blocks)]
        self.held.append(self)


class Door:
    """A collector policy serving ``callers`` on ``loop`` (checks at every
    older collection, a full collection at 1.2 times the callers' need),
    and ``size``: the blocks a caller holds (a fortieth of start-up's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(collector_module, "CHECK_EVERY", 0.0)
        monkeypatch.setattr(collector_module, "FULL_GROWTH", 1.2)
        self.loop = asyncio.new_event_loop()
        self.callers: list[Caller] = []
        self.policy = Collector(self.loop, lambda: len(self.callers))
        self.policy.start()
        self.size = self.policy.start_blocks // 40
        self.policy.per_session = self.size

    def turn(self) -> None:
        """One turn of the event loop (a full collection asked for runs)."""
        self.loop.run_until_complete(asyncio.sleep(0))


@pytest.fixture
def serving(restored: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Door]:
    door = Door(monkeypatch)
    try:
        yield door
    finally:
        door.policy.stop()
        door.loop.close()


def _no_counting(*_: object) -> int:
    raise AssertionError("counting the frozen objects walks them all: it paused the door up to 99 ms")


def test_callers_arriving_do_not_set_off_a_full_collection(serving: Door, monkeypatch: pytest.MonkeyPatch) -> None:
    """The door's memory grows with its callers (1,000 callers fourfold):
    a full collection then would trace them all (250 ms at 1,000) and
    free nothing.  Nor is a check allowed to count the frozen objects."""
    monkeypatch.setattr(gc, "get_freeze_count", _no_counting)
    for _ in range(20):
        serving.callers.append(Caller(serving.size))
        gc.collect(1)  # to the oldest generation
        serving.turn()
    assert sys.getallocatedblocks() > 1.4 * serving.policy.start_blocks
    assert not serving.policy.due()
    assert serving.policy.full_collections == 0


def test_cycles_callers_left_are_given_back_when_the_memory_outgrows_the_callers(
        serving: Door, monkeypatch: pytest.MonkeyPatch) -> None:
    """Callers who leave a cycle behind that was frozen while they played
    leave memory no caller accounts for; once it is FULL_GROWTH times what
    the callers still connected need, one full collection, at the event
    loop's next turn, frees it."""
    policy, callers = serving.policy, serving.callers
    for _ in range(20):
        callers.append(Caller(serving.size))
    serving.turn()
    assert policy.full_collections == 0
    policy.collect_all()  # with callers: what they hold is what they need
    assert policy.callers == 20 and policy.blocks >= policy.start_blocks + 20 * serving.size
    monkeypatch.setattr(gc, "get_freeze_count", _no_counting)
    watch = weakref.ref(callers[0])
    del callers[:15]  # cycles in the oldest generation: not freed by reference counting
    gc.collect(1)
    assert watch() is not None and policy.full_collections == 1
    assert policy.due()
    serving.turn()
    assert policy.full_collections == 2
    assert watch() is None
    assert not policy.due() and policy.callers == 5


def test_what_the_door_keeps_for_no_caller_is_not_counted_as_the_callers(serving: Door) -> None:
    """A full collection with callers connected does not take the blocks
    a caller holds from it: the door's own memory (its recent games, its
    memos) would be counted as theirs, and callers leaving cleanly would
    then set off one full collection after another (bench.load at 1,000
    callers: a second one 16 s after the first)."""
    policy, callers, size = serving.policy, serving.callers, serving.size
    kept = [[] for _ in range(20 * size)]  # the door's own, for no caller: memory grown with none
    gc.collect(1)
    serving.turn()
    assert policy.full_collections == 1
    for _ in range(20):
        callers.append(Caller(size))
    policy.collect_all()
    assert policy.per_session == size
    while callers:  # each leaves cleanly: its memory goes by reference counting
        callers.pop().held.clear()
        gc.collect(1)
        serving.turn()
    assert policy.full_collections == 2 and not policy.due()
    assert len(kept) == 20 * size


def test_the_probe_can_try_other_thresholds(restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """bench.gc_probe sets door.collector.GC_THRESHOLDS before the door starts."""
    monkeypatch.setattr(collector_module, "GC_THRESHOLDS", (3000, 20, 30))
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    try:
        policy.start()
        assert gc.get_threshold() == (3000, 20, 30)
    finally:
        policy.stop()
        loop.close()


def test_the_young_generation_is_collected_on_a_clock_and_the_middle_one_in_its_turn(restored: None) -> None:
    """Every YOUNG_EVERY seconds the door collects the young generation
    itself (Python's own count is allocations less deallocations, so old
    objects dying let the young list grow unbounded between its
    collections); the middle one when its threshold of young collections
    has passed; and stop() ends the clock."""
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    try:
        policy.start()
        gc.callbacks.append(watch)

        async def until_the_middle_one() -> None:  # (ticks come late on a busy machine: wait for them, bounded)
            while 1 not in seen:
                await asyncio.sleep(collector_module.YOUNG_EVERY)
        loop.run_until_complete(asyncio.wait_for(until_the_middle_one(),
                                                 collector_module.YOUNG_EVERY * (GC_THRESHOLDS[1] + 3) * 20))
        assert seen.index(1) >= GC_THRESHOLDS[1] and seen[:seen.index(1)].count(0) >= GC_THRESHOLDS[1], seen
        policy.stop()
        seen.clear()
        loop.run_until_complete(asyncio.sleep(collector_module.YOUNG_EVERY * 3))
        assert seen == []
    finally:
        if watch in gc.callbacks:
            gc.callbacks.remove(watch)
        policy.stop()
        loop.close()
