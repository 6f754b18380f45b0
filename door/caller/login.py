"""Who is calling: a registered caller (password, or an SSH key checked at
the SSH login), a new caller registering a name, or a guest.

Names are 1-20 printable characters, unique by
:func:`~door.records.names.name_key` (case, width and invisible characters
ignored); the computer's and the sysops' names are reserved.  Passwords are
hashed with scrypt off the event loop; wrong ones are counted per address
and per account, logged and slowed down (:mod:`door.records.throttle`).  A
guest's games leave no records.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from door.caller.identity import Caller
from door.caller.registering import MIN_PASSWORD, create_account, password_refused
from door.caller.side import CallerSide, Side
from door.config import SysopConfig
from door.records.names import clean_name, name_key
from door.records.passwords import decoy_hash
from door.records.store import Account
from door.records.throttle import Verdict
from door.ui.display import Presentation
from door.ui.prompts import NAME_LIMIT, ask_choice, ask_line

__all__ = ["login", "checked_password", "password_login", "name_refused", "reserved", "offered_name", "RESERVED_NAMES",
           "READER_OFFER", "READER_KEY", "LOGIN_MISS"]

READER_OFFER = "Cribbage door. Type S and press RETURN for screen-reader mode."
"""The first line the door sends a caller, in plain text: a
screen reader reads it before the full screen's name prompt, where S and
RETURN turn screen-reader mode on."""

READER_KEY = "s"
"""The name that asks for screen-reader mode at the name prompt (reserved)."""

RESERVED_NAMES = {"computer", "sysop", "you", READER_KEY}
"""Names nobody may take: they would read wrongly on the screens.  Every
``[[sysop]]`` name is reserved too (:func:`reserved`), and names are
compared by :func:`~door.records.names.name_key`, so lookalikes are too."""
_TRIES = 3

LOGIN_MISS = "No caller by that name has that password."
"""The one answer to a login by a name and a password that does not log
in, by the game protocol: a wrong password and a name nobody registered
(or a bot's, which logs in with its token only) are not told apart."""


def reserved(name: str, sysops: Sequence[SysopConfig]) -> bool:
    """True when nobody may call themselves ``name``: "Computer", "Sysop",
    "You" and the name of every one of ``sysops``, lookalikes included."""
    key = name_key(name)
    return key in {name_key(n) for n in RESERVED_NAMES} or any(name_key(s.name) == key for s in sysops)


def name_refused(name: str, sysops: Sequence[SysopConfig]) -> str | None:
    """Why nobody may call themselves ``name`` (cleaned already), in a
    sentence, or ``None``: an empty name, a name with ``@`` (``alias@BOARD``
    names a caller of another board of the cribbage hub, whose account
    their board vouches for: a name taken here with an ``@`` would be
    theirs), a reserved one (:func:`reserved`).  For the name prompt and
    the game protocol's login alike."""
    if not name:
        return f"Please type a name of 1 to {NAME_LIMIT} characters."
    if "@" in name_key(name):  # (a fullwidth or small @ is one too: names are compared by name_key)
        return "A name with @ belongs to a caller from another board: please choose one without."
    if reserved(name, sysops):
        return f"The name {name} is reserved: please choose another."
    return None


def offered_name(sysops: Sequence[SysopConfig], user_name: str | None) -> str:
    """The SSH login name offered at the name prompt: only a name that
    could be typed there as it is (no trailing spaces, invisible or control
    characters, not reserved, at most :data:`NAME_LIMIT` characters)."""
    if not user_name or clean_name(user_name) != user_name or len(user_name) > NAME_LIMIT:
        return ""
    return "" if reserved(user_name, sysops) else user_name


async def login(side: CallerSide, default_name: str | None, preauth: Account | None) -> Caller:
    """Find out who is calling.  ``preauth``: the account an SSH login
    already proved; ``default_name``: offered at the name prompt."""
    if preauth is not None:
        return Caller(preauth.name, preauth)
    ctx, log = side.ctx, side.log
    note = ""
    default = offered_name(ctx.sysops, default_name)
    while True:
        display = side.display
        name = await ask_line(display, "Two-handed cribbage", [
            "Welcome to the cribbage door.",
            "You are player 1. Type your name; a registered name asks for its password.",
            "" if display.lines else "(Type S and press RETURN for screen-reader mode.)",
        ], "Your name: ", default, NAME_LIMIT, note=note)
        default = ""
        name = clean_name(name)
        if name.lower() == READER_KEY and not display.lines:
            side.present(Presentation.LINES)  #
            note = ""
            continue
        if (refused := name_refused(name, ctx.sysops)) is not None:
            if name and reserved(name, ctx.sysops):
                log.warning("reserved name %r typed from %s", name, display.terminal.peer)
            note = refused
            continue
        account = await ctx.store.accounts.find(name)
        if account is not None:
            if await _password(side, account):
                return Caller(account.name, account)
            note = "Not logged in. Type your name again, or another name."
            continue
        choice = await ask_choice(display, "New caller", [
            f"The name {name} is not registered.",
            "",
            "  R  Register it with a password: your games and statistics are kept,",
            "     and an unfinished game waits for you if the line drops.",
            "  G  Play as a guest: nothing is kept.",
            "  B  Back: type another name.",
        ], "RGB")
        if choice == "G":
            log.info("guest %r", name)
            return Caller(name, None)
        if choice == "B":
            continue
        registered = await _register(side, name)
        if isinstance(registered, str):
            note = registered
            continue
        return Caller(registered.name, registered)


async def _password(side: CallerSide, account: Account) -> bool:
    """Ask the account's password, up to three times.  True when right,
    False when given up."""
    display, log = side.display, side.log
    note = ""
    for _ in range(_TRIES):
        password = await ask_line(display, "Welcome back", [
            f"Welcome back, {account.name}.",
            "Type your password (RETURN on an empty line to use another name).",
        ], "Password: ", "", 64, mask=True, note=note)
        if not password:
            return False
        logged_in = await password_login(side, account.name, password)
        if isinstance(logged_in, Account):
            log.info("caller %r logged in", account.name)
            return True
        note = "Wrong password." if logged_in == LOGIN_MISS else logged_in
    return False


async def password_login(side: Side, name: str, password: str) -> Account | str:
    """The account registered as ``name`` whose password is ``password``,
    or why not in a sentence (:data:`LOGIN_MISS`, or the limits on wrong
    passwords refusing more tries: :func:`checked_password`): a name
    nobody registered, or a bot's (which logs in with its token only),
    is checked against a decoy hash, so that it costs the same time as a
    wrong password.  For the login screen and the game protocol alike."""
    accounts = side.ctx.store.accounts
    account = await accounts.find(name)
    if account is not None and await side.ctx.store.bots.is_bot(account.id):
        account = None
    stored = (await accounts.password_hash(account.id) if account else "") or await decoy_hash()
    verdict = await checked_password(side, name, password, stored)
    if not verdict.ok or account is None:
        return verdict.refused or LOGIN_MISS
    return account


async def checked_password(side: Side, name: str, password: str, stored: str) -> Verdict:
    """``password`` checked against the hash ``stored`` for ``name``,
    within the limits on wrong passwords by name and by the address the
    side calls from (:class:`~door.records.throttle.LoginThrottle`); a
    wrong one answered only after the delay it costs (none when refused
    outright).  For the login screen and the game protocol alike."""
    verdict = await side.ctx.throttle.check(name, side.terminal.address, side.terminal.kind, password, stored)
    if not verdict.ok and verdict.refused is None:
        await asyncio.sleep(verdict.delay)
    return verdict


async def _register(side: CallerSide, name: str) -> Account | str:
    """Choose a password and register ``name``.  Returns the account, or a
    sentence saying why not.  A caller over the
    registration limit (``[limits] register_*``) is told so before being
    asked for a password, and offered to play as a guest."""
    display, ctx, log = side.display, side.ctx, side.log
    address = display.terminal.address
    limit = ctx.limits.registrations
    refused = await ctx.store.accounts.registration_refused(address, limit)
    if refused:
        log.warning("registration of %r from %s refused: %s", name, address, refused)
        return f"{refused} Play as a guest, or call again later."
    note = ""
    while True:
        first = await ask_line(display, "Register", [
            f"Choose a password for {name} ({MIN_PASSWORD} or more characters).",
            "RETURN on an empty line goes back.",
        ], "Password: ", "", 64, mask=True, note=note)
        if not first:
            return "Not registered."
        if (refused_why := password_refused(first)) is not None:
            note = refused_why
            continue
        again = await ask_line(display, "Register", [f"Type the password for {name} again."],
                               "Password: ", "", 64, mask=True)
        if again != first:
            note = "The two passwords differ: please choose again."
            continue
        return await create_account(side, name, first)
