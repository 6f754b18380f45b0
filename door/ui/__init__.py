"""The screen layer: the cell canvas and the diff renderer (the only code
that builds frames of escape sequences, from :mod:`door.net.ansi`), the
display with the one key loop (Ctrl-L, resize, ticks handled once), the
prompts, and words (engine events turned into sentences).

May import: ``engine``, :mod:`door.net`."""
