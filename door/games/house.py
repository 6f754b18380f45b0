"""What every game of one door shares: the store its games are kept in,
the registry of running tables, and the settings that shape a table (the
grace for a dropped line, the chat limit, hints between people, the
decision clocks of rated play)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from door.config import CallerConfig, CorrespondenceConfig, PagingConfig, RankedConfig
from door.play.table import Table
from door.records.saved_games import SavedGame
from door.records.store import Store

__all__ = ["GameHouse", "TableRegistry"]


class TableRegistry(Protocol):
    """Where a table between people runs in the background, so that it
    outlives a dropped connection and others find it (to watch it, to be
    seated again at it): the sysop's lobby is one."""

    tables: set[Table]
    """The tables running now."""

    def run_table(self, table: Table, resume: SavedGame | None = None) -> asyncio.Task[None]:
        """Run ``table`` (from the kept game ``resume`` when given) until it ends; the task that runs it."""


@dataclass(frozen=True)
class GameHouse:
    """The door's parts a new game needs: the ``store`` (its journal and
    ratings), the ``tables`` registry, and the ``paging`` (rejoin grace in
    seconds, chat limit in characters), ``caller`` (hints between people),
    ``ranked`` (decision clocks) and ``correspondence`` (days per move,
    weekends) settings of ``door.toml``; ``node`` tells this node's id
    among the store's nodes (``None`` when the store has none: one serve
    process), which a live table's lease names."""

    store: Store
    tables: TableRegistry
    paging: PagingConfig = field(default_factory=PagingConfig)
    caller: CallerConfig = field(default_factory=CallerConfig)
    ranked: RankedConfig = field(default_factory=RankedConfig)
    correspondence: CorrespondenceConfig = field(default_factory=CorrespondenceConfig)
    node: Callable[[], int | None] = field(default=lambda: None)
