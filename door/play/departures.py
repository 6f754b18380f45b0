"""What a table does when a player goes: leaves on purpose (a forfeit
against a person), drops (the grace to come back), gives the game up,
runs out of time on a decision's clock, or when the door itself fails
at a seat (a rated match void).  These are the table's rules of
departure, apart from its loop (:class:`~door.play.table.Table`), which
calls :func:`departure` for every command that is not a move."""

from __future__ import annotations

import logging
import math

from door.play.away_seat import AwaySeat, away
from door.play.commands import Abandon, Command, Fault, Leave, Quit, TimeOut
from door.play.decision_clock import clock_words
from door.play.seat import Seated
from engine.game import Game

__all__ = ["departure", "expect", "grace_over", "lose", "warn_clock"]

log = logging.getLogger("door.play.table")


def departure(table: Seated, game: Game, command: Command) -> bool | None:
    """Carry out a command that is not a move: False when the game
    ended by it, ``None`` when it goes on."""
    seat = command.seat
    if table.settings.by_turns and isinstance(command, Quit | Leave | Abandon | Fault):
        _away(table, seat)
        return None
    if isinstance(command, Quit):
        table.ending.left = seat
        if not table.against_computer(seat):
            lose(table, seat)
            if table.ending.aborted is None:
                table.seats[1 - seat].notice(f"{table.seats[seat].name} left the game: it counts as a win "
                                            f"for {table.seats[1 - seat].name}.")
                table.ending.parting[1 - seat] = f"{table.seats[seat].name} left the game: you win by forfeit."
        log.info("game %d: %s left on purpose", game.number, table.seats[seat].name)
        return False
    if isinstance(command, TimeOut):
        _time_out(table, game, seat)
        return False
    if isinstance(command, Fault):
        if table.rated:  # the door's own failure charges nobody: the match is void
            table.ending.left, table.ending.voided = seat, True
            log.error("game %d: the door failed at %s's seat: the rated match is void", game.number,
                      table.seats[seat].name)
            return False
        return departure(table, game, Leave(seat))  # (else as a dropped line: a registered caller's game is kept)
    if isinstance(command, Abandon):
        return _abandon(table, game, seat)
    if isinstance(command, Leave):
        return _left(table, game, seat)
    return None


def _abandon(table: Seated, game: Game, seat: int) -> bool | None:
    if table.rated and seat not in table.absent:
        # the player who stayed cannot end a rated match: the grace runs, then the other forfeits
        table.seats[seat].notice(f"In a rated match the door waits for {table.seats[1 - seat].name}: "
                                "if they do not come back in time, the match is yours by forfeit.")
        return None
    if table.rated:  # a dropped player who gives the game up (N to "Go back to it?") forfeits it
        table.ending.left = seat
        lose(table, seat)
        log.info("game %d: %s gave up a rated match", game.number, table.seats[seat].name)
        return False
    table.ending.left = table.ending.abandoned = seat
    log.info("game %d abandoned by %s", game.number, table.seats[seat].name)
    return False


def _left(table: Seated, game: Game, seat: int) -> bool | None:
    """``seat``'s line dropped, or its session ended for any reason."""
    if seat in table.absent:
        return None  # (told twice: the key loop and the end of the session both say so)
    if (table.rejoin_timeout is not None and not table.absent and table.seats[seat].identity is None
            and not table.against_computer(seat)):
        table.ending.left = table.ending.forfeit = seat  # a guest cannot come back to a game: the other wins it
        table.ending.parting[1 - seat] = (f"{table.seats[seat].name}'s line dropped, and a guest cannot come "
                                  "back: you win by forfeit.")
        table.seats[1 - seat].notice(table.ending.parting[1 - seat])
        log.info("game %d: %s (a guest) left: a forfeit", game.number, table.seats[seat].name)
        return False
    if table.rejoin_timeout is None or table.absent or table.seats[seat].identity is None:
        table.ending.left = seat
        log.info("game %d: %s left", game.number, table.seats[seat].name)
        return False
    grace = table.rejoin_timeout
    if table.clocks is not None:  # one grace for all of a player's drops: dropping and coming back cannot stall
        grace = max(0.0, grace - table.away.grace_used[seat])
    table.absent.add(seat)
    table.away.since = table.clock()
    table.away.until = table.away.since + grace
    if table.clocks is not None:
        table.clocks.pause(table.clock())  # nobody loses time to the other's absence
    other = table.seats[1 - seat]
    other.notice(f"{table.seats[seat].name}'s line dropped. The game waits up to {_wait_words(grace)} for them "
                 "to come back.")
    log.info("game %d: %s dropped; waiting %g s", game.number, table.seats[seat].name, grace)
    return None


