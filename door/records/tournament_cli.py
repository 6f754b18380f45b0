"""``cribbage-door tournament``: the sysop's tournaments from the command
line (docs/tournaments.md, "Running a tournament").

    tournament create NAME --title T --format F [options]   make one, open for entries
    tournament list                                          every tournament, the newest first
    tournament show NAME [--bulletins FOLDER]                its settings, entrants, pairings,
                                                             standings and brackets
    tournament enter NAME PLAYER / withdraw NAME PLAYER      before it starts
    tournament start NAME                                    close entries, pair round 1
    tournament result NAME WINNER LOSER SCORE                121-95 (a Swiss game), 2-1 (a match)
    tournament adjudicate NAME WINNER LOSER [SCORE]          the sysop decides a game (a forfeit's score)
    tournament extend NAME HOURS [PLAYER]                    later deadlines, every open game's or one
    tournament replace NAME OLD NEW                          NEW takes OLD's place, results and all
    tournament season YEAR [--bulletins FOLDER]              the year's season table

After a change the command moves the tournaments on itself
(:class:`~door.records.tournaments.director.Director`), unless a node's
director holds the lease: that node does it within a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import socket
import sys
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from door.records.bulletins import write_files
from door.records.ranked.bracket_drawing import draw, lines
from door.records.ranked.bracket_sentences import sentences
from door.records.ranked.standings import HEADING
from door.records.ranked.tournament import Format, Kind
from door.records.store import Store, StoreError
from door.records.tournament_bulletins import season_bulletin
from door.records.tournaments.announce import view_bulletins
from door.records.tournaments.director import LEASE, Director
from door.records.tournaments.repository import Tournaments
from door.records.tournaments.settings import Play, Settings, TournamentError
from door.records.tournaments.values import Seating, State
from engine.notation import NotationError, rules_from_dict

__all__ = ["add_parser", "run_tournament", "ACTIONS", "settings_from", "score", "when"]

ACTIONS = {"create": 1, "list": 0, "show": 1, "enter": 2, "withdraw": 2, "start": 1, "result": 4, "adjudicate": 3,
           "extend": 2, "replace": 3, "season": 1}
"""Each action and the words it needs after it (adjudicate and extend take one more, optionally);
:data:`HANDLERS` carries each out."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` command to the command line."""
    p = sub.add_parser("tournament", help="make and run tournaments: create, enter, start, result, show, ...")
    p.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    p.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    p.add_argument("action", choices=list(ACTIONS))
    p.add_argument("words", nargs="*", help="the tournament's NAME, then what the action takes (see --help)")
    p.add_argument("--title", help="create: the title shown to callers")
    p.add_argument("--format", choices=[k.value for k in Kind], help="create: swiss, single, double or qualifying")
    p.add_argument("--rounds", type=int, default=0, help="create: the Swiss's rounds (swiss, qualifying)")
    p.add_argument("--games", type=int, default=3, help="create: a knock-out match is best of 1, 3, 5, 7 or 9")
    p.add_argument("--qualify", default="1/4", help="create: the fraction of a qualifying Swiss that goes on "
                                                    "(default 1/4)")
    p.add_argument("--rules", default="", help="create: house rules, KEY=VALUE,... (game_to=61,counting=automatic)")
    p.add_argument("--play", choices=[x.value for x in Play], default="live", help="create: live or correspondence")
    p.add_argument("--round-hours", type=float, default=2.0, help="create: a live round's hours (default 2)")
    p.add_argument("--interval-hours", type=float, default=0.0, help="create: hours between live rounds' set times")
    p.add_argument("--show-minutes", type=float, default=15.0,
                   help="create: minutes after a live round is paired by which a player must be at the table "
                        "or lose (default 15)")
    p.add_argument("--move-days", type=float, default=3.0, help="create: correspondence days a move (default 3)")
    p.add_argument("--round-days", type=float, default=14.0, help="create: correspondence days a round")
    p.add_argument("--closes", help="create: when entries close and round 1 is paired, YYYY-MM-DD HH:MM UTC "
                                    "(default: at `tournament start`)")
    p.add_argument("--min-rating", type=float, help="create: the lowest rating that may enter")
    p.add_argument("--max-rating", type=float, help="create: the highest rating that may enter")
    p.add_argument("--bots", action="store_true", help="create: bots may enter")
    p.add_argument("--rated", action="store_true", help="create: its games are rated (by correspondence: in the "
                   "ratings of play by turns)")
    p.add_argument("--bulletins", type=Path, metavar="FOLDER", help="show, season: write the bulletins there too")


