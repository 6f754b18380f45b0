"""Drop files as BBSes really write them: DOOR32.SYS, DOOR.SYS,
DORINFO1.DEF, CHAIN.TXT and BBSDEV.DRP, lower-case names, CRLF and LF,
missing optional lines, and clear errors for broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.net.bbs_terminals import TelnetStripper
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
    ("exitinfo.bbs", ["x"], "not a drop file this door reads"),
])
def test_broken_files_say_where(tmp_path: Path, name: str, lines: list[str], message: str) -> None:
    path = write(tmp_path, name, lines)
    with pytest.raises(DropFileError) as err:
        parse_dropfile(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)


ODD_FIELDS = [
    ("door32.sys", ["2", "-2"] + DOOR32[2:], "line 2: expected the comm or socket handle (-1 to 2147483647), got -2"),
    ("door32.sys", ["2", "1" + "0" * 20] + DOOR32[2:], "line 2: expected the comm or socket handle"),
    ("door32.sys", ["2", "0x7"] + DOOR32[2:], "line 2: expected the comm or socket handle, got '0x7'"),
    ("door32.sys", ["2", "\u00bd"] + DOOR32[2:], "line 2: expected the comm or socket handle"),  # CP437's 1/2
    ("door32.sys", ["2.5"] + DOOR32[1:], "line 1: expected the comm type"),
    ("door32.sys", DOOR32[:9] + ["ansi"] + DOOR32[10:], "line 10: expected the emulation"),
    ("door32.sys", DOOR32[:9] + ["77"] + DOOR32[10:], "line 10: expected the emulation (0 ASCII, 1 ANSI, ...) (0 to 9)"),
    ("door32.sys", DOOR32[:10] + ["1" + "0" * 20], "line 11: expected the node number (0 to 65535)"),
    ("door32.sys", DOOR32[:10] + ["-3"], "line 11: expected the node number"),
    ("door32.sys", DOOR32[:8] + ["9" * 5000], "line 9: expected the minutes left, got"),
    ("door.sys", door_sys(l21="1000000"), "line 21: expected the screen length in lines (0 to 255)"),
    ("door.sys", door_sys(l21="tall"), "line 21: expected the screen length"),
    ("door.sys", door_sys(l20="XX"), "line 20: expected the graphics mode GR, NG or 7E"),
    ("door.sys", door_sys(l4="n1"), "line 4: expected the node number"),
    ("dorinfo1.def", ["BBS", "SYS", "OP", "COM0", "x", "0", "CAROL", "KING", "", "yes", "", "60"],
     "line 10: expected the graphics"),
]


@pytest.mark.parametrize("name,lines,message", ODD_FIELDS, ids=[m.split(":")[0] + f"-{i}" for i, (_, _, m) in
                                                               enumerate(ODD_FIELDS)])
def test_every_odd_field_is_one_line_naming_file_line_and_field(tmp_path: Path, name: str, lines: list[str],
                                                                 message: str) -> None:
    """A comm handle of -1 or 10^20 was a traceback."""
    path = write(tmp_path, name, lines)
    with pytest.raises(DropFileError) as err:
        parse_dropfile(path)
    assert str(err.value).startswith(f"{path}: line ") and message in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def test_a_huge_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "door32.sys"
    path.write_bytes(b"2\r\n" * 1_000_000)
    with pytest.raises(DropFileError, match="over 64 KiB"):
        parse_dropfile(path)


def test_a_short_screen_is_the_door_s_own_default(tmp_path: Path) -> None:
    assert parse_dropfile(write(tmp_path, "door.sys", door_sys(l21="0"))).rows is None
    assert parse_dropfile(write(tmp_path, "door.sys", door_sys(l21="5"))).rows is None
    assert parse_dropfile(write(tmp_path, "door.sys", door_sys(l21="50"))).rows == 50


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DropFileError, match="cannot read"):
        parse_dropfile(tmp_path / "door32.sys")


def test_telnet_commands_are_stripped_across_reads() -> None:
    s = TelnetStripper()
    data = b"a\xff\xfb\x01b\xff\xfa\x1f\x00\x50\xff\xf0c\xff\xffd\xff"
    assert s.feed(data[:5]) + s.feed(data[5:11]) + s.feed(data[11:]) == b"abc\xffd"
    assert s.feed(b"\xf1e") == b"e"  # the IAC left over from the last read, then a NOP


# -- modern drop files ---------------------------------------------------------------------------------

NOW = 1_800_000_000.0  # 2027-01-15T08:00:00Z
BBSDEV = ["1.0", "stdio", "", "Zoë", "user-17", "132", "50", "Y", "N", "", "2027-01-15T08:45:30Z", "UTF-8",
          "fr-CA", "DeuceGate 1.0", "The Board", "Sysop", "50", "4", "N"]


def bbsdev(tmp_path: Path, lines: list[str], name: str = "BBSDEV.DRP") -> Path:
    path = tmp_path / name
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


def test_bbsdev_drp_gives_transport_size_charset_language_and_exact_logoff(tmp_path: Path) -> None:
    info = parse_dropfile(bbsdev(tmp_path, BBSDEV), now=NOW)
    assert (info.kind, info.name, info.comm_type, info.socket) == ("BBSDEV.DRP", "Zoë", 0, None)
    assert (info.cols, info.rows, info.ansi, info.charset, info.language) == (132, 50, True, "utf-8", "fr-CA")
    assert info.minutes_left == 45 and info.node == 4 and info.board == "The Board (DeuceGate 1.0)"
    socket = parse_dropfile(bbsdev(tmp_path, ["1.2", "socket", "9"] + BBSDEV[3:] + ["a line of 1.2"], "bbsdev.drp"),
                            now=NOW)
    assert (socket.comm_type, socket.socket) == (2, 9)  # a later 1.x: its added lines are not read
    no_limit = parse_dropfile(bbsdev(tmp_path, BBSDEV[:10] + [""] + BBSDEV[11:]), now=NOW)
    assert no_limit.minutes_left == 24 * 60
    cp437 = parse_dropfile(bbsdev(tmp_path, BBSDEV[:11] + ["IBM437"] + BBSDEV[12:]), now=NOW)
    assert cp437.charset == "cp437"
    assert parse_dropfile(bbsdev(tmp_path, BBSDEV[:11] + ["KOI8-R"] + BBSDEV[12:]), now=NOW).charset == "ascii"


def _with(n: int, value: str) -> list[str]:
    return BBSDEV[:n - 1] + [value] + BBSDEV[n:]


BBSDEV_WRONG = [
    (_with(1, "2.0"), "line 1: version 2.0 is not supported"),
    (_with(1, "one"), "line 1: expected the format version as major.minor"),
    (_with(2, "fossil"), "line 2: the transport 'fossil' is not one this door uses"),
    (_with(2, "pigeon"), "line 2: expected the transport (local, stdio or socket)"),
    (_with(2, "socket"), "line 3: expected the socket descriptor"),
    (_with(3, "COM1"), "line 3: expected nothing for 'stdio'"),
    (_with(4, ""), "line 4: expected the user's alias"),
    (_with(5, ""), "line 5: expected the user key"),
    (_with(6, "0"), "line 6: expected the screen's width (1 to 65535), got 0"),
    (_with(7, "tall"), "line 7: expected the screen's height"),
    (_with(8, "yes"), "line 8: expected ANSI as Y or N"),
    (_with(9, "n"), "line 9: expected RIP as Y or N"),
    (_with(11, "tomorrow"), "line 11: expected the logoff time as YYYY-MM-DDTHH:MM:SSZ"),
    (_with(11, "2027-01-15T07:00:00Z"), "line 11: the logoff time 2027-01-15T07:00:00Z has passed"),
    (_with(12, ""), "line 12: expected the character set"),
    (_with(13, ""), "line 13: expected the language"),
    (_with(14, ""), "line 14: expected the BBS software"),
    (_with(15, ""), "line 15: expected the board's name"),
    (_with(16, ""), "line 16: expected the sysop's alias"),
    (_with(17, "root"), "line 17: expected the access level (a number, sysop or cosysop)"),
    (_with(18, "-1"), "line 18: expected the node number"),
    (_with(19, "maybe"), "line 19: expected the local display as Y or N"),
    (BBSDEV[:18], "a BBSDEV.DRP has 19 lines, this one 18"),
]


@pytest.mark.parametrize("lines,message", BBSDEV_WRONG, ids=[m.split(":")[0] for _, m in BBSDEV_WRONG])
def test_each_wrong_bbsdev_field_is_one_line_naming_it(tmp_path: Path, lines: list[str], message: str) -> None:
    path = bbsdev(tmp_path, lines)
    with pytest.raises(DropFileError) as err:
        parse_dropfile(path, now=NOW)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("raw,message", [
    (b"\xef\xbb\xbf1.0\r\n", "byte-order mark"),
    (b"1.0\r\nstdio\r\n\r\nZo\xe9\r\n", "is not UTF-8"),
    (b"1.0\rstdio\r\n", "line 1: a carriage return alone"),
])
def test_a_bbsdev_drp_that_is_not_utf8_lines_is_refused(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "BBSDEV.DRP"
    path.write_bytes(raw)
    with pytest.raises(DropFileError, match=message):
        parse_dropfile(path, now=NOW)


CHAIN = ["17", "annie", "Ann Smith", "", "30", "F", "0", "01/15/27", "100", "40", "50", "0", "0", "1", "1", "2700",
         "", "", "", "38400", "1", "The Board", "Sysop", "0", "0", "0", "0", "0", "0", "8N1", "38400", "2"]


def test_chain_txt_gives_the_real_screen_size(tmp_path: Path) -> None:
    info = parse_dropfile(write(tmp_path, "chain.txt", CHAIN))
    assert (info.kind, info.name, info.cols, info.rows, info.ansi, info.minutes_left, info.node) == (
        "CHAIN.TXT", "annie", 100, 40, True, 45, 2)
    with pytest.raises(DropFileError, match="line 16: expected the seconds left"):
        parse_dropfile(write(tmp_path, "chain.txt", CHAIN[:15] + ["soon"] + CHAIN[16:]))


def test_door32_comm_type_2_with_handle_minus_1_is_stdio(tmp_path: Path) -> None:
    info = parse_dropfile(write(tmp_path, "door32.sys", ["2", "-1"] + DOOR32[2:]))
    assert (info.comm_type, info.socket) == (0, None)
