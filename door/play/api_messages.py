"""The game protocol's messages (version 1): JSON objects, each with a
``type``, checked against a JSON Schema (``jsonschema``) on the way in,
and built here on the way out.  ``docs/protocol.md`` publishes every
schema (a test holds the page and :data:`CLIENT_SCHEMAS` and
:data:`SERVER_SCHEMAS` to be the same).

What the server sends is for one seat: the other player's hand and what
they laid away stay hidden until the show (a hand dealt says their six
cards by count only; their discard by who only).  Cards are two
characters, rank then suit: ``"AS"``, ``"TD"``, ``"5H"``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from door.ui.prompts import NAME_LIMIT, REASON_LIMIT
from door.ui.safe_text import first_unsafe, unsafe_char
from engine.cards import Card, parse_cards
from engine.game import Game, Phase
from engine.handover import handed_over
from engine.shuffle import SeededShuffle

__all__ = ["PROTOCOL", "CLIENT_SCHEMAS", "SERVER_SCHEMAS", "MessageError", "read_message",
           "ask_message", "state_message", "error_message", "card_list", "shuffle_message", "MAX_MESSAGE"]

PROTOCOL = 1
"""The protocol's version, in the server's ``hello``."""

MAX_MESSAGE = 4096
"""The longest message a client may send, in bytes."""

_CARD: dict[str, Any] = {"type": "string", "pattern": "^(A|[2-9]|T|J|Q|K)[CDHS]$"}
_SEAT: dict[str, Any] = {"type": "integer", "enum": [0, 1]}
_ID: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
"""A row's id in the store (a game, an offer): what SQLite and PostgreSQL
keep in a 64-bit signed integer; a larger one is refused where it enters."""
_SAFE = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff]*$"
"""A text field's pattern: no control character, bidirectional override
or isolate, or lone surrogate (:func:`door.ui.safe_text.unsafe_char`)."""


def _text(most: int, least: int = 1) -> dict[str, Any]:
    """A text field of ``least`` to ``most`` characters, safe to show."""
    return {"type": "string", **({"minLength": least} if least else {}), "maxLength": most, "pattern": _SAFE}


def _message(kind: str, properties: dict[str, Any] | None = None, required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": {"type": {"const": kind}, **(properties or {})},
            "required": ["type", *required], "additionalProperties": False}


_OFFERS = {"type": "array", "items": {"type": "object", "properties": {
    "offer": {"type": "integer"}, "name": {"type": "string"}, "days": {"type": "integer"},
    "runs": {"enum": ["any", "order"]}, "open": {"type": "boolean"},
    "counting": {"enum": ["automatic", "manual"]}, "best_of": {"enum": [1, 3, 5]},
    "rated": {"type": "boolean"}},
    "required": ["offer", "name", "days", "runs", "open", "best_of", "rated"],
    "additionalProperties": False}}
"""Offers of games by correspondence as the ``games`` message lists them:
each its id, the other player's ``name`` (its maker's; for one the
program made, whom it is made to, empty for anyone) and its terms."""


CLIENT_SCHEMAS: dict[str, dict[str, Any]] = {
    "login": _message("login", {"name": _text(NAME_LIMIT), "token": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                                "password": _text(64), "new_password": _text(64),
                                "resume": {"type": "string", "pattern": "^[0-9a-f]{32}$"}}, ("name",)),
    "play_computer": _message("play_computer", {
        "skill": {"enum": ["expert", "hard", "easy"]}, "game_to": {"enum": [61, 121]}}),
    "discard": _message("discard", {"cards": {"type": "array", "items": _CARD, "minItems": 2, "maxItems": 2,
                                              "uniqueItems": True}}, ("cards",)),
    "play": _message("play", {"card": _CARD}, ("card",)),
    "claim": _message("claim", {"points": {"type": "integer", "minimum": 0, "maximum": 29}}, ("points",)),
    "peg_for_me": _message("peg_for_me"),
    "chat": _message("chat", {"text": _text(200)}, ("text",)),
    "lobby": _message("lobby"),
    "review": _message("review"),
    "hint": _message("hint"),
    "advice": _message("advice"),
    "stats": _message("stats"),
    "register": _message("register", {"password": _text(64)},
                         ("password",)),
    "ratings": _message("ratings"),
    "daily": _message("daily"),
    "available": _message("available", {"on": {"type": "boolean"}}, ("on",)),
    "watch": _message("watch", {"player": _text(NAME_LIMIT)}, ("player",)),
    "stop": _message("stop"),
    "page": _message("page", {"reason": _text(REASON_LIMIT, 0), "runs": {"enum": ["any", "order"]}}),
    "accept": _message("accept"),
    "decline": _message("decline"),
    "challenge": _message("challenge", {
        "name": _text(NAME_LIMIT), "best_of": {"enum": [1, 3, 5]},
        "rated": {"type": "boolean"}, "runs": {"enum": ["any", "order"]}}, ("name",)),
    "seed": _message("seed", {"seed": _text(200)}, ("seed",)),
    "games": _message("games"),
    "open": _message("open", {"game": _ID}, ("game",)),
    "offer": _message("offer", {"name": _text(NAME_LIMIT + 9),  # (on the hub: alias@BOARD, a tag of up to 8)
                                "days": {"type": "integer", "minimum": 1, "maximum": 14},
                                "runs": {"enum": ["any", "order"]},
                                "counting": {"enum": ["automatic", "manual"]},
                                "best_of": {"enum": [1, 3, 5]}, "rated": {"type": "boolean"}}),
    "answer": _message("answer", {"offer": _ID, "accept": {"type": "boolean"}},
                       ("offer", "accept")),
    "away": _message("away", {"days": {"type": "integer", "minimum": 1, "maximum": 366}}, ("days",)),
    "tournaments": _message("tournaments"),
    "enter": _message("enter", {"name": _text(NAME_LIMIT)}, ("name",)),
    "withdraw": _message("withdraw", {"name": _text(NAME_LIMIT)}, ("name",)),
    "standings": _message("standings", {"name": _text(40)}, ("name",)),
    "leave": _message("leave"),
}
"""What a client may send, by ``type``."""

_CARDS: dict[str, Any] = {"type": "array", "items": _CARD}
_RATED: dict[str, Any] = {"type": "array", "items": {
    "type": "object", "properties": {"name": {"type": "string"}, "rating": {"type": "integer"},
                                     "rd": {"type": "integer"}, "matches": {"type": "integer"},
                                     "provisional": {"type": "boolean"}},
    "required": ["name", "rating", "rd", "matches", "provisional"], "additionalProperties": False}}
_SCORES: dict[str, Any] = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
_HEX64: dict[str, Any] = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_SHUFFLE: dict[str, Any] = {"type": "object", "properties": {
    "game": {"type": "integer"}, "commitment": _HEX64, "player_seeds": {
        "type": "array", "items": _HEX64, "minItems": 2, "maxItems": 2},
    "seed": _HEX64, "sealed_until": {"type": "string"}},
    "required": ["game", "commitment", "player_seeds"], "additionalProperties": False}
_PEG: dict[str, Any] = {"type": "object", "properties": {"kind": {"type": "string"}, "points": {"type": "integer"}},
                        "required": ["kind", "points"], "additionalProperties": False}
_DECISION: dict[str, Any] = {"type": "object", "properties": {
    "hand": {"type": "integer"}, "kind": {"enum": ["discard", "play", "count"]}, "crib": {"enum": ["yours", "theirs"]},
    "choice": {"type": "array", "items": _CARD}, "best": {"type": "array", "items": _CARD},
    "value": {"type": "number"}, "best_value": {"type": "number"}, "count": {"type": "integer"},
    "what": {"enum": ["hand", "crib"]}, "claimed": {"type": "integer"}, "held": {"type": "integer"},
    "lost": {"type": "number"}, "mistake": {"type": "boolean"}, "computer": {"type": "boolean"}},
    "required": ["hand", "kind", "lost", "mistake"], "additionalProperties": False}
_COSTS: dict[str, Any] = {"type": "object", "properties": {
    "discards": {"type": "number"}, "pegging": {"type": "number"}, "counting": {"type": "number"}},
    "required": ["discards", "pegging", "counting"], "additionalProperties": False}
_RANKED: dict[str, Any] = {"type": "object", "properties": {
    "place": {"type": "integer"}, "name": {"type": "string"}, "score": {"type": "integer"},
    "computer": {"type": "integer"}, "margin": {"type": "integer"},
    "against_par": {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "unfinished": {"type": "boolean"}},
    "required": ["place", "name", "score", "computer", "margin", "against_par", "unfinished"],
    "additionalProperties": False}

SERVER_SCHEMAS: dict[str, dict[str, Any]] = {
    "hello": _message("hello", {"protocol": {"const": PROTOCOL}, "door": {"type": "string"}}, ("protocol", "door")),
    "welcome": _message("welcome", {"name": {"type": "string"}, "guest": {"type": "boolean"},
                                    "bot": {"type": "boolean"}, "seed": _HEX64, "commitment": _HEX64,
                                    "resume": {"type": "string", "pattern": "^[0-9a-f]{32}$"}},
                        ("name", "guest")),
    "seed": _message("seed", {"seed": _HEX64, "commitment": _HEX64}, ("seed", "commitment")),
    "clock": _message("clock", {"seat": _SEAT, "seconds": {"type": "number", "minimum": 0}}, ("seat", "seconds")),
    "table": _message("table", {"seat": _SEAT, "players": {"type": "array", "items": {"type": "string"}},
                                "game_to": {"type": "integer"}, "game": {"type": "integer"},
                                "best_of": {"enum": [1, 3, 5]}, "rated": {"type": "boolean"},
                                "shuffle": _SHUFFLE, "clock": {"type": "number", "exclusiveMinimum": 0}},
                      ("seat", "players", "game_to", "game")),
    "state": _message("state", {
        "phase": {"enum": ["discard", "play", "show", "over"]}, "hand_number": {"type": "integer"},
        "dealer": _SEAT, "scores": _SCORES, "hand": _CARDS, "starter": {"anyOf": [_CARD, {"type": "null"}]},
        "count": {"type": "integer"}, "series": _CARDS}, ("phase", "hand_number", "dealer", "scores", "hand",
                                                          "starter", "count", "series")),
    "event": _message("event", {
        "event": {"enum": ["cut", "deal", "discard", "starter", "card", "go", "peg", "reset", "show", "over",
                           "replay", "computer_pegs"]},
        "seat": _SEAT, "dealer": _SEAT, "hand_number": {"type": "integer"}, "hand": _CARDS,
        "cards": _CARDS, "card": _CARD, "count": {"type": "integer"}, "pegs": {"type": "array", "items": _PEG},
        "heels": {"type": "integer"}, "what": {"enum": ["hand", "crib"]}, "starter": _CARD,
        "total": {"type": "integer"}, "items": {"type": "array", "items": {
            "type": "object", "properties": {"kind": {"type": "string"}, "cards": _CARDS, "points": {"type": "integer"}},
            "required": ["kind", "cards", "points"], "additionalProperties": False}},
        "claim": {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "verdict": {"type": "string"},
        "pegged": {"type": "integer"}, "muggins": {"type": "integer"}, "winner": _SEAT, "scores": _SCORES,
        "skunk": {"enum": ["none", "skunk", "double"]}, "value": {"type": "integer"},
        "cuts": {"type": "array", "items": _CARDS},
        "said": {"type": "array", "items": {"type": "string"}}}, ("event",)),
    "ask": _message("ask", {
        "ask": {"enum": ["discard", "play", "count"]}, "hand": _CARDS, "choose": {"type": "integer"},
        "playable": _CARDS, "count": {"type": "integer"}, "what": {"enum": ["hand", "crib"]}, "cards": _CARDS,
        "starter": _CARD, "seconds_left": {"type": "number", "minimum": 0}}, ("ask",)),
    "chat": _message("chat", {"name": {"type": "string"}, "text": {"type": "string"}}, ("name", "text")),
    "notice": _message("notice", {"text": {"type": "string"}}, ("text",)),
    "error": _message("error", {"field": {"type": "string"}, "message": {"type": "string"}}, ("field", "message")),
    "game_over": _message("game_over", {"winner": _SEAT, "scores": _SCORES, "wins": _SCORES,
                                        "shuffle": _SHUFFLE}, ("winner", "scores")),
    "review": _message("review", {"game": {"type": "integer"}, "lines": {"type": "array", "items": {"type": "string"}},
                                  "decisions": {"type": "array", "items": _DECISION}, "costs": _COSTS},
                       ("game", "lines")),
    "hint": _message("hint", {"cards": _CARDS, "text": {"type": "string"}}, ("cards", "text")),
    "advice": _message("advice", {"notes": {"type": "array", "items": {"type": "string"}}}, ("notes",)),
    "stats": _message("stats", {
        "name": {"type": "string"},
        "rows": {"type": "array", "items": {"type": "object", "properties": {
            "label": {"type": "string"}, "value": {"type": "string"}},
            "required": ["label", "value"], "additionalProperties": False}},
        "recent": {"type": "array", "items": {"type": "object", "properties": {
            "game": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
            "scores": _SCORES, "winner": _SEAT, "skunk": {"enum": ["none", "skunk", "double"]},
            "forfeit": {"type": "boolean"}, "ended": {"type": "string"}},
            "required": ["game", "players", "scores", "winner", "skunk", "forfeit", "ended"],
            "additionalProperties": False}}}, ("name", "rows", "recent")),
    "challenged": _message("challenged", {"name": {"type": "string"}, "offer": {"type": "string"},
                                          "seconds": {"type": "integer"}}, ("name", "offer", "seconds")),
    "daily": _message("daily", {"day": {"type": "string"}, "game": {"type": "integer"},
                                "lines": {"type": "array", "items": {"type": "string"}},
                                "ranking": {"type": "array", "items": _RANKED}, "par": _SCORES,
                                "streak": {"type": "integer"}}, ("day", "game", "lines")),
    "lobby": _message("lobby", {"players": {"type": "array", "items": {
        "type": "object", "properties": {"name": {"type": "string"}, "bot": {"type": "boolean"},
                                         "guest": {"type": "boolean"}},
        "required": ["name", "bot", "guest"], "additionalProperties": False}},
        "games": {"type": "array", "items": {
            "type": "object", "properties": {"players": {"type": "array", "items": {"type": "string"}}},
            "required": ["players"], "additionalProperties": False}}}, ("players",)),
    "watching": _message("watching", {"players": {"type": "array", "items": {"type": "string"}},
                                      "game_to": {"type": "integer"}, "game": {"type": "integer"},
                                      "scores": _SCORES}, ("players", "game_to", "game", "scores")),
    "ratings": _message("ratings", {"people": _RATED, "bots": _RATED}, ("people", "bots")),
    "games": _message("games", {
        "games": {"type": "array", "items": {"type": "object", "properties": {
            "game": {"type": "integer"}, "kind": {"type": "string"}, "other": {"type": "string"},
            "number": {"type": "integer"}, "to_move": {"enum": ["you", "them", "both"]},
            "deadline": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "seconds_left": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]},
            "hand": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "scores": {"anyOf": [_SCORES, {"type": "null"}]}},
            "required": ["game", "kind", "other", "number", "to_move", "deadline", "seconds_left"],
            "additionalProperties": False}},
        "offers": _OFFERS, "made": _OFFERS}, ("games", "offers", "made")),
    "tournaments": _message("tournaments", {"tournaments": {"type": "array", "items": {
        "type": "object", "properties": {
            "name": {"type": "string"}, "title": {"type": "string"}, "state": {"enum": ["open", "running"]},
            "format": {"type": "string"}, "entrants": {"type": "integer"}, "entered": {"type": "boolean"}},
        "required": ["name", "title", "state", "format", "entrants", "entered"], "additionalProperties": False}}},
        ("tournaments",)),
    "standings": _message("standings", {
        "name": {"type": "string"}, "title": {"type": "string"}, "state": {"enum": ["open", "running", "finished"]},
        "format": {"type": "string"}, "entrants": {"type": "array", "items": {"type": "string"}},
        "standings": {"type": "array", "items": {"type": "object", "properties": {
            "place": {"type": "integer"}, "name": {"type": "string"}, "points": {"type": "integer"},
            "won": {"type": "integer"}, "played": {"type": "integer"}, "skunks": {"type": "integer"},
            "spread": {"type": "integer"}},
            "required": ["place", "name", "points", "won", "played", "skunks", "spread"],
            "additionalProperties": False}},
        "brackets": {"type": "array", "items": {"type": "object", "properties": {
            "label": {"enum": ["bracket", "consolation"]},
            "champion": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "rounds": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "matches": {"type": "array", "items": {"type": "string"}}},
                "required": ["name", "matches"], "additionalProperties": False}}},
            "required": ["label", "champion", "rounds"], "additionalProperties": False}}},
        ("name", "title", "state", "format", "entrants", "standings", "brackets")),
    "waiting": _message("waiting", {"game": {"type": "integer"}, "text": {"type": "string"}}, ("game", "text")),
    "your_move": _message("your_move", {"game": {"type": "integer"}, "name": {"type": "string"}}, ("game", "name")),
    "menu": _message("menu"),
    "bye": _message("bye", {"text": {"type": "string"}}, ("text",)),
}
"""What the server sends, by ``type``."""

_VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in CLIENT_SCHEMAS.items()}

UNKNOWN_TYPE = f"expected a type of the protocol ({len(CLIENT_SCHEMAS)} of them: docs/protocol.md lists each)"
"""What a message of a type the protocol does not know is told (in a
bounded line: the list of types grows with the protocol)."""


class MessageError(ValueError):
    """A client message that is not one: ``field`` names where (``"$"``
    for the whole message), and the message says what was expected."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def read_message(text: str | bytes) -> dict[str, Any]:
    """A client's message, checked against its schema.  Raises
    :class:`MessageError` naming the field for anything else: not text,
    not JSON, not an object, an unknown ``type``, a field missing, of the
    wrong kind or out of range, a field too many, a card named twice, a
    number with a fraction (``5.0``: the protocol's numbers are whole), a
    text holding a control character, a bidirectional override or a lone
    surrogate.  What it returns :meth:`~door.play.api_seat.ApiSeat.take`
    can always act on."""
    if isinstance(text, bytes):
        raise MessageError("$", "messages are JSON text, not binary")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise MessageError("$", f"a message is at most {MAX_MESSAGE} bytes")
    if _nesting(text) > MAX_NESTING:  # (before the parser: a RecursionError caught unsettles CPython 3.11's ast)
        raise MessageError("$", "nested too deeply")
    try:
        message = json.loads(text)
    except ValueError as exc:  # (json.JSONDecodeError among them)
        raise MessageError("$", f"not JSON: {getattr(exc, 'msg', 'a number too long')}") from None
    except RecursionError:
        raise MessageError("$", "nested too deeply") from None
    if not isinstance(message, dict):
        raise MessageError("$", "a message is a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in _VALIDATORS:
        raise MessageError("type", UNKNOWN_TYPE)
    error = next(iter(sorted(_VALIDATORS[kind].iter_errors(message), key=lambda e: list(e.path))), None)
    if error is not None:
        field = _field_of(error, message)
        if error.validator == "pattern" and error.validator_value == _SAFE:
            _check_value(field, error.instance)  # (which says what the text holds)
        if error.validator == "uniqueItems":
            raise MessageError(field, "name each card once")
        raise MessageError(field, _said(error))
    for field, value in message.items():
        _check_value(field, value)
    return message


def _field_of(error: ValidationError, message: dict[str, Any]) -> str:
    """The field a schema's ``error`` is about: its path, or the field
    missing, or the first one not in the schema (made printable)."""
    if error.path:
        return ".".join(str(p) for p in error.path)
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in message]
        return missing[0] if missing else "$"
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = next((name for name in message if name not in known), None)
        if extra is not None:
            plain = 0 < len(extra) <= 40 and not any(map(unsafe_char, extra))
            return extra if plain else json.dumps(extra)[:40]  # (quoted, escaped: "" for an empty name)
    return "$"