def when(text: str) -> float:
    """Seconds since the epoch of ``text``, ``YYYY-MM-DD HH:MM`` in UTC.
    Raises ``ValueError`` saying what is expected.

    >>> when("2026-12-01 19:30")
    1796153400.0
    """
    try:
        moment = datetime.datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise ValueError(f"expected a time like 2026-12-01 19:30 (UTC), got {text!r}") from None
    return moment.replace(tzinfo=datetime.UTC).timestamp()


def score(text: str) -> tuple[int, int]:
    """``(121, 95)`` from ``"121-95"``: the winner's, then the loser's.
    Raises ``ValueError`` saying what is expected."""
    won, dash, lost = text.partition("-")
    if not dash or not won.strip().isdigit() or not lost.strip().isdigit():
        raise ValueError(f"expected a score like 121-95 (a game) or 2-1 (a match), the winner's first, got {text!r}")
    return int(won), int(lost)


def _rules(text: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"house rules are KEY=VALUE, got {item!r}")
        low = value.strip().lower()
        out[key.strip()] = (int(low) if low.isdigit() else True if low == "true" else False if low == "false"
                            else value.strip())
    return out


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings ``tournament create``'s options give.  Raises ``ValueError`` saying what is wrong."""
    if args.format is None:
        raise ValueError("give the format (--format swiss, single, double or qualifying)")
    kind = Kind(args.format)
    try:
        qualify = Fraction(args.qualify)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"--qualify is a fraction like 1/4, got {args.qualify!r}") from None
    try:
        rules = rules_from_dict(_rules(args.rules))
    except NotationError as exc:
        raise ValueError(f"--rules: {exc}") from None
    return Settings(Format(kind, args.rounds, args.games, qualify), rules, Play(args.play), args.round_hours,
                    args.interval_hours, args.move_days, args.round_days,
                    None if args.closes is None else when(args.closes), args.min_rating, args.max_rating, args.bots,
                    args.show_minutes, bool(getattr(args, "rated", False)))


def run_tournament(args: argparse.Namespace, where: Path | str, out: TextIO | None = None) -> int:
    """Carry out a ``tournament`` command on the store ``where``, writing to
    ``out`` (``None``: standard output); the exit status (2 for a mistake
    in the command, 1 for one the store refused, each said on standard
    error)."""
    need = ACTIONS[args.action]
    extra = 1 if args.action in ("adjudicate", "extend") else 0
    if not need <= len(args.words) <= need + extra:
        print(f"cribbage-door: tournament {args.action} takes {need}{f' or {need + extra}' if extra else ''} "
              f"words, got {len(args.words)} (cribbage-door tournament --help)", file=sys.stderr)
        return 2
    if isinstance(where, Path) and not where.exists():
        print(f"cribbage-door: no database at {where} (start the server once, or give --data-dir)", file=sys.stderr)
        return 1
    return asyncio.run(_open(where, args, out or sys.stdout))


async def _open(where: Path | str, args: argparse.Namespace, out: TextIO) -> int:
    try:
        store = await Store.open(where)
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    try:
        return await _run(store, args, out)
    except (TournamentError, StoreError) as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"cribbage-door: tournament {args.action}: {exc}", file=sys.stderr)
        return 2
    finally:
        await store.close()


Handler = Callable[[Tournaments, list[str], argparse.Namespace, TextIO], Awaitable[bool]]
"""An action: carries it out with the command's words and options, says what it did on ``out``, and
returns whether the tournaments should be moved on afterwards (a change was made)."""


