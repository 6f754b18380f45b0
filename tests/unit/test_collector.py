"""The collector's policy for a serving door (issues 17.1 and 39): start-up
objects frozen, the first threshold raised, the survivors of every older
collection frozen (never traced again), and everything collected once the
frozen objects have doubled, so that cycles frozen after they formed are
given back."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Iterator

import pytest

from door import collector as collector_module
from door.collector import FULL_GROWTH, GC_THRESHOLDS, Collector


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
        assert policy.baseline == gc.get_freeze_count()
        assert GC_THRESHOLDS[0] > before[0]
        assert GC_THRESHOLDS[1:] == (10, 10)
    finally:
        policy.stop()
        loop.close()


def test_what_survives_an_older_collection_is_frozen_and_not_traced_again(restored: None) -> None:
    """A live object that survives a collection of generation 1 leaves the
    generations the collector traces (without the policy it stays in
    them, and a full collection traces it)."""
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    try:
        policy.start()
        survivor = [Node() for _ in range(100)]
        frozen = gc.get_freeze_count()
        gc.collect(1)
        assert gc.get_freeze_count() >= frozen + 100
        traced = {id(o) for o in gc.get_objects()}
        assert not any(id(node) in traced for node in survivor)
    finally:
        policy.stop()
        loop.close()


def test_cycles_frozen_after_they_formed_are_given_back_once_the_frozen_objects_double(
        restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cycle that becomes garbage after it was frozen stays until the
    frozen objects have grown by FULL_GROWTH (counted at most every
    COUNT_EVERY seconds); then one full collection, at the event loop's
    next turn, frees it, and the baseline is reset."""
    loop = asyncio.new_event_loop()
    policy = Collector(loop)
    try:
        policy.start()
        a, b = Node(), Node()
        a.other, b.other = b, a
        watch = weakref.ref(a)
        gc.collect(1)  # the cycle is alive: frozen
        del a, b
        gc.collect(1)
        assert watch() is not None  # frozen garbage: not traced
        loop.run_until_complete(asyncio.sleep(0))
        assert policy.full_collections == 0 and watch() is not None
        kept = [Node() for _ in range(int(FULL_GROWTH * policy.baseline) + 1000)]  # the frozen objects double
        gc.collect(1)
        loop.run_until_complete(asyncio.sleep(0))
        assert policy.full_collections == 0  # not counted again within COUNT_EVERY
        monkeypatch.setattr(collector_module, "COUNT_EVERY", 0.0)
        gc.collect(1)
        loop.run_until_complete(asyncio.sleep(0))
        assert policy.full_collections == 1
        assert watch() is None
        assert policy.baseline >= len(kept)
    finally:
        policy.stop()
        loop.close()


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
        loop.run_until_complete(asyncio.sleep(collector_module.YOUNG_EVERY * (GC_THRESHOLDS[1] + 3)))
        assert seen.count(0) >= GC_THRESHOLDS[1] and seen.count(1) >= 1
        policy.stop()
        seen.clear()
        loop.run_until_complete(asyncio.sleep(collector_module.YOUNG_EVERY * 3))
        assert seen == []
    finally:
        if watch in gc.callbacks:
            gc.callbacks.remove(watch)
        policy.stop()
        loop.close()
