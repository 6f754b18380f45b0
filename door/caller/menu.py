"""The main menu and the record screens: a player's statistics, the top
players, and the recent games with date and time (seeds 001, 002, 003)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from door.caller.identity import Caller
from door.net.keys import KeyName
from door.records.bots import BOTS
from door.records.games import GameSummary
from door.records.store import Store
from door.ui.canvas import Canvas
from door.ui.cells import cell_width, fit
from door.ui.display import Display
from door.ui.prompts import INPUT, NOTE, frame, keys_words, show_page
from door.ui.words import wrap

__all__ = ["MenuItem", "MenuEntry", "MenuState", "main_menu", "changed_words", "main_menu_entries", "show_statistics", "show_top_players", "show_recent_games"]


class MenuItem(enum.Enum):
    """The main menu's choices; the value is the key that picks one."""

    PLAY_COMPUTER = "1"
    NUMBERED_GAME = "2"
    DAILY_DEAL = "D"
    """Today's deal: the same cards for everyone, once a day, ranked."""
    STATISTICS = "3"
    TOP_PLAYERS = "4"
    RECENT_GAMES = "5"
    PLAY_SYSOP = "6"
    DEMONSTRATION = "7"
    PLAY_CALLER = "8"
    CORRESPONDENCE = "K"
    """Games over days with other callers (registered callers)."""
    CLUB = "J"
    """Join tonight's club night."""
    WATCH = "W"
    """Watch a game between callers."""
    WATCHERS = "V"
    """Allow or refuse watchers in one's own games against people."""
    TERMINAL = "T"
    CHALLENGES = "C"
    """Turn challenges from other callers off, or on again."""
    RESUME = "R"
    QUIT = "Q"
    CHALLENGED = "challenged"
    """No key: another caller challenged this one (the menu gives way)."""


def _always() -> bool:
    return True


def _always_not() -> bool:
    return False


@dataclass(frozen=True)
class MenuEntry:
    """One line of a menu, as data: the ``item`` it chooses
    (its key is the item's value), its ``label`` (asked at each paint: it
    may change while the menu waits), and whether it is offered now
    (``enabled``, asked at each paint and each key)."""

    item: MenuItem
    label: Callable[[], str]
    enabled: Callable[[], bool] = _always

    @property
    def key(self) -> str:
        """The key that chooses it."""
        return self.item.value

    def line(self) -> str:
        """``"  1  Play the computer"``."""
        return f"  {self.key}  {self.label()}"


def _nothing() -> str:
    return ""


@dataclass(frozen=True)
class MenuState:
    """What the main menu asks of the door while it waits, each a function
    called at every paint and every second: "Play the sysop" is offered
    while ``sysop_available()`` says so, "Play another caller" while
    ``opponents()`` does; when ``challenged()`` turns True the menu
    returns :attr:`MenuItem.CHALLENGED`; ``challenges_on()`` says whether
    other callers may challenge this caller (offered as C to change; not
    offered when ``None``); "Watch a game" is offered while
    ``watchable()`` says a game between callers may be watched, and
    ``watchers_on()`` says whether this caller's own games may be (offered
    as V to change; not offered when ``None``); ``club()`` describes a
    club night taking players (J joins; not offered while it says
    nothing); games by correspondence are offered (K) while
    ``correspondence()`` says so (a registered caller)."""

    sysop_available: Callable[[], bool] = _always_not
    opponents: Callable[[], bool] = _always_not
    challenged: Callable[[], bool] = _always_not
    challenges_on: Callable[[], bool] | None = None
    watchable: Callable[[], bool] = _always_not
    watchers_on: Callable[[], bool] | None = None
    club: Callable[[], str] = _nothing
    correspondence: Callable[[], bool] = _always_not


