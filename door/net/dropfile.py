"""BBS drop files: who the caller is, how long they may stay, and how to
talk to them (FIELD_NOTES.md "BBS door conventions").

- ``DOOR32.SYS`` (11 lines): comm type (0 local, 1 serial, 2 telnet socket),
  socket handle, baud, BBS id, user record, real name, alias, security
  level, minutes left, emulation (0 ASCII, 1 ANSI, ...), node.
- ``DOOR.SYS`` (52 lines): line 1 the port (``COM0:`` local), line 4 the
  node, line 10 the user name, 19 minutes left, 20 ``GR``/``NG`` graphics,
  21 screen lines, 36 the alias.
- ``DORINFO1.DEF`` (13 lines): line 4 the port, 7 and 8 first and last
  name, 10 graphics (0 ASCII), 12 minutes left.
- ``CHAIN.TXT`` (WWIV, 32 lines): line 2 the alias, 9 and 10 the screen's
  columns and lines (the real size), 14 ANSI (1 or 0), 16 the
  seconds left, 32 the node.
- ``BBSDEV.DRP`` 1.x (RealDeuce/bbsdev.drp; written by DeuceGate and
  ENiGMA½; found through the ``BBSDEV_DRP`` environment variable): UTF-8
  with no byte-order mark, 19 lines: the version; the transport
  (``local``, ``stdio`` or ``socket`` and its descriptor; ``serial``,
  ``uart``, ``winserial`` and ``fossil`` are refused); the alias; the user
  key; the screen's width and height; ANSI and RIP (``Y``/``N``); the
  CTerm version; the exact logoff time (UTC, ``YYYY-MM-DDTHH:MM:SSZ``, or
  empty); the IANA character set; the BCP 47 language; the BBS software,
  the board and its sysop; the access level (a number, ``sysop`` or
  ``cosysop``); the node; the local display (``Y``/``N``).
- A DOOR32.SYS with comm type 2 and handle ``-1`` (as ENiGMA½ has written
  for a door on standard input and output) is taken as stdio.

File names are matched ignoring case (Linux BBSes write them in lower
case); CR LF and LF line ends are both read; lines past the ones used may be
missing.  A file that cannot be used raises :class:`DropFileError` naming
the file, the line and what was expected: every field read is checked,
as text and against its range (a socket handle of -1 or 10^20, a node of
10^20, a screen of a million lines), so an odd file is one line of error,
never a traceback.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["DropInfo", "DropFileError", "parse_dropfile"]


class DropFileError(ValueError):
    """A drop file that cannot be used; the message says which line and why."""


@dataclass(frozen=True)
class DropInfo:
    """What a drop file says: the caller's ``name`` (the alias when there is
    one), ``minutes_left``, ``ansi`` (else plain ASCII), the ``node``, the
    ``comm_type`` (0 local/stdio, 1 serial, 2 telnet socket) and the
    ``socket`` handle, the screen ``rows`` when given, and the ``kind`` of
    file it came from."""

    name: str
    minutes_left: int
    ansi: bool
    node: int | None
    comm_type: int
    socket: int | None
    rows: int | None
    kind: str
    cols: int | None = None
    """The screen's columns when the file gives them (CHAIN.TXT, BBSDEV.DRP)."""
    charset: str | None = None
    """The character set the BBS names (BBSDEV.DRP): ``cp437``, ``utf-8`` or ``ascii``."""
    language: str = ""
    """The caller's language (BBSDEV.DRP, BCP 47); the door speaks English."""
    board: str = ""
    """The board's name and software (BBSDEV.DRP)."""

    def fields(self) -> list[tuple[str, str]]:
        """Each field as ``cribbage-door door --show-dropfile`` prints it."""
        transport = {0: "local (standard input and output)", 1: "serial (the BBS's line on standard input "
                     "and output)", 2: f"telnet socket, descriptor {self.socket}"}[self.comm_type]
        return [("format", self.kind), ("caller", self.name), ("transport", transport),
                ("screen", f"{self.cols or '(the terminal says)'} columns x {self.rows or '(the terminal says)'} lines"),
                ("ANSI", "yes" if self.ansi else "no: plain lines (screen-reader mode)"),
                ("character set", self.charset or ("CP437" if self.ansi else "ASCII") + " (from ANSI)"),
                ("language", self.language or "(not said)"), ("time left", f"{self.minutes_left} minutes"),
                ("node", str(self.node) if self.node is not None else "(not said)"),
                ("board", self.board or "(not said)")]


