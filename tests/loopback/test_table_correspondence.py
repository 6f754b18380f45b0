"""Cribbage by correspondence at the card table (``/table``), in a real
browser: Ann offers Bob a game by the protocol; Bob, on a phone, logs in
at the card table, finds the offer under his games by correspondence,
accepts it by taps and lays away; the table says the game waits on Ann
and lists it as her move.  Ann moves (by the protocol); Bob's page says
his move is waiting at once, and Bob, by the keyboard alone, opens the
game and plays his decisions until it waits on Ann again. A caller's
own offers are listed apart, each with Withdraw."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from door.records.correspondence.deadlines import left_words
from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_protocol import answer, next_message
from tests.loopback.test_table_page import ARTIFACTS, SIZES, browser, chromium, door, table_page, violations

__all__ = ["browser", "chromium", "door"]  # (the fixtures, shared with the card table's other tests)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PASSWORD = "secret-words"

LIST_SHOWN = "() => !document.querySelector('#post').hidden"


async def _by_protocol(door: DoorServer, name: str) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{door.web_port}/api/v1/play")
    await next_message(ws, "hello")
    await ws.send(json.dumps({"type": "login", "name": name, "password": PASSWORD}))
    await next_message(ws, "welcome")
    return ws


async def _sit(ws: ClientConnection) -> dict[str, Any]:
    """Answer every ask until the game waits on the other player (``waiting``) or is over."""
    while True:
        message = await next_message(ws, timeout=20)
        if message["type"] == "ask":
            await ws.send(json.dumps(answer(message)))
        elif message["type"] in ("waiting", "game_over"):
            return message


async def _list_text(page: Any) -> str:
    return " ".join((await page.inner_text("#post")).split())


async def _play_by_keys(page: Any) -> int:
    """Bob's decisions at the open game by the keys alone (digits choose a
    card, RETURN lays away or plays it) until the list shows again;
    how many decisions."""
    for made in range(40):
        await page.wait_for_function(f"() => window.cribbageTable.asked || ({LIST_SHOWN})()", timeout=20000)
        if not await page.is_hidden("#post"):
            return made
        asked = await page.evaluate("() => window.cribbageTable.asked")
        if asked["ask"] == "discard":
            await page.keyboard.press("1")
            await page.keyboard.press("2")
            assert await page.evaluate("() => document.activeElement.id") == "lay"
            await page.keyboard.press("Enter")
        elif asked["ask"] == "play":
            hand = await page.evaluate("() => window.cribbageTable.hand")
            await page.keyboard.press(str(hand.index(asked["playable"][0]) + 1))
            assert await page.evaluate("() => document.activeElement.id") == "play-go"
            await page.keyboard.press("Enter")
        else:
            await page.keyboard.type("0")
            await page.keyboard.press("Enter")
        await page.wait_for_function(f"() => window.cribbageTable.asked !== null || ({LIST_SHOWN})()", timeout=20000)
    raise AssertionError("the game never waited on the other player")


async def test_a_game_by_correspondence_at_the_card_table(door: DoorServer, browser: Any) -> None:
    for name in ("Ann", "Bob"):
        await door.store.accounts.create(name, hash_password(PASSWORD))
    ann = await _by_protocol(door, "Ann")  # Ann offers Bob a game: Bob is not on line
    await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 2, "runs": "order", "best_of": 3}))
    assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
    await ann.close()

    page = await table_page(browser, door, "phone", "Bob")
    assert await page.is_disabled("#mail")  # (for registered callers: the password typed first)
    await page.fill("#password", PASSWORD)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    await page.wait_for_function("() => document.activeElement.id === 'post-title'")
    listed = await _list_text(page)
    assert "Ann offers you a match (the best of 3 games): 2 days a move, runs in exact order." in listed
    assert "No game by correspondence yet" in listed
    assert await page.inner_text("#post-count") == "No game under way; 1 offer to you."
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "phone-correspondence-offer.png"))
    assert await violations(page) == []
    assert await page.evaluate(SIZES) == {"small": [], "tiny": []}

    await page.locator("#post-offers button", has_text="Accept").tap()  # the game begins: Bob's discard
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    assert await page.is_hidden("#post") and not await page.is_hidden("#game")
    await page.tap("#hand .card:nth-child(1)")
    await page.tap("#hand .card:nth-child(2)")
    await page.tap("#lay")
    await page.wait_for_function(LIST_SHOWN)  # the game waits on Ann: said, then the list
    assert await page.inner_text("#post-news") == "Your move is kept. It is Ann's move now."
    assert await page.get_attribute("#post-news", "aria-live") == "polite"
    assert await page.evaluate("() => document.querySelector('#prompt').textContent") == "Waiting for Ann."
    assert await page.is_hidden("#again")  # (the game goes on: nothing said of its end)
    await page.wait_for_function("() => document.querySelector('#post-games').textContent.includes('with Ann')")
    listed = await _list_text(page)
    assert "with Ann: Their move, due in 1 day 23 hours." in listed, listed
    assert "Offers to you" not in listed and "offers you" not in listed  # (the offer is taken)
    assert await violations(page) == []
    assert await page.evaluate(SIZES) == {"small": [], "tiny": []}
    status = await page.inner_text("#status")
    for key in ("a", "?", "c", "1"):  # (the table's keys do nothing on the list: no advice asked of the door)
        await page.keyboard.press(key)
    await page.wait_for_timeout(300)
    assert await page.inner_text("#status") == status

    ann = await _by_protocol(door, "Ann")  # Ann moves: Bob's page hears of it at once
    await ann.send(json.dumps({"type": "games"}))
    game = (await next_message(ann, "games"))["games"][0]
    await ann.send(json.dumps({"type": "open", "game": game["game"]}))
    assert (await _sit(ann))["type"] == "waiting"
    await ann.close()
    await page.wait_for_function("() => document.querySelector('#post-news').textContent"
                                 " === 'Your move in your game with Ann.'")
    await page.wait_for_function("() => document.querySelector('#post-games').textContent.includes('Your move')")
    listed = await _list_text(page)
    assert f"#{game['number']} with Ann: Your move, due in 1 day 23 hours. Hand 1:" in listed, listed
    assert await page.inner_text("#post-count") == "1 game under way, 1 waiting on you; no offer to you."
    assert await violations(page) == []
    await page.screenshot(path=str(ARTIFACTS / "phone-correspondence-your-move.png"))

    # the keyboard alone: from the list's heading, TAB to the game's Play, RETURN, then the decisions
    assert await page.evaluate("() => document.activeElement.id") == "post-title"
    await page.keyboard.press("Tab")
    assert await page.evaluate("() => document.activeElement.textContent") == f"Play #{game['number']}"
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => window.cribbageTable.asked !== null")
    said = await page.inner_text("#log")  # what Ann did since Bob's last move, said first
    assert "Since your last move: " in said and "Ann" in said.split("Since your last move: ", 1)[1], said
    assert await _play_by_keys(page) >= 1
    assert "Ann's move now" in await page.inner_text("#post-news")
    await page.wait_for_function("() => document.querySelector('#post-games').textContent.includes('Their move')")
    await page.context.close()


async def test_offers_and_days_away_from_the_card_table(door: DoorServer, browser: Any) -> None:
    """On a desktop, Ann offers Bob a game from the page's form (a blank
    name refused where it is typed, a name nobody has refused by the door
    with its reason), and sets days away (a count that is not a whole
    number from 1 to 366 refused first); the time left is worded as the
    door's screens word it."""
    for name in ("Ann", "Bob"):
        await door.store.accounts.create(name, hash_password(PASSWORD))
    page = await table_page(browser, door, "desktop", "Ann")
    await page.fill("#password", PASSWORD)
    await page.click("#mail")
    await page.wait_for_function(LIST_SHOWN)
    assert await page.eval_on_selector_all("#post-days option", "os => os.map(o => o.value)") == \
        ["1", "2", "3", "5", "7", "14"]
    await page.click("#post-send")  # no name: refused at once, the field marked
    assert await page.get_attribute("#post-name", "aria-invalid") == "true"
    assert "Type the name" in await page.inner_text("#status")
    assert await page.evaluate("() => document.activeElement.id") == "post-name"
    await page.fill("#post-name", "Nobody")
    await page.click("#post-send")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('The door says:')")
    assert await page.evaluate("() => document.activeElement.id") == "post-name"
    assert await page.input_value("#post-name") == "Nobody"  # (kept, to put right)
    await page.fill("#post-name", "Bob")
    await page.select_option("#post-days", "7")
    await page.select_option("#post-best-of", "5")
    await page.select_option("#post-rated", "yes")  # (Ann has no finished games: fair play refuses it rated)
    await page.click("#post-send")
    await page.wait_for_function("() => document.querySelector('#status').textContent.includes('cannot be rated')")
    assert await page.evaluate("() => document.activeElement.id") == "post-rated"
    await page.select_option("#post-rated", "no")
    await page.click("#post-send")
    await page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your offer is made')")
    offers = await door.store.correspondence.offers.received((await door.store.accounts.find("Bob")).id)  # type: ignore[union-attr]
    assert [(o.terms.days, o.terms.best_of, o.terms.rated) for o in offers] == [(7, 5, False)]
    assert await page.input_value("#post-name") == ""
    bob = await _by_protocol(door, "Bob")  # Bob accepts by the protocol and discards: Ann, on line, is told
    await bob.send(json.dumps({"type": "answer", "offer": offers[0].id, "accept": True}))
    assert (await _sit(bob))["type"] == "waiting"
    await bob.close()
    await page.wait_for_function("() => document.querySelector('#post-news').textContent"
                                 " === 'Your move in your game with Bob.'")
    await page.wait_for_function("() => document.querySelector('#post-games').textContent.includes('Your move')")
    assert "with Bob: Your move, due in 6 days. Hand 1: you 0, Bob 0." in await _list_text(page)
    await page.screenshot(path=str(ARTIFACTS / "desktop-correspondence-list.png"), full_page=True)
    assert await violations(page) == []

    await page.fill("#away-days", "0")
    await page.press("#away-days", "Enter")
    assert await page.get_attribute("#away-days", "aria-invalid") == "true"
    assert "whole number from 1 to 366" in await page.inner_text("#status")
    await page.fill("#away-days", "3")
    await page.press("#away-days", "Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('You are away for 3 days')")
    assert await violations(page) == []

    worded = await page.evaluate("() => [259199, 104400, 18059, 4800, 61, 30, 0].map(window.cribbageCorrespondence.leftWords)")
    assert worded == [left_words(s) for s in (259199, 104400, 18059, 4800, 61, 30, 0)]
    await page.context.close()


