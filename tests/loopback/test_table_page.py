"""The card table (``/table``) in a real browser, Playwright driving
Debian's chromium: a whole game against the computer by taps on a phone
(390x844, touch) and by clicks on a desktop: the discard, the play, a
manual count, the show, the result.  No text under 14 CSS pixels, no
target under 44; no card of the computer's hand in the page before it is
played or shown; screenshots at the discard, the play and the show."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
import pytest_asyncio
from axe_playwright_python.async_playwright import Axe

from door.net.api_link import ApiLink
from door.records.passwords import hash_password
from door.server import DoorServer
from tests.loopback.test_bot_pool import until_listed
from tests.loopback.test_bots import bot_in, play_on
from tests.loopback.test_callers import in_a_game
from tests.loopback.test_protocol import logged_in
from tests.loopback.test_sysop import sysop_login
from tests.support.player import Player
from tests.support.server import make_config, newcomers_rated, running, with_sysop

ARTIFACTS = Path(os.environ.get("CRIBBAGE_ARTIFACTS", "artifacts")) / "table"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CRIBBAGE_REQUIRE_BROWSER"),
    reason="no chromium here (Debian's package `chromium`; .ci/run installs it)"), pytest.mark.asyncio(loop_scope="module")]
"""(The tests and their fixtures run in the module's event loop, that of its one chromium.)"""

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 3},
}


@pytest_asyncio.fixture(loop_scope="module")
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data", game_to=61)
    async with running(config) as server:
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


async def table_page(browser: Any, door: DoorServer, kind: str, name: str) -> Any:
    """A new page at ``door``'s card table in a ``kind`` viewport, ``name`` typed."""
    context = await browser.new_context(**VIEWPORTS[kind])
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{door.web_port}/table")
    await page.fill("#name", name)
    return page


async def bot_at_menu(door: DoorServer, name: str) -> Any:
    """A bot ``name`` logged in by the protocol, once the lobby lists it
    (it reaches the menu a moment after its welcome)."""
    _, token = await door.store.bots.make(name)
    bot = await bot_in(door, name, token)
    looker = await logged_in(door, "Looker")
    await until_listed(looker, name)
    await looker.close()
    return bot