def main_menu_entries(terminal: Callable[[], str], state: MenuState, resume: str | None) -> list[MenuEntry]:
    """The main menu's entries, in order (see :class:`MenuState` for what
    each offers; ``terminal()``: the terminal profile's name; ``resume``:
    a kept game, offered as R)."""
    sysop_available, opponents, watchable, club = state.sysop_available, state.opponents, state.watchable, state.club
    challenges_on, watchers_on = state.challenges_on, state.watchers_on
    def fixed(text: str) -> Callable[[], str]:
        return lambda: text

    entries = []
    if resume is not None:
        entries.append(MenuEntry(MenuItem.RESUME, fixed(f"Resume {resume}")))
    entries += [
        MenuEntry(MenuItem.PLAY_COMPUTER, fixed("Play the computer")),
        MenuEntry(MenuItem.NUMBERED_GAME, fixed("Play a numbered game (the same deals as game N, 1 to 999999)")),
        MenuEntry(MenuItem.DAILY_DEAL, fixed("Today's deal: the same cards for everyone, once a day, ranked")),
        MenuEntry(MenuItem.STATISTICS, fixed("Your statistics")),
        MenuEntry(MenuItem.TOP_PLAYERS, fixed("Top players")),
        MenuEntry(MenuItem.RECENT_GAMES, fixed("Recent games")),
        MenuEntry(MenuItem.PLAY_SYSOP, fixed("Play the sysop (page the sysop)"), sysop_available),
        MenuEntry(MenuItem.DEMONSTRATION, fixed("Demonstration: watch the computer play itself")),
        MenuEntry(MenuItem.PLAY_CALLER, fixed("Play another caller"), opponents),
        MenuEntry(MenuItem.CORRESPONDENCE, fixed("Correspondence: games over days with other callers"),
                  state.correspondence),
        MenuEntry(MenuItem.WATCH, fixed("Watch a game between callers"), watchable),
        MenuEntry(MenuItem.CLUB, lambda: f"Join the club night: {club()}", lambda: bool(club())),
    ]
    if challenges_on is not None:
        on = challenges_on
        entries.append(MenuEntry(MenuItem.CHALLENGES, lambda: "Challenges from other callers: " + (
            "on (C turns them off)" if on() else "off (C turns them on)")))
    if watchers_on is not None:
        allowed = watchers_on
        entries.append(MenuEntry(MenuItem.WATCHERS, lambda: "Watchers in your games against callers: " + (
            "allowed (V refuses them)" if allowed() else "refused (V allows them)")))
    entries += [MenuEntry(MenuItem.TERMINAL, lambda: f"Terminal: {terminal()} (test or change it)"),
                MenuEntry(MenuItem.QUIT, fixed("Leave the door"))]
    return entries


def changed_words(entries: Sequence[MenuEntry], before: Sequence[str]) -> str:
    """What changed in the menu since it offered the keys ``before``, in
    one line for the line presentation (not the whole menu again):
    ``"The menu changed: 8 Play another caller is offered; 6 Play the
    sysop (page the sysop) is gone."``."""
    came = [f"{e.key} {e.label()} is offered" for e in entries if e.enabled() and e.key not in before]
    gone = [f"{e.key} {e.label()} is gone" for e in entries if not e.enabled() and e.key in before]
    return "The menu changed: " + "; ".join([*came, *gone]) + "."