async def test_a_bot_logs_in_at_the_card_table_with_its_token(door: DoorServer, browser: Any) -> None:
    """A bot's owner types its token for the password: the bot is logged in
    and finds the offer made to it; a person whose password is 64 hex
    digits still logs in with it (tried as a token first)."""
    _, token = await door.store.bots.make("Robo")
    await door.store.accounts.create("Ann", hash_password(PASSWORD))
    await door.store.accounts.create("Hex", hash_password("ab" * 32))
    ann = await _by_protocol(door, "Ann")
    await ann.send(json.dumps({"type": "offer", "name": "Robo", "days": 1}))
    assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
    await ann.close()
    page = await table_page(browser, door, "phone", "Robo")
    await page.fill("#password", token)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    assert "Ann offers you a game: 1 day a move, runs in any order." in await _list_text(page)
    await page.context.close()
    page = await table_page(browser, door, "phone", "Hex")
    await page.fill("#password", "ab" * 32)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    assert "No game by correspondence yet" in await _list_text(page)
    await page.context.close()


async def test_an_offer_to_anyone_posted_and_taken_at_the_card_table(door: DoorServer, browser: Any) -> None:
    """Ann, on a desktop, posts an offer to anyone from the form (the box
    ticked, no name asked for); Bob, on a phone, finds it under the offers
    with Take it: taken from Ann's own network it is refused, the door's
    reason said (every caller of the test calls from the loopback); once
    the sysop allows one network, Bob's tap takes it and the game begins.
    Ann's list never offers her own offer to her."""
    for name in ("Ann", "Bob"):
        await door.store.accounts.create(name, hash_password(PASSWORD))
    page = await table_page(browser, door, "desktop", "Ann")
    await page.fill("#password", PASSWORD)
    await page.click("#mail")
    await page.wait_for_function(LIST_SHOWN)
    await page.check("#post-anyone")
    assert await page.is_disabled("#post-name")
    await page.select_option("#post-days", "5")
    await page.click("#post-send")
    await page.wait_for_function("() => document.querySelector('#status').textContent"
                                 ".includes('Your offer to anyone is made')")
    assert not await page.is_checked("#post-anyone") and not await page.is_disabled("#post-name")
    posted = await door.store.correspondence.offers.open_to_anyone()
    assert [(o.taker, o.terms.days) for o in posted] == [(None, 5)]
    await page.click("#post-refresh")
    await page.wait_for_timeout(300)
    assert "offers a game to anyone" not in await _list_text(page)  # (her own)
    assert await violations(page) == []
    await page.context.close()

    page = await table_page(browser, door, "phone", "Bob")
    await page.fill("#password", PASSWORD)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    listed = await _list_text(page)
    assert "Offers to anyone Ann offers a game to anyone: 5 days a move, runs in any order." in listed, listed
    assert await page.inner_text("#post-count") == "No game under way; no offer to you; 1 offer to anyone."
    await page.screenshot(path=str(ARTIFACTS / "phone-correspondence-open-offer.png"))
    assert await violations(page) == []
    assert await page.evaluate(SIZES) == {"small": [], "tiny": []}
    await page.locator("#post-offers button", has_text="Take it").tap()
    await page.wait_for_function("() => document.querySelector('#status').textContent"
                                 ".includes('That offer was made from your network')")
    await page.wait_for_function(LIST_SHOWN)
    door.ctx.ranked.same_network = True  # the sysop allows callers of one network to play each other
    await page.locator("#post-offers button", has_text="Take it").tap()  # the game begins: Bob's discard
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.tap("#hand .card:nth-child(1)")
    await page.tap("#hand .card:nth-child(2)")
    await page.tap("#lay")
    await page.wait_for_function(LIST_SHOWN)
    await page.wait_for_function("() => document.querySelector('#post-games').textContent.includes('with Ann')")
    assert "offers a game to anyone" not in await _list_text(page)
    assert await door.store.correspondence.offers.open_to_anyone() == []
    await page.context.close()


