"""The web page in a real browser (issue 34): Playwright drives Debian's
chromium (no browser is downloaded).  A caller plays from the page as
from a terminal: the name, a guest, the menu, the options, the deal and
the discard with the highlight bar; the page follows the window's size;
on a phone the row of on-screen keys does what the keyboard would."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from door.net.terminal import TerminalKind
from door.server import DoorServer

from tests.support.server import make_config, running

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CRIBBAGE_REQUIRE_BROWSER"),
    reason="no chromium here (Debian's package `chromium`; .ci/run installs it)")


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    async with running(make_config(tmp_path / "data")) as server:
        yield server


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless=new"])
        try:
            yield launched
        finally:
            await launched.close()


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
