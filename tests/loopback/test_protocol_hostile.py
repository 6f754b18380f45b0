"""A stranger on the game protocol: ids out of any store's range in
``open`` and ``answer`` are an ``error`` on their field, and the
session goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from door.records.passwords import hash_password
from tests.loopback.test_callers import PASSWORD
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