async def main_menu(display: Display, caller: Caller, state: MenuState = MenuState(),
                    messages: Sequence[str] = (), resume: str | None = None) -> MenuItem:
    """The caller's menu; returns the :class:`MenuItem` chosen (raises
    :class:`~door.net.terminal.HungUp` on hang-up).  What it offers
    follows ``state`` (:class:`MenuState`, checked every second);
    ``messages`` from the sysop show as they arrive; ``resume`` describes
    a kept game ("game #N (hand 3, you 20, Computer 26)"), offered as R.
    When ``state.challenged()`` turns True (checked at every wake-up of
    the terminal) the menu returns :attr:`MenuItem.CHALLENGED`, unless the
    caller pressed a key of the menu: their own choice comes first."""
    sysop_available, opponents, watchable, club = state.sysop_available, state.opponents, state.watchable, state.club
    challenged = state.challenged
    who = f"Welcome, {caller.name}." if not caller.guest else f"Welcome, {caller.name} (guest: nothing is kept)."
    note = ""
    entries = main_menu_entries(lambda: display.terminal.charset.label, state, resume)

    def lines() -> list[str]:
        return [who, "", *(e.line() for e in entries if e.enabled())]

    def paint(canvas: Canvas) -> None:
        shown = lines()
        # the banner only where everything fits under it (messages included)
        banner = 9 + len(shown) + 2 + min(3, len(messages)) <= canvas.rows
        row = frame(canvas, "Main menu", shown, banner=banner)
        canvas.put(row, 4, note, NOTE)
        shown = [part for line in list(messages)[-3:] for part in wrap(line, canvas.cols - 5, hang=0)][-3:]
        for i, line in enumerate(shown):
            canvas.put(row + 1 + i, 4, line, INPUT)
        canvas.cursor = None

    def news() -> tuple[bool, bool, bool, str, tuple[str, ...]]:
        """What can change while the menu waits: the sysop's presence, other callers, games
        to watch, a club night and messages (checked every second; painted only on a change)."""
        return sysop_available(), opponents(), watchable(), club(), tuple(list(messages)[-3:])

    def offered() -> list[str]:
        return [e.key for e in entries if e.enabled()]

    def said() -> list[str]:
        """The menu in the line presentation: its lines (the unread
        messages first), then the keys it takes."""
        return [*list(messages)[-3:], *lines(), keys_words(offered())]

    if challenged():
        return MenuItem.CHALLENGED
    painted = news()
    keys = offered()
    display.show(paint, text=said)
    async for key in display.keys(tick=1.0):
        if key is None:
            if challenged():
                return MenuItem.CHALLENGED
            now = news()
            if now != painted:
                painted = now
                if offered() != keys:  # (said: a line presentation paints nothing)
                    display.say(changed_words(entries, keys))
                    keys = offered()
                display.refresh_soon()
            continue
        allowed = offered()
        if key.name is KeyName.CHAR and key.char.upper() in allowed:
            return MenuItem(key.char.upper())  # (a challenge that came meanwhile is declined by the caller's choice)
        if challenged():
            return MenuItem.CHALLENGED
        note = "Please press " + " or ".join(allowed) + "."
        display.answer(keys_words(allowed))
        display.refresh_soon()
    raise AssertionError("the key loop ends only by raising HungUp")


async def show_statistics(display: Display, store: Store, caller: Caller) -> None:
    """The caller's statistics page: :meth:`Statistics.rows
    <door.records.statistics.Statistics.rows>` under the caller's name."""
    if caller.guest:
        await show_page(display, "Statistics", [
            "Guests have no statistics.", "", "Register your name at the next call to keep your games."])
        return
    stats = await store.statistics.player(caller.name)
    assert stats is not None
    lines = [f"Statistics of {stats.name}"]
    lines += [f"{label:<40} {value}" for label, value in stats.rows()]
    await show_page(display, "Statistics", lines)


TOP_LINES = 20
"""Lines of the Top players page (a 24-row screen, less the title and key lines)."""


