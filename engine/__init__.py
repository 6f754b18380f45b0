"""The rules of two-handed cribbage: pure, synchronous and deterministic.

Nothing in this package performs I/O, reads the clock or uses module-level
randomness; the networked door (``door``) drives it with actions and turns the
events it returns into screens.
"""
