"""The README and the manual are read on a fresh clone, by a new sysop."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
MANUAL = {p.name: p.read_text() for p in sorted((ROOT / "docs").glob("*.md"))}


def test_the_readme_points_at_nothing_a_clone_does_not_have() -> None:
    for text in (README, *MANUAL.values()):
        assert "../shared" not in text and "shared/seeds" not in text
    for link in re.findall(r"\]\(([^)#:]+)\)", README):  # every file the README links to is in the clone
        assert (ROOT / link).exists(), link


def test_the_readme_is_short_and_the_manual_says_the_rest() -> None:
    assert README.count("\n") <= 160
    assert {"playing.md", "people.md", "ranked.md", "shuffle.md", "running.md", "machines.md", "bbs.md",
            "rules.md", "architecture.md", "nodes.md", "benchmarks.md"} <= set(MANUAL)


def test_the_sysop_section_says_the_config_must_be_private() -> None:
    page = MANUAL["people.md"]
    section = page[page.index("## Playing the sysop"):]
    section = section[:section.index("\n## ", 1)]
    assert re.search(r"chmod 600 conf/door\.toml", section), "the server refuses a 0644 config with sysop hashes"
