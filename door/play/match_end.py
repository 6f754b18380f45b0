"""How a table's match ends: its result kept (the journal: a rated
match moves the ratings) and told to both players; or, when the door
itself failed, void (never rated, nobody charged)."""

from __future__ import annotations

import logging

from door.play.seat import Seated

__all__ = ["match_over", "void", "VOID_MESSAGE", "FAILED_MESSAGE"]

log = logging.getLogger("door.play.table")

VOID_MESSAGE = ("The door failed during this rated match (the sysop's log says how): "
                "the match is void, and nobody's rating changes.")
"""What both players of a rated match are told when the door's own fault ended it."""

FAILED_MESSAGE = "The door failed during this game (the sysop's log says how): it ends here."
"""What both players are told when the door's own fault ended a game that was not rated."""



async def match_over(table: Seated, winner: int, forfeit: bool = False, aborted: bool = False) -> None:
    """The match ended: keep it (the journal) and tell both players
    (the ratings are kept in the series' ``news`` too, for the page each
    player is shown when they leave the table)."""
    assert table.terms is not None
    result = table.series.over(winner, forfeit, aborted)
    names = (table.seats[0].name, table.seats[1].name)
    lines = [result.words(names)]
    if table.terms.best_of == 1 and not table.terms.rated:
        lines = []  # one game: its result says it all
    if table.journal is not None:
        try:
            lines += await table.journal.match_over(result)
        except Exception:  # a store that fails must not end the table unreported
            log.exception("the end of the match could not be recorded")
            lines.append("The door could not record the match.")
    log.info("match over: %s %s %s", names[winner], "after an abort by" if aborted else "wins", result.wins)
    for i, seat in enumerate(table.seats):
        for line in lines:
            seat.notice(line)
        if table.terms.rated:
            table.series.news[i].extend(lines)
        if (forfeit or aborted) and i == winner and lines:
            table.parting[winner] = " ".join(lines)


async def void(table: Seated) -> None:
    """The door failed during a game: both players are told, and a
    rated match is kept as void (not rated, nobody charged)."""
    for index in (0, 1):
        try:
            table.seats[index].notice(VOID_MESSAGE if table.rated else FAILED_MESSAGE)
        except Exception:
            log.exception("%s could not be told of the door's failure", table.seats[index].name)
    if table.terms is None or not table.rated:
        return
    result = table.series.over(0, void=True)
    if table.journal is not None:
        try:
            await table.journal.drop()
            await table.journal.match_over(result)
        except Exception:
            log.exception("the void match could not be recorded")
    table.parting = {0: VOID_MESSAGE, 1: VOID_MESSAGE}
