"""The game service: the one place where a game of any kind begins.

Every table of the door is set up here (:mod:`door.games.kinds`): its
journal (the game kept move by move in the store), its settings, its
registration among the door's running tables, and where its result goes.
The presentations (the screens, screen-reader mode, the game protocol, the
card table, the sysop's club night) choose the players and the rules and
then ask for a game of a kind; they never build a table themselves.

The layer sits above the door's configuration and below the sysop's
lobby, which it knows only as a :class:`~door.games.house.TableRegistry`.
"""
