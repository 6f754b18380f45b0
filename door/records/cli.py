"""``cribbage-door records``: the sysop's maintenance of the records, like
Cribbage Champ's ``CRIB /V``, ``CRIB xxx /R`` and ``CRIB /X`` (seed 002).

    records list              every registered player with their figures
    records show NAME         one player's statistics and recent games
    records remove NAME       remove a player and their games (asks first)
    records remove-all        remove every record and account (asks first)
    records export FILE.csv   every finished game as CSV
    records backup FILE       a consistent copy of the database (safe while
                              the server runs: SQLite's online backup)
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from door.caller.menu import game_line
from door.records.statistics import player_statistics, top_players
from door.records.store import DATABASE_NAME, Store, StoreError

__all__ = ["add_parser", "run_records"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``records`` command to the command line."""
    p = sub.add_parser("records", help="list, show, remove or export the game records")
    p.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    p.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    p.add_argument("-y", "--yes", action="store_true", help="remove without asking")
    p.add_argument("action", choices=["list", "show", "remove", "remove-all", "export", "backup"])
    p.add_argument("target", nargs="?", help="the player's NAME (show, remove) or the FILE (export, backup)")


def run_records(args: argparse.Namespace, data_dir: Path, out: TextIO = sys.stdout,
                ask: Callable[[str], str] = input) -> int:
    """Carry out a ``records`` command; returns the exit status."""
    if args.action in ("show", "remove", "export", "backup") and not args.target:
        what = "FILE" if args.action in ("export", "backup") else "NAME"
        print(f"cribbage-door: records {args.action} needs a {what}", file=sys.stderr)
        return 2
    path = data_dir / DATABASE_NAME
    if not path.exists():
        print(f"cribbage-door: no database at {path} (start the server once, or give --data-dir)", file=sys.stderr)
        return 1
    try:
        store = Store.open_sync(path)
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    try:
        return _run(store, args, out, ask)
    finally:
        store.close_sync()


def _run(store: Store, args: argparse.Namespace, out: TextIO, ask: Callable[[str], str]) -> int:
    if args.action == "list":
        players = store.run_sync(lambda: top_players(store.db, 10_000))
        print(f"{'Name':<20} {'Games':>6} {'Won':>5} {'Win %':>6} {'Credited':>9}", file=out)
        for p in players:
            print(f"{p.name:<20} {p.games:>6} {p.wins:>5} {p.win_rate:>5.0f}% {p.credited:>9}", file=out)
        if not players:
            print("(no games recorded)", file=out)
        return 0
    if args.action == "show":
        stats = store.run_sync(lambda: player_statistics(store.db, args.target))
        if stats is None:
            print(f"cribbage-door: no player named {args.target!r}", file=sys.stderr)
            return 1
        print(f"Statistics of {stats.name}", file=out)
        for label, value in stats.rows():
            print(f"  {label:<40} {value}", file=out)
        print("Recent games:", file=out)
        for g in store.run_sync(store.games_sync, args.target, 20):
            print("  " + game_line(g), file=out)
        return 0
    if args.action == "remove":
        if not args.yes and ask(f"Remove {args.target} and every game they played? [y/N] ").strip().lower() != "y":
            print("Nothing removed.", file=out)
            return 1
        n = store.run_sync(store.remove_player_sync, args.target)
        if n < 0:
            print(f"cribbage-door: no player named {args.target!r}", file=sys.stderr)
            return 1
        print(f"Removed {args.target} and {n} game(s).", file=out)
        return 0
    if args.action == "remove-all":
        if not args.yes and ask("Remove every record and account? [y/N] ").strip().lower() != "y":
            print("Nothing removed.", file=out)
            return 1
        n = store.run_sync(store.remove_all_sync)
        print(f"Removed every account and {n} game(s).", file=out)
        return 0
    target = Path(args.target)
    if args.action == "backup":
        if target.exists():
            print(f"cribbage-door: {target} exists; not overwriting it", file=sys.stderr)
            return 1

        def backup() -> None:
            # the copy holds the password hashes too: private from the start
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            copy = sqlite3.connect(target)
            with copy:
                store.db.backup(copy)
            copy.close()
        store.run_sync(backup)
        print(f"Backed up {store.path} to {target}.", file=out)
        return 0
    rows = store.run_sync(lambda: store.db.execute(
        "SELECT id, number, started, ended, player0, player1, score0, score1, winner, skunk, value, opponent, rules "
        "FROM games ORDER BY ended, id").fetchall())
    def iso(t: float) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))

    with open(target, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "game_number", "started", "ended", "player1", "player2", "score1", "score2", "winner",
                    "skunk", "games_credited", "opponent", "game_to", "run_mode"])
        for r in rows:
            rules = json.loads(r[12])
            w.writerow([r[0], r[1], iso(r[2]), iso(r[3]), r[4], r[5], r[6], r[7], r[4] if r[8] == 0 else r[5],
                        ["none", "skunk", "double skunk"][r[9]], r[10], r[11], rules["game_to"], rules["run_mode"]])
    print(f"Wrote {len(rows)} game(s) to {target}.", file=out)
    return 0
