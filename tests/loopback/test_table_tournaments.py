"""Tournaments at the card table (``/table``), in a real browser: the open
and running tournaments listed, entering and withdrawing, a tournament's
standings and its bracket.  An 8-player double elimination's bracket is
shown round by round (each round a heading and a list of its matches in
words) and read on a phone as on a desktop: nothing wider than the
screen, no text too small, no target too small, axe-core finding
nothing.  On a desktop the keyboard alone enters a tournament, withdraws
and opens a bracket."""

from __future__ import annotations

import time
from typing import Any

import pytest

from door.records.passwords import hash_password
from door.records.ranked.tournament import Format, Kind
from door.records.tournaments.settings import Play, Settings
from door.server import DoorServer
from tests.loopback.test_table_page import ARTIFACTS, SIZES, browser, chromium, door, table_page, violations

__all__ = ["browser", "chromium", "door"]  # (the fixtures, shared with the card table's other tests)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PASSWORD = "secret-words"
EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
BY_POST = {"play": Play.CORRESPONDENCE, "move_days": 3, "round_days": 14}

LIST_SHOWN = "() => !document.querySelector('#cups').hidden"
CUP_SHOWN = "() => !document.querySelector('#cup').hidden"
WIDE = "() => document.documentElement.scrollWidth"


async def _double_elimination(door: DoorServer, waves: int) -> None:
    """``eight``: an 8-player double elimination by correspondence,
    started, its first ``waves`` of matches each won 2-1 by the first
    player paired (the better seed in the winners' first round)."""
    tournaments = door.store.tournaments
    await tournaments.create("eight", "Double eight", Settings(Format(Kind.DOUBLE, games=3), **BY_POST))  # type: ignore[arg-type]
    for name in EIGHT:
        await door.store.accounts.create(name, hash_password(PASSWORD))
        await tournaments.enter("eight", name)
    await tournaments.start("eight")
    await tournaments.step("eight", time.time())
    for _ in range(waves):
        for p in [p for p in (await tournaments.view("eight")).pairings if p.open]:
            a, b = p.players
            assert b is not None
            await tournaments.record("eight", a, b, (2, 1))
        await tournaments.step("eight", time.time())


async def _tab_to(page: Any, text: str) -> None:
    """TAB until the focus is on the button (or field) that says ``text``."""
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("() => document.activeElement.textContent.trim()") == text:
            return
    raise AssertionError(f"TAB never reached {text!r}")


async def _readable(page: Any, width: int) -> None:
    """Nothing wider than the screen, no text under 14 px, no target under 44 px, axe finds nothing."""
    assert await page.evaluate(WIDE) <= width
    assert await page.evaluate(SIZES) == {"small": [], "tiny": []}
    assert await violations(page) == []


@pytest.mark.parametrize("kind,width", [("phone", 390), ("desktop", 1280)])
async def test_an_eight_player_double_elimination_bracket_at_the_card_table(
        door: DoorServer, browser: Any, kind: str, width: int) -> None:
    await _double_elimination(door, waves=3)
    await door.store.accounts.create("Zed", hash_password(PASSWORD))
    page = await table_page(browser, door, kind, "Zed")
    await page.fill("#password", PASSWORD)
    await page.click("#cups-go")
    await page.wait_for_function(LIST_SHOWN)
    listed = " ".join((await page.inner_text("#cups-list")).split())
    assert listed.startswith("Double eight: under way. Double elimination"), listed
    assert "8 players entered." in listed
    assert await page.locator("#cups-list button", has_text="Enter").count() == 0  # (under way: no entering)
    await _readable(page, width)

    await page.locator("#cups-list button", has_text="Standings and bracket").click()
    await page.wait_for_function(CUP_SHOWN)
    assert await page.evaluate("() => document.activeElement.id") == "cup-title"
    assert await page.inner_text("#cup-title") == "Double eight"
    rounds = await page.eval_on_selector_all(".bracket h4", "hs => hs.map(h => h.textContent)")
    assert rounds[:4] == ["Winners' round 1", "Winners' round 2", "Winners' round 3", "Losers' round 1"], rounds
    assert rounds[-2:] == ["Grand final", "Reset"]
    matches = await page.eval_on_selector_all(
        "section.bracket ul[aria-labelledby='cup-round-0-0'] li", "ls => ls.map(l => l.textContent)")
    assert matches == ["Ann beat Hal 2 games to 1.", "Dee beat Eve 2 games to 1.",
                       "Cy beat Fay 2 games to 1.", "Bob beat Gus 2 games to 1."]
    body = " ".join((await page.inner_text("#cup-body")).split())
    assert "Ann beat Dee 2 games to 1." in body and "Hal beat Eve 2 games to 1." in body  # winners' and losers' 2
    assert "to play" in body and "to come" in body and "No champion yet." in body
    assert await page.locator("#cup-standings").count() == 0  # (a knock-out alone: no standings)
    await _readable(page, width)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{kind}-double-elimination.png"), full_page=True)
    if kind == "phone":  # each match's line fits the screen: wrapped, not cut or scrolled sideways
        boxes = await page.eval_on_selector_all(".bracket li", "ls => ls.map(l => l.getBoundingClientRect().right)")
        assert boxes and max(boxes) <= width
    await page.click("#cup-back")
    await page.wait_for_function(LIST_SHOWN)
    await page.context.close()


