"""How a table's game and match end: a game played to its end recorded
and what follows it (the match goes on, a rematch, another game), a game
ended early kept as the way it ended says; a match's result kept (the
journal: a rated match moves the ratings) and told to both players; or,
when the door itself failed, void (never rated, nobody charged)."""

from __future__ import annotations

import logging

from door.play.seat import Seated
from engine.game import Game

__all__ = ["match_over", "void", "ended_early", "finished", "VOID_MESSAGE", "FAILED_MESSAGE"]

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
            table.ending.parting[winner] = " ".join(lines)


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
    table.ending.parting = {0: VOID_MESSAGE, 1: VOID_MESSAGE}


async def ended_early(table: Seated, game: Game) -> None:
    """``game`` ended before its end: the store keeps what the way it
    ended says (a forfeit recorded, a game given up or aborted
    dropped), and a match ends with it (void, aborted or forfeited)."""
    if table.ending.voided:
        await void(table)
        return
    journal = table.journal
    if journal is not None and table.ending.forfeit is not None:
        await journal.forfeit(game, table.tally, 1 - table.ending.forfeit)
    elif journal is not None and table.ending.abandoned is not None and journal.keeps_for(table.ending.abandoned):
        await journal.drop()  # a caller gave it up (the sysop giving up waiting keeps it)
    elif journal is not None and table.ending.aborted is not None:
        await journal.drop()  # a match aborted before its first deal: nothing to keep
    if table.terms is not None and table.ending.aborted is not None:
        await match_over(table, 1 - table.ending.aborted, aborted=True)
    elif table.terms is not None and table.ending.forfeit is not None:
        await match_over(table, 1 - table.ending.forfeit, forfeit=True)

async def finished(table: Seated, game: Game) -> bool:
    """``game`` was played to its end: recorded, and the match's score
    told; True when another game follows (the match goes on, a
    rematch, or both players want another)."""
    assert game.result is not None
    if table.journal is not None:
        await table.journal.finish(game, table.tally)
    log.info("game %d over: %s wins %s", game.number, table.seats[game.result.winner].name, game.result.scores)
    if table.terms is None:
        return all(await table.ask_again())
    wins = table.series.wins()
    if table.terms.best_of > 1:
        a, b = table.seats[0].name, table.seats[1].name
        tell(table, f"Game {len(table.series.games())} to {table.seats[game.result.winner].name}, "
                   f"{game.result.scores[0]}-{game.result.scores[1]}: {a} {wins[0]}, {b} {wins[1]} "
                   f"(best of {table.terms.best_of}).")
    if max(wins) < table.terms.needed:
        return True  # the match goes on: the loser deals first (engine.match.Match)
    await match_over(table, 0 if wins[0] > wins[1] else 1)
    if not table.settings.rematch or not all(await table.ask_again()):
        return False
    table.dealer.first_dealer = table.series.rematch(table.auto_deal)
    return True


def tell(table: Seated, text: str) -> None:
    """Say ``text`` to both players."""
    for seat in table.seats:
        seat.notice(text)
