"""Write the golden screens (``tests/golden/*.txt``) anew from the door's
own painters; review the diff, then commit it.

    python3 scripts/golden_screens.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.golden.screens import GOLDEN_DIR, render_all  # noqa: E402


def main() -> None:
    for name, text in asyncio.run(render_all()).items():
        path = GOLDEN_DIR / f"{name}.txt"
        old = path.read_text() if path.exists() else None
        path.write_text(text)
        print(f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}: "
              f"{'unchanged' if old == text else 'written'}")


if __name__ == "__main__":
    main()
