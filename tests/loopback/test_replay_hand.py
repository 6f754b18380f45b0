"""The end-of-hand review: the hand recap, and replaying the hand
(Cribbage Partner) with the scores reset and the replay kept out of the
statistics."""

from __future__ import annotations

import asyncio
import re

from door.server import DoorServer
from tests.support.player import Player, telnet_caller


class ReplayingPlayer(Player):
    """Replays the first hand once, noting what the screens showed."""

    replayed = False
    review_screen = ""
    after_replay = ""

    async def act(self, prompt: str, screen: str):  # type: ignore[no-untyped-def]
        if prompt.startswith("Chat") and "The show" in screen and not self.replayed:
            assert "Ctrl-R replays the hand" in prompt
            self.review_screen = screen
            self.replayed = True
            await self.send(b"\x12")  # Ctrl-R
            await self.term.wait_for(lambda: "(replay)" in self.term.text())
            self.after_replay = self.term.text()
            return True
        return await super().act(prompt, screen)


async def test_recap_and_replay_of_a_hand(door: DoorServer, clipped: list[str]) -> None:
    caller = await telnet_caller(door.telnet_port)
    term, task, writer = caller.screen, caller.done, caller
    player = ReplayingPlayer(term, caller.send, name="Redo", password="redo-pass")
    await player.play(timeout=150)
    # the review: each count, then the recap by category for both players
    review = player.review_screen
    assert "The show" in review and "Hand recap" in review
    recap = re.search(r"^ You\s+(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)", review, re.M)
    assert recap, review
    pegging, hand, crib, heels, muggins, total = recap.groups()
    assert int(total) == int(pegging) + int(hand) + (0 if crib == "-" else int(crib)) + int(heels) + int(muggins)
    # the replay: hand 1 again, both scores back to 0
    after = player.after_replay
    assert "Hand 1 next (replay)" in after and "Before hand 1" in after
    assert len(re.findall(r"^\s+0\s+\u00b7", after, re.M)) == 2  # both scores back to 0
    assert not clipped, clipped  # "Hand 1 next (replay)" was cut at the right edge
    await player.leave()
    await asyncio.wait_for(task, 10)
    writer.close()
    # the hand played over is marked and does not count: the first attempt does,
    # so replaying cannot polish the statistics
    marks = await door.store.database.query(lambda db: db.execute(
        "SELECT number, replayed FROM hands WHERE seat = 0 ORDER BY rowid").fetchall())
    assert marks[:2] == [(1, 0), (1, 1)] and all(r == 0 for _, r in marks[2:])
    stats = await door.store.statistics.player("Redo")
    complete = await door.store.database.query(lambda db: db.execute(
        "SELECT COUNT(*) FROM hands WHERE seat = 0 AND replayed = 0 AND complete = 1").fetchone()[0])
    assert stats.hands == complete
