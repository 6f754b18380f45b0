"""The networked door, in layers (docs/architecture.md); a layer imports
only the layers listed before it (``tests/unit/test_layers.py`` checks):

1. :mod:`door.net`: terminals and transports;
2. :mod:`door.ui`: canvas, renderer, display, prompts, words;
3. :mod:`door.records`: the database and its repositories;
4. :mod:`door.play`: table, seats, game screen;
5. :mod:`door.config`: the configuration, plain values;
6. :mod:`door.sysop`: lobby and console;
7. :mod:`door.context`: what every session of a server shares;
8. :mod:`door.caller`: the caller's flow;
9. top level: :mod:`door.server`, :mod:`door.door_mode`, :mod:`door.cli`."""
