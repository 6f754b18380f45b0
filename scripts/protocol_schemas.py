"""Write the game protocol's JSON Schemas into docs/protocol.md from the
code (``door.play.api_messages``): each ``### `name``` heading's json block
under "What a program sends" and "What the door sends" is replaced by the
schema the door checks and builds; a message the page does not have yet
is added at the end of its section, under a heading of its name, for a
sentence to be written above its schema.

    python3 scripts/protocol_schemas.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from door.play.api_messages import CLIENT_SCHEMAS, SERVER_SCHEMAS

PAGE = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
SECTIONS = {"What a program sends": CLIENT_SCHEMAS, "What the door sends": SERVER_SCHEMAS}


def _block(schema: dict[str, Any]) -> str:
    return "```json\n" + json.dumps(schema, indent=2) + "\n```"


def rewrite(text: str) -> str:
    """``text`` (the page) with every schema block written from the code."""
    for section, schemas in SECTIONS.items():
        start = text.index(f"## {section}\n")
        end = text.find("\n## ", start + 1)
        end = len(text) if end < 0 else end
        part = text[start:end]
        seen: set[str] = set()

        def replace(match: re.Match[str], schemas: dict[str, dict[str, Any]] = schemas, seen: set[str] = seen) -> str:
            name = match.group(1)
            seen.add(name)
            if name not in schemas:
                return match.group(0)
            return f"### `{name}`{match.group(2)}{_block(schemas[name])}"

        part = re.sub(r"### `(\w+)`(\n(?:(?!```|### )[^\n]*\n)*)```json\n.*?\n```", replace, part, flags=re.S)
        for name in schemas:
            if name not in seen:
                part = part.rstrip("\n") + f"\n\n### `{name}`\n\n{_block(schemas[name])}\n"
        rest = text[end:].lstrip("\n")
        text = text[:start] + part.rstrip("\n") + "\n" + (f"\n{rest}" if rest else "")
    return text


def main() -> None:
    PAGE.write_text(rewrite(PAGE.read_text()))


if __name__ == "__main__":
    main()
