"""``cribbage-door records``: the sysop's maintenance of the records, like
Cribbage Champ's ``CRIB /V``, ``CRIB xxx /R`` and ``CRIB /X`` (as in Cribbage Champ).

    records list              every registered player with their figures
    records show NAME         one player's statistics and recent games
    records remove NAME       remove a player and their games (asks first)
    records remove-all        remove every record and account (asks first)
    records export FILE.csv   every finished game as CSV
    records backup FILE       a consistent copy of the database (safe while
                              the server runs: SQLite's online backup)
    records daily [DAY]       a day's plays of today's deal (default today),
                              accounts of one network flagged
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import datetime
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

from door.records.ban_cli import BAN_ACTIONS, run_ban
from door.records.bots import BOTS, PEOPLE, POOLS
from door.records.daily import shared_networks
from door.records.ranked.agreement import RECENT, expert_agreement
from door.records.schema_cli import SCHEMA_ACTIONS, run_schema
from door.records.store import Store, StoreError
from door.ui.cells import cell_width

__all__ = ["add_parser", "run_records", "spreadsheet_safe", "pad", "NAMED"]

NAMED = ("show", "remove", "remove-saved")
"""The actions whose target is a player's name (which may start with ``-``)."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (OWASP's CSV
    injection rule): text starting ``= + - @``, tab or CR gets a leading
    ``'``.

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("Ann")
    ("'=HYPERLINK(1)", 'Ann')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells, measured as
    the door measures them (a wide character is two cells, a combining mark
    none); never cut.

    >>> pad("Ann", 5) + "|", len(pad("Jose\u0301", 5)), pad("\u732b", 3) + "|"
    ('Ann  |', 6, '\u732b |')
    """
    return text + " " * max(0, width - cell_width(text))


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``records`` command to the command line."""
    p = sub.add_parser("records", help="list, show, remove or export the game records")
    p.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    p.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    p.add_argument("-y", "--yes", action="store_true", help="remove without asking")
    p.add_argument("action", choices=list(ACTIONS))
    p.add_argument("target", nargs="?", help="the player's NAME (show, remove, remove-saved, bot), the FILE "
                                             "(export, backup), the MATCH id (void), the DAY (daily: "
                                             "YYYY-MM-DD, today if not given), an account's NAME, an "
                                             "ADDRESS or a NETWORK (ban), or a ban's number (unban)")
    p.add_argument("--reason", default="", help="ban: the reason the caller is told")
    p.add_argument("--for", dest="ban_for", default="", metavar="DURATION",
                   help="ban: how long (90m, 12h, 7d, 2w; default: until lifted)")
    p.add_argument("--days", type=float, default=30.0, help="ratings: how many days back to look (default 30)")
    p.add_argument("--pool", choices=POOLS, help="bot: the pool it plays rated matches in: its own (bots, the "
                                                 "default), people's, or none (unrated); kept when not given")


def run_records(args: argparse.Namespace, where: Path | str, out: TextIO = sys.stdout,
                ask: Callable[[str], str] = input) -> int:
    """Carry out a ``records`` command on the store ``where`` (the SQLite
    file's path, or a PostgreSQL URL); returns the exit status."""
    if args.action in ("show", "remove", "remove-saved", "export", "backup", "void", "bot", "ban",
                       "unban") and not args.target:
        what = {"export": "FILE", "backup": "FILE", "void": "MATCH id", "ban": "NAME, ADDRESS or NETWORK",
                "unban": "ban's number"}.get(args.action, "NAME")
        print(f"cribbage-door: records {args.action} needs a {what}", file=sys.stderr)
        return 2
    if isinstance(where, Path) and not where.exists():
        print(f"cribbage-door: no database at {where} (start the server once, or give --data-dir)", file=sys.stderr)
        return 1
    if args.action in ("remove", "remove-all") and not args.yes:
        question = (f"Remove {args.target} and every game they played? [y/N] " if args.action == "remove"
                    else "Remove every record and account? [y/N] ")
        if ask(question).strip().lower() != "y":
            print("Nothing removed.", file=out)
            return 1
    return asyncio.run(_records(where, args, out))


async def _records(where: Path | str, args: argparse.Namespace, out: TextIO) -> int:
    try:
        store = await Store.open(where, contract=args.action == "contract")
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    try:
        return await _run(store, args, out)
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    finally:
        await store.close()


def _no_player(name: str) -> int:
    print(f"cribbage-door: no player named {name!r}", file=sys.stderr)
    return 1