async def violations(page: Any) -> list[str]:
    """axe-core's findings on ``page`` as it stands: ``"rule: target"`` each."""
    found = (await Axe().run(page)).response["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in found]


def hidden_cards(door: DoorServer, name: str) -> set[str]:
    """The cards in the hand of ``name``'s opponent now (the test's look inside the door)."""
    for presence in door.ctx.lobby.callers():
        if isinstance(presence.terminal, ApiLink) and presence.name == name and presence.table is not None \
                and presence.table.game:
            mine = [seat.name for seat in presence.table.seats].index(name)
            return {str(c) for c in presence.table.game.hands[1 - mine]}
    return set()


async def page_cards(page: Any) -> set[str]:
    return set(await page.evaluate("() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"))


PRESS = 80
"""How long a click holds the mouse button, in milliseconds, as a person's
does (the other player's move may arrive meanwhile)."""


async def tap(page: Any, selector: str, touch: bool) -> None:
    """A tap on ``selector`` (``touch``), or a click held for ``PRESS`` ms."""
    if touch:
        await page.tap(selector)
    else:
        await page.click(selector, delay=PRESS)


@pytest.mark.parametrize("kind", ["desktop", "phone"])
async def test_a_whole_game_at_the_card_table(door: DoorServer, browser: Any, kind: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await table_page(browser, door, kind, "Tapper")
    context = page.context
    touch = kind == "phone"
    await page.click("#settings summary")
    await page.click("#account summary")
    assert await violations(page) == []  # (the first screen, its settings and account open)
    background = "() => getComputedStyle(document.body).backgroundColor"
    for theme, felt in (("dark", "rgb(11, 61, 30)"), ("light", "rgb(243, 239, 226)")):  # whatever the device says
        await page.select_option("#theme", theme)
        assert await page.evaluate(background) == felt
        assert await violations(page) == []
    await page.select_option("#theme", "auto")
    await page.select_option("#target", "61")
    await tap(page, "#start", touch)
    shots, leaks, counted = await play_through(page, door, "Tapper", kind)
    assert not await page.is_hidden("#again")
    assert re.search(r"(You win|Computer wins), \d+ to \d+\.", await page.inner_text("#prompt"))
    assert leaks == []
    assert {"discard", "play"} <= shots and shots & {"count", "show"} and counted > 0
    log = await page.inner_text("#log")
    assert "Starter:" in log and "Computer:" in log  # the spoken sentences, in the live region
    await page.screenshot(path=str(ARTIFACTS / f"{kind}-over.png"))
    await context.close()


SHOW_OR_END = "!document.querySelector('#again').hidden || !document.querySelector('#continue').hidden"


async def play_through(page: Any, door: DoorServer, name: str, kind: str) -> tuple[set[str], list[str], int]:
    """Answer every question at the table until the game's end (the
    "again" button), by taps on a phone and clicks on a desktop, checking
    sizes and that no hidden card is in the page; screenshots of each
    kind of question.  Returns the questions seen, the cards that leaked,
    and how many counts were claimed."""
    touch = kind.startswith("phone")
    shots: set[str] = set()
    leaks: list[str] = []
    counted = shows = 0
    for _ in range(400):
        await page.wait_for_function(f"() => window.cribbageTable.asked || {SHOW_OR_END}", timeout=20000)
        if not await page.is_hidden("#again"):
            break
        if not await page.is_hidden("#continue"):  # the show stays until Continue
            await tap(page, "#continue", touch)
            continue
        asked = await page.evaluate("() => window.cribbageTable.asked")
        hidden_now = hidden_cards(door, name)
        if asked["ask"] != "count":  # (in the show every hand is face up)
            leaks += sorted((await page_cards(page)) & hidden_now)
        else:  # the cards to count are in view, and the hands shown before are drawn, with their breakdowns
            in_hand = await page.evaluate("() => [...document.querySelectorAll('#hand .card')].map(e => e.dataset.card)")
            assert in_hand == asked["cards"]
            shows = await page.evaluate("() => document.querySelectorAll('#shows .shown').length")
            if asked["what"] == "crib":  # (the pone's hand and the dealer's are shown before the crib)
                assert shows >= 2, shows
                assert await page.locator("#shows .shown li").count() > 0 or "0 points" in \
                    await page.inner_text("#shows")
        sizes = await page.evaluate(SIZES)
        assert sizes == {"small": [], "tiny": []}, sizes
        moment = "show" if asked["ask"] == "count" and shows else asked["ask"]
        if moment not in shots:  # (the show: a count asked with a hand already shown)
            shots.add(moment)
            await page.screenshot(path=str(ARTIFACTS / f"{kind}-{moment}.png"))
        if asked["ask"] == "discard":
            await tap(page, "#hand .card:nth-child(1)", touch)
            await tap(page, "#hand .card:nth-child(2)", touch)
            assert await page.get_attribute("#hand .card:nth-child(1)", "aria-pressed") == "true"
            await tap(page, "#lay", touch)
        elif asked["ask"] == "play":
            await tap(page, "#hand .card:not([disabled])", touch)
            await tap(page, "#play-go", touch)  # (confirmed)
        else:
            await page.fill("#claim", "0")
            await tap(page, "#claim-go", touch)
            counted += 1
        await page.wait_for_function(  # (answered: the next question, the show, or the game's end)
            f"() => window.cribbageTable.asked !== null || {SHOW_OR_END}", timeout=20000)
    return shots, leaks, counted


@pytest.mark.parametrize("kind", ["desktop", "phone"])
async def test_the_card_table_challenges_a_bot_and_they_talk_and_play(door: DoorServer, browser: Any,
                                                                       kind: str) -> None:
    """Against someone: the table lists who is at the door's menu, a tap
    challenges a bot (which accepts by itself), they chat, and the game is
    played to the end with the bot's cards hidden until the show."""
    robo = await bot_at_menu(door, "Robo")
    bot_game = asyncio.create_task(play_on(robo))
    page = await table_page(browser, door, kind, "Tapper")
    context = page.context
    touch = kind == "phone"
    await page.select_option("#target", "61")
    await tap(page, "#people", touch)
    await page.wait_for_selector("#players button")
    assert await page.inner_text("#players") == "Challenge Robo (a bot)"
    assert await violations(page) == []  # (the list of players: nothing for axe-core to fault)
    await tap(page, "#ratings", touch)  # (both pools, people's and the bots')
    await page.wait_for_selector("#reviewed:not([hidden])")
    assert await page.inner_text("#review-title") == "Ratings"
    rated = await page.inner_text("#review-body")
    assert "People: Nobody is rated yet." in rated and "Bots, rated among themselves: No bot is rated yet." in rated
    sizes = await page.evaluate(SIZES)
    assert sizes == {"small": [], "tiny": []}, sizes
    await tap(page, "#players button", touch)
    await page.wait_for_function("() => document.querySelector('#them-name').textContent === 'Robo'")
    await page.fill("#chat", "good luck")
    await tap(page, "#say", touch)
    _, leaks, _ = await play_through(page, door, "Tapper", f"{kind}-someone")
    assert leaks == []
    assert re.search(r"(You win|Robo wins), \d+ to \d+\.", await page.inner_text("#prompt"))
    assert await page.inner_text("#again") == "Play someone again"
    seen = await bot_game
    assert {"type": "chat", "name": "Tapper", "text": "good luck"} in seen
    games = await door.store.games.recent()
    assert len(games) == 1 and set(games[0].players) == {"Tapper", "Robo"}
    await robo.close()
    await context.close()


async def test_a_registered_caller_drops_at_the_card_table_and_the_game_goes_on(door: DoorServer,
                                                                                browser: Any) -> None:
    """Logged in with a password (a wrong one first: the door says so),
    the game against the computer is kept move by move; the page closed
    mid-hand, a new page logs in and finds the game where it stood, and
    plays it out."""
    await door.store.accounts.create("Ann", hash_password("ann-secret"))
    page = await table_page(browser, door, "phone", "Ann")
    context = page.context
    await page.fill("#password", "wrong")
    await page.select_option("#target", "61")
    await page.tap("#start")
    await page.wait_for_function("() => document.querySelector('#status').textContent.includes('no caller by that name has that password')")
    await page.fill("#password", "ann-secret")
    await page.tap("#start")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await page.tap("#hand .card:nth-child(1)")
    await page.tap("#hand .card:nth-child(2)")
    await page.tap("#lay")
    await page.wait_for_function("() => window.cribbageTable.hand.length === 4")
    await page.close()  # the line drops with two cards laid away
    account = await door.store.accounts.find("Ann")
    assert account is not None and await door.store.saved.load(account.id) is not None
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{door.web_port}/table")
    await page.fill("#name", "Ann")
    await page.fill("#password", "ann-secret")
    await page.tap("#start")
    await page.wait_for_function("() => document.querySelector('#log').textContent.includes('goes on')")
    await page.wait_for_function("() => window.cribbageTable.hand.length === 4")  # where it stood: four cards
    _, leaks, _ = await play_through(page, door, "Ann", "phone-resumed")
    assert leaks == []
    assert re.search(r"(You win|Computer wins), \d+ to \d+\.", await page.inner_text("#prompt"))
    assert await door.store.saved.load(account.id) is None
    games = await door.store.games.recent("Ann")
    assert len(games) == 1
    await page.tap("#review")  # the door's review of the game just played
    await page.wait_for_selector("#reviewed:not([hidden])")
    assert await page.inner_text("#review-title") == f"Review of game #{games[0].number}"
    shown = sorted([int(await page.inner_text("#me-score")), int(await page.inner_text("#them-score"))])
    assert shown == sorted([games[0].scores[0], games[0].scores[1]])  # (the winner's peg stops at the target)
    assert "Your discards cost " in await page.inner_text("#review-body")  # the review as a table, with headings
    assert await page.locator("#review-body th[scope=col]").all_inner_texts() == \
        ["Hand", "Decision", "Your choice", "Best", "Points lost"]
    discards = page.locator("#review-body tbody tr", has_text="Discard")
    assert await discards.count() >= 1
    for row in await discards.all():  # the two thrown, named as thrown (faces for the eye, names for the ear)
        choice = await row.locator("td").nth(1).inner_text()
        assert choice.startswith("threw ") and len(re.findall(r" of (clubs|diamonds|hearts|spades)", choice)) == 2
    assert await page.inner_text("#status") == ""  # (no "Reviewing..." left behind)
    assert await violations(page) == []
    await page.tap("#stats")  # the statistics and the recent games, as tables
    await page.wait_for_function("() => document.querySelector('#review-title').textContent === 'Statistics of Ann'")
    figures = await page.locator("#review-body table").first.locator("tbody tr").first.locator("th, td").all_inner_texts()
    assert figures == ["Games played", "1"]
    recent = await page.locator("#review-body table").nth(1).locator("tbody tr").first.locator("th, td").all_inner_texts()
    assert recent[0] == f"#{games[0].number}" and recent[2] == "Computer", recent
    assert await violations(page) == []
    assert await page.evaluate("() => document.activeElement.id") == "review-title"
    sizes = await page.evaluate(SIZES)
    assert sizes == {"small": [], "tiny": []}, sizes
    await page.screenshot(path=str(ARTIFACTS / "phone-review.png"))
    await context.close()


async def test_todays_deal_at_the_card_table(door: DoorServer, browser: Any) -> None:
    """A registered caller plays today's deal at the card table (the day's
    cards), then reads the day's ranking with their result in it."""
    newcomers_rated(door.config)  # (Ann's account is new)
    await door.store.accounts.create("Ann", hash_password("ann-secret"))
    day = door.store.daily.today()
    deal = await door.store.daily.deal(day)
    page = await table_page(browser, door, "desktop", "Ann")
    context = page.context
    await page.fill("#password", "ann-secret")
    await page.click("#daily")
    await page.wait_for_function(f"() => document.querySelector('#status').textContent.includes('#{deal.game}')")
    _, leaks, _ = await play_through(page, door, "Ann", "desktop-daily")
    assert leaks == []
    await page.wait_for_selector("#reviewed:not([hidden])", timeout=60000)  # (the par is worked out first)
    assert await page.inner_text("#review-title") == f"Today's deal, {day}"
    ranking = await page.inner_text("#review-body")
    assert f"Game #{deal.game}" in ranking, ranking
    assert await page.locator("#review-body th[scope=col]").all_inner_texts() == \
        ["Place", "Player", "Score", "Computer", "Margin", "Against the par", "Game"]
    cells = await page.locator("#review-body tbody tr").first.locator("th, td").all_inner_texts()
    assert cells[:2] == ["1", "Ann"] and cells[-1] == "finished", cells
    assert await violations(page) == []
    assert await page.inner_text("#again") == "Play the computer"
    await page.screenshot(path=str(ARTIFACTS / "desktop-daily.png"))
    await context.close()


async def two_tables(browser: Any, door: DoorServer) -> tuple[Any, Any]:
    """Pat at a phone's card table and Dee at a desktop's, both at the list
    of players: Pat waits, Dee challenges Pat, Pat accepts the offer shown.
    Returns their pages, the game begun."""
    pages = []
    for kind, name in (("phone", "Pat"), ("desktop", "Dee")):
        page = await table_page(browser, door, kind, name)
        await page.select_option("#target", "61")
        await page.click("#people")
        await page.wait_for_selector("#lobby:not([hidden])")
        pages.append(page)
    pat, dee = pages
    await pat.click("#wait")
    await pat.wait_for_function("() => document.querySelector('#status').textContent.includes('may challenge you')")
    for _ in range(50):  # (Dee looks until Pat is listed)
        await dee.click("#refresh")
        await asyncio.sleep(0.1)
        if "Challenge Pat (a guest)" in await dee.inner_text("#players"):
            break
    await dee.click("#players button")
    await pat.wait_for_selector("#offer:not([hidden])")
    assert re.match(r"Dee challenges you to a 61-point game, runs in any order\. You have \d+ seconds to answer\.",
                    await pat.inner_text("#offer-text"))
    assert await pat.evaluate("() => document.activeElement.id") == "accept"
    await pat.click("#accept")
    return pat, dee


async def test_two_card_tables_play_each_other(door: DoorServer, browser: Any) -> None:
    """Two people at card tables, a phone and a desktop: one waits to be
    challenged, the other sees them at the menu and challenges them, the
    first accepts the offer it is shown, and both play the game out, each
    seeing only their own cards before the show."""
    pat, dee = pages = await two_tables(browser, door)
    results = await asyncio.gather(play_through(pat, door, "Pat", "phone-pat"),
                                   play_through(dee, door, "Dee", "desktop-dee"))
    assert all(leaks == [] for _, leaks, _ in results)
    ends = [await p.inner_text("#prompt") for p in pages]
    assert re.search(r"(You win|Dee wins), \d+ to \d+\.", ends[0]) and re.search(r"(You win|Pat wins)", ends[1])
    assert ("You win" in ends[0]) != ("You win" in ends[1])
    games = await door.store.games.recent()
    assert games == []  # (two guests: nothing is kept)
    for page in pages:
        await page.context.close()


async def test_a_card_pressed_while_the_other_player_discards_is_chosen(door: DoorServer, browser: Any) -> None:
    """Both players discard at once: the other's discard arrives while this
    player's mouse button is down on a card, and the click still chooses
    that card (the hand is not drawn anew under the pointer, which lost the
    click: the browser sends it to the hand's box, no card)."""
    pat, dee = await two_tables(browser, door)
    for page in (pat, dee):
        await page.wait_for_function("() => (window.cribbageTable.asked || {}).ask === 'discard'")
    first = dee.locator("#hand .card:nth-child(1)")
    box = await first.bounding_box()
    await dee.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await dee.mouse.down()
    for n in (1, 2):
        await pat.tap(f"#hand .card:nth-child({n})")
    await pat.tap("#lay")
    await dee.wait_for_function("() => document.querySelector('#theirs-text').textContent.includes('holds 4 cards')")
    await dee.mouse.up()
    assert await first.get_attribute("aria-pressed") == "true", await dee.inner_text("#status")
    assert await dee.inner_text("#status") == f"Chosen: {await first.get_attribute('aria-label')}."
    for page in (pat, dee):
        await page.context.close()


async def test_the_card_table_pages_the_sysop(tmp_path: Path, browser: Any, sysop_key: asyncssh.SSHKey) -> None:
    """From the card table's list of players, a tap pages the sysop; the
    sysop accepts at the console, and they play the game out."""
    config = with_sysop(make_config(tmp_path / "data", game_to=61), "Sysop", "sysop-secret", sysop_key)
    async with running(config) as door:
        sysop = await sysop_login(door, sysop_key)
        page = await table_page(browser, door, "phone", "Tapper")
        context = page.context
        await page.tap("#people")
        await page.wait_for_selector("#lobby:not([hidden])")
        await page.tap("#page")
        await page.wait_for_function("() => document.querySelector('#status').textContent.includes('Paging')")
        await sysop.screen.wait_for(lambda: "PAGE from Tapper" in sysop.screen.text())
        await sysop.send(b"y")
        playing = asyncio.create_task(Player(sysop.screen, sysop.send, name="Sysop").play(timeout=200))
        _, leaks, _ = await play_through(page, door, "Tapper", "phone-sysop")
        end = await playing
        assert leaks == [] and re.search(r"(You win|Tapper wins) \d+ to \d+!", end), end
        assert re.search(r"(You win|Sysop wins), \d+ to \d+\.", await page.inner_text("#prompt"))
        await context.close()
        sysop.conn.close()


async def test_the_card_table_goes_back_when_the_other_player_leaves(door: DoorServer, browser: Any) -> None:
    """A game against a bot that leaves half way ends with no result: the
    table says so and offers the next game (the door's menu message),
    rather than waiting for a question that will never come."""
    robo = await bot_at_menu(door, "Robo")
    page = await table_page(browser, door, "desktop", "Tapper")
    context = page.context
    await page.click("#people")
    await page.wait_for_selector("#players button")
    await page.click("#players button")
    await page.wait_for_function("() => window.cribbageTable.asked && window.cribbageTable.asked.ask === 'discard'")
    await robo.send(json.dumps({"type": "leave"}))
    await page.wait_for_selector("#again:not([hidden])")
    assert await page.inner_text("#prompt") == "The game is over: the other player left."
    assert await page.inner_text("#again") == "Play someone again"
    assert "Robo" in await page.inner_text("#log")  # (the door's notice of why)
    await robo.close()
    await context.close()


async def test_the_card_table_watches_a_game_between_callers(door: DoorServer, browser: Any) -> None:
    """The card table's list of players also lists the games it may
    watch; a tap watches one: both hands stay out of the page until the
    show, the moves are said in the live region, and when the game ends
    the table goes back to the list."""
    ann, bob = await in_a_game(door)
    page = await table_page(browser, door, "phone", "Wes")
    context = page.context
    await page.tap("#people")
    await page.wait_for_selector("#games button")
    assert await page.inner_text("#games") == "Watch Ann against Bob"
    await page.tap("#games button")
    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Watching Ann')")
    assert await page.evaluate("() => document.activeElement.id") == "stop"
    await ann.screen.wait_for(lambda: "Wes is watching." in re.sub(r"\s+", " ", ann.screen.text()))
    await page.evaluate("""() => { window.handMost = 0; new MutationObserver(() => {
        window.handMost = Math.max(window.handMost, document.querySelectorAll('#hand .card').length);
    }).observe(document.querySelector('#hand'), {childList: true}); }""")
    dealer = ann if "blank line deals" in ann.screen.prompt() else bob
    await dealer.send(b"\r")
    players = (Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob"))
    playing = asyncio.gather(*(p.play(timeout=200) for p in players))
    await page.wait_for_function("() => document.querySelectorAll('#played .card').length > 0")
    await playing
    # no hand was ever drawn as the watcher's (cards come into the page only as played, or in the show)
    assert await page.evaluate("() => window.handMost") == 0
    log = await page.inner_text("#log")
    assert "Ann:" in log or "Bob:" in log  # the moves said, in the live region
    await page.wait_for_selector("#lobby:not([hidden])", timeout=30000)  # (the game over: back to the list)
    await context.close()
    for c in (ann, bob):
        c.close()
