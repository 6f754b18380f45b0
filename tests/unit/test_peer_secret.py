"""The peer secret's file: made whole, private, and refused
with a clear message when it cannot be used."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from door.net.peer_socket import load_peer_secret
from door.net.private import SecretFileError


def test_it_is_made_private_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "data" / "peer_secret"
    secret = load_peer_secret(path)
    assert len(secret) == 64 and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_peer_secret(path) == secret
    assert [p.name for p in path.parent.iterdir()] == ["peer_secret"]  # no file of the making left behind


def test_workers_starting_together_read_one_whole_secret(tmp_path: Path) -> None:
    """The workers of one serve make it at once: none may read it half written."""
    for round_ in range(20):
        path = tmp_path / f"round{round_}" / "peer_secret"
        got: list[bytes | BaseException] = []

        def load() -> None:
            try:
                got.append(load_peer_secret(path))
            except BaseException as exc:  # noqa: BLE001 (what a worker would die of)
                got.append(exc)

        threads = [threading.Thread(target=load) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len({g if isinstance(g, bytes) else repr(g) for g in got}) == 1 and isinstance(got[0], bytes), got


@pytest.mark.parametrize("content,mode", [(b"short\n", 0o600), (b"x" * 64, 0o644)])
def test_a_secret_that_cannot_be_used_is_one_clear_error(tmp_path: Path, content: bytes, mode: int) -> None:
    path = tmp_path / "peer_secret"
    path.write_bytes(content)
    path.chmod(mode)
    with pytest.raises(SecretFileError, match=str(path)):
        load_peer_secret(path)
