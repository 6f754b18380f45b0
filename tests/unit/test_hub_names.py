"""A member board's caller named on the cribbage hub as ``alias@TAG``
(to offer them a game by correspondence before they ever called): the
tag in any case, a board that is no member and a bad alias refused in a
sentence; a server's lines: its shared addresses, and its member boards
only when its rlogin listener is on."""

from __future__ import annotations

from pathlib import Path

from door.caller.hub import HubCaller, board_caller
from door.config import BoardConfig, Handshake
from door.context import DoorContext, Lines
from tests.support.server import make_config

BOARDS = [BoardConfig("SYNC", "s" * 16, Handshake.SYNCHRONET), BoardConfig("DP", "d" * 16, Handshake.DOORPARTY)]


def test_a_board_qualified_name_names_its_board_and_alias() -> None:
    got = board_caller("Ann@sync", BOARDS)
    assert isinstance(got, HubCaller) and got.name == "Ann@SYNC" and got.board is BOARDS[0]
    assert board_caller("Bob Smith@DP", BOARDS) == HubCaller(BOARDS[1], "Bob Smith")


def test_a_board_not_a_member_or_a_bad_alias_is_a_sentence() -> None:
    assert board_caller("Ann@NOPE", BOARDS) == ("No board 'NOPE' is a member of this hub: a caller of another "
                                                "board is alias@BOARD.")
    assert board_caller("@SYNC", BOARDS) == ("The alias '' cannot be used here: 1 to 20 printable characters, "
                                             "no @.")
    assert isinstance(board_caller("a@b@SYNC", BOARDS), str)  # (an alias holds no @)
    assert isinstance(board_caller("x" * 21 + "@SYNC", BOARDS), str)


def test_a_servers_lines_are_its_shared_addresses_and_its_boards_only_when_it_is_a_hub(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    config.server.shared_addresses = ["192.0.2.0/24"]
    config.rlogin.boards = BOARDS
    assert Lines.of(config) == Lines(["192.0.2.0/24"], [])  # (the boards listed, the listener off: no hub)
    config.rlogin.enabled = True
    lines = Lines.of(config)
    assert lines.boards == BOARDS and lines.shared == ["192.0.2.0/24"]
    ctx = DoorContext(config.rules, 0.0, None, lines=lines)  # type: ignore[arg-type]
    assert ctx.shared == ["192.0.2.0/24"] and ctx.boards == BOARDS
