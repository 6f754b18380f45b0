"""Issue 14.4: no text is cut off by the right edge, on any screen of a
few whole games (80x24 and 80x25, a twenty-character name, manual and
automatic counting, against the computer)."""

from __future__ import annotations

import pytest

from door.server import DoorServer
from door.ui.screen import Canvas, cell_width
from tests.loopback.test_options import full_game


@pytest.fixture
def clipped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every piece of text a screen put past the right edge (not blanks)."""
    cut: list[str] = []
    put = Canvas.put

    def watching(self: Canvas, row: int, col: int, text: str, style=None):  # type: ignore[no-untyped-def]
        edge = self.cols - (1 if row == self.rows - 1 else 0)  # the bottom-right cell is never written
        if self.rows >= 24 and 0 <= row < self.rows and col + cell_width(text) > edge:  # (screens, not parts)
            lost = text[max(0, edge - col):]
            if lost.strip():
                cut.append(f"{text!r} at column {col}")
        return put(self, row, col, text) if style is None else put(self, row, col, text, style)

    monkeypatch.setattr(Canvas, "put", watching)
    return cut


@pytest.mark.slow
@pytest.mark.parametrize("rows,keys", [(24, b""), (25, b"C"), (24, b"PS")], ids=["24-manual", "25-auto", "24-prompt"])
async def test_no_screen_of_a_whole_game_cuts_text_off(door: DoorServer, clipped: list[str], rows: int,
                                                       keys: bytes) -> None:
    await full_game(door, name="Jonathan Q Callender", option_keys=keys, rows=rows)
    assert not clipped, "\n".join(sorted(set(clipped)))
