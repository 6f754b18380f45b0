"""Correspondence play's records: games between registered callers played
over days.  The deadline of a move, worked out from the days per move,
weekends and vacations (:mod:`.deadlines`, pure); the offers that start
games (:mod:`.offers`); days away (:mod:`.vacations`); the games lost on
time (:mod:`.results`); and the sweeper that ends games whose time ran
out, on one node at a time (:mod:`.sweeper`).  The games themselves are
the saved games of the store (``saved_games``), played by the game
service."""
