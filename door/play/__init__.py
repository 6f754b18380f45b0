"""The play layer: a table (one match, driving the engine, journaling every
action before it is shown), its seats (the computer; a human, whose keys go
through a pure controller), the game screen and pegboard, the spectator's
view, the journal, the caller's game options, and the table factories.

May import: ``engine``, :mod:`door.net`, :mod:`door.ui`, :mod:`door.records`."""
