"""The engine shared between threads: the expert computer decides in a
worker thread while the event loop's thread scores hands and gives hints."""

import sys
import threading

from engine import scoring
from engine.cards import parse_cards


def test_the_show_table_is_never_seen_half_built() -> None:
    """One thread builds the rank table behind show_points while another
    counts a hand: the reader waits for the whole table (a half-built one
    raised KeyError and stopped a computer seat mid-game)."""
    scoring._RANK_POINTS.clear()
    hand, starter = parse_cards("KH KS QD QC"), parse_cards("KD")[0]
    errors: list[Exception] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        builder = threading.Thread(target=scoring.rank_points_table)
        builder.start()
        while builder.is_alive() and not scoring._RANK_POINTS:
            pass  # until the table is no longer empty: then it must be whole
        try:
            scoring.show_points(hand, starter)
        except KeyError as exc:
            errors.append(exc)
        builder.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors
    assert scoring.show_points(hand, starter) == 8  # a pair royal of kings and a pair of queens
