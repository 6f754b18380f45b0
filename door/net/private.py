"""Files that hold secrets must be private to the user who runs the door:
the SSH host key, the database (password hashes), and a configuration file
that holds sysop password hashes.  The server refuses to start otherwise,
and says how to fix it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["SecretFileError", "check_private"]


class SecretFileError(RuntimeError):
    """A secret file that cannot be used: others can read (or write) it, or
    it holds too little; the message names it and says what fixes it."""


def check_private(path: Path, what: str) -> None:
    """Raise :class:`SecretFileError` when ``path`` (holding ``what``) can
    be read or written by its group or by others."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077:
        raise SecretFileError(f"{path} holds {what} but its mode is {mode:04o}, so other users can read it; "
                              f"run: chmod 600 {path}")