async def show_top_players(display: Display, store: Store) -> None:
    """The top players: by Glicko-2 rating when anyone has played a rated
    match (established players ranked, provisional ones listed apart),
    then by games credited."""
    rated = await store.ratings.top(200)
    established = [p for p in rated if not p.provisional]
    provisional = [p for p in rated if p.provisional]
    lines: list[str] = []
    if rated:
        lines += ["Top players by rating", "", f"{'':>3} {'Name':<20} {'Rating':>6} {'RD':>4} {'Matches':>8}"]
        for i, p in enumerate(established[:8], 1):
            lines.append(f"{i:>3} {fit(p.name, 20)} {p.rating.rating:>6.0f} {p.rating.rd:>4.0f} {p.matches:>8}")
        if not established:
            lines.append("    Nobody yet: a rating counts after 5 rated matches with an RD under 100.")
        if provisional:
            names = ", ".join(f"{p.name} {p.rating.rating:.0f}" for p in provisional)
            lines += [fit(f"Provisional: {names}", 150)]
        lines.append("")
    bots = await store.ratings.top(8, pool=BOTS)
    if bots:  # (a pool of their own: a program's rating is never ranked beside a person's)
        names = ", ".join(f"{p.name} {p.rating.rating:.0f}" for p in bots)
        lines += [fit(f"Bots, rated among themselves: {names}", 150), ""]
    top = await store.statistics.top(12)
    used = sum(max(1, -(-cell_width(line) // 75)) for line in lines)  # (a long line wraps at 75 columns)
    room = max(3, TOP_LINES - used - 3)
    lines += ["Top players by games credited" if rated else "Top players", "",
              f"{'':>3} {'Name':<20} {'Games':>6} {'Won':>5} {'Win %':>6} {'Credited':>9}"]
    for i, q in enumerate(top[:room], 1):
        lines.append(f"{i:>3} {fit(q.name, 20)} {q.games:>6} {q.wins:>5} {q.win_rate:>5.0f}% {q.credited:>9}")
    if not top:
        lines.append("    No games recorded yet.")
    await show_page(display, "Top players", lines)


async def show_recent_games(display: Display, store: Store, caller: Caller) -> GameSummary | None:
    """The latest games (the caller's own when registered), and the seeds
    of the latest one dealt by a verifiable shuffle (in the line
    presentation said on S only: four seeds of 64 digits).  A
    registered caller may press a game's number to review it: returns that game, else ``None`` (any other key)."""
    games = await store.games.recent(None if caller.guest else caller.name, limit=14)
    numbered = [] if caller.guest else games[:9]
    title = "Recent games" if caller.guest else f"Recent games of {caller.name}"
    seeded = next((g for g in games if g.shuffle is not None), None)
    if seeded is not None:  # room for its seeds under the list
        games = games[:10]
    lines = [title, ""] + [f"{i}  {g.line()}" if numbered else g.line() for i, g in enumerate(games, 1)]
    if not games:
        lines.append("No games recorded yet.")
    seeds, said = await _seeds_lines(store, seeded)
    on_demand = bool(seeds) and display.lines  # (four seeds of 64 digits said only on demand)
    if seeds:
        lines += ["", said] if on_demand else ["", *seeds]
    if not numbered and not on_demand:
        await show_page(display, "Recent games", lines)
        return None
    keys = "1" if len(numbered) == 1 else f"1 to {len(numbered)}"
    lines += ["", f"Press {keys} to review that game; any other key goes back." if numbered else "Press any key."]

    def paint(canvas: Canvas) -> None:
        frame(canvas, "Recent games", lines, banner=False)
        canvas.cursor = None

    display.show(paint, text=lambda: lines)
    return await _pick_game(display, numbered, seeds)


async def _seeds_lines(store: Store, seeded: GameSummary | None) -> tuple[list[str], str]:
    """The seeds of ``seeded``, a game dealt by a verifiable shuffle, as
    shown (the door's own kept back while a day's deal may not be shown:
    :meth:`~door.records.daily.Daily.sealed_now`), and what
    the line presentation says of them instead; ``([], "")`` for no game,
    or a game without them."""
    s = seeded.shuffle if seeded is not None else None
    if seeded is None or s is None:
        return [], ""
    sealed = await store.daily.sealed_now(s)  # a day's deal: its seed is nobody's before it may be shown
    kept = (f"(today's deal: shown once {sealed} is over)" if sealed == store.daily.today()
            else f"(the deal of {sealed}: shown once its plays are over)")
    door_seed = s.server_seed if sealed is None else kept
    seeds = [f"Seeds of game #{seeded.number} (deal it again: cribbage-door verify, or the manual):",
             f"  {'door':<6} {door_seed}", f"  {'sha256':<6} {s.commitment}",
             f"  {fit(seeded.players[0], 6):<6} {s.player_seeds[0]}",
             f"  {fit(seeded.players[1], 6):<6} {s.player_seeds[1]}"]
    return seeds, f"The seeds of game #{seeded.number} are kept: S says them."


async def _pick_game(display: Display, numbered: list[GameSummary], seeds: list[str]) -> GameSummary | None:
    """The keys of the recent games' page: a game's number picks it from
    ``numbered``; in the line presentation S says the ``seeds``; any
    other key goes back (``None``)."""
    async for key in display.keys():
        if key is None:
            continue
        if key.name is KeyName.CHAR and key.char.isdigit() and 1 <= int(key.char) <= len(numbered):
            return numbered[int(key.char) - 1]
        if key.name is KeyName.CHAR and key.char in "sS" and seeds and display.lines:
            display.answer(*seeds)
            continue
        return None
    return None
