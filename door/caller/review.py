"""Reviewing a recorded game: its moves replayed and each of
the caller's decisions weighed (:func:`engine.game_review.review_game`),
shown a screenful at a time (said whole in screen-reader mode)."""

from __future__ import annotations

from functools import partial

from door.caller.side import CallerSide
from door.play.review_words import review_lines
from door.records.games import GameSummary
from door.sysop.doing import Doing
from door.ui.canvas import Canvas
from door.ui.prompts import frame, show_page, show_pages
from engine.actions import IllegalAction
from engine.game_review import review_game
from engine.notation import NotationError

__all__ = ["review_recorded"]


async def review_recorded(side: CallerSide, summary: GameSummary) -> None:
    """The review of the recorded game ``summary`` for the caller's seat in
    it; a page saying why not when its moves were not kept (a game
    recorded before reviews, or one the caller did not play).  The
    searches (about 20 ms a card played) run where the computer thinks
    (a worker process under ``serve``), one review at a time, and a game
    reviewed again is not searched again (:mod:`door.play.reviews`).
    Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    display, caller = side.display, side.caller
    side.doing(Doing.READING_RECENT)
    try:
        moves = await side.ctx.store.games.moves(summary.id)
    except NotationError as exc:
        side.log.error("game %d cannot be replayed: %s", summary.id, exc)
        moves = None
    account = caller.account
    if moves is None or account is None or account.id not in moves.accounts:
        await show_page(display, "Game review", [
            f"Game #{summary.number} has no review: its moves were not kept",
            "(a game recorded before reviews, or not one of yours)."])
        return
    seat = moves.accounts.index(account.id)
    waiting = [f"Reviewing game #{summary.number}: every discard, card and count..."]

    def paint(canvas: Canvas) -> None:
        frame(canvas, "Game review", waiting, banner=False)
        canvas.cursor = None

    display.show(paint, text=lambda: waiting)
    try:
        review = await side.ctx.reviews.review(summary.id, seat, partial(
            review_game, moves.rules, moves.number, moves.actions, seat, moves.first_dealer, moves.shuffle))
    except IllegalAction as exc:  # a record whose moves do not replay: said, not a failed session
        side.log.error("game %d cannot be reviewed: %s", summary.id, exc)
        await show_page(display, "Game review", [f"Game #{summary.number} cannot be reviewed: its moves do not "
                                                 "replay."])
        return
    await show_pages(display, "Game review", review_lines(review, moves.number, summary.players[1 - seat]))
