"""The sysop layer: the lobby (who is on line, pages, pairing a caller with
the sysop, tables waiting for a dropped player) and the sysop's console.

May import: ``engine``, :mod:`door.net`, :mod:`door.ui`, :mod:`door.records`,
:mod:`door.play`, and :mod:`door.config` (plain values)."""
