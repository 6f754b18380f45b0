"""The sysop console's view of the tournaments' rounds (T at the console):
a running tournament's current round, every pairing on a line with its
kept game, whose move it is, its deadline and who is late (past the
deadline, or within :data:`NEAR` of it), and the sysop's remedies on the
selected pairing: E extends its deadline, A adjudicates it to the player
who is not late (asked first), R replaces the late player by a name
typed.  Left/Right go to another running tournament; ESC or Q goes back.

The remedies are the store's (:class:`door.records.tournaments.repository.Tournaments`:
``extend``, ``adjudicate``, ``replace``); what the view shows is read
from the store when it opens, after each remedy, and every
:data:`RELOAD` seconds while it is on screen."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from door.net.keys import Key, KeyName
from door.play.key_bindings import bind
from door.records.database import StoreError
from door.records.tournaments.repository import Tournaments, View
from door.records.tournaments.settings import HOUR, TournamentError
from door.records.tournaments.values import BOTH_LOST, Pairing, State
from door.sysop.console_keys import CONFIRM_KEYS, TYPING_KEYS
from door.ui.canvas import Canvas
from door.ui.cells import fit
from door.ui.prompts import NAME_LIMIT, TITLE
from door.ui.style import BLACK, CYAN, GREEN, RED, WHITE, YELLOW, Style

__all__ = ["NEAR", "RELOAD", "EXTEND_HOURS", "ROUND_KEYS", "RoundRow", "RoundsView", "late_player", "round_rows",
           "deadline_words"]

NEAR = 24 * HOUR
"""A deadline closer than this (seconds) is shown as near: its late player is warned of."""

RELOAD = 5.0
"""Seconds after which the view, on screen, reads the store again (moves made, games decided meanwhile)."""

EXTEND_HOURS = 24.0
"""How much later E moves the selected pairing's deadline (hours)."""

ROUND_KEYS = bind(("up", [KeyName.UP]), ("down", [KeyName.DOWN]), ("previous", [KeyName.LEFT]),
                  ("next", [KeyName.RIGHT]), ("extend", "eE"), ("adjudicate", "aA"), ("replace", "rR"),
                  ("back", [KeyName.ESCAPE, "qQ"]))
"""The keys of the rounds' view (any other key does nothing)."""

KEY_BAR = ("Up/Down select a pairing   Left/Right another tournament   ESC back",
           "E extend its deadline a day   A adjudicate it   R replace a player")
"""The view's two lines of keys (the second gives way to a name being typed or a question)."""

HEAD = Style(fg=CYAN, bold=True)
TEXT = Style(fg=WHITE)
BAR = Style(fg=BLACK, bg=CYAN)
LATE = Style(fg=RED, bold=True)
SOON = Style(fg=YELLOW, bold=True)
DONE = Style(fg=GREEN)
HELP = Style(fg=YELLOW, bold=True)
PAGE = Style(fg=YELLOW, bg=RED, bold=True)


def late_player(p: Pairing) -> str | None:
    """Who is late in pairing ``p`` should its deadline pass now: the
    player its game waits on, when known; else the one who has not turned
    up; ``"both"`` when neither has; ``None`` for a bye or a decided pairing."""
    a, b = p.players
    if b is None or not p.open:
        return None
    if p.waiting is not None:
        return p.players[p.waiting]
    missing = [name for seat, name in enumerate((a, b)) if not p.shown & (1 << seat)]
    return "both" if len(missing) == 2 else missing[0] if missing else None


def deadline_words(deadline: float | None, now: float) -> str:
    """How far ``deadline`` is from ``now`` (seconds since the epoch):
    ``"in 1d 4h"``, ``"in 2h 05m"``, ``"5h 00m ago"``; ``"-"`` for none.

    >>> deadline_words(1000.0 + 7500, 1000.0), deadline_words(1000.0, 1000.0 + 18000)
    ('in 2h 05m', '5h 00m ago')
    """
    if deadline is None:
        return "-"
    left = int(deadline - now)
    span = abs(left) // 60
    days, hours, minutes = span // 1440, span % 1440 // 60, span % 60
    words = f"{days}d {hours}h" if days else f"{hours}h {minutes:02d}m" if hours else f"{minutes}m"
    return f"in {words}" if left >= 0 else f"{words} ago"


