"""Games that live in the store: a table whose players have all gone is
not kept in any node's memory, and is taken up from the store by the
node its players call."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest

from door.caller import kept
from door.play.table import Table
from door.records import kept_list
from door.records.game_kinds import GameKind
from door.records.games import Opponent
from door.records.passwords import hash_password
from door.records.saved_games import GameStart
from door.records.store import Store
from engine.game import replay
from engine.rules import Rules
from tests.loopback.test_callers import PASSWORD, both_in_chat, challenge, registered
from tests.loopback.test_resume import GAME_ROWS
from tests.support.player import RIGHT
from tests.support.postgres import PostgresServer
from tests.support.server import make_config, running

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")


def _tables(besides: weakref.WeakSet[Table] | None = None) -> list[Table]:
    """The :class:`Table` objects alive in this process, but ``besides``
    (those alive before the test: an earlier test's stopped door, in the
    same worker process, may leave its tables to the collector's next
    pass, and it was counted)."""
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, Table) and (besides is None or o not in besides)]


async def test_a_table_whose_players_have_all_gone_leaves_memory_and_resumes_on_another_node(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Ann and Bob play at node A, in the play of their first hand; both
    hang up.  A keeps no table (not one :class:`~door.play.table.Table`
    object is left in the process, as ``gc`` finds them), and the game is
    in the store: both call node B, and it goes on there with the same
    seats, cards and scores."""
    url = postgres.new_database()
    store = await Store.open(url)
    for name in ("Ann", "Bob"):
        await store.accounts.create(name, hash_password(PASSWORD))
    configs = []
    for node in ("a", "b"):
        config = make_config(tmp_path / node)
        config.store.url = url
        config.store.peer_secret_file = str(tmp_path / "peer_secret")
        configs.append(config)
    try:
        earlier: weakref.WeakSet[Table] = weakref.WeakSet(_tables())
        async with running(configs[0]) as node_a, running(configs[1]) as node_b:
            assert _tables(earlier) == []
            ann = await registered(node_a.telnet_port, store, "Ann")
            bob = await registered(node_a.telnet_port, store, "Bob")
            await challenge(ann, "Bob", run_mode=b"2")
            await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
            await bob.send(b"y")
            await both_in_chat(ann, bob)
            for c in (ann, bob):
                await c.send(b"\r")
            for c in (ann, bob):
                await c.screen.wait_for(lambda c=c: c.screen.prompt().startswith("Choose 2 cards"))
                await c.send(b"\r" + RIGHT + b"\r\r")
            await ann.screen.wait_for(lambda: any(c.screen.prompt().startswith("Your turn") for c in (ann, bob)),
                                      timeout=15)
            pone = next(c for c in (ann, bob) if c.screen.prompt().startswith("Your turn"))
            dealer = bob if pone is ann else ann
            await pone.send(b"\r")
            await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
            await asyncio.sleep(0.3)
            before = {c is ann: c.screen.lines()[GAME_ROWS] for c in (ann, bob)}
            ann_deals = dealer is ann
            assert len(_tables(earlier)) == 1
            for c in (ann, bob):
                c.close()
                await asyncio.wait_for(c.done, 5)
            async with asyncio.timeout(10):
                while node_a.sessions or node_a.ctx.lobby.tables:
                    await asyncio.sleep(0.05)
            assert _tables(earlier) == []  # nobody connected: no table in memory, on any node

            bob = await registered(node_b.telnet_port, store, "Bob", until="Ask them to go on with it?")
            await bob.send(b"n")  # kept for later: Bob waits at B's menu
            await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
            ann = await registered(node_b.telnet_port, store, "Ann", until="Ask them to go on with it?")
            await ann.send(b"y")
            await bob.screen.wait_for(lambda: "Ann asks you to go on with your game #" in " ".join(
                bob.screen.text().split()), timeout=10)
            await bob.send(b"y")
            dealer = ann if ann_deals else bob
            await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
            await asyncio.sleep(0.3)
            assert ann.screen.lines()[GAME_ROWS] == before[True]
            assert bob.screen.lines()[GAME_ROWS] == before[False]
            for c in (ann, bob):
                c.close()
    finally:
        await store.close()


async def _keep(store: Store, start: GameStart) -> int:
    """A kept game as a table's journal would have begun it (dealt, no move yet)."""
    return await store.saved.begin(start)


async def _pick(caller, shown: str) -> None:  # type: ignore[no-untyped-def]
    """R at the menu, then the number of the kept game whose line shows ``shown``."""
    s = caller.screen
    await s.wait_for(lambda: "Resume one of your 3 unfinished games" in s.text())
    await caller.send(b"r")
    await s.wait_for(lambda: "Your unfinished games:" in s.text())
    line = next(line for line in s.lines() if shown in line)
    await caller.send(line.split()[0].encode())


