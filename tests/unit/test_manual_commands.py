"""Every command the README and the manual show is run here as far as it
can be without a running door: each ``cribbage-door ...`` line through the
command line's own parser (a subcommand or an option that does not exist
fails), each ``python3 -m bench.NAME`` a module with a ``main``.  The
manual's site is built strictly by ``.ci/run`` (``mkdocs build
--strict``): a broken link or a missing page fails it."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path

import pytest

from door.cli import _parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def shown_commands() -> list[tuple[str, str]]:
    """(page, command) for every command line of a ``sh`` block."""
    found = []
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #")[0].split(" # ")[0].strip()
                if re.match(r"(\.venv/bin/)?cribbage-door |python3 -m bench\.", line):
                    found.append((page.name, line))
    return found


def unit_commands() -> list[tuple[str, str]]:
    """(unit, command) for the ExecStart of every systemd unit in contrib/."""
    return [(unit.name, line.split("=", 1)[1].replace("/opt/cribbage-door/.venv/bin/", ""))
            for unit in sorted((ROOT / "contrib" / "systemd").glob("*.service"))
            for line in unit.read_text().splitlines() if line.startswith("ExecStart=")]


@pytest.mark.parametrize("unit,command", unit_commands())
def test_every_service_unit_starts_a_command_the_door_takes(unit: str, command: str) -> None:
    words = shlex.split(command)
    assert words[0] == "cribbage-door"
    args = _parser().parse_args(words[1:])
    assert args.command == "serve" and args.data_dir == "/var/lib/cribbage-door", unit


def test_the_manual_shows_commands() -> None:
    assert len(shown_commands()) >= 25


@pytest.mark.parametrize("page,command", shown_commands())
def test_every_command_shown_parses_or_exists(page: str, command: str) -> None:
    words = shlex.split(command)
    if words[0].endswith("cribbage-door"):
        try:
            _parser().parse_args(words[1:])
        except SystemExit as exc:
            assert exc.code == 0, f"{page}: {command!r} is not a command the door takes"
    else:
        module = importlib.import_module(words[2])
        assert callable(getattr(module, "main", None)), f"{page}: {words[2]} has no main"


def test_workers_auto_is_one_a_core_this_process_may_use() -> None:
    import os

    assert _parser().parse_args(["serve", "--workers", "auto"]).workers == len(os.sched_getaffinity(0))
    assert _parser().parse_args(["serve", "--workers", "3"]).workers == 3
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--workers", "many"])
