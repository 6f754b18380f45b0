"""``cribbage-door --version`` says the installed version, and the
changelog has a section for it (with its date) at the top."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_projects_and_the_changelog_tells_it() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    said = subprocess.run([sys.executable, "-m", "door.cli", "--version"], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert said.returncode == 0 and said.stdout.strip() == f"cribbage-door {version}", said.stdout + said.stderr
    changelog = (ROOT / "CHANGELOG.md").read_text()
    first = re.search(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d\d-\d\d)$", changelog, re.M)
    assert first and first.group(1) == version
    for section in ("### Upgrading", "### Added", "### Changed", "### Fixed"):
        assert section in changelog.split(f"## [{version}]")[1].split("\n## [")[0]