def _away(table: Seated, seat: int) -> None:
    """In a game by correspondence ``seat`` left the table (on purpose or
    its line dropped): it is away, the game waits for its next move, and
    nothing is forfeited; the table goes on while the player who stayed
    owes a move."""
    if away(table.seats[seat]):
        return  # (told twice: the key loop and the end of the session both say so)
    gone = table.seats[seat]
    table.seats[seat] = AwaySeat(gone.name, gone.identity)
    table.seats[seat].attach(table, seat)
    gone.finish()
    table.seats[1 - seat].notice(f"{gone.name} left the table: the game waits for their next move.")
    log.info("%s left a game by correspondence", gone.name)


def expect(table: Seated, seats: set[int], until: float) -> None:
    """Before it runs, ``table`` waits for ``seats`` (0, 1 or both: their
    players called to it, each seat an
    :class:`~door.play.away_seat.AwaySeat` until they sit down with
    :meth:`~door.play.table.Table.rejoin`) until ``until`` (seconds on the
    table's clock), its decision clocks stopped meanwhile; then as when
    a line drops and its grace runs out (:func:`grace_over`).  The wait is
    not counted in a player's grace."""
    table.absent.update(seats)
    table.away.expected.update(seats)
    table.away.since = table.clock()
    table.away.until = until
    if table.clocks is not None:
        table.clocks.pause(table.away.since)


def grace_over(table: Seated, game: Game) -> bool:
    """An absent player's grace ran out: in a rated match (or at a table
    whose settings say ``forfeit_after_grace``) the one player away loses
    by forfeit; else, or with both away, the game is abandoned as it
    stands.  False: the game ended."""
    if (table.rated or table.settings.forfeit_after_grace) and len(table.absent) == 1:
        gone = next(iter(table.absent))  # a rated match: staying away past the grace forfeits it
        lose(table, gone)
        log.info("game %d: %s did not come back: %s", game.number, table.seats[gone].name,
                 "an abort" if table.ending.aborted is not None else "a forfeit")
        return False
    log.info("game %d abandoned: nobody came back", game.number)
    return False


def lose(table: Seated, seat: int) -> None:
    """``seat`` leaves a game against a person for good: in a rated
    match not yet dealt (its first hand unseen) that aborts the match,
    else the game (and a match) is lost by forfeit."""
    table.ending.left = seat
    if table.rated and not table.series.dealt:
        table.ending.aborted = seat
    else:
        table.ending.forfeit = seat


def warn_clock(table: Seated, seat: int, now: float) -> None:
    left = table.clocks.left(seat, now) if table.clocks is not None else None
    if left is not None:
        table.seats[seat].notice(f"Your clock: {clock_words(left)} left for this move, then you lose the "
                                f"{'match' if table.terms is not None else 'game'}.")


def _time_out(table: Seated, game: Game, seat: int) -> None:
    """``seat``'s clock ran out: it loses (the game, and a match), as
    a player who leaves does, and both are told."""
    table.ending.left = table.ending.forfeit = seat
    loser, winner = table.seats[seat].name, table.seats[1 - seat].name
    what = "match" if table.terms is not None else "game"
    table.seats[seat].notice(f"Your clock ran out: {winner} wins the {what}.")
    table.seats[1 - seat].notice(f"{loser}'s clock ran out: you win the {what}.")
    table.ending.parting[1 - seat] = f"{loser}'s clock ran out: you win the {what} by forfeit."
    log.info("game %d: %s ran out of time: a forfeit", game.number, loser)


def _wait_words(seconds: float) -> str:
    """A grace as said: ``"2 minutes"``, ``"40 seconds"``, ``"1 second"``."""
    if seconds >= 60:
        return f"{seconds / 60:g} minutes"
    whole = math.ceil(seconds)
    return "1 second" if whole == 1 else f"{whole} seconds"
