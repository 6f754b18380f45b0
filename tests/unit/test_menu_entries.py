"""The main menu as data: its entries, what each offers and
when, so that another presentation (a line mode) can show the same menu."""

from __future__ import annotations

from door.caller.menu import MenuItem, MenuState, main_menu_entries


def test_the_entries_offer_what_is_available_in_order() -> None:
    sysop = [False]
    entries = main_menu_entries(lambda: "UTF-8 ANSI", MenuState(sysop_available=lambda: sysop[0], opponents=lambda: True,
                                                         challenges_on=lambda: True), "game #7 (hand 2)")
    offered = [e.key for e in entries if e.enabled()]
    assert offered == ["R", "1", "2", "D", "3", "4", "5", "7", "8", "C", "T", "Q"]
    sysop[0] = True  # asked again at each paint and key
    assert "6" in [e.key for e in entries if e.enabled()]
    lines = {e.item: e.line() for e in entries}
    assert lines[MenuItem.RESUME] == "  R  Resume game #7 (hand 2)"
    assert lines[MenuItem.TERMINAL] == "  T  Terminal: UTF-8 ANSI (test or change it)"
    assert lines[MenuItem.CHALLENGES].endswith("on (C turns them off)")
    assert all(e.key == e.item.value for e in entries)


def test_no_resume_and_no_challenge_switch_when_there_is_none() -> None:
    entries = main_menu_entries(lambda: "plain ASCII", MenuState(), None)
    assert [e.key for e in entries if e.enabled()] == ["1", "2", "D", "3", "4", "5", "7", "T", "Q"]
