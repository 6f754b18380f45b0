"""``cribbage-door tournament`` (door/records/tournament_cli.py) through
the program's main on an SQLite file: a knock-out made, entered, started,
its results recorded, shown with its bracket and written as bulletins,
its season listed; mistakes said clearly with their exit status."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from door.cli import main
from door.records.store import DATABASE_NAME, Store


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    async def fill() -> None:
        store = await Store.open(tmp_path / DATABASE_NAME)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            await store.accounts.create(name, "unused-hash")
        await store.close()
    asyncio.run(fill())
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], data_dir: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", "--data-dir", str(data_dir), *argv])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_a_knock_out_from_the_command_line(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, data_dir, "create", "cup", "--title", "Winter cup", "--format", "single",
                       "--games", "1", "--rules", "game_to=61")
    assert code == 0 and "Made cup, Winter cup: single elimination, best of 1; games to 61; live" in out
    for name in ("ann", "Bob", "Cy"):
        assert run(capsys, data_dir, "enter", "cup", name)[0] == 0
    code, _, err = run(capsys, data_dir, "enter", "cup", "Zed")
    assert code == 1 and "'Zed' is not a registered caller" in err
    code, out, _ = run(capsys, data_dir, "start", "cup")
    # seeds by rating, then name (all 1500): Ann has the bye, Bob meets Cy
    assert code == 0 and "Paired cup W1-2: Bob v Cy, best of 1, by " in out
    code, _, err = run(capsys, data_dir, "result", "cup", "Cy", "Bob", "2-1")
    assert code == 1 and "a best of 1 is won 1 games to fewer, got 2-1" in err
    code, _, err = run(capsys, data_dir, "result", "cup", "Cy", "Bob", "one-nil")
    assert code == 2 and "expected a score like 121-95" in err
    code, out, _ = run(capsys, data_dir, "result", "cup", "Cy", "Bob", "1-0")
    assert code == 0 and "Recorded W1-2: Cy beat Bob 1-0." in out and "Paired cup W2-1: Ann v Cy" in out
    assert run(capsys, data_dir, "extend", "cup", "24")[1] == "Moved 1 deadline(s) 24 hours later.\n"
    code, out, _ = run(capsys, data_dir, "show", "cup")
    assert code == 0 and "Round 1: Ann has a bye; Cy beat Bob 1 game to 0." in out
    assert "Final: Ann against Cy, to play." in out and "No champion yet." in out
    assert "W1-2   Bob v Cy: Cy won 1-0" in out and "Ann v Cy: to play by" in out
    run(capsys, data_dir, "result", "cup", "Ann", "Cy", "1-0")
    folder = data_dir / "bulletins"
    code, out, _ = run(capsys, data_dir, "show", "cup", "--bulletins", str(folder))
    assert code == 0 and "Champion: Ann." in out and "Over: its finishes are kept" in out
    assert "Final: Ann beat Cy 1 game to 0." in (folder / "cup-bracket.txt").read_text()
    assert "W2-1   Ann v Cy: Ann won 1-0" in (folder / "cup-pairings.txt").read_text()
    code, out, _ = run(capsys, data_dir, "season", str(time.gmtime().tm_year))
    assert code == 0 and [row.split()[1:3] for row in out.splitlines()[1:]] == [["Ann", "11"], ["Cy", "8"],
                                                                                 ["Bob", "5"]]
    code, out, _ = run(capsys, data_dir, "list")
    assert code == 0 and out.startswith("cup                      finished  Winter cup: single elimination")


def test_mistakes_are_said_with_their_exit_status(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, data_dir, "create", "cup", "--format", "single", "--rounds", "3")
    assert code == 2 and "a single elimination has no Swiss rounds, got 3" in err
    code, _, err = run(capsys, data_dir, "create", "cup", "--format", "swiss", "--rounds", "3", "--closes",
                       "tomorrow")
    assert code == 2 and "expected a time like 2026-12-01 19:30 (UTC)" in err
    code, _, err = run(capsys, data_dir, "create", "cup", "--format", "swiss", "--rounds", "3", "--rules", "game_to=99")
    assert code == 2 and "game_to must be 121 or 61" in err
    code, _, err = run(capsys, data_dir, "enter", "cup")
    assert code == 2 and "tournament enter takes 2 words, got 1" in err
    code, _, err = run(capsys, data_dir, "extend", "cup", "soon")
    assert code == 2 and "expected a number of hours, got 'soon'" in err
    code, _, err = run(capsys, data_dir, "show", "nothing")
    assert code == 1 and "there is no tournament called 'nothing'" in err
    assert run(capsys, data_dir, "list")[1] == "No tournaments yet (cribbage-door tournament create).\n"


def test_a_rated_tournament_by_correspondence_from_the_command_line(data_dir: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, data_dir, "create", "letters", "--format", "swiss", "--rounds", "1",
                       "--play", "correspondence", "--rated")
    assert code == 0 and "by correspondence, 3 days a move, 14 days a round; no bots; rated. Entries are open." in out
    code, out, _ = run(capsys, data_dir, "create", "plain", "--format", "swiss", "--rounds", "1")
    assert code == 0 and "rated" not in out
