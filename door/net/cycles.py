"""Reference cycles a lost connection would leave, broken as it ends.

The door freezes what survives its collections (:mod:`door.collector`),
so an object in a cycle that was frozen before it became
garbage waits for the next full collection.  A connection's objects go by
reference counting instead when their cycles are broken at its end.
"""

from __future__ import annotations

__all__ = ["untie_transport"]


def untie_transport(transport: object) -> None:
    """Break the cycle of an asyncio socket transport whose connection is
    lost: it refers to itself through ``_read_ready_cb`` (a bound method of
    its own, set when it starts reading), which nothing calls once the
    socket is closed.  ``None`` or a transport without it: nothing to do."""
    if transport is not None and hasattr(transport, "__dict__"):
        vars(transport).pop("_read_ready_cb", None)
