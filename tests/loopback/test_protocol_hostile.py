"""A hostile program on the game protocol: ids out of any store's range
in ``open`` and ``answer`` are an ``error`` on their field, and the
session goes on; two accounts cannot rate more games by correspondence
with each other a day than fair play allows a pair by starting them all
at once; on the cribbage hub, offers to made-up callers of a member
board (``alias@BOARD``) make no account once the address has made its
hour's offers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from tests.loopback.test_callers import PASSWORD
from tests.loopback.test_correspondence import _sit_by_protocol
from tests.loopback.test_correspondence_offers import _games, _program
from tests.loopback.test_hub import hub_config
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


async def test_offers_to_made_up_callers_on_the_hub_make_no_accounts_past_the_hours_limit(tmp_path: Path) -> None:
    """On the hub an offer to ``alias@BOARD`` makes the account of a
    member board's caller who never called.  A program offering games to
    fifty made-up aliases is refused from the hour's limit of offers on,
    and no account is made for a refused one: before, every offer made
    its account, refused or not (a table of accounts without end)."""
    config = hub_config(tmp_path / "data")
    config.correspondence.offers_per_hour = 3
    async with running(config) as door:
        await door.store.accounts.create("Ann", hash_password(PASSWORD))
        ann = await _program(door, "Ann")
        for i in range(50):
            await ann.send(json.dumps({"type": "offer", "name": f"nobody{i}@SYNC", "days": 3}))
            said = await next_message(ann, "notice" if i < 3 else "error")
            assert i < 3 or "offers were made from your address in the last hour" in said["message"], said
        await ann.send(json.dumps({"type": "offer", "name": "nobody50@SYNC", "days": 4}))
        assert (await next_message(ann, "error"))["field"] == "days"  # (not one of the board's days)
        await door.store.database.tx(lambda db: db.execute("DELETE FROM correspondence_offers"))  # (a new hour)
        for i in range(51, 61):  # rated: refused (a caller who never called has no games), no offer counted
            await ann.send(json.dumps({"type": "offer", "name": f"nobody{i}@SYNC", "days": 3, "rated": True}))
            assert (await next_message(ann, "error"))["field"] == "rated"
        made = [i for i in range(61) if await door.store.accounts.find(f"nobody{i}@SYNC") is not None]
        assert made == [0, 1, 2]
        await ann.close()
