"""A hostile program on the game protocol: ids out of any store's range
in ``open`` and ``answer`` are an ``error`` on their field, and the
session goes on; two accounts cannot rate more games by correspondence
with each other a day than fair play allows a pair by starting them all
at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _sit_by_protocol
from tests.loopback.test_correspondence_offers import _games, _program
from tests.loopback.test_protocol import next_message
from tests.support.server import make_config, running


@pytest.mark.parametrize("message", [{"type": "open", "game": 2**63}, {"type": "open", "game": 10**30},
                                     {"type": "answer", "offer": 2**63, "accept": False},
                                     {"type": "answer", "offer": 10**30, "accept": True}])
async def test_an_id_past_the_stores_integers_is_an_error_on_its_field(tmp_path: Path,
                                                                      message: dict[str, object]) -> None:
    async with running(make_config(tmp_path / "data")) as door:
        await door.store.accounts.create("Robo", hash_password(PASSWORD))
        ws = await _program(door, "Robo")
        await ws.send(json.dumps(message))
        error = await next_message(ws, "error")
        assert error["field"] in ("game", "offer")
        assert (await _games(ws))["games"] == []  # the session goes on
        await ws.close()


async def test_a_pairs_rated_games_under_way_count_against_its_rated_matches_a_day(tmp_path: Path) -> None:
    """Fair play allows a pair two rated matches a day: Ann offers Bob a
    rated game, he takes it, twice; with both games under way (none
    finished), a third rated offer is an ``error`` on ``rated`` saying
    why, where before the pair could have twenty rated games (the cap of
    games under way) begun in one day, each allowed while none was over."""
    config = make_config(tmp_path / "data")
    config.ranked.min_games, config.ranked.min_age_days = 0, 0  # (new accounts, both on 127.0.0.1)
    config.ranked.same_network, config.ranked.pair_per_day = True, 2
    async with running(config) as door:
        for name in ("Ann", "Bob"):
            await door.store.accounts.create(name, hash_password(PASSWORD))
        for _ in range(2):  # (each on line in turn, as by correspondence)
            ann = await _program(door, "Ann")
            await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "rated": True}))
            assert "Your offer is made" in (await next_message(ann, "notice"))["text"]
            await ann.close()
            bob = await _program(door, "Bob")
            offers = (await _games(bob))["offers"]
            await bob.send(json.dumps({"type": "answer", "offer": offers[0]["offer"], "accept": True}))
            assert (await _sit_by_protocol(bob))["type"] == "waiting"
            await bob.close()
        ann = await _program(door, "Ann")
        assert len((await _games(ann))["games"]) == 2
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3, "rated": True}))
        error = await next_message(ann, "error")
        assert error["field"] == "rated" and "2 rated games by correspondence under way" in error["message"], error
        await ann.send(json.dumps({"type": "offer", "name": "Bob", "days": 3}))
        assert "Your offer is made" in (await next_message(ann, "notice"))["text"]  # (unrated: as many as the cap)
        await ann.close()
