"""The records layer: the database (one SQLite file, migrations, one worker
thread) and its repositories: accounts, saved games (the action log),
finished games, statistics; password hashing, the wrong-password throttle,
and the ``cribbage-door records`` command.

May import: ``engine``, :mod:`door.net`, :mod:`door.ui`."""
