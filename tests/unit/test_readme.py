"""The README is read on a fresh clone, by a new sysop (issue 33.3j)."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_the_readme_points_at_nothing_a_clone_does_not_have() -> None:
    assert "../shared" not in README and "shared/seeds" not in README


def test_the_sysop_section_says_the_config_must_be_private() -> None:
    section = README[README.index("## Playing the sysop"):]
    section = section[:section.index("\n## ", 1)]
    assert re.search(r"chmod 600 conf/door\.toml", section), "the server refuses a 0644 config with sysop hashes"
