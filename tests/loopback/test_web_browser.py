"""The web page in a real browser: Playwright drives Debian's
chromium (no browser is downloaded).  A caller plays from the page as
from a terminal: the name, a guest, the menu, the options, the deal and
the discard with the highlight bar; the page follows the window's size;
on a phone the row of on-screen keys does what the keyboard would."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from door.net.terminal import TerminalKind
from door.server import DoorServer
from tests.support.player import RIGHT, Player
from tests.support.server import make_config, running
from tests.support.xterm_page import XtermScreen

ARTIFACTS = Path(os.environ.get("CRIBBAGE_ARTIFACTS", "artifacts")) / "web"
"""Where the screenshots go (a test artifact; .gitignored)."""

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CRIBBAGE_REQUIRE_BROWSER"),
    reason="no chromium here (Debian's package `chromium`; .ci/run installs it)"), pytest.mark.asyncio(loop_scope="module")]
"""(The tests and their fixtures run in the module's event loop, that of its one chromium.)"""


@pytest_asyncio.fixture(loop_scope="module")
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data")) as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Any]:
    """One chromium for the module's tests (launching it costs a second or
    two of the processor's time a test)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless=new"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="module")
async def browser(chromium: Any) -> AsyncIterator[Any]:
    """The module's chromium, for one test: the pages and contexts (each
    with storage of its own) it opens are closed at its end."""
    yield chromium
    for context in chromium.contexts:
        await context.close()


async def screen_text(page: Any) -> str:
    """The terminal's rows as the page's xterm.js holds them."""
    return str(await page.evaluate("""() => {
        const b = window.doorTerminal.buffer.active, rows = [];
        for (let i = 0; i < window.doorTerminal.rows; i++) rows.push(b.getLine(b.viewportY + i).translateToString(true));
        return rows.join("\\n");
    }"""))


async def until(page: Any, words: str, timeout: float = 15.0) -> str:
    import asyncio

    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        text = await screen_text(page)
        if words in text:
            return text
        assert asyncio.get_running_loop().time() < deadline, f"no {words!r} on the page:\n{text}"
        await asyncio.sleep(0.1)


def web_presence(door: DoorServer, name: str) -> Any:
    return next(p for p in door.ctx.lobby.presences.values() if p.name == name)


async def test_a_caller_plays_from_the_page(door: DoorServer, browser: Any) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    await until(page, "Your name:")
    size = await page.evaluate("() => [window.doorTerminal.cols, window.doorTerminal.rows]")
    assert size[0] >= 80 and size[1] >= 25  # at least 80x25 cells
    await page.keyboard.type("Browser")
    await page.keyboard.press("Enter")
    await until(page, "is not registered")
    await page.keyboard.type("g")
    await until(page, "Main menu")
    presence = web_presence(door, "Browser")
    assert presence.terminal.kind is TerminalKind.WEB
    assert (presence.terminal.cols, presence.terminal.rows) == tuple(size)  # the door knows the page's size
    await page.keyboard.type("1")
    await until(page, "Press 1 or 2")
    await page.keyboard.type("1")
    await until(page, "blank line deals")
    await page.keyboard.press("Enter")
    await until(page, "Choose 2 cards")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await until(page, "RETURN lays away")
    # a smaller window: the page keeps 80 columns (a smaller font), the door learns the new size
    await page.set_viewport_size({"width": 900, "height": 700})
    await page.wait_for_timeout(500)
    cols, rows = await page.evaluate("() => [window.doorTerminal.cols, window.doorTerminal.rows]")
    assert cols >= 80 and rows >= 25
    assert (presence.terminal.cols, presence.terminal.rows) == (cols, rows)
    await page.close()


async def test_on_a_phone_the_row_of_keys_plays(door: DoorServer, browser: Any) -> None:
    context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    await until(page, "Your name:")
    assert await page.locator("#keys").is_visible()
    await page.keyboard.type("Phoney")
    await page.get_by_role("button", name="RETURN").tap()
    await until(page, "is not registered")
    await page.keyboard.type("g")
    await until(page, "Main menu")
    await page.get_by_role("button", name="1", exact=True).tap()  # play the computer
    await until(page, "Press 1 or 2")
    await page.get_by_role("button", name="1", exact=True).tap()
    await until(page, "blank line deals")
    await page.get_by_role("button", name="RETURN").tap()
    await until(page, "Choose 2 cards")
    await page.get_by_role("button", name="Right").tap()
    await page.get_by_role("button", name="RETURN").tap()
    await page.get_by_role("button", name="Right").tap()
    await page.get_by_role("button", name="RETURN").tap()
    await until(page, "RETURN lays away")
    await page.get_by_role("button", name="DEL").tap()  # unselect one again
    await until(page, "Choose 2 cards")
    await context.close()


async def test_the_page_breaks_no_rule_of_its_own_policy(door: DoorServer, browser: Any) -> None:
    """Nothing on the page is refused by its Content-Security-Policy (an
    inline script or a style the policy forbids would be reported)."""
    page = await browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    await until(page, "Your name:")
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    assert not errors, errors
    await page.close()


async def keys(page: Any, data: bytes) -> None:
    """Type ``data`` (a :class:`Player`'s keys) on the page's keyboard."""
    special = {RIGHT: "ArrowRight", b"\r": "Enter", b"\x7f": "Backspace", b"\x1b": "Escape"}
    while data:
        for seq, key in special.items():
            if data.startswith(seq):
                await page.keyboard.press(key)
                data = data[len(seq):]
                break
        else:
            await page.keyboard.type(data[:1].decode())
            data = data[1:]


class PagePlayer(Player):
    """A :class:`Player` in the page, who also checks the bar with the
    arrow keys and the on-screen keys at the first discard, and takes a
    screenshot at the discard, the play and the show."""

    page: Any = None
    shots: dict[str, Path] | None = None

    async def act(self, prompt: str, screen: str) -> bool | str:
        assert self.shots is not None
        if prompt.startswith("Choose 2 cards") and "discard" not in self.shots:
            await self._bar_moves()
            self.shots["discard"] = await shot(self.page, "discard")
        elif prompt.startswith("Your turn") and "play" not in self.shots:
            self.shots["play"] = await shot(self.page, "play")
        elif prompt.startswith("Chat") and "The show" in screen and "show" not in self.shots:
            self.shots["show"] = await shot(self.page, "show")
        return await super().act(prompt, screen)

    async def _bar_moves(self) -> None:
        t = self.term
        row = t.row_of("Your cards") + 2
        first = t.bar_column(row)
        assert first is not None, "no highlight bar on the cards"
        await self.page.keyboard.press("ArrowRight")
        await t.wait_for(lambda: t.bar_column(row) not in (None, first))
        second = t.bar_column(row)
        await self.page.get_by_role("button", name="Right").click()  # the row of keys under the screen
        await t.wait_for(lambda: t.bar_column(row) not in (None, second))
        await self.page.get_by_role("button", name="Left").click()
        await self.page.get_by_role("button", name="Left").click()
        await t.wait_for(lambda: t.bar_column(row) == first)


async def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


@pytest_asyncio.fixture(loop_scope="module")
async def door61(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data", game_to=61)) as server:
        yield server


@pytest.mark.slow
async def test_a_whole_game_to_61_in_the_page(door61: DoorServer, browser: Any) -> None:
    door = door61
    page = await browser.new_page(viewport={"width": 860, "height": 760})  # narrow: the keys row shows
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    screen = XtermScreen(page)
    screen.start()
    replaced: list[str] = []
    try:
        await screen.wait_for(lambda: "Your name:" in screen.text())
        shots = {"name": await shot(page, "name")}
        player = PagePlayer(screen, lambda data: keys(page, data), name="Pager")
        player.page, player.shots = page, shots
        watch = asyncio.create_task(_no_replacement(screen, replaced))
        end = await player.play(timeout=300)
        watch.cancel()
        assert re.search(r"(You win|Computer wins) \d+ to \d+!", end), end
        assert set(shots) == {"name", "discard", "play", "show"} and all(p.stat().st_size > 5000 for p in shots.values())
        # the board, the cards and the pegs were on the page
        assert "Your cards" in end and "\u25a0" in end  # pegs on the board
        assert not replaced, replaced  # 0 U+FFFD
        # a resize to 100x30 redraws at that size
        await screen.wait_for(lambda: "Main menu" in screen.text())
        await page.evaluate("() => window.doorTerminal.resize(100, 30)")
        presence = web_presence(door, "Pager")
        await screen.wait_for(lambda: screen.size == (100, 30) and len(screen.lines()[0].rstrip()) > 90)
        assert (presence.terminal.cols, presence.terminal.rows) == (100, 30)
        assert "Main menu" in screen.lines()[0]
    finally:
        screen.stop()
        await page.close()


async def _no_replacement(screen: XtermScreen, found: list[str]) -> None:
    while True:
        await screen.changed.wait()
        found.extend(line for line in screen.lines() if "\ufffd" in line)
        await asyncio.sleep(0.05)


async def test_a_second_tab_of_the_same_account_takes_over(door: DoorServer, browser: Any) -> None:
    from door.records.passwords import hash_password

    await door.store.accounts.create("Tabby", hash_password("tabby-pass"))
    pages = [await browser.new_page(), await browser.new_page()]
    for page in pages:
        await page.goto(f"http://127.0.0.1:{door.web_port}/")
        await until(page, "Your name:")
        await page.keyboard.type("Tabby")
        await page.keyboard.press("Enter")
        await until(page, "Password:")
        await page.keyboard.type("tabby-pass")
        await page.keyboard.press("Enter")
        await until(page, "Main menu")
    await until(pages[0], "You logged in again from somewhere else")
    assert "closed" in await pages[0].locator("#status").inner_text()
    assert "Main menu" in await screen_text(pages[1])
    for page in pages:
        await page.close()


async def test_a_window_too_small_is_said_and_black_is_black(door: DoorServer, browser: Any) -> None:
    """On a phone held upright the 80x25 screen's text would be a few
    pixels high: the page says so (and points to the card table) instead
    of leaving it unread; on a desktop it says nothing of it.  The door's
    black background is painted black, not xterm.js's dark grey."""
    context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    await until(page, "Your name:")
    assert "too small" in await page.inner_text("#status") and "/table" in await page.inner_text("#status")
    assert await page.evaluate("() => window.doorTerminal.options.theme.black") == "#000000"
    await context.close()
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await page.goto(f"http://127.0.0.1:{door.web_port}/")
    await until(page, "Your name:")
    assert "too small" not in await page.inner_text("#status")
    await page.close()