async def _list_all(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    found = await t.listing()
    for x in found:
        print(f"{x.name:<24} {x.state.value:<9} {x.title}: {x.settings.describe()}", file=out)
    if not found:
        print("No tournaments yet (cribbage-door tournament create).", file=out)
    return False


async def _create(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    made = await t.create(w[0], args.title or w[0], settings_from(args))
    print(f"Made {made.name}, {made.title}: {made.settings.describe()}. Entries are open.", file=out)
    return False


async def _enter(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    entry = await t.enter(w[0], w[1])
    print(f"{entry.name} entered {w[0]} (rating {entry.rating:.0f}).", file=out)
    return False


async def _withdraw(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    await t.withdraw(w[0], w[1])
    print(f"{w[1]} withdrew from {w[0]}.", file=out)
    return False


async def _start(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    await t.start(w[0])
    print(f"Started {w[0]}: entries are closed.", file=out)
    return True


async def _result(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    p = await t.record(w[0], w[1], w[2], score(w[3]))
    print(f"Recorded {p.slot}: {w[1]} beat {w[2]} {w[3]}.", file=out)
    return True


async def _adjudicate(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    p = await t.adjudicate(w[0], w[1], w[2], score(w[3]) if len(w) > 3 else None)
    print(f"Adjudicated {p.slot}: {w[1]} beat {w[2]}.", file=out)
    return True


async def _extend(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    if not w[1].replace(".", "", 1).isdigit():
        raise ValueError(f"expected a number of hours, got {w[1]!r}")
    moved = await t.extend(w[0], float(w[1]), w[2] if len(w) > 2 else None)
    print(f"Moved {moved} deadline(s) {float(w[1]):g} hours later.", file=out)
    return True


async def _replace(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    await t.replace(w[0], w[1], w[2])
    print(f"{w[2]} takes {w[1]}'s place in {w[0]}.", file=out)
    return True


async def _run(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    if await HANDLERS[args.action](store.tournaments, args.words, args, out):
        return await _direct(store, out)
    return 0


async def _direct(store: Store, out: TextIO) -> int:
    """Move the tournaments on now, when no node's director holds the lease."""
    director = Director(store.tournaments, store.leases, f"command line on {socket.gethostname()} ({os.getpid()})")
    seats = await director.advance()
    if seats is None:
        print("A node's director holds the lease: it pairs what comes next within a minute.", file=out)
    else:
        await store.leases.release(LEASE, director.holder)  # a node may take it at once
        _seats(seats, out)
    return 0


def _seats(seats: list[Seating], out: TextIO) -> None:
    for s in seats:
        deadline = datetime.datetime.fromtimestamp(s.deadline, datetime.UTC).strftime("%Y-%m-%d %H:%M")
        print(f"Paired {s.tournament} {s.slot}: {s.players[0]} v {s.players[1]}, best of {s.best_of}, "
              f"by {deadline} UTC.", file=out)


async def _show(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    name, folder = w[0], args.bulletins
    v = await t.view(name)
    print(f"{v.tournament.title} ({v.tournament.name}), {v.tournament.state.value}: "
          f"{v.tournament.settings.describe()}", file=out)
    print(f"Entrants ({len(v.entries)}): " + (", ".join(f"{e.name} {e.rating:.0f}" for e in v.entries) or "none"),
          file=out)
    for p in v.pairings:
        print(f"  {p.stage:<12} {p.line()}", file=out)
    if v.standings:
        print("", file=out)
        print(HEADING, file=out)
        for place, line in enumerate(v.standings, 1):
            print(line.text(place), file=out)
    for label, state in v.brackets:
        print("", file=out)
        for row in lines(draw(state, f"{v.tournament.title}: {label}", 79), 79):
            print(row, file=out)
        for sentence in sentences(state):
            print(sentence, file=out)
    if folder is not None:
        written = write_files(view_bulletins(v), folder)
        print(f"Wrote {len(written)} bulletin file(s) to {folder}.", file=out)
    if v.tournament.state is State.FINISHED:
        print("Over: its finishes are kept for the season (cribbage-door tournament season YEAR).", file=out)
    return False


async def _season(t: Tournaments, w: list[str], args: argparse.Namespace, out: TextIO) -> bool:
    year, folder = w[0], args.bulletins
    if not year.isdigit() or not 1970 <= int(year) <= 9999:
        raise ValueError(f"expected a year like 2026, got {year!r}")
    table = await t.season(int(year))
    bulletin = season_bulletin(int(year), table)
    for row in bulletin.rows:
        print(row, file=out)
    if folder is not None:
        written = write_files([bulletin], folder)
        print(f"Wrote {len(written)} bulletin file(s) to {folder}.", file=out)
    return False


HANDLERS: dict[str, Handler] = {"list": _list_all, "show": _show, "season": _season, "create": _create,
                                "enter": _enter, "withdraw": _withdraw, "start": _start, "result": _result,
                                "adjudicate": _adjudicate, "extend": _extend, "replace": _replace}
"""The action each word names."""
assert set(HANDLERS) == set(ACTIONS)
