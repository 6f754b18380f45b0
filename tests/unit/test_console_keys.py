"""The sysop console's keys, without a screen or a lobby."""

from __future__ import annotations

from door.net.keys import Key, KeyName
from door.sysop.console_keys import (
    AnswerPage,
    ConsoleKeys,
    Disconnect,
    LeaveConsole,
    Resume,
    SendMessage,
    StopWatching,
    ToggleAvailable,
    Watch,
    handle_key,
)


def key(name: KeyName | str) -> Key:
    return Key(KeyName.CHAR, name) if isinstance(name, str) else Key(name)


def test_the_selection_moves_within_the_callers() -> None:
    keys = ConsoleKeys()
    assert handle_key(keys, key(KeyName.UP), 3, "Ann") == [] and keys.selected == 0
    for _ in range(5):
        handle_key(keys, key(KeyName.DOWN), 3, "Ann")
    assert keys.selected == 2
    handle_key(keys, key(KeyName.LEFT), 3, "Ann")
    assert keys.selected == 1


def test_each_key_asks_for_its_one_thing() -> None:
    keys = ConsoleKeys()
    assert handle_key(keys, key("q"), 1, "Ann") == [LeaveConsole()]
    assert handle_key(keys, key("A"), 1, "Ann") == [ToggleAvailable()]
    assert handle_key(keys, key("y"), 1, "Ann") == [AnswerPage(accept=True)]
    assert handle_key(keys, key("N"), 1, "Ann") == [AnswerPage(accept=False)]
    assert handle_key(keys, key("w"), 1, "Ann") == [Watch()]
    assert handle_key(keys, key("r"), 1, "Ann") == [Resume()]
    assert handle_key(keys, key("z"), 1, "Ann") == []


def test_a_message_is_typed_sent_or_dropped() -> None:
    keys = ConsoleKeys()
    assert handle_key(keys, key("m"), 1, None) == [] and not keys.input_label  # nobody selected
    handle_key(keys, key("m"), 1, "Ann")
    assert keys.input_label == "Message to Ann: "
    for ch in "hi q":  # Q is a letter of the message here, not "leave"
        assert handle_key(keys, key(ch), 1, "Ann") == []
    handle_key(keys, key(KeyName.BACKSPACE), 1, "Ann")
    assert handle_key(keys, key(KeyName.ENTER), 1, "Ann") == [SendMessage("hi ")]
    assert keys.input_label == "" and keys.input == ""
    handle_key(keys, key("m"), 1, "Ann")
    handle_key(keys, key("x"), 1, "Ann")
    assert handle_key(keys, key(KeyName.ESCAPE), 1, "Ann") == [] and keys.input_label == ""
    handle_key(keys, key("m"), 1, "Ann")
    for _ in range(100):
        handle_key(keys, key("x"), 1, "Ann", chat_limit=70)
    assert len(keys.input) == 70


def test_a_disconnect_is_asked_first() -> None:
    keys = ConsoleKeys()
    handle_key(keys, key("k"), 1, "")
    assert keys.confirm == "Disconnect this caller? (Y/N)"  # (still logging in: no name yet)
    assert handle_key(keys, key("n"), 1, "") == [] and keys.confirm == ""
    handle_key(keys, key("k"), 1, "Ann")
    assert handle_key(keys, key("Y"), 1, "Ann") == [Disconnect()]


def test_while_watching_only_escape_or_q_does_anything() -> None:
    keys = ConsoleKeys()
    assert handle_key(keys, key("y"), 1, "Ann", watching=True) == []
    assert handle_key(keys, key(KeyName.ESCAPE), 1, "Ann", watching=True) == [StopWatching()]
    assert handle_key(keys, key("Q"), 1, "Ann", watching=True) == [StopWatching()]