async def _ratings(store: Store, days: float, out: TextIO) -> int:
    """``records ratings``: what may have slipped through fair play in the
    last ``days`` (:meth:`~door.records.ranked.fair_play.FairPlay.suspicious`),
    then the latest rated matches, each with its id for ``records void``
    (those played by turns marked), then the bots' pool and the pool of
    play by turns, and how often each side of that pool matched the
    expert's decisions, by turns and live."""
    since = store.clock() - days * 86400
    found = await store.fair_play.suspicious(since)
    print(f"Rated play in the last {days:g} days: what to look at", file=out)
    for s in found:
        print(f"  {s.kind:<15} {s.text} (matches {', '.join(str(m) for m in s.matches)})", file=out)
    if not found:
        print("  nothing: no pair with many results, no quick forfeit, no shared network, no big gain, "
              "no rated side by the game protocol", file=out)
    rows = await store.database.query(lambda db: db.execute(
        "SELECT id, ended, player0, player1, wins0, wins1, winner, forfeit, aborted, rated, voided, rating0, "
        "after0, rating1, after1, unrated_why, leaver, by_turns FROM matches WHERE ended > ? "
        "ORDER BY ended DESC, id DESC LIMIT 50",
        (since,)).fetchall())
    print("", file=out)
    print("Matches (newest first; `cribbage-door records void ID` takes one out of the ratings):", file=out)
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r[1]))
        result = (f"aborted by {r[2 + r[16]] if r[16] is not None else '?'}" if r[8] else
                  f"{r[2 + r[6]]} won by forfeit" if r[7] else f"{r[2 + r[6]]} won {max(r[4], r[5])}-{min(r[4], r[5])}")
        if r[10]:
            result += " (void)"
        if r[17]:
            result += " (by turns)"
        moved = (f"  {r[2]} {r[11]:.0f}->{r[12]:.0f}, {r[3]} {r[13]:.0f}->{r[14]:.0f}"
                 if r[9] and r[11] is not None and r[12] is not None else
                 f"  unrated: {r[15]}" if r[15] else "  unrated")
        print(f"  {r[0]:>5}  {when}  {pad(r[2], 12)} v {pad(r[3], 12)} {result};{moved}", file=out)
    if not rows:
        print("  (none)", file=out)
    for title, players in (("Bots' ratings (a pool of their own):", await store.ratings.top(pool=BOTS)),
                           ("Ratings of play by turns, by correspondence and in tournaments (a pool of their own):",
                            await store.ratings.top(by_turns=True))):
        if players:
            print("", file=out)
            print(title, file=out)
        for b in players:
            print(f"  {pad(b.name, 20)} {b.rating.rating:>6.0f} RD {b.rating.rd:>3.0f} {b.matches:>4} matches"
                  f"{' (provisional)' if b.provisional else ''}", file=out)
    await _agreements(store, [p.name for p in await store.ratings.top(by_turns=True)], out)
    return 0


async def _agreements(store: Store, names: list[str], out: TextIO) -> None:
    """For each rated side of play by turns (``names``), how often its
    decisions matched the expert's there and in live play, each over its
    last few games (:mod:`door.records.ranked.agreement`)."""
    if not names:
        return
    print("", file=out)
    print(f"Decisions that matched the expert's (discards and plays, each side's last {RECENT} games of each kind):",
          file=out)
    for name in names:
        account = await store.accounts.find(name)
        if account is None:
            continue
        by_turns = await expert_agreement(store.database, store.games, account.id, True)
        live = await expert_agreement(store.database, store.games, account.id, False)
        print(f"  {pad(name, 20)} by turns {by_turns.words()}; live {live.words()}", file=out)


async def _daily(store: Store, day: str | None, out: TextIO) -> int:
    """``records daily``: ``day``'s plays of today's deal (today when
    ``None``), in the order they started, the accounts of one network (the
    same IPv4 /24 or IPv6 /56, played or registered from) flagged with
    ``!``: one person's accounts, or friends at one place, may have shown
    each other the day's cards."""
    day = day or store.daily.today()
    try:
        datetime.date.fromisoformat(day)
    except ValueError:
        print(f"cribbage-door: records daily: expected a day like 2026-11-29, got {day!r}", file=sys.stderr)
        return 2
    plays = await store.daily.plays(day)
    shared = shared_networks(plays)
    flagged = {name for names in shared.values() for name in names}
    print(f"Today's deal of {day}: {len(plays)} play(s); ! marks accounts of one network (played or registered "
          "from), who may have shown each other the cards", file=out)
    for play in plays:
        result = ("not finished" if play.score is None else
                  f"{play.score}-{play.computer}{' (unfinished)' if play.unfinished else ''}")
        started = time.strftime("%H:%M", time.localtime(play.started))
        print(f"  {'!' if play.name in flagged else ' '} {pad(play.name, 20)} {started}  "
              f"{pad(play.address or '(shared line)', 15)}  {result}", file=out)
    if not plays:
        print("  (nobody has played it)", file=out)
    for network, names in shared.items():
        print(f"  ! {network}: {', '.join(names)}", file=out)
    return 0


