"""Reviewing a recorded game: its moves replayed and each of
the caller's decisions weighed (:func:`engine.game_review.review_game`),
shown a screenful at a time (said whole in screen-reader mode)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from door.caller.side import CallerSide, Side
from door.play.review_words import review_lines
from door.records.games import GameSummary
from door.sysop.doing import Doing
from door.ui.canvas import Canvas
from door.ui.prompts import frame, show_page, show_pages
from engine.actions import IllegalAction
from engine.game_review import GameReview, review_game
from engine.notation import NotationError

__all__ = ["review_recorded", "reviewed", "review_of"]


async def reviewed(side: Side, summary: GameSummary, account_id: int | None,
                   working: Callable[[], None] = lambda: None) -> list[str] | str:
    """The review of the recorded game ``summary`` for the seat of
    ``account_id`` in it, line by line (:func:`~door.play.review_words.review_lines`),
    or a sentence saying why there is none (:func:`review_of`)."""
    found = await review_of(side, summary, account_id, working)
    if isinstance(found, str):
        return found
    review, number, opponent = found
    return review_lines(review, number, opponent)


async def review_of(side: Side, summary: GameSummary, account_id: int | None,
                    working: Callable[[], None] = lambda: None) -> tuple[GameReview, int, str] | str:
    """The review of the recorded game ``summary`` for the seat of
    ``account_id`` in it, with the game's number and the opponent's name,
    or a sentence saying why there is none (its moves were not kept, or
    it is not that account's game, or its moves do not replay).
    ``working()`` is called when the searches begin (about 20 ms a card
    played, where the computer thinks, one review at a time, and a game
    reviewed again is not searched again: :mod:`door.play.reviews`)."""
    ctx, log = side.ctx, side.log
    try:
        moves = await ctx.store.games.moves(summary.id)
    except NotationError as exc:
        log.error("game %d cannot be replayed: %s", summary.id, exc)
        moves = None
    if moves is None or account_id is None or account_id not in moves.accounts:
        return (f"Game #{summary.number} has no review: its moves were not kept "
                "(a game recorded before reviews, or not one of yours).")
    seat = moves.accounts.index(account_id)
    working()
    try:
        review = await ctx.reviews.review(summary.id, seat, partial(
            review_game, moves.rules, moves.number, moves.actions, seat, moves.first_dealer, moves.shuffle))
    except IllegalAction as exc:  # a record whose moves do not replay: said, not a failed session
        log.error("game %d cannot be reviewed: %s", summary.id, exc)
        return f"Game #{summary.number} cannot be reviewed: its moves do not replay."
    return review, moves.number, summary.players[1 - seat]


async def review_recorded(side: CallerSide, summary: GameSummary) -> None:
    """The review of the recorded game ``summary`` for the caller's seat in
    it (:func:`reviewed`), shown a screenful at a time; a page saying why
    not when there is none.  Raises :class:`~door.net.terminal.HungUp` on
    hang-up."""
    display, caller = side.display, side.caller
    side.doing(Doing.READING_RECENT)
    waiting = [f"Reviewing game #{summary.number}: every discard, card and count..."]

    def paint(canvas: Canvas) -> None:
        frame(canvas, "Game review", waiting, banner=False)
        canvas.cursor = None

    lines = await reviewed(side, summary, caller.account.id if caller.account is not None else None,
                           lambda: display.show(paint, text=lambda: waiting))
    if isinstance(lines, str):
        await show_page(display, "Game review", [lines])
        return
    await show_pages(display, "Game review", lines)