FILE_LIMIT = 64 * 1024
"""The largest drop file read, in bytes (a real one is under 2 KiB)."""

HANDLE_LIMIT = 2 ** 31 - 1
"""The largest socket handle a DOOR32.SYS may give (a file descriptor is a C int)."""

NODE_LIMIT = 65535
"""The largest node number a drop file may give."""

ROWS_RANGE = (10, 255)
"""Screen lengths a DOOR.SYS may give (0 means "not said")."""


def _read(path: Path) -> bytes:
    """The drop file's bytes, at most :data:`FILE_LIMIT`.  Raises :class:`DropFileError`."""
    try:
        with open(path, "rb") as f:
            raw = f.read(FILE_LIMIT + 1)
    except OSError as exc:
        raise DropFileError(f"{path}: cannot read the drop file: {exc.strerror}") from None
    if len(raw) > FILE_LIMIT:
        raise DropFileError(f"{path}: not a drop file: over {FILE_LIMIT // 1024} KiB")
    return raw


def _lines(path: Path) -> list[str]:
    raw = _read(path)
    return [line.strip() for line in raw.decode("cp437").replace("\r\n", "\n").replace("\r", "\n").split("\n")]


def _field(path: Path, lines: list[str], number: int, what: str) -> str:
    if len(lines) < number or not lines[number - 1]:
        raise DropFileError(f"{path}: line {number}: expected {what}, but the file has "
                            f"{'nothing there' if len(lines) >= number else f'only {len(lines)} lines'}")
    return lines[number - 1]


def _whole(path: Path, number: int, what: str, text: str, low: int, high: int | None) -> int:
    """The whole number at the start of ``text`` (line ``number``, holding
    ``what``), from ``low`` to ``high`` (``None``: no upper bound).  Raises
    :class:`DropFileError` naming the file, the line and the field."""
    word = text.split()[0] if text.split() else ""
    if not (word.isascii() and (word.isdigit() or (word[:1] == "-" and word[1:].isdigit()))) or len(word) > 40:
        raise DropFileError(f"{path}: line {number}: expected {what}, got {text[:40]!r}")
    value = int(word)
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise DropFileError(f"{path}: line {number}: expected {what} ({span}), got {value}")
    return value


def _int(path: Path, lines: list[str], number: int, what: str, low: int = -(10 ** 40),
         high: int | None = None) -> int:
    return _whole(path, number, what, _field(path, lines, number, what), low, high)


def _optional_int(path: Path, lines: list[str], number: int, what: str, low: int, high: int) -> int | None:
    """Line ``number`` as a whole number from ``low`` to ``high``, ``None``
    when the line is missing or empty; anything else there is an error."""
    if len(lines) < number or not lines[number - 1]:
        return None
    return _whole(path, number, what, lines[number - 1], low, high)


def _door32(path: Path, lines: list[str]) -> DropInfo:
    comm = _int(path, lines, 1, "the comm type (0 local, 1 serial, 2 telnet)")
    if comm not in (0, 1, 2):
        raise DropFileError(f"{path}: line 1: expected the comm type 0, 1 or 2, got {comm}")
    handle = _int(path, lines, 2, "the comm or socket handle", -1, HANDLE_LIMIT) if comm == 2 else None
    if handle == -1:  # ENiGMA½'s "a socket door, on standard input and output": stdio
        comm, handle = 0, None
    alias = lines[6] if len(lines) > 6 else ""
    name = alias or _field(path, lines, 6, "the user's real name (or line 7, the alias)")
    minutes = _int(path, lines, 9, "the minutes left")
    emulation = _optional_int(path, lines, 10, "the emulation (0 ASCII, 1 ANSI, ...)", 0, 9)
    node = _optional_int(path, lines, 11, "the node number", 0, NODE_LIMIT)
    return DropInfo(name, minutes, emulation != 0, node, comm, handle, None, "DOOR32.SYS")


