"""A tournament's bulletins for the board, as it stands: its latest
round's pairings (the announcement: who meets whom, by when, and the
results so far), then its standings and brackets
(:func:`door.records.tournament_bulletins.tournament_bulletins`)."""

from __future__ import annotations

from door.records.bulletins import Bulletin
from door.records.tournament_bulletins import tournament_bulletins
from door.records.tournaments.repository import View

__all__ = ["view_bulletins"]


def view_bulletins(view: View) -> list[Bulletin]:
    """``NAME-pairings`` (the latest round's games, a line each, with a
    deadline or a result; none before the first round), then
    ``NAME-standings`` and ``NAME-bracket`` / ``NAME-consolation``."""
    t = view.tournament
    out = []
    if view.pairings:
        wave = max(p.wave for p in view.pairings)
        rows = [f"{p.stage:<12} {p.line()}" for p in view.pairings if p.wave == wave or p.open]
        out.append(Bulletin(f"{t.name}-pairings", f"{t.title}: round {wave}", rows, heading=False))
    return out + tournament_bulletins(t.name, t.title, view.standings, view.brackets)
