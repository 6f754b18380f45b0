"""Write the game protocol's schemas into ``docs/protocol.md`` anew from
the door's own (:data:`door.play.api_messages.CLIENT_SCHEMAS` and
:data:`~door.play.api_messages.SERVER_SCHEMAS`), each under its message's
heading; review the diff, then commit it (``tests/unit/test_protocol_schemas.py``
holds the page and the door to be the same).

    python3 scripts/protocol_schemas.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from door.play.api_messages import CLIENT_SCHEMAS, SERVER_SCHEMAS  # noqa: E402

PAGE = ROOT / "docs" / "protocol.md"


def rewritten(text: str, section: str, schemas: dict[str, dict[str, Any]]) -> str:
    """``text`` with the schema under each ``### `type` `` heading of
    ``section`` written anew from ``schemas``."""
    start = text.index(f"## {section}\n")
    end = text.find("\n## ", start + 1)
    end = len(text) if end < 0 else end

    def schema(match: re.Match[str]) -> str:
        return f"### `{match.group(1)}`\n\n```json\n{json.dumps(schemas[match.group(1)], indent=2)}\n```"

    return text[:start] + re.sub(r"### `(\w+)`\n\n```json\n(.*?)\n```", schema, text[start:end], flags=re.S) + text[end:]


def main() -> None:
    text = rewritten(PAGE.read_text(), "What a program sends", CLIENT_SCHEMAS)
    PAGE.write_text(rewritten(text, "What the door sends", SERVER_SCHEMAS))


if __name__ == "__main__":
    main()