def _door_sys(path: Path, lines: list[str]) -> DropInfo:
    port = _field(path, lines, 1, "the comm port (COM0: for local)")
    name = (lines[35] if len(lines) > 35 else "") or _field(path, lines, 10, "the user's name")
    minutes = _int(path, lines, 19, "the minutes left")
    graphics = lines[19].upper() if len(lines) > 19 and lines[19] else "GR"
    if graphics not in ("GR", "NG", "7E"):
        raise DropFileError(f"{path}: line 20: expected the graphics mode GR, NG or 7E, got {lines[19][:40]!r}")
    rows = _optional_int(path, lines, 21, "the screen length in lines", 0, ROWS_RANGE[1])
    if rows is not None and rows < ROWS_RANGE[0]:
        rows = None  # (0, or a length no game fits in: the door's own default)
    comm = 0 if port.upper().startswith("COM0") else 1
    node = _optional_int(path, lines, 4, "the node number", 0, NODE_LIMIT)
    return DropInfo(name, minutes, graphics != "NG", node, comm, None, rows, "DOOR.SYS")


def _dorinfo(path: Path, lines: list[str]) -> DropInfo:
    port = _field(path, lines, 4, "the comm port (COM0 for local)")
    first = _field(path, lines, 7, "the user's first name")
    last = lines[7] if len(lines) > 7 else ""
    graphics = _optional_int(path, lines, 10, "the graphics (0 ASCII, 1 ANSI, ...)", 0, 9)
    minutes = _int(path, lines, 12, "the minutes left")
    comm = 0 if port.upper().startswith("COM0") else 1
    name = f"{first} {last}".strip() if last.upper() not in ("", "NLN") else first
    return DropInfo(name, minutes, graphics != 0, None, comm, None, None, "DORINFO1.DEF")


