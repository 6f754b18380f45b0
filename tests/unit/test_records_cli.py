"""``cribbage-door records``: list, show, remove (asking first), remove-all,
export to CSV, and clear errors."""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from door.records.cli import run_records
from door.records.games import GameRecord
from door.records.passwords import hash_password
from door.records.store import DATABASE_NAME, Store
from engine.events import GameResult, Skunk
from engine.rules import Rules
from engine.tally import HandRecord, SeatHand


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    async def fill() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        ann = await store.accounts.create("Ann", hash_password("secret1"))
        bob = await store.accounts.create("Bob", hash_password("secret2"))
        h = HandRecord(1, 0, (SeatHand(pegging=3, hand_points=8, hand_true=8, hand_claim=8), SeatHand()), True)
        for number, (who, result) in enumerate([
                (ann, GameResult(0, (121, 70), Skunk.SKUNK, 2)), (ann, GameResult(1, (110, 121), Skunk.NONE, 1)),
                (bob, GameResult(0, (121, 100), Skunk.NONE, 1))], start=1):
            await store.games.record(None, GameRecord(number, Rules(), (who.name, "Computer"), (who.id, None), "computer",
                                    result, [h], 0.0))
        await store.close()
    asyncio.run(fill())
    return tmp_path


def run(data_dir: Path, *argv: str, answer: str = "y") -> tuple[int, str]:
    args = argparse.Namespace(action=argv[0], target=argv[1] if len(argv) > 1 else None, yes="--yes" in argv)
    out = io.StringIO()
    code = run_records(args, data_dir / DATABASE_NAME, out, ask=lambda _: answer)
    return code, out.getvalue()


