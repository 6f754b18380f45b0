"""Tournaments kept in the store and run over days: the sysop's settings
(:mod:`.settings`), the rows as values (:mod:`.values`), the standings,
brackets and next pairings worked out from them (:mod:`.progress`), the
repository (:mod:`.repository`) and the director that moves them on
under a lease (:mod:`.director`)."""
