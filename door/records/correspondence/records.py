"""Correspondence play's repositories together, as ``store.correspondence``."""

from __future__ import annotations

from door.records.clock import WALL, Clock
from door.records.correspondence.offers import Offers
from door.records.correspondence.results import Results
from door.records.correspondence.vacations import Vacations
from door.records.database import Database

__all__ = ["CorrespondenceRecords"]


class CorrespondenceRecords:
    """``offers`` (:mod:`.offers`), ``vacations`` (:mod:`.vacations`) and
    ``results`` (the games lost on time, :mod:`.results`) in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.offers = Offers(database, clock)
        self.vacations = Vacations(database, clock)
        self.results = Results(database, clock)
