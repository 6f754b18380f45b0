"""The card table (``/table``) by keyboard alone on a phone's viewport, as
a screen reader's user plays it: the focus is on the next thing to do
after every action (no clicks, no focusing by the test), the arrows move
between the cards, a slip is undone before it is confirmed, an empty
claim is refused, the show stays until Continue, the pegboard's front
pegs stand at the scores, and axe-core finds nothing at the discard, the
play, the show and the game's end.  The keys are counted: at most three a
decision on average."""

from __future__ import annotations

import re
from typing import Any

import pytest

from door.server import DoorServer
from tests.loopback.test_table_page import ARTIFACTS, SHOW_OR_END, browser, chromium, door, table_page, violations

__all__ = ["browser", "chromium", "door"]  # (the fixtures, shared with the card table's other tests)

pytestmark = pytest.mark.asyncio(loop_scope="module")
"""(The tests and their fixtures run in the module's event loop, that of its one chromium.)"""

FOCUS = "() => document.activeElement.id || document.activeElement.dataset.card || document.activeElement.tagName"

PEGS = """() => {
    const out = [];
    for (const tag of ["me", "them"]) {
        const front = document.getElementById(`peg-${tag}-front`);
        out.push({hole: Number(front.dataset.hole), score: Number(document.getElementById(`${tag}-score`).textContent),
                  moved: front.style.transform});
    }
    return out;
}"""


WATCH_PEGS = """() => {   // after every change of a score shown: the front peg's hole is that score
    window.pegChanges = 0; window.pegWrong = [];
    new MutationObserver(() => {
        for (const tag of ["me", "them"]) {
            const peg = document.getElementById(`peg-${tag}-front`);
            if (!peg) continue;
            const score = document.getElementById(`${tag}-score`).textContent;
            window.pegChanges++;
            if (peg.dataset.hole !== score) window.pegWrong.push(`${tag}: peg ${peg.dataset.hole}, score ${score}`);
        }
    }).observe(document.getElementById("scores"), {subtree: true, childList: true, characterData: true});
}"""


class Keys:
    """Presses keys on ``page`` and counts them."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.page.keyboard.press(key)
            self.count += 1


async def pegs_at_scores(page: Any) -> None:
    """The front pegs' holes are the scores shown, and each peg was moved there."""
    for peg in await page.evaluate(PEGS):
        assert peg["hole"] == peg["score"] and peg["moved"].startswith("translate("), peg


