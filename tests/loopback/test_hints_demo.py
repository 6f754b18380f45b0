"""Hints on '?', the discard analysis after each hand, and demonstration
mode, as a caller sees them (pyte)."""

from __future__ import annotations

import re

from door.server import DoorServer
from tests.support.player import RIGHT, log_in_as_guest, telnet_caller


async def to_the_discard(door: DoorServer):
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, "Hinty")
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "blank line deals" in s.text())
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    return caller


async def test_hint_marks_the_discard_and_the_card_and_the_analysis_follows(door: DoorServer) -> None:
    caller = await to_the_discard(door)
    s = caller.screen
    row = s.row_of("Your cards") + 2
    await caller.send(b"?")
    hint_line = re.compile(r"Hint: lay away (\S+) (\S+): (-?\d+\.\d) expected points \(hand (\d+\.\d), "
                           r"(your|their) crib ([+-]\d+\.\d), play ([+-]\d+\.\d)\)")
    # the whole sentence and both marks, not the first bytes of them
    await s.wait_for(lambda: hint_line.search(" ".join(s.text().split())) is not None
                     and s.lines()[row - 1].count("\u25bc") == 2)
    marks = s.lines()[row - 1]
    assert marks.count("\u25bc") == 2  # two marks over the recommended cards
    hinted = [card for col, card in s.cards_in_row(row) if marks[col:col + 4].strip() == "\u25bc"]
    m = hint_line.search(" ".join(s.text().split()))
    assert m and len(hinted) == 2
    # the whole is its parts (the kept hand's mean show is never below zero; a pone's net may be)
    parts = float(m.group(4)) + float(m.group(6)) + float(m.group(7))
    assert float(m.group(4)) >= 0 and abs(float(m.group(3)) - parts) <= 0.15
    # take the hint: move the bar to each marked card and select it
    cols = [col for col, _ in s.cards_in_row(row)]
    for col, _card in [(c, k) for c, k in s.cards_in_row(row) if marks[c:c + 4].strip() == "\u25bc"]:
        bar = s.bar_column(row)
        here = min(range(len(cols)), key=lambda i: abs(cols[i] - bar))
        steps = (cols.index(col) - here) % len(cols)
        await caller.send(RIGHT * steps + b"\r")
        await s.wait_for(lambda col=col: s.screen.buffer[row][col].bg in ("cyan", "brown"))
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Your turn") or "turn..." in s.prompt(), timeout=10)
    await s.wait_for(lambda: s.prompt().startswith("Your turn"), timeout=10)
    await caller.send(b"?")
    await s.wait_for(lambda: "after the reply" in " ".join(s.text().split())
                     and s.lines()[row - 1].count("\u25bc") >= 1)
    assert re.search(r"Hint: play \S+ \(worth [+-]\d+\.\d points", " ".join(s.text().split()))
    assert s.lines()[row - 1].count("\u25bc") == 1
    caller.close()


async def test_discard_analysis_after_the_hand(door: DoorServer) -> None:
    from tests.support.player import Player

    caller = await telnet_caller(door.telnet_port)
    notes: list[str] = []

    class Noting(Player):
        async def act(self, prompt: str, screen: str):  # type: ignore[no-untyped-def]
            if prompt.startswith("Chat") and "The show" in screen:
                notes.append(" ".join(screen.split()))
            return await super().act(prompt, screen)

    player = Noting(caller.screen, caller.send, name="Ana")
    await player.play(timeout=150)
    assert notes and re.search(r"You kept .+: -?\d+\.\d expected( net of their crib)?"
                               r"(; best was .+: -?\d+\.\d(, a near-tie)?\.|, the best discard\.)", notes[0])
    caller.close()


async def test_demonstration_shows_both_hands_and_stops_on_a_key(door: DoorServer) -> None:
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, "Demi")
    await caller.send(b"7")
    await s.wait_for(lambda: "Demonstration, North against South" in s.text())
    await s.wait_for(lambda: len(s.cards_in_row(s.row_of("North's cards") + 2)) >= 4
                     and len(s.cards_in_row(s.row_of("South's cards") + 2)) >= 4)
    await caller.send(b"+")
    await s.wait_for(lambda: "One move every" in s.text())
    await caller.send(b"x")
    await s.wait_for(lambda: "Main menu" in s.text())
    caller.close()


async def test_a_demonstration_cannot_go_faster_than_its_floor(door: DoorServer) -> None:
    """At 0.05 s a move, demonstrations over one connection
    took the door's core; + now stops at the floor."""
    from door.caller.demonstration import DEMO_FLOOR

    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await log_in_as_guest(caller, "Demi")
    await caller.send(b"7")
    await s.wait_for(lambda: "Demonstration, North against South" in s.text())
    for _ in range(40):
        await caller.send(b"+")
    await s.wait_for(lambda: f"One move every {DEMO_FLOOR:.2f} s." in s.text())
    await caller.send(b"x")
    await s.wait_for(lambda: "Main menu" in s.text())
    caller.close()