async def _void(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records void MATCH``: take a match out of the ratings (2 for an id
    that is not a number, 1 for no such match)."""
    try:
        match_id = int(args.target)
        changed = await store.ratings.void(match_id)
    except ValueError:
        print(f"cribbage-door: records void: expected a match id (a number), got {args.target!r}",
              file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"cribbage-door: {exc.args[0]}", file=sys.stderr)
        return 1
    print(f"Voided match {match_id}; every rating worked out again without it ({changed} changed).", file=out)
    return 0


async def _bot(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records bot NAME [--pool POOL]``: make (or re-token) a bot and show its token once."""
    bot, token = await store.bots.make(args.target, getattr(args, "pool", None))
    pool = await store.bots.pool_of(bot.id)
    rated = {BOTS: "rated in the bots' own pool", PEOPLE: "rated with people",
             "unrated": "never rated"}[pool]
    print(f"{bot.name} is a bot, {rated}. Its token (shown this once; a new one replaces it):", file=out)
    print(f"  {token}", file=out)
    print("The program logs in by the game protocol with this name and token (docs/protocol.md).", file=out)
    return 0


async def _club(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records club``: the last club night's standings."""
    night = await store.clubs.latest()
    if night is None:
        print("(no club night recorded)", file=out)
        return 0
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(night.started))
    print(f"Club night of {when}, {night.games} games (points, won-lost, spread):", file=out)
    for place, s in enumerate(night.standings, 1):
        print(s.line(place), file=out)
    return 0


async def _list(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records list``: every registered player with their figures."""
    players = await store.statistics.top(10_000)
    print(f"{'Name':<20} {'Games':>6} {'Won':>5} {'Win %':>6} {'Credited':>9}", file=out)
    for p in players:
        print(f"{pad(p.name, 20)} {p.games:>6} {p.wins:>5} {p.win_rate:>5.0f}% {p.credited:>9}", file=out)
    if not players:
        print("(no games recorded)", file=out)
    return 0


async def _show(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records show NAME``: one player's statistics (their correspondence
    games lost on time among them) and recent games (1 for no such player)."""
    stats = await store.statistics.player(args.target)
    if stats is None:
        return _no_player(args.target)
    print(f"Statistics of {stats.name}", file=out)
    for label, value in stats.rows():
        print(f"  {label:<40} {value}", file=out)
    print("Recent games:", file=out)
    for g in await store.games.recent(args.target, 20):
        print("  " + g.line(), file=out)
    return 0


async def _remove(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records remove NAME``: a player and their games (1 for no such player)."""
    n = await store.accounts.remove(args.target)
    if n < 0:
        return _no_player(args.target)
    print(f"Removed {args.target} and {n} game(s).", file=out)
    return 0


async def _remove_saved(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records remove-saved NAME``: a player's unfinished game (1 for no
    such player, or none saved)."""
    account = await store.accounts.find(args.target)
    if account is None:
        return _no_player(args.target)
    if not await store.saved.drop_for(account.id):
        print(f"{account.name} has no unfinished game.", file=out)
        return 1
    print(f"Removed the unfinished game of {account.name}.", file=out)
    return 0


async def _remove_all(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records remove-all``: every account and game."""
    n = await store.accounts.remove_all()
    print(f"Removed every account and {n} game(s).", file=out)
    return 0


async def _backup(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records backup FILE``: a consistent copy of the database (1 when FILE exists)."""
    target = Path(args.target)
    try:
        await store.database.backup(target)
    except FileExistsError:
        print(f"cribbage-door: {target} exists; not overwriting it", file=sys.stderr)
        return 1
    print(f"Backed up {store.where} to {target}.", file=out)
    return 0


async def _export(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records export FILE.csv``: every finished game as CSV, oldest first."""
    target = Path(args.target)
    games = await store.games.recent(oldest_first=True)

    def iso(t: float) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))

    with open(target, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "game_number", "started", "ended", "player1", "player2", "score1", "score2", "winner",
                    "skunk", "games_credited", "opponent", "game_to", "run_mode"])
        for g in games:
            a, b = (spreadsheet_safe(name) for name in g.players)
            w.writerow([g.id, g.number, iso(g.started), iso(g.ended), a, b, g.scores[0], g.scores[1],
                        a if g.winner == 0 else b, ["none", "skunk", "double skunk"][g.skunk], g.value,
                        g.opponent, g.rules.game_to, g.rules.run_mode.value])
    print(f"Wrote {len(games)} game(s) to {target}.", file=out)
    return 0


async def _ratings_action(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records ratings [--days N]``."""
    return await _ratings(store, args.days, out)


async def _daily_action(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """``records daily [DAY]``."""
    return await _daily(store, args.target, out)


Action = Callable[[Store, argparse.Namespace, TextIO], Awaitable[int]]
"""What carries out one ``records`` action: ``(store, args, out) -> exit status``."""

#: Each ``records`` action and what carries it out.  A new action adds
#: its name to :func:`add_parser`'s choices and its handler here.
ACTIONS: dict[str, Action] = {
    "list": _list,
    "show": _show,
    "remove": _remove,
    "remove-saved": _remove_saved,
    "remove-all": _remove_all,
    "export": _export,
    "backup": _backup,
    "club": _club,
    "ratings": _ratings_action,
    "void": _void,
    "bot": _bot,
    "daily": _daily_action,
    **{action: run_ban for action in BAN_ACTIONS},
    **{action: run_schema for action in SCHEMA_ACTIONS},
}


async def _run(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """Carry out ``args.action`` (one of :data:`ACTIONS`) on an open store."""
    return await ACTIONS[args.action](store, args, out)