def test_list_and_show(data_dir: Path) -> None:
    code, out = run(data_dir, "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split()[:4] == ["Ann", "2", "1", "50%"] and lines[2].split()[:2] == ["Bob", "1"]
    code, out = run(data_dir, "show", "ann")
    assert code == 0 and "Statistics of Ann" in out and "Skunks given / taken" in out
    assert "#1" in out and "Ann 121 - Computer 70  skunk" in out
    assert "  Correspondence games lost on time        0\n" in out


def test_show_gives_the_correspondence_games_lost_on_time(data_dir: Path) -> None:
    async def lose() -> None:
        store = await Store.open(data_dir / DATABASE_NAME)
        ann = await store.accounts.find("Ann")
        assert ann is not None
        await store.correspondence.results.count_loss_on_time(ann.id)
        await store.close()
    asyncio.run(lose())
    code, out = run(data_dir, "show", "ann")
    assert code == 0 and "  Correspondence games lost on time        1\n" in out


def test_remove_asks_and_removes(data_dir: Path) -> None:
    code, out = run(data_dir, "remove", "Ann", answer="n")
    assert code == 1 and "Nothing removed" in out
    code, out = run(data_dir, "remove", "Ann")
    assert code == 0 and "Removed Ann and 2 game(s)" in out
    code, out = run(data_dir, "list")
    assert "Ann" not in out and "Bob" in out
    assert run(data_dir, "remove", "Nobody")[0] == 1


def test_remove_all_and_export(data_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "games.csv"
    code, out = run(data_dir, "export", str(target))
    assert code == 0 and "Wrote 3 game(s)" in out
    rows = list(csv.DictReader(target.open()))
    assert [r["winner"] for r in rows] == ["Ann", "Computer", "Bob"] and rows[0]["skunk"] == "skunk"
    code, out = run(data_dir, "remove-all", "--yes")
    assert code == 0 and "3 game(s)" in out
    assert "(no games recorded)" in run(data_dir, "list")[1]


def test_backup_is_a_working_copy(data_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy" / "backup.sqlite3"
    target.parent.mkdir()
    code, out = run(data_dir, "backup", str(target))
    assert code == 0 and "Backed up" in out
    target.rename(target.parent / DATABASE_NAME)
    code, out = run(target.parent, "list")  # the copy opens as a database of its own
    assert code == 0 and "Ann" in out and "Bob" in out
    assert run(data_dir, "backup", str(data_dir / DATABASE_NAME))[0] == 1  # never overwrites


def test_command_line_errors(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "door.cli", "records", "--data-dir", str(tmp_path), "list"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "no database at" in proc.stderr
    (tmp_path / DATABASE_NAME).write_bytes(b"garbage" * 50)
    (tmp_path / DATABASE_NAME).chmod(0o600)
    proc = subprocess.run([sys.executable, "-m", "door.cli", "records", "--data-dir", str(tmp_path), "list"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "not a usable cribbage database" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "door.cli", "serve", "--data-dir", str(tmp_path),
                           "--telnet-port", "0", "--ssh-port", "0", "--web-port", "0"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "cannot start" in proc.stderr and "not a usable cribbage database" in proc.stderr


def test_list_pads_names_by_cells(data_dir: Path) -> None:
    """A name with combining marks or wide characters keeps
    the columns (padding by code points shifted them)."""
    async def add() -> None:
        store = await Store.open(data_dir / DATABASE_NAME)
        for name in ("Zoe\u0301e\u0301", "\u732b\u5b50"):
            who = await store.accounts.create(name, hash_password("secret3"))
            await store.games.record(None, GameRecord(9, Rules(), (who.name, "Computer"), (who.id, None), "computer",
                                     GameResult(0, (121, 80), Skunk.SKUNK, 2), [], 0.0))
        await store.close()
    asyncio.run(add())
    from door.ui.cells import cell_width
    code, out = run(data_dir, "list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 5 and len({cell_width(line) for line in lines}) == 1, out  # every column lines up


def test_a_name_that_starts_with_a_dash(tmp_path: Path) -> None:
    async def add() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        who = await store.accounts.create("-Bob", hash_password("secret4"))
        await store.games.record(None, GameRecord(1, Rules(), (who.name, "Computer"), (who.id, None), "computer",
                                 GameResult(0, (121, 80), Skunk.NONE, 1), [], 0.0))
        await store.close()
    asyncio.run(add())

    def command(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "door.cli", "records", "--data-dir", str(tmp_path), *argv],
                              capture_output=True, text=True, timeout=30)
    shown = command("show", "-Bob")
    assert shown.returncode == 0 and "Statistics of -Bob" in shown.stdout, shown.stderr
    assert command("show", "--", "-Bob").returncode == 0
    assert command("show", "-Bob", "-Cy").returncode == 2  # one name only
    removed = command("remove", "-Bob", "--yes")
    assert removed.returncode == 0 and "Removed -Bob" in removed.stdout, removed.stderr


def test_records_ratings_shows_what_slipped_through_and_void_takes_a_match_out(tmp_path: Path) -> None:
    """The sysop's view of rated play: the farmed pair and its quick
    forfeits listed with their match ids, and ``records void ID`` working
    every rating out again without the match."""
    from door.records.ranked.ratings import MatchRecord

    async def fill() -> tuple[int, int]:
        store = await Store.open(tmp_path / DATABASE_NAME)
        ann = await store.accounts.create("Ann", hash_password("secret1"))
        bob = await store.accounts.create("Bob", hash_password("secret2"))
        for _ in range(3):
            await store.ratings.record(MatchRecord(("Ann", "Bob"), (ann.id, bob.id), 3, True, (0, 0), 0, forfeit=True,
                                                   leaver=1, networks=("10.0.0.0/24", "10.0.0.0/24")))
        await store.close()
        return ann.id, bob.id
    ann, bob = asyncio.run(fill())
    args = argparse.Namespace(action="ratings", target=None, yes=False, days=30.0)
    out = io.StringIO()
    assert run_records(args, tmp_path / DATABASE_NAME, out) == 0
    text = out.getvalue()
    assert "pair            Ann and Bob: 3 rated matches (Ann won 3, Bob 0) (matches 1, 2, 3)" in text, text
    assert "quick forfeit   match 1: Bob forfeited to Ann after 0 hand(s)" in text
    assert "shared network  match 2: Ann and Bob both on 10.0.0.0/24" in text
    assert "big gain        Ann gained" in text
    code, said = run(tmp_path, "void", "2")
    assert code == 0 and "Voided match 2" in said
    assert run(tmp_path, "void", "2")[0] == 1  # not twice
    assert run(tmp_path, "void", "x")[0] == 2

    async def matches() -> int:
        store = await Store.open(tmp_path / DATABASE_NAME)
        try:
            rated = await store.ratings.of(ann)
            return rated.matches if rated is not None else 0
        finally:
            await store.close()
    assert asyncio.run(matches()) == 2


def test_every_subcommand_and_action_has_its_handler() -> None:
    """The command line's subcommands and the records actions are tables
    from a name to its handler: each name the parser takes has one."""
    import argparse

    from door.cli import COMMANDS, _parser
    from door.records.cli import ACTIONS

    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) - {"passwd"} == set(COMMANDS)  # (passwd needs no config: main runs it first)
    records = commands.choices["records"]
    action = next(a for a in records._actions if a.dest == "action")
    assert action.choices is not None and list(action.choices) == list(ACTIONS)


def test_records_ratings_shows_the_pool_of_play_by_turns_apart(tmp_path: Path) -> None:
    """A rated match by correspondence is marked among the matches, and its
    players are listed in the pool of play by turns, not with live play's."""
    from door.records.ranked.ratings import MatchRecord

    async def fill() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        ann = await store.accounts.create("Ann", hash_password("secret1"))
        bob = await store.accounts.create("Bob", hash_password("secret2"))
        await store.ratings.record(MatchRecord(("Ann", "Bob"), (ann.id, bob.id), 3, True, (2, 0), 0, by_turns=True))
        await store.close()
    asyncio.run(fill())
    args = argparse.Namespace(action="ratings", target=None, yes=False, days=30.0)
    out = io.StringIO()
    assert run_records(args, tmp_path / DATABASE_NAME, out) == 0
    text = out.getvalue()
    assert "Ann won 2-0 (by turns);  Ann 1500->" in text, text
    pool = text.split("Ratings of play by turns, by correspondence and in tournaments (a pool of their own):\n")[1]
    assert [line.split()[0] for line in pool.split("\n\n")[0].splitlines()] == ["Ann", "Bob"]
    assert "  Ann                  by turns -; live -\n" in text  # (no game of theirs on record to review)
