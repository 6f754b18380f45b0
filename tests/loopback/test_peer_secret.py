"""A node must prove the peer secret the store's other nodes prove: the
store keeps its fingerprint (never the secret), and a node started with
another secret (one it made itself because the file was not copied yet)
refuses to start, saying what to copy where, rather than failing at the
first hand-over."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from door.net.peer_socket import secret_fingerprint
from door.sysop.node_link import SecretMismatch
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running


async def test_a_node_with_another_secret_refuses_to_start(tmp_path: Path, postgres: PostgresServer) -> None:
    url = postgres.new_database()
    first, second = make_config(tmp_path / "a"), make_config(tmp_path / "b")
    first.store.url = second.store.url = url
    async with running(first) as node_a:
        assert node_a.link is not None and node_a.link.node_id is not None
        secret_a = (tmp_path / "a" / "peer_secret").read_bytes().strip()
        with pytest.raises(SecretMismatch, match="copy the peer secret file") as refused:
            async with running(second):
                pass  # (never reached)
        assert refused.value.kept == secret_fingerprint(secret_a)
        assert secret_a.decode() not in str(refused.value)  # the fingerprint, never the secret
        # the secret copied, it starts and joins
        shutil.copy(tmp_path / "a" / "peer_secret", tmp_path / "b" / "peer_secret")
        async with running(second) as node_b:
            assert node_b.link is not None and node_b.link.node_id != node_a.link.node_id


async def test_the_store_keeps_the_first_fingerprint(tmp_path: Path) -> None:
    from door.records.store import Store
    store = await Store.open(tmp_path / "door.sqlite")
    try:
        assert await store.nodes.agree_secret("aa" * 32) == "aa" * 32
        assert await store.nodes.agree_secret("aa" * 32) == "aa" * 32
        assert await store.nodes.agree_secret("bb" * 32) == "aa" * 32
    finally:
        await store.close()
