"""Key bindings as data: a table from keys to what they mean.

A :class:`Bindings` maps keys (a :class:`~door.net.keys.KeyName` for a
named key, a character for a typed one) to the name of what the key
asks for; the controllers of the caller's game (:mod:`door.play.controller`)
and of the sysop's console look a key up here and act on its meaning, so
which keys do what is read in one place, and a key bound twice in one
table is an error where the table is made (as prompt_toolkit's
``KeyBindings``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from door.net.keys import Key, KeyName

__all__ = ["Bindings", "bind"]


@dataclass(frozen=True)
class Bindings:
    """Keys and what each means (a name), in one context."""

    table: Mapping[KeyName | str, str]

    def meaning(self, key: Key) -> str | None:
        """What ``key`` means here, or ``None`` for a key not bound.

        >>> bind(("choose", [KeyName.ENTER, " "])).meaning(Key(KeyName.CHAR, " "))
        'choose'
        """
        if key.name is KeyName.CHAR:
            return self.table.get(key.char)
        return self.table.get(key.name)


def bind(*meanings: tuple[str, Iterable[KeyName | str]]) -> Bindings:
    """A table of bindings from (meaning, keys) pairs; a string among the
    keys stands for each of its characters.  Raises ``ValueError`` for a
    key bound to two meanings."""
    table: dict[KeyName | str, str] = {}
    for meaning, keys in meanings:
        for key in keys:
            for one in (key,) if isinstance(key, KeyName) else tuple(key):
                if one in table:
                    raise ValueError(f"{one!r} is bound to {table[one]!r} and {meaning!r}")
                table[one] = meaning
    return Bindings(MappingProxyType(table))
