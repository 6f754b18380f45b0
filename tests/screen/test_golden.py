"""The golden screens.  A layout change fails here until
``python3 scripts/golden_screens.py`` writes the files anew and the diff is
committed, so a reviewer sees it."""

from __future__ import annotations

import pytest

from tests.golden.screens import GOLDEN_DIR, SCREENS, render_all


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    import asyncio

    return asyncio.run(render_all())


@pytest.mark.parametrize("name", SCREENS)
def test_the_screen_is_as_committed(rendered: dict[str, str], name: str) -> None:
    golden = (GOLDEN_DIR / f"{name}.txt").read_text()
    assert rendered[name] == golden, (f"the {name} screen changed; if that is meant, run "
                                      f"python3 scripts/golden_screens.py and commit the diff:\n{rendered[name]}")