async def _offer_state(door: DoorServer, offer: int) -> str:
    """What became of offer ``offer``, as the store keeps it (open, withdrawn, ...)."""
    rows = await door.store.database.query(lambda db: db.execute(
        "SELECT state FROM correspondence_offers WHERE id = ?", (offer,)).fetchall())
    return str(rows[0][0])


async def test_a_caller_withdraws_their_own_offers_at_the_card_table(door: DoorServer, browser: Any) -> None:
    """Ann, on a desktop, offers Bob a game from the form by the keyboard
    alone: the list is asked for again and shows it under "Your offers";
    SHIFT+TAB from the form's name field reaches its Withdraw, RETURN
    withdraws it, the list goes and the focus is on the list's heading.
    Then, on a phone, she offers a match to anyone by taps, finds it under
    "Your offers" and withdraws it by a tap. The store shows each offer
    withdrawn; Cy's offer to Ann, in the list above, stays open."""
    for name in ("Ann", "Bob", "Cy"):
        await door.store.accounts.create(name, hash_password(PASSWORD))
    cy = await _by_protocol(door, "Cy")  # (an offer to Ann, listed apart from her own)
    await cy.send(json.dumps({"type": "offer", "name": "Ann", "days": 1}))
    assert "Your offer is made" in (await next_message(cy, "notice"))["text"]
    await cy.close()
    made = door.store.correspondence.offers
    ann_id = (await door.store.accounts.find("Ann")).id  # type: ignore[union-attr]
    (from_cy,) = await made.received(ann_id)

    page = await table_page(browser, door, "desktop", "Ann")
    await page.fill("#password", PASSWORD)
    await page.focus("#mail")
    await page.keyboard.press("Enter")
    await page.wait_for_function(LIST_SHOWN)
    assert await page.is_hidden("#post-made-title") and await page.is_hidden("#post-made")  # (none of hers yet)
    await page.focus("#post-name")
    await page.keyboard.type("Nobody")  # (a name nobody has: refused, nothing listed)
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('The door says:')")
    assert await page.is_hidden("#post-made")
    await page.keyboard.press("Control+A")
    await page.keyboard.type("Bob")
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => !document.querySelector('#post-made').hidden")
    (to_bob,) = await made.sent(ann_id)
    listed = await _list_text(page)
    assert "Your offers You offer Bob a game: 3 days a move, runs in any order." in listed, listed
    assert "Cy offers you a game: 1 day a move, runs in any order." in listed
    assert await page.inner_text("#post-count") == "No game under way; 1 offer to you; 1 offer of yours open."
    assert await violations(page) == []
    await page.screenshot(path=str(ARTIFACTS / "desktop-correspondence-your-offers.png"), full_page=True)
    assert await page.evaluate("() => document.activeElement.id") == "post-name"  # (the form keeps the focus)
    await page.keyboard.press("Shift+Tab")
    assert await page.evaluate("() => [document.activeElement.textContent,"
                               " document.activeElement.getAttribute('aria-describedby')]") == \
        ["Withdraw", f"made-{to_bob.id}"]
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => document.querySelector('#status').textContent"
                                 " === 'You withdrew your offer to Bob.'")
    await page.wait_for_function("() => document.querySelector('#post-made').hidden")
    assert await page.is_hidden("#post-made-title")
    assert await page.evaluate("() => document.activeElement.id") == "post-title"
    assert await _offer_state(door, to_bob.id) == "withdrawn"
    assert await _offer_state(door, from_cy.id) == "open"
    assert "Cy offers you a game" in await _list_text(page)
    await page.context.close()

    page = await table_page(browser, door, "phone", "Ann")
    await page.fill("#password", PASSWORD)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    await page.tap("#post-anyone")
    await page.select_option("#post-best-of", "3")
    await page.tap("#post-send")
    await page.wait_for_function("() => !document.querySelector('#post-made').hidden")
    (to_anyone,) = await made.sent(ann_id)
    assert to_anyone.taker is None
    listed = await _list_text(page)
    assert "Your offers You offer a match (the best of 3 games) to anyone: 3 days a move, runs in any order." \
        in listed, listed
    await page.locator("#post-made").scroll_into_view_if_needed()
    await page.screenshot(path=str(ARTIFACTS / "phone-correspondence-your-offers.png"))
    assert await violations(page) == []
    assert await page.evaluate(SIZES) == {"small": [], "tiny": []}
    await page.locator("#post-made button", has_text="Withdraw").tap()
    await page.wait_for_function("() => document.querySelector('#post-made').hidden")
    assert await page.inner_text("#status") == "You withdrew your offer to anyone."
    assert await _offer_state(door, to_anyone.id) == "withdrawn"
    assert await made.sent(ann_id) == [] and await made.open_to_anyone() == []
    assert await page.inner_text("#post-count") == "No game under way; 1 offer to you."
    await page.context.close()


