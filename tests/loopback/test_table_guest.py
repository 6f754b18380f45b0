"""Who plays at the card table (``/table``): a guest, whose resume token
is kept in the browser's storage so that a reload mid-hand finds the game
going on where it stood; a guest who registers there, and changes the
password; a registered caller whose kept game comes back by itself (Today's
deal tapped over it asks for nothing); and a phone that installs the
table (its web app manifest)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_table_page import browser, chromium, door, play_through, table_page

__all__ = ["browser", "chromium", "door"]  # (the fixtures, shared with the card table's other tests)

pytestmark = pytest.mark.asyncio(loop_scope="module")
"""(The tests and their fixtures run in the module's event loop, that of its one chromium.)"""


async def test_a_guest_reloads_mid_hand_and_the_game_goes_on(door: DoorServer, browser: Any) -> None:
    page = await table_page(browser, door, "phone", "Gus")
    await page.select_option("#target", "61")
    await page.tap("#start")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.tap("#hand .card:nth-child(1)")
    await page.tap("#hand .card:nth-child(2)")
    await page.tap("#lay")
    await page.wait_for_function("() => window.cribbageTable.hand.length === 4")
    kept = await page.evaluate("() => window.cribbageTable.hand")
    stored = await page.evaluate("() => JSON.parse(localStorage.getItem('cribbage-table-guest'))")
    assert stored["name"] == "Gus" and re.fullmatch(r"[0-9a-f]{32}", stored["token"])
    await page.reload()  # the page reloads mid-hand: the same guest, the same game, at once
    await page.wait_for_function("() => document.querySelector('#log').textContent.includes('goes on')")
    await page.wait_for_function("() => window.cribbageTable.hand.length === 4")
    assert sorted(await page.evaluate("() => window.cribbageTable.hand")) == sorted(kept)
    assert await page.input_value("#name") == "Gus"
    _, leaks, _ = await play_through(page, door, "Gus", "phone-guest")
    assert leaks == []
    assert re.search(r"(You win|Computer wins), \d+ to \d+\.", await page.inner_text("#prompt"))
    assert len(door.ctx.parked) == 0
    await page.reload()  # the game over: a reload finds none, and offers Play with the name typed
    await page.wait_for_function("() => document.querySelector('#status').textContent.includes('No game')")
    assert not await page.is_hidden("#join") and await page.input_value("#name") == "Gus"
    await page.context.close()


async def test_registration_and_a_password_change_at_the_table(door: DoorServer, browser: Any) -> None:
    """A guest registers their name at the card table (two passwords that
    differ are refused first), plays with the game kept; later the
    password is changed there, and the new one logs in."""
    page = await table_page(browser, door, "phone", "Reg")
    assert await page.is_disabled("#daily")  # (today's deal is never offered to a guest)
    await page.tap("#account summary")
    await page.fill("#new-password", "reg-secret")
    await page.fill("#new-again", "reg-secrex")
    await page.tap("#register")
    assert "differ" in await page.inner_text("#status")
    await page.fill("#new-password", "reg-secret")
    await page.fill("#new-again", "reg-secret")
    await page.tap("#register")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Registered as Reg')")
    account = await door.store.accounts.find("Reg")
    assert account is not None and not await page.is_disabled("#daily")
    await page.select_option("#target", "61")
    await page.tap("#start")  # (the same connection, logged in as registered)
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    assert await door.store.saved.load(account.id) is not None  # kept move by move, as a registered caller's
    await page.tap("#menu")  # back to the first screen: the game is kept
    assert not await page.is_hidden("#join")
    await page.fill("#password", "reg-secret")
    await page.fill("#new-password", "reg-newer")
    await page.fill("#new-again", "reg-newer")
    await page.tap("#change")
    await page.wait_for_function("() => document.querySelector('#log').textContent.includes('Your password is changed.')")
    await page.context.close()
    page = await table_page(browser, door, "desktop", "Reg")
    await page.fill("#password", "reg-newer")
    await page.click("#start")
    await page.wait_for_function("() => document.querySelector('#log').textContent.includes('goes on')")
    await page.context.close()


async def test_the_table_installs_on_a_phone(door: DoorServer, browser: Any) -> None:
    """A web app manifest and its icon, served with the page and allowed by
    its Content-Security-Policy: a phone may install the card table."""
    page = await table_page(browser, door, "phone", "Gus")
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    await page.reload()
    manifest = await page.evaluate("""async () => {
        const link = document.querySelector('link[rel=manifest]');
        const reply = await fetch(link.href);
        return {type: reply.headers.get('content-type'), body: await reply.json()};
    }""")
    assert manifest["type"] == "application/manifest+json"
    body = manifest["body"]
    assert body["start_url"] == "/table" and body["display"] == "standalone" and body["icons"]
    icon = await page.evaluate(f"async () => (await fetch({body['icons'][0]['src']!r})).headers.get('content-type')")
    assert icon == "image/svg+xml"
    await page.wait_for_timeout(300)
    assert refused == []
    await page.context.close()


async def test_a_kept_game_comes_back_when_todays_deal_is_tapped(door: DoorServer, browser: Any) -> None:
    """A registered caller with a game kept taps Today's deal: the kept game
    goes on, and the door is asked for nothing over it (no "'daily' is not a
    move during a game")."""
    await door.store.accounts.create("Ann", hash_password("ann-secret"))
    page = await table_page(browser, door, "phone", "Ann")
    await page.fill("#password", "ann-secret")
    await page.select_option("#target", "61")
    await page.tap("#start")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.close()  # (the game is kept)
    page = await table_page(browser, door, "phone", "Ann")
    await page.fill("#password", "ann-secret")
    await page.tap("#daily")
    await page.wait_for_function("() => document.querySelector('#log').textContent.includes('goes on')")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.wait_for_timeout(600)
    assert "not a move" not in await page.inner_text("#status")
    await page.context.close()
