"""The card table (``/table``) in a real browser, Playwright driving
Debian's chromium: a whole game against the computer by taps on a phone
(390x844, touch) and by clicks on a desktop: the discard, the play, a
manual count, the show, the result.  No text under 14 CSS pixels, no
target under 44; no card of the computer's hand in the page before it is
played or shown; screenshots at the discard, the play and the show."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from door.net.api_link import ApiLink
from door.server import DoorServer
from tests.support.server import make_config, running

ARTIFACTS = Path(os.environ.get("CRIBBAGE_ARTIFACTS", "artifacts")) / "table"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CRIBBAGE_REQUIRE_BROWSER"),
    reason="no chromium here (Debian's package `chromium`; .ci/run installs it)")

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 3},
}


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data", game_to=61)
    async with running(config) as server:
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


SIZES = """() => {
    const small = [], tiny = [];
    for (const el of document.querySelectorAll("body *")) {
        const box = el.getBoundingClientRect(), style = getComputedStyle(el);
        if (!box.width || !box.height || style.visibility === "hidden" || el.closest("[hidden]")) continue;
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (own && parseFloat(style.fontSize) < 14) small.push(el.tagName + " " + style.fontSize);
        if (el.matches("button, input, select") && (box.width < 44 || box.height < 44))
            tiny.push(el.id || el.textContent.trim() + " " + box.width + "x" + box.height);
    }
    return {small, tiny};
}"""


def computer_cards(door: DoorServer) -> set[str]:
    """The cards in the computer's hand now (the test's look inside the door)."""
    for presence in door.ctx.lobby.callers():
        if isinstance(presence.terminal, ApiLink) and presence.table is not None and presence.table.game:
            game = presence.table.game
            return {str(c) for c in game.hands[1]}
    return set()


async def page_cards(page: Any) -> set[str]:
    return set(await page.evaluate("() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"))


async def tap(page: Any, selector: str, touch: bool) -> None:
    if touch:
        await page.tap(selector)
    else:
        await page.click(selector)


@pytest.mark.parametrize("kind", ["desktop", "phone"])
async def test_a_whole_game_at_the_card_table(door: DoorServer, browser: Any, kind: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = await browser.new_context(**VIEWPORTS[kind])
    page = await context.new_page()
    touch = kind == "phone"
    await page.goto(f"http://127.0.0.1:{door.web_port}/table")
    await page.fill("#name", "Tapper")
    await page.select_option("#target", "61")
    await tap(page, "#start", touch)
    shots: set[str] = set()
    leaks: list[str] = []
    counted = 0
    for _ in range(400):
        await page.wait_for_function("() => window.cribbageTable.asked || !document.querySelector('#again').hidden",
                                     timeout=20000)
        if not await page.is_hidden("#again"):
            break
        asked = await page.evaluate("() => window.cribbageTable.asked")
        hidden_now = computer_cards(door)
        if asked["ask"] != "count":  # (in the show every hand is face up)
            leaks += sorted((await page_cards(page)) & hidden_now)
        sizes = await page.evaluate(SIZES)
        assert sizes == {"small": [], "tiny": []}, sizes
        if asked["ask"] not in shots:
            shots.add(asked["ask"])
            await page.screenshot(path=str(ARTIFACTS / f"{kind}-{asked['ask']}.png"))
        if asked["ask"] == "discard":
            await tap(page, "#hand .card:nth-child(1)", touch)
            await tap(page, "#hand .card:nth-child(2)", touch)
            assert await page.get_attribute("#hand .card:nth-child(1)", "aria-pressed") == "true"
            await tap(page, "#lay", touch)
        elif asked["ask"] == "play":
            await tap(page, "#hand .card:not([disabled])", touch)
        else:
            await page.fill("#claim", "0")
            await tap(page, "#claim-go", touch)
            counted += 1
        await page.wait_for_function(  # (answered: the next question, or the game's end)
            "() => window.cribbageTable.asked !== null || !document.querySelector('#again').hidden", timeout=20000)
    assert not await page.is_hidden("#again")
    assert re.search(r"(You win|Computer wins), \d+ to \d+\.", await page.inner_text("#prompt"))
    assert leaks == []
    assert {"discard", "play", "count"} <= shots and counted > 0
    log = await page.inner_text("#log")
    assert "Starter:" in log and "Computer:" in log  # the spoken sentences, in the live region
    await page.screenshot(path=str(ARTIFACTS / f"{kind}-over.png"))
    await context.close()