async def test_a_whole_game_by_keyboard_alone(door: DoorServer, browser: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await table_page(browser, door, "phone", "Keys")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    keys = Keys(page)
    await page.evaluate(WATCH_PEGS)
    await page.focus("#name")  # (where a keyboard's user starts: the page's first field)
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await page.keyboard.press("ArrowDown")  # 121 -> 61
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")  # Play the computer
    decisions, seen, slipped, refused, plays_by_arrow, advised = 0, set(), False, False, False, False
    for _ in range(400):
        await page.wait_for_function(f"() => window.cribbageTable.asked || {SHOW_OR_END}", timeout=20000)
        if not await page.is_hidden("#again"):
            break
        await pegs_at_scores(page)
        if not await page.is_hidden("#continue"):  # the show stays (the next hand waits) until Continue
            assert await page.evaluate(FOCUS) == "continue"
            if "show" not in seen:
                seen.add("show")
                hand_then = await page.evaluate("() => window.cribbageTable.hand")
                await page.wait_for_timeout(1500)  # (the next deal came long ago: it waits)
                assert await page.evaluate("() => window.cribbageTable.held")
                assert await page.evaluate("() => window.cribbageTable.hand") == hand_then
                assert await page.locator("#shows .shown").count() >= 1
                assert await violations(page) == []
                await page.screenshot(path=str(ARTIFACTS / "keys-show.png"))
                await page.emulate_media(color_scheme="dark", reduced_motion="reduce")  # the other theme, no motion
                assert await violations(page) == []
                assert await page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(11, 61, 30)"
                assert await page.evaluate(
                    "() => getComputedStyle(document.querySelector('#peg-me-front')).transitionDuration") == "0s"
                await page.screenshot(path=str(ARTIFACTS / "keys-show-dark.png"))
                await page.emulate_media(color_scheme="light", reduced_motion="no-preference")
                assert await page.evaluate("() => getComputedStyle(document.body).backgroundColor") != "rgb(11, 61, 30)"
            await keys.press("Enter")
            await page.wait_for_function("() => !window.cribbageTable.held")
            continue
        asked = await page.evaluate("() => window.cribbageTable.asked")
        if asked["ask"] not in seen:
            seen.add(asked["ask"])
            assert await violations(page) == [], asked["ask"]
            await page.screenshot(path=str(ARTIFACTS / f"keys-{asked['ask']}.png"))
        decisions += 1
        focus = await page.evaluate(FOCUS)
        if asked["ask"] == "discard":
            hand = asked["hand"]
            assert focus in hand  # (on a card)
            if not slipped:  # a slip: 1, 2, then 3 is refused; 1 again puts it back, and 3 is taken
                slipped = True
                await keys.press("?")  # the hint first, as the screens' ?: its cards named, the focus on one
                await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Hint')")
                said = await page.inner_text("#status")
                assert re.match(r"Hint: lay away \w+ of \w+ and \w+ of \w+: ", said), said
                assert await page.evaluate("() => document.activeElement.classList.contains('hinted')")
                await keys.press("1", "2", "3")
                assert "Two cards are chosen" in await page.inner_text("#status")
                await keys.press("1", "3")
                assert await page.evaluate(FOCUS) == "lay"
                chosen = [hand[1], hand[2]]
            else:
                if not advised:  # the second hand: advice on the first, as screen-reader mode's A
                    advised = True
                    await keys.press("a")
                    await page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('You')")
                    said = await page.inner_text("#status")
                    assert said.startswith("You kept ") and "Pegging, hand 1" in said and " of " in said, said
                await keys.press("1", "2")
                chosen = [hand[0], hand[1]]
            await keys.press("Enter")  # Lay away
            await page.wait_for_function(f"() => !{chosen!r}.some(c => window.cribbageTable.hand.includes(c))")
            assert not set(chosen) & set(await page.evaluate("() => window.cribbageTable.hand"))
        elif asked["ask"] == "play":
            playable = [c for c in await page.evaluate("() => window.cribbageTable.hand") if c in asked["playable"]]
            assert focus == playable[0], (focus, playable)
            if len(playable) > 1 and not plays_by_arrow:  # the arrows move between the cards
                plays_by_arrow = True
                await keys.press("ArrowRight")
                assert await page.evaluate(FOCUS) == playable[1]
                await keys.press("Enter")  # chosen: the focus goes to Play
                assert await page.evaluate(FOCUS) == "play-go"
                await keys.press("Shift+Tab", "ArrowLeft", "Enter")  # a slip: back, the first card instead
                card = playable[0]
            else:
                await keys.press("Enter")
                card = playable[0]
            assert await page.evaluate(FOCUS) == "play-go"
            await keys.press("Enter")  # Play
            await page.wait_for_function(f"() => !window.cribbageTable.hand.includes({card!r})")
        else:
            assert focus == "claim"
            prompt = await page.inner_text("#prompt")
            assert f"Count your {asked['what']}" in prompt and "of" in prompt  # (the cards named)
            if not refused:  # an empty claim is refused, and nothing is claimed
                refused = True
                await keys.press("Enter")
                assert "nothing is claimed" in await page.inner_text("#status")
                assert await page.evaluate("() => window.cribbageTable.asked") is not None
                assert await page.evaluate(FOCUS) == "claim"
            await keys.press("0", "Enter")
        await page.wait_for_function(f"() => window.cribbageTable.asked !== null || {SHOW_OR_END}", timeout=20000)
    assert {"discard", "play", "count", "show"} <= seen and slipped and refused and plays_by_arrow and advised
    await pegs_at_scores(page)
    assert await page.evaluate(FOCUS) == "prompt"  # the result, not Play again
    assert await violations(page) == []
    await page.screenshot(path=str(ARTIFACTS / "keys-over.png"))
    await page.keyboard.press("Enter")  # a stray RETURN starts nothing
    await page.wait_for_timeout(300)
    assert not await page.is_hidden("#again")
    assert keys.count / decisions <= 3, (keys.count, decisions)
    assert await page.evaluate("() => window.pegChanges") > 10 and await page.evaluate("() => window.pegWrong") == []
    # no seed is read unless asked: the live region says none, Verify shows them in groups of four
    assert not re.search(r"[0-9a-f]{64}", await page.inner_text("#log"))
    assert await page.is_hidden("#verify-lines")
    await page.click("#verify summary")
    assert re.search(r"([0-9a-f]{4} ){15}[0-9a-f]{4}", await page.inner_text("#verify-lines"))
    print(f"{keys.count} keys for {decisions} decisions: {keys.count / decisions:.2f} a decision")
    assert errors == []
    await page.context.close()