async def test_three_unfinished_games_of_one_account_are_kept_at_once_and_each_goes_on(tmp_path: Path) -> None:
    """Ann keeps a game against the computer, a game with Bob and a game of
    a match with Cy, all at once: at login she is told there are three and
    offered the last one moved; R on the menu lists them, and each goes on
    from the list (the computer's at once; Bob and Cy asked, and seated)."""
    config = make_config(tmp_path / "data")
    async with running(config) as door:
        store = door.store
        ids = {}
        for name in ("Ann", "Bob", "Cy"):
            ids[name] = (await store.accounts.create(name, hash_password(PASSWORD))).id
        rules = Rules(game_to=61)
        await _keep(store, GameStart(ids["Ann"], Opponent.COMPUTER, 101, 0, rules, (0, 0),
                                     players=("Ann", "Computer"), kind=GameKind.COMPUTER))
        await _keep(store, GameStart(ids["Ann"], Opponent.CALLER, 102, 0, rules, (0, 0), 0, ids["Bob"],
                                     ("Ann", "Bob"), kind=GameKind.CALLER))
        await _keep(store, GameStart(ids["Cy"], Opponent.CALLER, 103, 0, rules, (1, 0), 0, ids["Ann"],
                                     ("Cy", "Ann"), kind=GameKind.MATCH))
        assert len(await store.saved.unfinished(ids["Ann"])) == 3

        ann = await registered(door.telnet_port, store, "Ann", until="Unfinished game")
        assert "You have 3 unfinished games" in " ".join(ann.screen.text().split())
        await ann.send(b"n")
        await _pick(ann, "against the computer")
        await ann.screen.wait_for(lambda: "RETURN on a blank line deals" in ann.screen.text(), timeout=15)
        await ann.send(b"\r")
        await ann.screen.wait_for(lambda: ann.screen.prompt().startswith("Choose 2 cards"), timeout=15)
        assert "#101" in ann.screen.text()
        await ann.send(b"q")
        await ann.screen.wait_for(lambda: "(Y/N)" in ann.screen.text())
        await ann.send(b"y")  # (against the computer a game left is kept)

        bob = await registered(door.telnet_port, store, "Bob", until="Ask them to go on with it?")
        await bob.send(b"n")
        await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
        await _pick(ann, "Bob")
        await bob.screen.wait_for(lambda: "Ann asks you to go on with your game #102" in " ".join(
            bob.screen.text().split()), timeout=10)
        await bob.send(b"y")
        await both_in_chat(ann, bob)

        cy = await registered(door.telnet_port, store, "Cy", until="Ask them to go on with it?")
        await cy.send(b"n")
        await cy.screen.wait_for(lambda: "Main menu" in cy.screen.text())
        assert len(await store.saved.unfinished(ids["Ann"])) == 3  # (all three still kept)
        for c in (ann, bob, cy):
            c.close()


async def test_the_menu_lists_many_kept_games_without_replaying_them(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann keeps sixteen games with other callers, each row saying where it
    stands: the menu, drawn three times, and R's list read no game's log;
    only the game offered at login is replayed (once), and the list shows
    each as it stands."""
    replays: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        replays.append(args[1])
        return replay(*args, **kwargs)
    for module in (kept, kept_list):
        monkeypatch.setattr(module, "replay", counted)
    config = make_config(tmp_path / "data")
    async with running(config) as door:
        store = door.store
        ann = (await store.accounts.create("Ann", hash_password(PASSWORD))).id
        rules = Rules(game_to=61)
        for i in range(16):
            other = (await store.accounts.create(f"Player{i}", hash_password(PASSWORD))).id
            kind, points = (GameKind.CALLER, (0, 0)) if i < 8 else (GameKind.MATCH, (1, 0))
            await _keep(store, GameStart(ann, Opponent.CALLER, 200 + i, 0, rules, points, 0, other,
                                         ("Ann", f"Player{i}"), kind=kind))
        await store.saved.database.tx(lambda db: db.execute(
            "UPDATE saved_games SET hand = 2, score0 = 7, score1 = 5"))

        caller = await registered(door.telnet_port, store, "Ann", until="Ask them to go on with it?")
        assert len(replays) == 1
        await caller.send(b"n")
        s = caller.screen
        for _ in range(2):
            await s.wait_for(lambda: "Resume one of your 16 unfinished games" in s.text())
            await caller.send(b"r")
            await s.wait_for(lambda: "Your unfinished games:" in s.text())
            assert "(hand 2, you 7, Player" in s.text()
            await caller.send(b"\x1b")
        await s.wait_for(lambda: "Resume one of your 16 unfinished games" in s.text())
        assert len(replays) == 1
        caller.close()