async def test_the_keyboard_alone_enters_and_withdraws_and_reads_the_standings(door: DoorServer, browser: Any) -> None:
    """On a desktop by the keys alone: the tournaments from the first
    screen, Enter on an open one (the list says so, the focus on its
    Withdraw), a running Swiss's standings as a table, back, Withdraw; an
    entry the door refuses (a rating band) said, the focus on the list."""
    tournaments = door.store.tournaments
    for name in ["Zed", *EIGHT[:4]]:
        await door.store.accounts.create(name, hash_password(PASSWORD))
    await tournaments.create("spring", "Spring cup", Settings(Format(Kind.SINGLE, games=3), **BY_POST))  # type: ignore[arg-type]
    await tournaments.create("weekly", "Weekly Swiss", Settings(Format(Kind.SWISS, rounds=3), **BY_POST))  # type: ignore[arg-type]
    for name in EIGHT[:4]:
        await tournaments.enter("weekly", name)
    await tournaments.start("weekly")
    first, second = (await tournaments.step("weekly", time.time()))[0].players
    await tournaments.record("weekly", first, second, (121, 80))  # a skunk: 3 points

    page = await table_page(browser, door, "desktop", "Zed")
    await page.focus("#password")
    await page.keyboard.type(PASSWORD)
    await _tab_to(page, "Tournaments")
    await page.keyboard.press("Enter")
    await page.wait_for_function(LIST_SHOWN)
    assert await page.evaluate("() => document.activeElement.id") == "cups-title"
    await _tab_to(page, "Enter")
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent === 'You are in spring.'")
    await page.wait_for_function("() => document.activeElement.textContent === 'Withdraw'")
    assert "Spring cup: open for entries." in await page.inner_text("#cups-list")
    assert "1 player entered; you are in." in await page.inner_text("#cups-list")
    assert [e.name for e in (await tournaments.view("spring")).entries] == ["Zed"]

    await _tab_to(page, "Standings and bracket")  # spring's (the open ones listed first), then the Swiss's
    await _tab_to(page, "Standings and bracket")
    await page.keyboard.press("Enter")
    await page.wait_for_function(CUP_SHOWN)
    assert await page.inner_text("#cup-title") == "Weekly Swiss"
    rows = await page.eval_on_selector_all("#cup-standings tbody tr",
                                           "rs => rs.map(r => [...r.children].map(c => c.textContent))")
    assert rows[0] == ["1", first, "3", "1-0", "1", "+41"], rows
    assert rows[-1] == ["4", second, "0", "0-1", "0", "-41"], rows
    assert await violations(page) == []
    await _tab_to(page, "All tournaments")
    await page.keyboard.press("Enter")
    await page.wait_for_function(LIST_SHOWN)
    await _tab_to(page, "Withdraw")
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent === 'You are out of spring.'")
    await page.wait_for_function("() => document.activeElement.textContent === 'Enter'")
    assert (await tournaments.view("spring")).entries == []

    await tournaments.create("elite", "Elite cup", Settings(Format(Kind.SINGLE, games=3), min_rating=2000,  # type: ignore[arg-type]
                                                            **BY_POST))
    await _tab_to(page, "Look again")  # an entry the door refuses: said, and the focus on the list's heading
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#cups-list').textContent.includes('Elite cup')")
    await page.keyboard.press("Tab")
    assert await page.evaluate("() => document.activeElement.textContent") == "Enter"  # (the newest first: Elite)
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('The door says:')")
    assert "rating" in await page.inner_text("#status")
    assert await page.evaluate("() => document.activeElement.id") == "cups-title"
    assert (await tournaments.view("elite")).entries == []
    await page.context.close()