def _chain(path: Path, lines: list[str]) -> DropInfo:
    name = _field(path, lines, 2, "the user's alias")
    cols = _optional_int(path, lines, 9, "the screen's columns", 0, 65535)
    rows = _optional_int(path, lines, 10, "the screen's lines", 0, 65535)
    ansi = _optional_int(path, lines, 14, "ANSI (1 or 0)", 0, 1)
    seconds = _int(path, lines, 16, "the seconds left", 0)
    node = _optional_int(path, lines, 32, "the node number", 0, NODE_LIMIT)
    return DropInfo(name, seconds // 60, ansi != 0, node, 0, None, rows or None, "CHAIN.TXT", cols or None)


BBSDEV_LINES = 19
"""Lines of a BBSDEV.DRP 1.0 (a later 1.x may add lines; they are not read)."""

CHARSETS = {"ibm437": "cp437", "cp437": "cp437", "437": "cp437", "cspc8codepage437": "cp437",
            "utf-8": "utf-8", "utf8": "utf-8", "csutf8": "utf-8",
            "us-ascii": "ascii", "ascii": "ascii", "iso646-us": "ascii", "csascii": "ascii"}
"""IANA names (and aliases) of the character sets the door writes; any other is sent plain ASCII."""


def _bbsdev_lines(path: Path, raw: bytes) -> list[str]:
    if raw.startswith(b"\xef\xbb\xbf"):
        raise DropFileError(f"{path}: BBSDEV.DRP starts with a byte-order mark (the format forbids one)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DropFileError(f"{path}: BBSDEV.DRP is not UTF-8 (byte {exc.start})") from None
    lines = text.removesuffix("\n").split("\n")
    for n, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        if "\r" in line:
            raise DropFileError(f"{path}: line {n}: a carriage return alone ends no line in a BBSDEV.DRP")
        lines[n - 1] = line.strip()
    return lines


def _yes_no(path: Path, lines: list[str], number: int, what: str) -> bool:
    value = lines[number - 1]
    if value not in ("Y", "N"):
        raise DropFileError(f"{path}: line {number}: expected {what} as Y or N, got {value[:40]!r}")
    return value == "Y"


def _bbsdev(path: Path, raw: bytes, now: float) -> DropInfo:
    lines = _bbsdev_lines(path, raw)
    version = lines[0]
    major, _, minor = version.partition(".")
    if not (major.isdigit() and minor.isdigit()):
        raise DropFileError(f"{path}: line 1: expected the format version as major.minor, got {version[:40]!r}")
    if major != "1":
        raise DropFileError(f"{path}: line 1: version {version} is not supported (this door reads 1.x)")
    if len(lines) < BBSDEV_LINES:
        raise DropFileError(f"{path}: a BBSDEV.DRP has {BBSDEV_LINES} lines, this one {len(lines)}")
    kind, param = lines[1], lines[2]
    handle = None
    if kind == "socket":
        handle = _whole(path, 3, "the socket descriptor", param, 0, HANDLE_LIMIT)
        comm = 2
    elif kind in ("local", "stdio"):
        if param:
            raise DropFileError(f"{path}: line 3: expected nothing for {kind!r}, got {param[:40]!r}")
        comm = 0
    elif kind in ("serial", "winserial", "uart", "fossil"):
        raise DropFileError(f"{path}: line 2: the transport {kind!r} is not one this door uses: set the BBS to "
                            f"run it as a stdio or socket door")
    else:
        raise DropFileError(f"{path}: line 2: expected the transport (local, stdio or socket), got {kind[:40]!r}")
    name = _field(path, lines, 4, "the user's alias")
    _field(path, lines, 5, "the user key")
    cols = _int(path, lines, 6, "the screen's width", 1, 65535)
    rows = _int(path, lines, 7, "the screen's height", 1, 65535)
    ansi = _yes_no(path, lines, 8, "ANSI")
    _yes_no(path, lines, 9, "RIP")
    logoff = lines[10]
    minutes = MAX_MINUTES
    if logoff:
        try:
            deadline = datetime.strptime(logoff, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
        except ValueError:
            raise DropFileError(f"{path}: line 11: expected the logoff time as YYYY-MM-DDTHH:MM:SSZ (UTC), "
                                f"got {logoff[:40]!r}") from None
        if deadline <= now:
            raise DropFileError(f"{path}: line 11: the logoff time {logoff} has passed")
        minutes = int((deadline - now) // 60)
    charset = _field(path, lines, 12, "the character set (an IANA name)")
    language = _field(path, lines, 13, "the language (BCP 47)")
    software = _field(path, lines, 14, "the BBS software")
    board = _field(path, lines, 15, "the board's name")
    _field(path, lines, 16, "the sysop's alias")
    access = _field(path, lines, 17, "the access level")
    if access not in ("sysop", "cosysop"):
        _whole(path, 17, "the access level (a number, sysop or cosysop)", access, 0, None)
    node = _int(path, lines, 18, "the node number", 0, NODE_LIMIT)
    _yes_no(path, lines, 19, "the local display")
    info = DropInfo(name, minutes, ansi, node, comm, handle, rows, "BBSDEV.DRP", cols,
                    CHARSETS.get(charset.lower(), "ascii"), language[:35], f"{board} ({software})"[:80])
    return info


MAX_MINUTES = 24 * 60
"""The longest time limit a drop file may give, in minutes (larger values,
some BBSes write 32767 or more for a sysop, are cut to it)."""


def parse_dropfile(path: Path, now: float | None = None) -> DropInfo:
    """Read a drop file, telling the format by its name (any case):
    ``door32.sys``, ``door.sys``, ``dorinfo*.def``, ``chain.txt`` or
    ``bbsdev.drp`` (``now``: the time, seconds since the epoch, that a
    BBSDEV.DRP's logoff time is counted from).  Raises
    :class:`DropFileError`."""
    name = path.name.lower()
    if name == "bbsdev.drp":
        return _cleaned(path, _bbsdev(path, _read(path), time.time() if now is None else now))
    lines = _lines(path)
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise DropFileError(f"{path}: the drop file is empty")
    if name == "door32.sys":
        info = _door32(path, lines)
    elif name == "door.sys":
        info = _door_sys(path, lines)
    elif name.startswith("dorinfo") and name.endswith(".def"):
        info = _dorinfo(path, lines)
    elif name == "chain.txt":
        info = _chain(path, lines)
    else:
        raise DropFileError(f"{path}: not a drop file this door reads (door32.sys, door.sys, dorinfo1.def, "
                            f"chain.txt, bbsdev.drp)")
    return _cleaned(path, info)


def _cleaned(path: Path, info: DropInfo) -> DropInfo:
    """``info`` with its time cut to a day and its name made safe (no
    control characters, at most 20 characters).  Raises
    :class:`DropFileError` for negative minutes or an empty name."""
    if info.minutes_left < 0:
        raise DropFileError(f"{path}: the minutes left are negative ({info.minutes_left})")
    minutes = min(info.minutes_left, MAX_MINUTES)  # a BBS that says "forever" means a day at most
    clean = "".join(ch for ch in info.name if ch >= " " and ch != "\x7f").strip()[:20]
    if not clean:
        raise DropFileError(f"{path}: the user's name is empty")
    return dataclasses.replace(info, name=clean, minutes_left=minutes)
