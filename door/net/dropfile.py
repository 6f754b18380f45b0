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

File names are matched ignoring case (Linux BBSes write them in lower
case); CR LF and LF line ends are both read; lines past the ones used may be
missing.  A file that cannot be used raises :class:`DropFileError` naming
the file, the line and what was expected: every field read is checked,
as text and against its range (a socket handle of -1 or 10^20, a node of
10^20, a screen of a million lines), so an odd file is one line of error,
never a traceback (issue 32.8).
"""

from __future__ import annotations

from dataclasses import dataclass
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


FILE_LIMIT = 64 * 1024
"""The largest drop file read, in bytes (a real one is under 2 KiB)."""

HANDLE_LIMIT = 2 ** 31 - 1
"""The largest socket handle a DOOR32.SYS may give (a file descriptor is a C int)."""

NODE_LIMIT = 65535
"""The largest node number a drop file may give."""

ROWS_RANGE = (10, 255)
"""Screen lengths a DOOR.SYS may give (0 means "not said")."""


def _lines(path: Path) -> list[str]:
    try:
        with open(path, "rb") as f:
            raw = f.read(FILE_LIMIT + 1)
    except OSError as exc:
        raise DropFileError(f"{path}: cannot read the drop file: {exc.strerror}") from None
    if len(raw) > FILE_LIMIT:
        raise DropFileError(f"{path}: not a drop file: over {FILE_LIMIT // 1024} KiB")
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
    handle = _int(path, lines, 2, "the comm or socket handle", 0, HANDLE_LIMIT) if comm == 2 else None
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


MAX_MINUTES = 24 * 60
"""The longest time limit a drop file may give, in minutes (larger values,
some BBSes write 32767 or more for a sysop, are cut to it)."""


def parse_dropfile(path: Path) -> DropInfo:
    """Read a drop file, telling the format by its name (any case):
    ``door32.sys``, ``door.sys`` or ``dorinfo*.def``.  Raises
    :class:`DropFileError`."""
    name = path.name.lower()
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
    else:
        raise DropFileError(f"{path}: not a drop file this door reads (door32.sys, door.sys, dorinfo1.def)")
    if info.minutes_left < 0:
        raise DropFileError(f"{path}: the minutes left are negative ({info.minutes_left})")
    minutes = min(info.minutes_left, MAX_MINUTES)  # a BBS that says "forever" means a day at most
    clean = "".join(ch for ch in info.name if ch >= " " and ch != "\x7f").strip()[:20]
    if not clean:
        raise DropFileError(f"{path}: the user's name is empty")
    return DropInfo(clean, minutes, info.ansi, info.node, info.comm_type, info.socket, info.rows, info.kind)
