"""A bracket drawn, pure: where each name, score, label and line goes,
as pieces of text with a role, for the door's screen to paint in colour
and for a bulletin to write.

Lines are Unicode box drawing (``─ │ ┐ ┘ ┬ ┴ ├``), which CP437 has and
the door's charsets encode (plain ASCII gets ``- | +``).  The layout: a
column a round, the rounds' matches two rows each, a match's winner led by
a line to their place in the next round's match; the losers' bracket
under the winners', the grand final and the reset right of the winners'
final; players dropped into the losers' bracket, and its champion in the
grand final, appear without a line.  An 8-player double elimination takes
18 rows and 77 columns; a wider bracket narrows its names to fit the
width, and a taller one runs past 24 rows (the screen shows its top).
"""

from __future__ import annotations

from dataclasses import dataclass

from door.records.ranked.brackets import BracketState, Empty, Match, MatchState, Section, Slot
from door.records.ranked.tournament import Kind

__all__ = ["Piece", "draw", "lines", "ROLES"]

ROLES = ("title", "label", "line", "winner", "loser", "player", "pending")
"""What a piece is: the title, a round's label, a bracket line, the
winner or the loser of a played match, a player whose match is still to
play, an empty slot (a bye, or a player not known yet)."""

STEP = 16
"""Columns from one round to the next, at most."""

GAP = 4
"""Columns of line between a match and the next round's."""


@dataclass(frozen=True)
class Piece:
    """Text at (``row``, ``col``) (cells, from 0) with a ``role`` (one of :data:`ROLES`)."""

    row: int
    col: int
    text: str
    role: str


def draw(state: BracketState, title: str = "", width: int = 80) -> list[Piece]:
    """The pieces of ``state``'s drawing, ``title`` on the first row,
    fitted to ``width`` columns (at least 40).  Raises ``ValueError`` for
    a narrower width."""
    if width < 40:
        raise ValueError(f"a bracket is drawn at least 40 columns wide, got {width!r}")
    bracket = state.bracket
    winners = bracket.rounds(Section.WINNERS)
    finals = [r[0] for r in bracket.rounds(Section.FINAL)]
    losers = bracket.rounds(Section.LOSERS)
    columns = max(len(winners) + len(finals), len(losers))
    step = min(STEP, (width - 2) // columns) if columns else STEP
    pieces = [Piece(0, 0, title[:width], "title")] if title else []
    top = 1 if title else 0
    w_rounds: list[list[Match]] = [*winners, *([m] for m in finals)]
    w_labels = _labels(bracket.kind, len(winners), len(finals))
    bottom = _section(state, w_rounds, w_labels, top, step, pieces)
    if losers:
        bottom = _section(state, losers, [f"Losers {i}" for i in range(1, len(losers) + 1)], bottom + 1, step,
                          pieces)
    if state.champion is not None:
        pieces.append(Piece(bottom + 1, 1, f"Champion: {state.champion}"[:width - 1], "winner"))
    return pieces


def _labels(kind: Kind, rounds: int, finals: int) -> list[str]:
    if kind is Kind.SINGLE:
        return [f"Round {i}" for i in range(1, rounds)] + ["Final"]
    return [f"Winners {i}" for i in range(1, rounds + 1)] + ["Grand final", "Reset"][:finals]


def _section(state: BracketState, rounds: list[list[Match]], labels: list[str], top: int, step: int,
             pieces: list[Piece]) -> int:
    """Draw one section's rounds from row ``top`` (its labels there);
    returns the row after its last."""
    cell = step - GAP
    rows: list[list[tuple[int, int]]] = [[(top + 1 + 2 * i, top + 2 + 2 * i) for i in range(len(rounds[0]))]]
    for prev, rnd in zip(rounds, rounds[1:], strict=False):
        last = rows[-1]
        if len(rnd) * 2 == len(prev):
            rows.append([(last[2 * i][1], last[2 * i + 1][0]) for i in range(len(rnd))])
        else:
            rows.append(list(last[:len(rnd)]))
    for r, rnd in enumerate(rounds):
        x = 1 + step * r
        pieces.append(Piece(top, x, labels[r][:cell], "label"))
        halving = r + 1 < len(rounds) and len(rounds[r + 1]) * 2 == len(rnd)
        following = r + 1 < len(rounds)
        for i, m in enumerate(rnd):
            a, b = rows[r][i]
            _match(state.matches[m.id], (a, b), x, cell, pieces)
            if following:
                target = (b if i % 2 == 0 else a) if halving else a
                _lines(a, b, target, x + cell, pieces)
    return max(b for rnd in rows for _, b in rnd) + 1


def _match(s: MatchState, rows: tuple[int, int], x: int, cell: int, pieces: list[Piece]) -> None:
    reset_skipped = s.match.section is Section.FINAL and s.match.round == 2 and s.walkover
    for seat, row in enumerate(rows):
        player = s.players[seat]
        if reset_skipped and seat == 1:
            pieces.append(Piece(row, x, "no reset"[:cell], "pending"))
            continue
        pieces.append(Piece(row, x, _cell(s, player, cell), _role(s, player)))


def _cell(s: MatchState, player: Slot, cell: int) -> str:
    """A slot's text, ``cell`` wide: the name and, once played, the games won."""
    if player is Empty.BYE:
        return "bye".ljust(cell)
    if player is Empty.PENDING:
        return "\u00b7" * (cell - 2) + "  "
    games = ""
    if s.result is not None:
        games = str(s.result.games[0] if player == s.result.winner else s.result.games[1])
    return f"{player[:cell - 2]:<{cell - 2}} {games:>1}"


def _role(s: MatchState, player: Slot) -> str:
    if not isinstance(player, str):
        return "pending"
    if s.winner == player:
        return "winner"
    if s.loser == player:
        return "loser"
    return "player"


def _lines(a: int, b: int, target: int, cx: int, pieces: list[Piece]) -> None:
    """The line from a match on rows ``a`` and ``b`` (its cells ending at
    column ``cx``) to the next round's place on row ``target``."""
    corner = {a: "\u2510", b: "\u2518"}
    for row in range(a, b + 1):
        if row == target:
            joint = "\u252c" if row == a else "\u2534" if row == b else "\u251c"
            pieces.append(Piece(row, cx, ("\u2500" if row in (a, b) else " ") + joint + "\u2500" * 2, "line"))
        elif row in corner:
            pieces.append(Piece(row, cx, "\u2500" + corner[row], "line"))
        else:
            pieces.append(Piece(row, cx, " \u2502", "line"))


def lines(pieces: list[Piece], width: int = 80) -> list[str]:
    """The pieces as plain rows of text (trailing spaces removed), ``width`` wide at most."""
    if not pieces:
        return []
    grid = [[" "] * width for _ in range(max(p.row for p in pieces) + 1)]
    for p in pieces:
        for i, ch in enumerate(p.text):
            if 0 <= p.col + i < width:
                grid[p.row][p.col + i] = ch
    return ["".join(row).rstrip() for row in grid]
