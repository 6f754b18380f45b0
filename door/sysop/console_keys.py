"""The sysop console's keys, pure (as :mod:`door.play.controller`
is for the game): a key and the console's :class:`ConsoleKeys` state in,
what the console must do out (:data:`Intent`), with no screen, lobby or
socket in sight.  :class:`door.sysop.console.SysopConsole` carries the
intents out.

The keys (the original door's sysop, and the door's own): Up/Down (or Left/Right)
select a caller; Y accepts the page (the selected caller's, or the
oldest); N declines it; W watches the selected caller's game (ESC or Q
stops); M types a message to the selected caller (RETURN sends, ESC
drops it); K disconnects the selected caller (asks first: Y does it, any
other key does not); A switches available and away; R goes back to a game
that waits for the sysop; C opens a club night (type the games and the
minutes to its start, RETURN); B bans the selected caller (type the
reason they are told, RETURN; every node refuses them); Q leaves the console.
"""

from __future__ import annotations

from dataclasses import dataclass

from door.net.keys import Key, KeyName

__all__ = ["ConsoleKeys", "handle_key", "Intent", "StopWatching", "LeaveConsole", "ToggleAvailable",
           "AnswerPage", "Watch", "SendMessage", "Disconnect", "Resume", "OpenClub", "CLUB_LABEL", "Ban",
           "BAN_LABEL"]

CLUB_LABEL = "Club night: games and minutes to the start (e.g. 9 15): "
"""What the console asks after C."""

BAN_LABEL = "Ban {} for (the reason they are told): "
"""What the console asks after B (``{}``: the selected caller)."""


@dataclass
class ConsoleKeys:
    """What the console's keys have set: the ``selected`` caller's row, a
    message being typed (``input`` after the ``input_label``; empty label:
    none), and a question waiting for Y (``confirm``)."""

    selected: int = 0
    input_label: str = ""
    input: str = ""
    confirm: str = ""


@dataclass(frozen=True)
class StopWatching:
    """Stop watching a game: back to the console."""


@dataclass(frozen=True)
class LeaveConsole:
    """The sysop leaves the console."""


@dataclass(frozen=True)
class ToggleAvailable:
    """Available for pages, or away."""


@dataclass(frozen=True)
class AnswerPage:
    """Accept (``accept``) or decline the page (the selected caller's, or the oldest)."""

    accept: bool


@dataclass(frozen=True)
class Watch:
    """Watch the selected caller's game."""


@dataclass(frozen=True)
class SendMessage:
    """Send ``text`` (as typed) to the selected caller."""

    text: str


@dataclass(frozen=True)
class Disconnect:
    """End the selected caller's call (asked and confirmed)."""


@dataclass(frozen=True)
class OpenClub:
    """Open a club night as typed: ``text`` (games, then minutes to the start)."""

    text: str


@dataclass(frozen=True)
class Ban:
    """Ban the selected caller on every node, telling them ``reason``."""

    reason: str


@dataclass(frozen=True)
class Resume:
    """Go back to a game that waits for this sysop."""


Intent = (StopWatching | LeaveConsole | ToggleAvailable | AnswerPage | Watch | SendMessage | Disconnect | Resume
          | OpenClub | Ban)
"""What a key asks the console to do."""


def handle_key(keys: ConsoleKeys, key: Key, callers: int, target: str | None, watching: bool = False,
               chat_limit: int = 70) -> list[Intent]:
    """React to ``key``: update ``keys`` and return what the console must
    do.  ``callers``: how many callers are listed; ``target``: the selected
    caller's name (``None``: nobody is selected); ``watching``: a game is
    on screen; ``chat_limit``: the longest message, in characters.

    >>> keys = ConsoleKeys()
    >>> handle_key(keys, Key(KeyName.CHAR, "k"), 2, "Ann"), keys.confirm
    ([], 'Disconnect Ann? (Y/N)')
    >>> handle_key(keys, Key(KeyName.CHAR, "y"), 2, "Ann"), keys.confirm
    ([Disconnect()], '')
    """
    if watching:
        if key.name is KeyName.ESCAPE or _char(key, "qQ"):
            return [StopWatching()]
        return []
    if keys.input_label:
        return _typing(keys, key, chat_limit)
    if keys.confirm:
        keys.confirm = ""
        return [Disconnect()] if _char(key, "yY") and target is not None else []
    if key.name in (KeyName.UP, KeyName.LEFT):
        keys.selected = max(0, keys.selected - 1)
    elif key.name in (KeyName.DOWN, KeyName.RIGHT):
        keys.selected = min(max(0, callers - 1), keys.selected + 1)
    elif key.name is KeyName.CHAR:
        ch = key.char.upper()
        if ch == "Q":
            return [LeaveConsole()]
        if ch == "A":
            return [ToggleAvailable()]
        if ch in "YN":
            return [AnswerPage(accept=ch == "Y")]
        if ch == "W":
            return [Watch()]
        if ch == "M" and target is not None:
            keys.input_label, keys.input = f"Message to {target}: ", ""
        elif ch == "B" and target is not None:
            keys.input_label, keys.input = BAN_LABEL.format(target or "this caller"), ""
        elif ch == "K" and target is not None:
            keys.confirm = f"Disconnect {target or 'this caller'}? (Y/N)"
        elif ch == "R":
            return [Resume()]
        elif ch == "C":
            keys.input_label, keys.input = CLUB_LABEL, ""
    return []


def _typing(keys: ConsoleKeys, key: Key, chat_limit: int) -> list[Intent]:
    """A key while a message is being typed."""
    if key.name is KeyName.ENTER:
        label, text, keys.input_label, keys.input = keys.input_label, keys.input, "", ""
        if label.startswith(BAN_LABEL.split("{")[0]):
            return [Ban(text)] if text.strip() else []
        return [OpenClub(text) if label == CLUB_LABEL else SendMessage(text)]
    if key.name is KeyName.ESCAPE:
        keys.input_label, keys.input = "", ""
    elif key.name in (KeyName.BACKSPACE, KeyName.DELETE):
        keys.input = keys.input[:-1]
    elif key.name is KeyName.CHAR and len(keys.input) < chat_limit:
        keys.input += key.char
    return []


def _char(key: Key, chars: str) -> bool:
    return key.name is KeyName.CHAR and key.char in chars
