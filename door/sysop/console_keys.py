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
reason they are told, RETURN; every node refuses them); T shows the
tournaments' rounds (:mod:`door.sysop.console_rounds`); Q leaves the console.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from door.net.keys import Key, KeyName
from door.play.key_bindings import bind

__all__ = ["ConsoleKeys", "handle_key", "Intent", "StopWatching", "LeaveConsole", "ToggleAvailable",
           "AnswerPage", "Watch", "SendMessage", "Disconnect", "Resume", "OpenClub", "CLUB_LABEL", "Ban", "ShowRounds",
           "BAN_LABEL", "CONSOLE_KEYS", "CONSOLE_KEYS_HELP", "WATCH_KEYS", "CONFIRM_KEYS", "TYPING_KEYS", "key_bar"]

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


@dataclass(frozen=True)
class ShowRounds:
    """Show the running tournaments' rounds: every pairing, whose move, its deadline, who is late."""


Intent = (StopWatching | LeaveConsole | ToggleAvailable | AnswerPage | Watch | SendMessage | Disconnect | Resume
          | OpenClub | Ban | ShowRounds)
"""What a key asks the console to do."""


CONSOLE_KEYS_HELP: tuple[tuple[str, Iterable[KeyName | str], str], ...] = (
    ("up", [KeyName.UP, KeyName.LEFT], "Up/Down select a caller"),
    ("down", [KeyName.DOWN, KeyName.RIGHT], ""),
    ("accept", "yY", "Y accept a page"),
    ("decline", "nN", "N decline"),
    ("watch", "wW", "W watch a game"),
    ("message", "mM", "M message"),
    ("disconnect", "kK", "K disconnect"),
    ("ban", "bB", "B ban"),
    ("available", "aA", "A available/away"),
    ("resume", "rR", "R resume"),
    ("club", "cC", "C club"),
    ("rounds", "tT", "T rounds"),
    ("leave", "qQ", "Q quit"),
)
"""The console's keys: (meaning, keys, what the key bar says of them;
empty: said with the key before).  :data:`CONSOLE_KEYS` and the key bar
(:func:`key_bar`) are both made from it."""

CONSOLE_KEYS = bind(*((meaning, keys) for meaning, keys, _ in CONSOLE_KEYS_HELP))
"""The console's keys when nothing is being typed, asked or watched."""

WATCH_KEYS = bind(("stop watching", [KeyName.ESCAPE, "qQ"]))
"""The keys while the sysop watches a game (every other key does nothing)."""

CONFIRM_KEYS = bind(("yes", "yY"))
"""The answer to "Disconnect NAME? (Y/N)" (any other key is no)."""

TYPING_KEYS = bind(("send", [KeyName.ENTER]), ("drop", [KeyName.ESCAPE]),
                   ("erase", [KeyName.BACKSPACE, KeyName.DELETE]))
"""The keys while a line is typed after a label (a typed character is text)."""


def key_bar(width: int = 78) -> tuple[str, ...]:
    """The console's key bar: :data:`CONSOLE_KEYS_HELP`'s words in lines
    of at most ``width`` cells (ASCII), two spaces apart, three when the
    line has room.

    >>> [len(line) <= 78 for line in key_bar()]
    [True, True]
    """
    lines: list[list[str]] = [[]]
    for words in (words for _, _, words in CONSOLE_KEYS_HELP if words):
        if lines[-1] and len("  ".join([*lines[-1], words])) > width:
            lines.append([])
        lines[-1].append(words)
    return tuple("   ".join(line) if len("   ".join(line)) <= width else "  ".join(line) for line in lines)


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
        return [StopWatching()] if WATCH_KEYS.meaning(key) is not None else []
    if keys.input_label:
        return _typing(keys, key, chat_limit)
    if keys.confirm:
        keys.confirm = ""
        return [Disconnect()] if CONFIRM_KEYS.meaning(key) == "yes" and target is not None else []
    meaning = CONSOLE_KEYS.meaning(key)
    if meaning in _ASKS:
        return [_ASKS[meaning]]
    if meaning in _SETS:
        _SETS[meaning](keys, callers, target)
    return []


_ASKS: dict[str, Intent] = {"leave": LeaveConsole(), "available": ToggleAvailable(),
                            "accept": AnswerPage(accept=True), "decline": AnswerPage(accept=False),
                            "watch": Watch(), "resume": Resume(), "rounds": ShowRounds()}
"""The meanings that ask the console for one thing at once."""


def _up(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    keys.selected = max(0, keys.selected - 1)


def _down(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    keys.selected = min(max(0, callers - 1), keys.selected + 1)


def _message(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    if target is not None:
        keys.input_label, keys.input = f"Message to {target}: ", ""


def _ban(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    if target is not None:
        keys.input_label, keys.input = BAN_LABEL.format(target or "this caller"), ""


def _disconnect(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    if target is not None:
        keys.confirm = f"Disconnect {target or 'this caller'}? (Y/N)"


def _club(keys: ConsoleKeys, callers: int, target: str | None) -> None:
    keys.input_label, keys.input = CLUB_LABEL, ""


_SETS: dict[str, Callable[[ConsoleKeys, int, str | None], None]] = {
    "up": _up, "down": _down, "message": _message, "ban": _ban, "disconnect": _disconnect, "club": _club}
"""The meanings that change what the keys have set (``(keys, callers,
target)``: the selection, a line to type, a question)."""


def _typing(keys: ConsoleKeys, key: Key, chat_limit: int) -> list[Intent]:
    """A key while a message is being typed."""
    meaning = TYPING_KEYS.meaning(key)
    if meaning == "send":
        label, text, keys.input_label, keys.input = keys.input_label, keys.input, "", ""
        if label.startswith(BAN_LABEL.split("{")[0]):
            return [Ban(text)] if text.strip() else []
        return [OpenClub(text) if label == CLUB_LABEL else SendMessage(text)]
    if meaning == "drop":
        keys.input_label, keys.input = "", ""
    elif meaning == "erase":
        keys.input = keys.input[:-1]
    elif key.name is KeyName.CHAR and len(keys.input) < chat_limit:
        keys.input += key.char
    return []
