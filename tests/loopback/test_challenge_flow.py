"""Challenges answered and made by one flow for the screens and the game
protocol (:func:`door.caller.challenges.answer`,
:func:`door.caller.challenges.challenge`): what one way in does, the
other does too."""

from __future__ import annotations

import json
from pathlib import Path

from tests.loopback.test_bot_pool import until_listed
from tests.loopback.test_protocol import logged_in, next_message
from tests.support.server import make_config, running


async def test_a_program_answering_a_challenge_is_shown_answering_it(tmp_path: Path) -> None:
    """The sysop's view of who is on line says a program is answering a
    challenge while it is asked, as it says of a caller at the Y/N page
    (it said the program was at the main menu), and a decline is told."""
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        gus, ida = await logged_in(door, "Gus"), await logged_in(door, "Ida")
        await gus.send(json.dumps({"type": "available", "on": True}))
        await next_message(gus, "notice")
        await until_listed(ida, "Gus")
        await ida.send(json.dumps({"type": "challenge", "name": "Gus"}))
        offer = await next_message(gus, "challenged")
        assert offer["name"] == "Ida" and offer["offer"] == "a 61-point game, runs in any order"
        doing = {p.name: p.activity() for p in door.ctx.lobby.callers()}
        assert doing["Gus"] == "answering a challenge", doing
        await gus.send(json.dumps({"type": "decline"}))
        assert (await next_message(ida, "notice"))["text"].startswith("You challenged Gus")
        assert (await next_message(ida, "notice"))["text"] == "Gus declined."
        await gus.close()
        await ida.close()


async def test_a_program_challenging_nobody_at_the_menu_or_unrated_terms_is_told_on_the_field(tmp_path: Path) -> None:
    """A challenge's terms are checked where they enter, one check for
    both ways in: nobody of that name at the menu (the sentence the
    screens show), a rated match other than a best of three, a rated match
    with a guest."""
    async with running(make_config(tmp_path / "data", game_to=61)) as door:
        gus, ida = await logged_in(door, "Gus"), await logged_in(door, "Ida")
        await ida.send(json.dumps({"type": "challenge", "name": "Nobody"}))
        error = await next_message(ida, "error")
        assert error["field"] == "name"
        assert error["message"] == "Nobody is not at the main menu any more. Try again in a moment."
        await gus.send(json.dumps({"type": "available", "on": True}))
        await next_message(gus, "notice")
        await until_listed(ida, "Gus")
        await ida.send(json.dumps({"type": "challenge", "name": "Gus", "rated": True, "best_of": 5}))
        assert (await next_message(ida, "error")) == {"type": "error", "field": "best_of",
                                                      "message": "A rated match is a best of three."}
        await ida.send(json.dumps({"type": "challenge", "name": "Gus", "rated": True}))
        error = await next_message(ida, "error")
        assert error["field"] == "rated" and error["message"].startswith("No rated match: "), error
        await gus.close()
        await ida.close()
