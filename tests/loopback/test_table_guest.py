"""A guest at the card table (``/table``): the door's resume token kept in
the browser's storage, a reload mid-hand finds the game going on where it
stood."""

from __future__ import annotations

import re
from typing import Any

from door.server import DoorServer
from tests.loopback.test_table_page import browser, door, play_through, table_page

__all__ = ["browser", "door"]  # (the fixtures, shared with the card table's other tests)


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
    assert account is not None
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