def _said(error: ValidationError) -> str:
    """What the schema expected, in at most 200 printable characters."""
    return "".join(ch if unsafe_char(ch) is None else "?" for ch in error.message[:200])


def _check_value(field: str, value: Any) -> None:
    """What a schema cannot say (or says for another regular-expression
    dialect): numbers are whole, and a text is safe to show, to its very
    end (Python's ``$`` also matches before a last line feed)."""
    if isinstance(value, float):
        raise MessageError(field, "a whole number, written without a fraction or an exponent")
    if isinstance(value, str):
        ch = first_unsafe(value)
        if ch is not None:
            raise MessageError(field, f"may not hold {unsafe_char(ch)} (U+{ord(ch):04X})")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_value(f"{field}.{i}", item)


MAX_NESTING = 16
"""The deepest a message's arrays and objects may nest (the schemas need 3)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _nesting(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest, brackets in
    strings aside; where there are few brackets (a message has a few)
    their count, which it cannot exceed, stands for it.

    >>> _nesting("[" * 40), _nesting('{"text": "' + "[" * 40 + '"}')
    (40, 1)
    """
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return min(MAX_NESTING, text.count("[") + text.count("{"))
    depth = deepest = 0
    for char in _STRINGS.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def card_list(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """Cards as the protocol writes them."""
    return [str(card) for card in cards]


def cards_of(names: list[str]) -> list[Card]:
    """The cards a client named (already checked by the schema)."""
    return list(parse_cards(" ".join(names)))


def ask_message(game: Game, me: int) -> dict[str, Any] | None:
    """What ``game`` asks of seat ``me`` now, with its legal answers, or
    ``None`` when it waits for the other seat (or for the computer,
    pegging this hand for ``me``)."""
    if me not in game.to_act() or (game.phase is Phase.PLAY and handed_over(game, me)):
        return None
    if game.phase is Phase.DISCARD:
        return {"type": "ask", "ask": "discard", "hand": card_list(game.hands[me]), "choose": 2}
    if game.phase is Phase.PLAY:
        return {"type": "ask", "ask": "play", "count": game.count, "playable": card_list(game.playable(me))}
    if game.phase is Phase.SHOW and game.show_turn is not None and game.starter is not None:
        seat, what = game.show_turn
        cards = game.show_cards(seat, what)
        return {"type": "ask", "ask": "count", "what": what.value, "cards": card_list(cards),
                "starter": str(game.starter)}
    return None


def state_message(game: Game, me: int) -> dict[str, Any]:
    """Everything seat ``me`` may see of ``game`` now (sent on joining and
    on resuming): the phase, the hand, the scores, the starter, the count
    and the cards of the series."""
    return {"type": "state", "phase": game.phase.value, "hand_number": game.hand_number, "dealer": game.dealer,
            "scores": list(game.scores()), "hand": card_list(game.hands[me]),
            "starter": str(game.starter) if game.starter is not None else None, "count": game.count,
            "series": card_list(game.series)}


def shuffle_message(shuffle: SeededShuffle, sealed_until: str | None, revealed: bool = False) -> dict[str, Any]:
    """A game's verifiable shuffle as the protocol says it: its number,
    the commitment and both player seeds (seat 0 first); ``revealed``
    (the game is over): the door's seed too, unless the game is the day's
    deal, whose seed is kept until the day ``sealed_until`` is over (it is
    named instead)."""
    message: dict[str, Any] = {"game": shuffle.game, "commitment": shuffle.commitment,
                               "player_seeds": list(shuffle.player_seeds)}
    if sealed_until is not None:
        message["sealed_until"] = sealed_until
    elif revealed:
        message["seed"] = shuffle.server_seed
    return message


def error_message(field: str, message: str) -> dict[str, Any]:
    """An error about the client's last message: ``field`` names where."""
    return {"type": "error", "field": field, "message": message}