@dataclass(frozen=True)
class RoundRow:
    """A pairing of the current round and the kept ``game`` playing it (``None``: none)."""

    pairing: Pairing
    game: int | None

    def status(self, now: float) -> str:
        """``"LATE"`` (its deadline passed), ``"near"`` (within :data:`NEAR`), ``"done"`` or ``""``."""
        p = self.pairing
        if not p.open or p.players[1] is None:
            return "done"
        if p.deadline is not None and p.deadline <= now:
            return "LATE"
        return "near" if p.deadline is not None and p.deadline - now < NEAR else ""

    def text(self, now: float) -> str:
        """The row: slot, players, game, whose move, deadline, who is late (or the result)."""
        p = self.pairing
        a, b = p.players
        game = f"#{self.game}" if self.game is not None else "-"
        if b is None:
            return f"{p.slot:<5} {fit(a, 10)} bye"
        players = f"{fit(a, 10)} v {fit(b, 10)}"
        if not p.open:
            won = "both lost" if p.winner == BOTH_LOST else f"{p.players[p.winner or 0]} won ({p.how})"
            return f"{p.slot:<5} {players}  {game:<5} {won}"
        to_move = (p.players[p.waiting] or "-") if p.waiting is not None else "?"
        status, late = self.status(now), late_player(p)
        who = f"{status}: {late}" if status in ("LATE", "near") and late else status
        return f"{p.slot:<5} {players}  {game:<5} {fit(to_move, 10)} {deadline_words(p.deadline, now):<11} {who}"

    def detail(self) -> str:
        """The selected row's line under the list: the pairing, its game and its deadline in full (UTC)."""
        p = self.pairing
        if p.players[1] is None:
            return f"{p.slot}: {p.players[0]} has the round's bye."
        game = f"kept game #{self.game}" if self.game is not None else "no kept game"
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(p.deadline)) if p.deadline is not None else "none"
        return f"{p.slot}: {p.players[0]} v {p.players[1]}, {game}, deadline {when}."


def round_rows(view: View, games: dict[int, int]) -> list[RoundRow]:
    """The current round of ``view``'s tournament: every open pairing and
    every pairing of its latest wave, in the order paired; ``games``: each
    pairing's kept game by pairing id."""
    latest = max((p.wave for p in view.pairings), default=0)
    return [RoundRow(p, games.get(p.id)) for p in view.pairings if p.open or p.wave == latest]


