"""No text is cut off by the right edge, on any screen of a
few whole games (80x24 and 80x25, a twenty-character name, manual and
automatic counting, against the computer)."""

from __future__ import annotations

import pytest

from door.server import DoorServer
from tests.loopback.test_options import full_game


@pytest.mark.slow
@pytest.mark.parametrize("rows,keys", [(24, b""), (25, b"C"), (24, b"PS")], ids=["24-manual", "25-auto", "24-prompt"])
async def test_no_screen_of_a_whole_game_cuts_text_off(door: DoorServer, clipped: list[str], rows: int,
                                                       keys: bytes) -> None:
    await full_game(door, name="Jonathan Q Callender", option_keys=keys, rows=rows)
    assert not clipped, "\n".join(sorted(set(clipped)))