async def test_the_card_table_lets_the_computer_peg_a_hand(door: DoorServer, browser: Any) -> None:
    """Bob, at the card table, accepts Ann's offer and taps "Let the
    computer peg this hand" at his first discard: the table says so, the
    button goes, and when Ann plays her sitting (by the protocol) the
    computer plays Bob's four cards of that hand while he is away; Ann is
    told."""
    for name in ("Cy", "Di", "Ed"):
        await door.store.accounts.create(name, hash_password(PASSWORD))
    cy = await _by_protocol(door, "Cy")
    await cy.send(json.dumps({"type": "offer", "name": "Di", "days": 2}))
    assert "Your offer is made" in (await next_message(cy, "notice"))["text"]
    await cy.close()
    ed = await _by_protocol(door, "Ed")  # (an offer counted by hand, listed as such)
    await ed.send(json.dumps({"type": "offer", "name": "Di", "days": 2, "counting": "manual"}))
    assert "Your offer is made" in (await next_message(ed, "notice"))["text"]
    await ed.close()

    page = await table_page(browser, door, "phone", "Di")
    await page.fill("#password", PASSWORD)
    await page.tap("#mail")
    await page.wait_for_function(LIST_SHOWN)
    listed = await _list_text(page)
    assert ("Ed offers you a game: 2 days a move, runs in any order, each player counting their own hands, "
            "with muggins.") in listed and "Cy offers you a game: 2 days a move, runs in any order." in listed
    await page.locator("#post-offers li", has_text="Cy offers").locator("button", has_text="Accept").tap()
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    assert not await page.is_hidden("#peg-for-me")
    assert await violations(page) == []
    await page.tap("#peg-for-me")
    await page.wait_for_function("() => document.querySelector('#log').textContent"
                                 ".includes('You let the computer peg this hand.')")
    assert await page.is_hidden("#peg-for-me")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.tap("#hand .card:nth-child(1)")
    await page.tap("#hand .card:nth-child(2)")
    await page.tap("#lay")
    await page.wait_for_function(LIST_SHOWN)  # the game waits on Cy

    cy = await _by_protocol(door, "Cy")
    await cy.send(json.dumps({"type": "games"}))
    game = (await next_message(cy, "games"))["games"][0]
    await cy.send(json.dumps({"type": "open", "game": game["game"]}))
    told, di_cards, hand = [], set(), 1
    while True:
        message = await next_message(cy, timeout=20)
        if message["type"] == "event" and message["event"] == "deal":
            hand = message["hand_number"]
        elif message["type"] == "event" and message["event"] == "computer_pegs":
            told.append(message)
        elif message["type"] == "event" and message["event"] == "card" and hand == 1 and message["seat"] == 1:
            di_cards.add(message["card"])
        if message["type"] == "ask":
            await cy.send(json.dumps(answer(message)))
        elif message["type"] in ("waiting", "game_over"):
            break
    await cy.close()
    assert told and told[0]["seat"] == 1 and told[0]["said"] == ["Di lets the computer peg this hand."]
    assert len(di_cards) == 4 and hand == 2  # Di's four cards of the first hand, played by the computer
    await page.close()
