"""The game protocol as published: docs/protocol.md holds every message's
JSON Schema, the same as the door checks and builds (a schema changed in
one place and not the other fails here), and its transcript of a whole
game validates against them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from jsonschema import Draft202012Validator

from door.play.api_events import event_message
from door.play.api_messages import CLIENT_SCHEMAS, SERVER_SCHEMAS
from engine.cards import parse_cards
from engine.events import Discarded, HandDealt

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def published(section: str) -> dict[str, object]:
    """The schemas under the page's ``section`` heading, by message type."""
    text = PAGE.read_text()
    start = text.index(f"## {section}\n")
    end = text.find("\n## ", start + 1)
    part = text[start:end if end >= 0 else None]
    return {name: json.loads(body) for name, body in re.findall(r"### `(\w+)`\n\n```json\n(.*?)\n```", part, re.S)}


def test_the_page_publishes_the_schemas_the_door_uses() -> None:
    assert published("What a program sends") == CLIENT_SCHEMAS
    assert published("What the door sends") == SERVER_SCHEMAS


def test_the_transcript_on_the_page_validates() -> None:
    text = PAGE.read_text()
    block = text[text.index("## A whole game"):]
    lines = re.findall(r"^([<>]) (\{.*\})$", block, re.M)
    assert len(lines) > 50
    for direction, body in lines:
        message = json.loads(body)
        schemas = SERVER_SCHEMAS if direction == "<" else CLIENT_SCHEMAS
        Draft202012Validator(schemas[message["type"]]).validate(message)
    assert json.loads(lines[-1][1])["type"] == "bye"


def test_the_other_players_cards_are_not_in_their_events() -> None:
    mine, theirs = parse_cards("AS 2S 3S 4S 5S 6S"), parse_cards("7H 8H 9H TH JH QH")
    dealt = event_message(HandDealt(1, 0, (mine, theirs)), 0)
    assert dealt is not None and dealt["hand"] == ["AS", "2S", "3S", "4S", "5S", "6S"]
    assert "7H" not in json.dumps(dealt) and "7H" not in json.dumps(event_message(HandDealt(1, 0, (mine, theirs)), -1))
    laid = event_message(Discarded(1, (theirs[0], theirs[1])), 0)
    assert laid == {"type": "event", "event": "discard", "seat": 1}
