"""Drop files as BBSes really write them: DOOR32.SYS, DOOR.SYS and
DORINFO1.DEF, lower-case names, CRLF and LF, missing optional lines, and
clear errors for broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.door_mode import TelnetStripper
from door.net.dropfile import DropFileError, parse_dropfile

DOOR32 = ["2", "7", "38400", "Synchronet 3.19", "12", "Ann Smith", "annie", "50", "45", "1", "3"]


def write(tmp_path: Path, name: str, lines: list[str], newline: str = "\r\n") -> Path:
    path = tmp_path / name
    path.write_bytes(newline.join(lines).encode("cp437") + newline.encode())
    return path


@pytest.mark.parametrize("name", ["DOOR32.SYS", "door32.sys", "Door32.Sys"])
@pytest.mark.parametrize("newline", ["\r\n", "\n"])
def test_door32(tmp_path: Path, name: str, newline: str) -> None:
    info = parse_dropfile(write(tmp_path, name, DOOR32, newline))
    assert (info.name, info.minutes_left, info.ansi, info.node, info.comm_type, info.socket) == (
        "annie", 45, True, 3, 2, 7)
    assert info.kind == "DOOR32.SYS"


def test_door32_without_alias_emulation_or_node(tmp_path: Path) -> None:
    lines = DOOR32[:6] + ["", "50", "45"]  # no alias, and lines 10-11 missing
    info = parse_dropfile(write(tmp_path, "door32.sys", lines))
    assert (info.name, info.ansi, info.node, info.comm_type) == ("Ann Smith", True, None, 2)
    local = ["0", "0"] + DOOR32[2:9] + ["0"]
    info = parse_dropfile(write(tmp_path, "door32.sys", local))
    assert (info.comm_type, info.socket, info.ansi) == (0, None, False)


def door_sys(**changes: str) -> list[str]:
    lines = [f"line{i}" for i in range(1, 53)]
    lines[0] = "COM0:"
    lines[3] = "2"
    lines[9] = "BOB JONES"
    lines[18] = "30"
    lines[19] = "GR"
    lines[20] = "24"
    lines[35] = "bobby"
    for k, v in changes.items():
        lines[int(k[1:]) - 1] = v
    return lines


def test_door_sys(tmp_path: Path) -> None:
    info = parse_dropfile(write(tmp_path, "door.sys", door_sys()))
    assert (info.name, info.minutes_left, info.ansi, info.rows, info.node, info.comm_type) == (
        "bobby", 30, True, 24, 2, 0)
    info = parse_dropfile(write(tmp_path, "DOOR.SYS", door_sys(l36="", l20="NG")[:40], "\n"))
    assert (info.name, info.ansi) == ("BOB JONES", False)


def test_dorinfo(tmp_path: Path) -> None:
    lines = ["My BBS", "SYS", "OP", "COM0", "38400 BAUD,N,8,1", "0", "CAROL", "KING", "Somewhere", "1", "30",
             "60", "-1"]
    info = parse_dropfile(write(tmp_path, "dorinfo1.def", lines))
    assert (info.name, info.minutes_left, info.ansi, info.comm_type) == ("CAROL KING", 60, True, 0)


@pytest.mark.parametrize("name,lines,message", [
    ("door32.sys", ["x"], "line 1: expected the comm type"),
    ("door32.sys", ["7"], "line 1: expected the comm type 0, 1 or 2"),
    ("door32.sys", DOOR32[:8], "line 9: expected the minutes left, but the file has only 8 lines"),
    ("door32.sys", DOOR32[:8] + ["lots"], "line 9: expected the minutes left, got 'lots'"),
    ("door32.sys", DOOR32[:8] + ["-5"], "minutes left are negative"),
    ("door32.sys", [], "the drop file is empty"),
    ("door.sys", ["COM0:"] * 5, "line 10: expected the user's name"),
    ("chain.txt", ["x"], "not a drop file this door reads"),
])
def test_broken_files_say_where(tmp_path: Path, name: str, lines: list[str], message: str) -> None:
    path = write(tmp_path, name, lines)
    with pytest.raises(DropFileError) as err:
        parse_dropfile(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DropFileError, match="cannot read"):
        parse_dropfile(tmp_path / "door32.sys")


def test_telnet_commands_are_stripped_across_reads() -> None:
    s = TelnetStripper()
    data = b"a\xff\xfb\x01b\xff\xfa\x1f\x00\x50\xff\xf0c\xff\xffd\xff"
    assert s.feed(data[:5]) + s.feed(data[5:11]) + s.feed(data[11:]) == b"abc\xffd"
    assert s.feed(b"\xf1e") == b"e"  # the IAC left over from the last read, then a NOP