class RoundsView:
    """The rounds' view of the running tournaments in ``tournaments``
    (the store's), the ``shown`` one's current round with one row
    ``selected``; a name being typed (``typing``, after R) or a question
    (``asking``, after A); ``banner``: a page ringing meanwhile, shown
    across the top (empty: none)."""

    def __init__(self, tournaments: Tournaments, banner: Callable[[], str] = lambda: "") -> None:
        self.tournaments = tournaments
        self.banner = banner
        self.names: list[str] = []
        self.shown = 0
        self.view: View | None = None
        self.rows: list[RoundRow] = []
        self.selected = 0
        self.typing: str | None = None
        self.asking = ""
        self.said = ""
        """What the last remedy did, or why it was refused (shown above the keys)."""
        self.loaded = 0.0
        """When the store was last read (``time.monotonic()``)."""

    async def load(self) -> None:
        """Read the running tournaments and the shown one's round again
        (the store out of reach: said, and what was read before kept)."""
        self.loaded = time.monotonic()
        try:
            names = [t.name for t in await self.tournaments.listing(State.RUNNING)]
            shown = min(self.shown, max(0, len(names) - 1))
            view, rows = None, []
            if names:
                view = await self.tournaments.view(names[shown])
                games = await self.tournaments.links.games_of([p.id for p in view.pairings if p.open])
                rows = round_rows(view, games)
        except (StoreError, TournamentError) as exc:
            self.said = f"the tournaments cannot be read now: {exc}"
            return
        self.names, self.shown, self.view, self.rows = names, shown, view, rows
        self.selected = min(self.selected, max(0, len(self.rows) - 1))

    async def freshen(self) -> None:
        """Read the store again if :data:`RELOAD` seconds have passed since
        it was last read (not while a name is typed or a question asked)."""
        if time.monotonic() - self.loaded >= RELOAD and self.typing is None and not self.asking:
            await self.load()

    def paint(self, canvas: Canvas) -> None:
        """The view on ``canvas``: the title, the tournament and its round, the rows, the keys."""
        now = self.tournaments.clock()
        canvas.fill(0, 0, canvas.cols, TITLE)
        canvas.put(0, 1, "CRIBBAGE DOOR  SYSOP CONSOLE  TOURNAMENT ROUNDS", TITLE)
        if banner := self.banner():
            canvas.fill(1, 0, canvas.cols, PAGE)
            canvas.put(1, 1, banner[: canvas.cols - 2], PAGE)
        if self.view is None:
            canvas.put(2, 1, "No tournament is running.", TEXT)
        else:
            self._paint_round(canvas, self.view, now)
        bottom = canvas.rows - 1
        canvas.put(bottom - 2, 1, self.said[: canvas.cols - 2], HEAD)
        canvas.put(bottom - 1, 1, KEY_BAR[0][: canvas.cols - 2], HELP)
        if self.typing is not None:
            canvas.put(bottom, 1, f"{self._replace_label()}{self.typing}"[-(canvas.cols - 2):], HELP)
        elif self.asking:
            canvas.put(bottom, 1, self.asking[: canvas.cols - 2], HELP)
        else:
            canvas.put(bottom, 1, KEY_BAR[1][: canvas.cols - 2], HELP)

    def _paint_round(self, canvas: Canvas, view: View, now: float) -> None:
        t = view.tournament
        late = sum(1 for r in self.rows if r.status(now) == "LATE")
        near = sum(1 for r in self.rows if r.status(now) == "near")
        which = f" ({self.shown + 1} of {len(self.names)})" if len(self.names) > 1 else ""
        canvas.put(2, 1, f"{t.title} ({t.name}){which}: round {max((p.wave for p in view.pairings), default=0)}, "
                         f"{sum(1 for r in self.rows if r.pairing.open)} open, {late} late, {near} near the deadline"
                         [: canvas.cols - 2], TEXT)
        canvas.put(4, 1, f"{'Slot':<5} {'Players':<23}  {'Game':<5} {'To move':<10} {'Deadline':<11} Late", HEAD)
        fits = max(0, canvas.rows - 10)
        top = max(0, self.selected - fits + 1)
        for i, row in enumerate(self.rows[top: top + fits], start=top):
            y = 5 + i - top
            status = row.status(now)
            style = BAR if i == self.selected else LATE if status == "LATE" else SOON if status == "near" \
                else DONE if status == "done" else TEXT
            if i == self.selected:
                canvas.fill(y, 0, canvas.cols, BAR)
            canvas.put(y, 1, row.text(now)[: canvas.cols - 2], style)
        if not self.rows:
            canvas.put(5, 1, "Nothing is paired yet.", TEXT)
        else:
            canvas.put(canvas.rows - 4, 1, self.rows[self.selected].detail()[: canvas.cols - 2], TEXT)

    # -- the keys ---------------------------------------------------------------------

    async def key(self, key: Key) -> tuple[bool, str]:
        """React to ``key``: (whether the view stays, what the console's
        events say of it: empty for nothing; shown in the view too)."""
        stays, said = await self._key(key)
        if said:
            self.said = said
        return stays, said

    async def _key(self, key: Key) -> tuple[bool, str]:
        if self.typing is not None:
            return True, await self._typed(key)
        if self.asking:
            self.asking = ""
            return True, await self._adjudicate() if CONFIRM_KEYS.meaning(key) == "yes" else ""
        meaning = ROUND_KEYS.meaning(key)
        if meaning == "back":
            return False, ""
        act = self._ACTS.get(meaning or "")
        return True, await act(self) if act is not None else ""

    def _row(self) -> RoundRow | None:
        row = self.rows[self.selected] if 0 <= self.selected < len(self.rows) else None
        return row if row is not None and row.pairing.open and row.pairing.players[1] is not None else None

    def _late_or_first(self, p: Pairing) -> str:
        late = late_player(p)
        return late if late is not None and late != "both" else p.players[0]

    def _replace_label(self) -> str:
        row = self._row()
        return f"Replace {self._late_or_first(row.pairing) if row else '?'} with: "

    async def _up(self) -> str:
        self.selected = max(0, self.selected - 1)
        return ""

    async def _down(self) -> str:
        self.selected = min(max(0, len(self.rows) - 1), self.selected + 1)
        return ""

    async def _turn(self, step: int) -> str:
        if self.names:
            self.shown, self.selected = (self.shown + step) % len(self.names), 0
            await self.load()
        return ""

    async def _previous(self) -> str:
        return await self._turn(-1)

    async def _next(self) -> str:
        return await self._turn(1)

    async def _extend(self) -> str:
        row = self._row()
        if row is None or self.view is None:
            return "select an open pairing to extend"
        return await self._remedy(lambda name: self.tournaments.extend(
            name, EXTEND_HOURS, self._late_or_first(row.pairing)), f"{row.pairing.slot}'s deadline is "
            f"{EXTEND_HOURS:g} hours later")

    def _to_adjudicate(self) -> tuple[str, str, str] | None:
        """The selected pairing's slot, its one late player and the other,
        or ``None`` (no open pairing selected, or not one late player)."""
        row = self._row()
        late = late_player(row.pairing) if row is not None else None
        if row is None or late is None or late == "both":
            return None
        other = row.pairing.players[1 - row.pairing.seat(late)]
        assert other is not None
        return row.pairing.slot, late, other

    async def _ask_adjudicate(self) -> str:
        chosen = self._to_adjudicate()
        if chosen is None:
            return "adjudicate: select an open pairing with one late player (or: cribbage-door tournament adjudicate)"
        slot, late, other = chosen
        self.asking = f"Adjudicate {slot} to {other}, {late} forfeiting? (Y/N)"
        return ""

    async def _adjudicate(self) -> str:
        chosen = self._to_adjudicate()
        if chosen is None:
            return ""
        slot, late, other = chosen
        return await self._remedy(lambda name: self.tournaments.adjudicate(name, other, late),
                                  f"{slot} adjudicated to {other}")

    async def _ask_replace(self) -> str:
        if self._row() is None:
            return "select an open pairing whose player to replace"
        self.typing = ""
        return ""

    async def _typed(self, key: Key) -> str:
        meaning = TYPING_KEYS.meaning(key)
        if meaning == "send":
            row, new, self.typing = self._row(), (self.typing or "").strip(), None
            if row is None or not new:
                return ""
            old = self._late_or_first(row.pairing)
            return await self._remedy(lambda name: self.tournaments.replace(name, old, new),
                                      f"{new} takes {old}'s place")
        if meaning == "drop":
            self.typing = None
        elif meaning == "erase":
            self.typing = (self.typing or "")[:-1]
        elif key.name is KeyName.CHAR and len(self.typing or "") < NAME_LIMIT:
            self.typing = (self.typing or "") + key.char
        return ""

    async def _remedy(self, act: Callable[[str], Awaitable[object]], done: str) -> str:
        """Carry out a remedy on the shown tournament; what to say (why not, when refused)."""
        assert self.view is not None
        name = self.view.tournament.name
        try:
            await act(name)
        except (TournamentError, StoreError) as exc:
            return f"{name}: {exc}"
        await self.load()
        return f"{name}: {done}"

    _ACTS: dict[str, Callable[[RoundsView], Awaitable[str]]] = {
        "up": _up, "down": _down, "previous": _previous, "next": _next, "extend": _extend,
        "adjudicate": _ask_adjudicate, "replace": _ask_replace}
    """What each key's meaning does (the view's method): what the console says, if anything."""
