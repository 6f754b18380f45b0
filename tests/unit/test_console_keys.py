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


def test_the_key_bar_is_made_from_the_bindings() -> None:
    """Every key the console takes is said on its key bar, from the one
    table the bindings are made from; the bar fits 80 columns."""
    from door.sysop.console_keys import CONSOLE_KEYS, CONSOLE_KEYS_HELP, key_bar
    from door.sysop.console_screen import KEYS

    assert key_bar() == KEYS
    text = " ".join(KEYS)
    for key_ in CONSOLE_KEYS.table:
        if isinstance(key_, str):
            assert f"{key_.upper()} " in text, key_
    for meaning, _, words in CONSOLE_KEYS_HELP:
        assert words in text, meaning
        assert meaning in CONSOLE_KEYS.table.values()
    assert all(len(line) <= 78 for line in KEYS)
    assert len(KEYS) == 2  # (the console paints two lines of keys: a third would go unsaid)


def test_the_key_bar_packs_its_words_into_lines() -> None:
    """Two spaces apart, three where the line has room; a phrase longer
    than the width gets a line of its own."""
    from door.sysop.console_keys import key_bar

    assert key_bar(20)[:3] == ("Up/Down select a caller", "Y accept a page", "N decline")
    assert key_bar(70)[0] == "Up/Down select a caller   Y accept a page   N decline   W watch a game"
    assert key_bar(78)[0] == "Up/Down select a caller  Y accept a page  N decline  W watch a game  M message"
