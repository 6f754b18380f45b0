"""A program's account by the game protocol: a guest registers the name
it logged in with (``register``), a registered caller changes their
password as they log in (``login``'s ``new_password``), by the door's
rules for both as at the login screens (:mod:`door.caller.registering`);
and the review of the account's last recorded game (``review``)."""

from __future__ import annotations

from typing import Any

from door.caller.program_side import ProgramSide
from door.caller.registering import create_account, password_refused
from door.caller.review import review_of
from door.play.api_records import review_message

__all__ = ["as_error", "register", "review"]


def as_error(sentence: str) -> str:
    """A screen's sentence as the protocol's ``error`` words it: from a
    small letter, without the full stop (``"A password has at least 6
    characters."`` -> ``"a password has at least 6 characters"``)."""
    return sentence[:1].lower() + sentence[1:].rstrip(".")


async def register(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``register``: the guest's name registered with ``message["password"]``,
    from the link's address within the registration limits; its games
    are kept from then on.  On success the door says a ``notice`` and
    ``welcome`` again (``guest`` false); otherwise an ``error`` says why
    (on ``type`` for a registered program, ``password`` or ``name``).
    False (the program stays)."""
    name, password = side.who.name, message["password"]
    refused = "you are registered already" if side.who.account is not None else password_refused(password)
    if refused is not None:
        side.error("type" if side.who.account is not None else "password", as_error(refused))
        return False
    account = await create_account(side, name, password)
    if isinstance(account, str):
        side.error("name", as_error(account))
        return False
    side.who.account = account
    side.notice(f"{name} is registered: your games against the computer are kept, and you may play today's deal.")
    side.send({"type": "welcome", "name": name, "guest": False, "bot": False})
    return False


async def review(side: ProgramSide, message: dict[str, Any]) -> bool:
    """``review``: the review of the program's last recorded game
    (:func:`~door.caller.review.review_of`), or an ``error`` saying why
    there is none.  False (the program stays)."""
    account = side.who.account
    games = await side.ctx.store.games.recent(account.name, 1) if account is not None else []
    if account is None or not games:
        side.error("type", "a guest's games are not kept: there is nothing to review" if account is None
                   else "you have no finished game to review")
    else:
        side.send(review_message(await review_of(side, games[0], account.id), games[0].number))
    return False
