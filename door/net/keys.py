"""Decoding the bytes a terminal sends into keys: a pure state machine.

``KeyDecoder.feed(data)`` returns the keys completed by ``data`` and keeps a
partial escape sequence for the next call; a lone ESC (or an unfinished
sequence) is resolved by :meth:`KeyDecoder.flush`, which the reader calls when
no byte follows within about 60 ms (FIELD_NOTES.md).  Every sequence lives in
one table, :data:`SEQUENCES`.

Enter arrives as CR, CR LF, CR NUL or LF, and each is one ENTER key.  Bytes
are taken as Latin-1 for printable keys above 0x7F, which is all a cribbage
door needs of them (names and chat in ASCII or Latin-1 letters).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["KeyName", "Key", "KeyDecoder", "SEQUENCES", "key_bytes"]


class KeyName(enum.Enum):
    """The keys the door understands; ``CHAR`` carries a printable character."""

    CHAR = "char"
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    HOME = "home"
    END = "end"
    PAGE_UP = "page-up"
    PAGE_DOWN = "page-down"
    INSERT = "insert"
    DELETE = "delete"
    BACKSPACE = "backspace"
    ENTER = "enter"
    TAB = "tab"
    ESCAPE = "escape"
    CTRL_C = "ctrl-c"
    CTRL_L = "ctrl-l"
    CTRL_Q = "ctrl-q"
    CTRL_R = "ctrl-r"
    CTRL_S = "ctrl-s"
    RESIZE = "resize"
    EOF = "eof"


@dataclass(frozen=True, slots=True)
class Key:
    """One key: its ``name`` and, for ``CHAR``, the character ``char``."""

    name: KeyName
    char: str = ""

    def __str__(self) -> str:
        return self.char if self.name is KeyName.CHAR else self.name.value


SEQUENCES: dict[bytes, KeyName] = {
    b"\x1b[A": KeyName.UP, b"\x1b[B": KeyName.DOWN, b"\x1b[C": KeyName.RIGHT, b"\x1b[D": KeyName.LEFT,
    b"\x1bOA": KeyName.UP, b"\x1bOB": KeyName.DOWN, b"\x1bOC": KeyName.RIGHT, b"\x1bOD": KeyName.LEFT,
    b"\x1b[H": KeyName.HOME, b"\x1b[F": KeyName.END, b"\x1bOH": KeyName.HOME, b"\x1bOF": KeyName.END,
    b"\x1b[1~": KeyName.HOME, b"\x1b[4~": KeyName.END, b"\x1b[7~": KeyName.HOME, b"\x1b[8~": KeyName.END,
    b"\x1b[K": KeyName.END,  # SyncTERM's End
    b"\x1b[2~": KeyName.INSERT, b"\x1b[3~": KeyName.DELETE,
    b"\x1b[5~": KeyName.PAGE_UP, b"\x1b[6~": KeyName.PAGE_DOWN,
    b"\x1b[[5~": KeyName.PAGE_UP, b"\x1b[[6~": KeyName.PAGE_DOWN,  # PuTTY
}
"""Escape sequences and the keys they stand for (FIELD_NOTES.md "Keys")."""

_CONTROL: dict[int, KeyName] = {
    0x7F: KeyName.BACKSPACE, 0x08: KeyName.BACKSPACE, 0x09: KeyName.TAB,
    0x03: KeyName.CTRL_C, 0x0C: KeyName.CTRL_L, 0x11: KeyName.CTRL_Q, 0x12: KeyName.CTRL_R, 0x13: KeyName.CTRL_S,
}

_TYPED: dict[KeyName, bytes] = {
    KeyName.ENTER: b"\r", KeyName.ESCAPE: b"\x1b", KeyName.BACKSPACE: b"\x7f",
    **{name: bytes([code]) for code, name in _CONTROL.items() if name is not KeyName.BACKSPACE},
    **{name: seq for seq, name in reversed(SEQUENCES.items())},  # (each key's first, plainest sequence)
}


def key_bytes(key: Key, encoding: str = "utf-8") -> bytes:
    """The bytes a terminal sends for ``key`` (a ``CHAR`` in ``encoding``,
    its unencodable characters as ``?``): what a relay passes on for a key
    decoded before the caller was handed over.  ``RESIZE`` and ``EOF``
    are not typed: ``b""``.

    >>> key_bytes(Key(KeyName.UP)), key_bytes(Key(KeyName.CHAR, "é"), "cp437")
    (b'\\x1b[A', b'\\x82')"""
    if key.name is KeyName.CHAR:
        return key.char.encode(encoding, "replace")
    return _TYPED.get(key.name, b"")


_PREFIXES = {seq[:i] for seq in SEQUENCES for i in range(1, len(seq))}
_MAX_SEQUENCE = 16  # a CSI longer than this is line noise


class KeyDecoder:
    """Turns terminal input bytes into :class:`Key` values.

    >>> d = KeyDecoder()
    >>> [str(k) for k in d.feed(b"a\\x1b[")] , [str(k) for k in d.feed(b"Cb\\r\\n")]
    (['a'], ['right', 'b', 'enter'])
    """

    def __init__(self, encoding: str = "utf-8") -> None:
        self._pending = b""
        self._after_cr = False
        self._partial = b""  # the first bytes of a UTF-8 character
        self.encoding = encoding
        """How bytes from 0x80 up are typed characters: ``"utf-8"`` (a
        multi-byte character, decoded whole; a bad byte is dropped),
        ``"cp437"`` (one byte, one character) or ``"ascii"`` (dropped)."""

    @property
    def pending(self) -> bool:
        """True while an escape sequence is incomplete (call :meth:`flush`
        if nothing more arrives soon)."""
        return bool(self._pending)

    def feed(self, data: bytes) -> list[Key]:
        """Decode ``data``; returns the completed keys in order."""
        keys: list[Key] = []
        buf = self._pending + self._partial + data
        self._pending = self._partial = b""
        i = 0
        n = len(buf)
        while i < n:
            b = buf[i]
            if b == 0x1B:
                consumed = self._escape(buf, i, keys)
                if consumed == 0:
                    self._pending = buf[i:]
                    return keys
                i += consumed
                self._after_cr = False
                continue
            if b in (0x0D, 0x0A, 0x00):
                if b == 0x0D:
                    keys.append(Key(KeyName.ENTER))
                    self._after_cr = True
                elif b == 0x0A:
                    if not self._after_cr:
                        keys.append(Key(KeyName.ENTER))
                    self._after_cr = False
                else:  # NUL after CR is telnet's CR NUL; a stray NUL is ignored
                    self._after_cr = False
                i += 1
                continue
            self._after_cr = False
            if b >= 0x80:
                used = self._high(buf, i, keys)
                if used == 0:
                    self._partial = buf[i:]
                    return keys
                i += used
                continue
            if b in _CONTROL:
                keys.append(Key(_CONTROL[b]))
            elif b >= 0x20 and b != 0x7F:
                keys.append(Key(KeyName.CHAR, chr(b)))
            i += 1
        return keys

    def _high(self, buf: bytes, i: int, keys: list[Key]) -> int:
        """A byte from 0x80 up at ``buf[i]``: append the character it
        starts; returns bytes used, or 0 when a UTF-8 character is not all
        here yet."""
        b = buf[i]
        if self.encoding == "cp437":
            keys.append(Key(KeyName.CHAR, bytes([b]).decode("cp437")))
            return 1
        if self.encoding != "utf-8":
            return 1
        length = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if length == 0:
            return 1  # a stray continuation byte or an invalid lead: dropped
        if len(buf) - i < length:
            if all(0x80 <= c <= 0xBF for c in buf[i + 1:]):
                return 0
            return 1
        try:
            ch = buf[i:i + length].decode("utf-8")
        except UnicodeDecodeError:
            return 1
        if ch.isprintable() or ch.isspace():
            keys.append(Key(KeyName.CHAR, ch))
        return length

    def _escape(self, buf: bytes, i: int, keys: list[Key]) -> int:
        """Decode the escape sequence at ``buf[i]``; returns bytes consumed,
        or 0 when it may still be incomplete."""
        for length in range(2, min(_MAX_SEQUENCE, len(buf) - i) + 1):
            chunk = buf[i:i + length]
            if chunk in SEQUENCES:
                keys.append(Key(SEQUENCES[chunk]))
                return length
            if chunk not in _PREFIXES and not self._unknown_csi_continues(chunk):
                # Not a sequence we know: an unknown but complete CSI is
                # dropped whole; otherwise ESC stands alone.
                if chunk[:2] in (b"\x1b[", b"\x1bO") and length > 2 and 0x40 <= chunk[-1] <= 0x7E:
                    return length
                keys.append(Key(KeyName.ESCAPE))
                return 1
        if len(buf) - i >= _MAX_SEQUENCE:
            keys.append(Key(KeyName.ESCAPE))
            return 1
        return 0

    @staticmethod
    def _unknown_csi_continues(chunk: bytes) -> bool:
        """True while ``chunk`` is a CSI whose parameters are still arriving."""
        if chunk[:2] != b"\x1b[":
            return False
        return all(0x20 <= c <= 0x3F or c == 0x5B for c in chunk[2:])

    def take_pending(self, then: bytes = b"", enter_passed_on: bool = False) -> bytes:
        """The bytes not made into keys, for a relay to pass on: an
        unfinished escape sequence or character, then ``then`` (bytes that
        came after, never fed).  The decoder forgets them and starts
        afresh.  The LF or NUL that ends a CR's Enter is dropped from the
        front unless ``enter_passed_on`` (that Enter's CR is passed on as
        well): CR LF stays one Enter."""
        held = self._pending + self._partial + then
        if self._after_cr and not enter_passed_on and held[:1] in (b"\n", b"\0"):
            held = held[1:]
        self._pending = self._partial = b""
        self._after_cr = False
        return held

    def flush(self) -> list[Key]:
        """Resolve a pending partial sequence: a lone ESC becomes ESCAPE, the
        rest of an unfinished sequence is decoded as ordinary bytes."""
        if not self._pending:
            return []
        rest = self._pending[1:]
        self._pending = b""
        keys = [Key(KeyName.ESCAPE)]
        if rest:
            # '[' or 'O' after a lone ESC: decode as typed keys
            keys.extend(self.feed(rest))
            keys.extend(self.flush())
        return keys
