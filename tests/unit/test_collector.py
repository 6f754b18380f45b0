"""The collector's tuning for a serving door (issue 17.1): start-up objects
frozen, the first threshold raised, the older generations at Python's pace
(issue 17.3: rarer ones let finished sessions' cycles pile up)."""

from __future__ import annotations

import gc

from door.server import GC_THRESHOLDS, tune_collector


def test_start_up_objects_are_frozen_and_the_thresholds_raised() -> None:
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 1000  # the modules, the computer's tables
        assert GC_THRESHOLDS[0] > before[0]
        assert GC_THRESHOLDS[1:] == (10, 10)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
