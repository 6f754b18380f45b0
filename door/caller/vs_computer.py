"""A game against the computer, one flow for the screens and the game
protocol: a new game under the rules asked for, a numbered game, a kept
game taken up under its own rules, or today's deal (the house rules, the
day's computer, the result kept for the day's ranking, which is shown
when the game ends).  What differs by presentation goes through the
:class:`~door.caller.side.Side` (the seat, the computer's pauses, the
ranking, what is said after the game), and how the side sits at the
table is given (:data:`Sitting`): the screens' keys, or a program's
messages with a guest's game parked while its line is down."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from door.caller.daily_screens import keep_result, pending_day, ranking_lines
from door.caller.side import Side
from door.games.kinds import computer_game
from door.play.computer_seat import ComputerSeat
from door.play.daily_deal import daily_opponent
from door.play.options import CallerOptions, Pace
from door.play.seat import Seat
from door.play.table import Table
from door.play.tables import computer_opponent
from door.records.store import SavedGame
from door.sysop.doing import Doing
from engine.rules import Rules
from engine.shuffle import SeededShuffle

__all__ = ["ComputerGame", "Daily", "Sitting", "play_computer"]

Daily = tuple[str, SeededShuffle]
"""Today's deal: the day (``YYYY-MM-DD``) and its shuffles."""

Sitting = Callable[[Table, Seat, ComputerSeat, SavedGame | None], Awaitable[bool]]
"""How a side sits at a table against the computer (the table, its
seat, the computer's seat, the kept game it goes on from): the table run
until it is done, the computer stopped and both seats let go of it after.
True when a program left; raises :class:`~door.net.terminal.HungUp` when
the line or connection ended."""


@dataclass(frozen=True)
class ComputerGame:
    """A game against the computer as asked for: the ``rules`` and
    ``options`` (the computer's skill, the pace) of a new game; its
    ``number`` (a numbered game's first deal); ``resume``, a kept game
    (under its own rules; a play of today's deal not finished yet is
    today's deal again); ``daily``, today's deal (the day, its shuffles:
    the house rules, the day's computer)."""

    rules: Rules
    options: CallerOptions
    number: int | None = None
    resume: SavedGame | None = None
    daily: Daily | None = None


async def play_computer(side: Side, asked: ComputerGame, sitting: Sitting) -> bool:
    """Play the game ``asked`` for at ``side``, sitting as ``sitting``
    says; an account's game is kept move by move, its play of today's
    deal kept for the day's ranking (even when the line drops), which is
    shown after the game unless a program left.  True when a program
    left; raises :class:`~door.net.terminal.HungUp` when the line or
    connection ended."""
    ctx, account = side.ctx, side.account
    rules, daily = asked.rules, asked.daily
    if asked.resume is not None:  # (a kept game goes on under the rules it began with)
        rules, shuffle = asked.resume.rules, asked.resume.shuffle
        day = await pending_day(side, account.id if account is not None else None, asked.resume)
        daily = (day, shuffle) if day is not None and shuffle is not None else None
    elif daily is not None:
        rules = ctx.rules
    seat, computer = side.computer_seat(), _computer(side, asked.options, daily[1] if daily is not None else None)
    table = computer_game(ctx.games, rules, (seat, computer), account.id if account is not None else None,
                          first=daily[1] if daily is not None else asked.number,
                          sealed_until=daily[0] if daily is not None else None,
                          auto_deal=side.pauses is None, seeds=side.seeds)
    side.doing(Doing.VS_COMPUTER, table, seat=seat)
    try:
        left = await sitting(table, seat, computer, asked.resume)
    finally:
        if daily is not None and account is not None:
            await keep_result(side, (account.id, side.name), table, daily)
    await side.computer_game_over(seat, table)
    if daily is not None and account is not None and not left:
        await side.daily_ranking(daily[0], await ranking_lines(side, account.id, daily[0]))
    return left


def _computer(side: Side, options: CallerOptions, deal: SeededShuffle | None) -> ComputerSeat:
    """The computer: today's (``deal``), or at ``options``' skill; pausing
    as the side's :attr:`~door.caller.side.Side.pauses` say, with the
    "pause" pace."""
    ctx = side.ctx
    pegging, hand = side.pauses or (0.0, 0.0)
    if deal is None:
        return computer_opponent(options, ctx.computer_delay, pegging, hand, ctx.thinking)
    pace = options.pace is Pace.PAUSE
    return daily_opponent(deal, ctx.computer_delay, pegging if pace else 0.0, hand if pace else 0.0, ctx.thinking)
