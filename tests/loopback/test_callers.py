"""One caller challenges another, with real telnet clients.
The challenged caller sees the challenge over their menu; they accept or
decline; both chat and play a whole game through their own screens; it is
recorded for both as a game against a caller; a dropped caller comes back
to it; and a killed server leaves it kept for both, to go on with later."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from door.records.games import Opponent
from door.records.passwords import hash_password
from door.records.saved_games import GameStart
from door.records.store import DATABASE_NAME, Store
from door.server import DoorServer
from engine.rules import Rules
from tests.support.player import RIGHT, Player, TelnetCaller, log_in_as_guest, log_in_registered, telnet_caller
from tests.support.server import make_config, running, start_server_process

PASSWORD = "caller-secret"
GAME_ROWS = slice(1, 17)  # the board, the dealer line and both players' cards


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[DoorServer]:
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)  # a whole game in a few hands
    config.paging.page_timeout = 8
    async with running(config) as server:
        yield server


async def registered(port: int, store: Store, name: str, until: str = "Main menu") -> TelnetCaller:
    """A registered caller logged in over telnet with their password."""
    return await log_in_registered(port, store, name, PASSWORD, until)


async def challenge(challenger: TelnetCaller, name: str, run_mode: bytes = b"1", length: bytes = b"1") -> None:
    """From the main menu: 8, pick ``name`` from the list, choose the run
    mode and how long a match (``length``: 1, 3, 5, or R a rated best of 3)."""
    s = challenger.screen
    await s.wait_for(lambda: "8  Play another caller" in s.text())
    await challenger.send(b"8")
    listed = re.compile(rf"(\d)  {re.escape(name)}")
    await s.wait_for(lambda: "Callers at the main menu" in s.text() and listed.search(s.text()) is not None)
    number = listed.search(s.text())
    assert number, s.text()
    await challenger.send(number.group(1).encode())
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await challenger.send(run_mode)
    await s.wait_for(lambda: "How long a match?" in s.text())
    await challenger.send(length)
    await s.wait_for(lambda: f"Waiting for {name} to answer" in s.text())


async def in_a_game(door: DoorServer) -> tuple[TelnetCaller, TelnetCaller]:
    """Ann and Bob, registered, at a table together (Ann challenged Bob to
    one game and Bob accepted), both in chat mode before the first hand."""
    ann = await registered(door.telnet_port, door.store, "Ann")
    bob = await registered(door.telnet_port, door.store, "Bob")
    await challenge(ann, "Bob")
    await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
    await bob.send(b"y")
    await both_in_chat(ann, bob)
    return ann, bob


async def both_in_chat(*callers: TelnetCaller) -> None:
    for c in callers:
        await c.screen.wait_for(lambda c=c: c.screen.prompt().startswith("Chat"))


@pytest.mark.slow
async def test_two_callers_challenge_chat_and_play_a_whole_game(door: DoorServer) -> None:
    ann = await registered(door.telnet_port, door.store, "Ann")
    await ann.screen.wait_for(lambda: "Main menu" in ann.screen.text())
    assert "Play another caller" not in ann.screen.text()  # nobody else on line yet
    bob = await registered(door.telnet_port, door.store, "Bob")
    await challenge(ann, "Bob", run_mode=b"2")
    # the challenge shows over Bob's menu at once, with what is offered
    await bob.screen.wait_for(lambda: "Ann challenges you to a 61-point game, runs in exact order" in bob.screen.text())
    await bob.send(b"y")
    await both_in_chat(ann, bob)
    for c in (ann, bob):
        assert "runs in order" in c.screen.lines()[0]
        assert "computer" not in c.screen.lines()[1]
    # chat between hands, both ways; escape sequences arrive harmless
    await bob.send(b"hi \x1b[31mAnn\x07\r")
    await ann.screen.wait_for(lambda: "Bob: hi Ann" in ann.screen.text())
    await ann.send(b"good luck\r")
    await bob.screen.wait_for(lambda: "Ann: good luck" in bob.screen.text())
    # the sysop's view of who is on line says who plays whom
    doing = {p.name: p.activity() for p in door.ctx.lobby.callers()}
    assert doing["Ann"].startswith("vs Bob") and doing["Bob"].startswith("vs Ann"), doing
    mine, theirs = Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    for end in ends:
        assert re.search(r"(You win|Ann wins|Bob wins) \d+ to \d+!", end), end
    for c in (ann, bob):
        await c.screen.wait_for(lambda c=c: "Main menu" in c.screen.text())
    assert not door.ctx.lobby.tables
    # recorded once, for both, as a game between callers
    games = await door.store.games.recent()
    assert len(games) == 1 and games[0].players == ("Ann", "Bob") and games[0].opponent == Opponent.CALLER
    for name in ("Ann", "Bob"):
        stats = await door.store.statistics.player(name)
        assert stats is not None and stats.games == 1 and stats.vs_callers == 1 and stats.vs_computer == 0
    assert await door.store.saved.load((await door.store.accounts.find("Ann")).id) is None
    ann.close()
    bob.close()


async def bob_declines(ann: TelnetCaller, bob: TelnetCaller) -> None:
    """Ann challenges Bob, who says no; Ann is told, Bob is at his menu."""
    await challenge(ann, "Bob")
    await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
    await bob.send(b"n")
    await ann.screen.wait_for(lambda: "Bob declined." in ann.screen.text())
    await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())


async def test_a_declined_challenge_is_said_and_not_sent_again_at_once(door: DoorServer) -> None:
    ann = await log_in(door, "Ann")
    bob = await log_in(door, "Bob")
    await bob_declines(ann, bob)
    await ann.send(b" ")
    await ann.screen.wait_for(lambda: "Main menu" in ann.screen.text())
    await asyncio.sleep(1.2)  # the menu looks again each second
    assert "Play another caller" not in ann.screen.text()  # Bob is not pestered again at once
    # Bob may still challenge Ann
    await challenge(bob, "Ann")
    await ann.screen.wait_for(lambda: "Bob challenges you" in ann.screen.text())
    ann.close()
    bob.close()


async def test_calling_again_under_another_name_does_not_lift_the_cooldown(door: DoorServer) -> None:
    """A declined guest who hangs up and calls back (a new connection,
    another name) still may not challenge the same caller at once."""
    ann = await log_in(door, "Ann")
    bob = await log_in(door, "Bob")
    await bob_declines(ann, bob)
    ann.close()
    again = await log_in(door, "Annie")
    await asyncio.sleep(1.2)  # the menu looks again each second
    assert "Play another caller" not in again.screen.text()
    again.close()
    bob.close()


async def test_a_withdrawn_challenge_leaves_the_other_caller_free(door: DoorServer) -> None:
    ann = await log_in(door, "Ann")
    bob = await log_in(door, "Bob")
    await challenge(ann, "Bob")
    await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
    await ann.send(b"\x1b")
    await ann.screen.wait_for(lambda: "You withdrew the challenge." in ann.screen.text())
    await bob.screen.wait_for(lambda: "no longer waiting" in bob.screen.text())
    await bob.send(b" ")
    await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
    assert not door.ctx.lobby.challenges and not door.ctx.lobby.tables
    ann.close()
    bob.close()


async def log_in(door: DoorServer, name: str) -> TelnetCaller:
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, name)
    return caller


async def test_a_challenger_who_hangs_up_sends_the_other_back_to_the_menu(door: DoorServer) -> None:
    ann = await log_in(door, "Ann")
    bob = await log_in(door, "Bob")
    await challenge(ann, "Bob")
    await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
    ann.close()
    await bob.screen.wait_for(lambda: "no longer waiting" in bob.screen.text())
    assert not door.ctx.lobby.challenges
    bob.close()


async def test_a_dropped_caller_comes_back_to_the_game_between_callers(door: DoorServer) -> None:
    ann, bob = await in_a_game(door)
    bob.close()  # Bob's line drops
    await ann.screen.wait_for(lambda: "Bob's line dropped" in " ".join(ann.screen.text().split()))
    bob = await registered(door.telnet_port, door.store, "bob", until="is waiting for you")
    assert "Your game against Ann" in bob.screen.text()
    await bob.send(b"y")
    await ann.screen.wait_for(lambda: "Bob is back" in ann.screen.text())
    mine, theirs = Player(ann.screen, ann.send, name="Ann"), Player(bob.screen, bob.send, name="Bob")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    assert all(re.search(r"wins? \d+ to \d+!", e) for e in ends)
    ann.close()
    bob.close()


async def test_a_game_that_stops_waiting_while_its_caller_is_asked_is_not_sat_at(tmp_path: Path) -> None:
    """Bob comes back to the game that waits for his dropped line, and
    reads the question (go back to it?) until its wait runs out: his Y
    then finds the game over and says so, rather than seating him at a
    table that has ended (he was dealt cards nobody would ever answer)."""
    config = make_config(tmp_path / "data")
    config.rules = Rules(game_to=61)
    config.paging.rejoin_timeout = 2
    async with running(config) as door:
        ann, bob = await in_a_game(door)
        bob.close()  # Bob's line drops
        await ann.screen.wait_for(lambda: "Bob's line dropped" in " ".join(ann.screen.text().split()))
        bob = await registered(door.telnet_port, door.store, "bob", until="is waiting for you")
        await ann.screen.wait_for(lambda: "Main menu" in ann.screen.text(), timeout=10)  # the wait ran out
        assert not door.ctx.lobby.tables
        await bob.send(b"y")
        await bob.screen.wait_for(lambda: "ended before you answered" in " ".join(bob.screen.text().split()))
        assert not door.ctx.lobby.tables
        await bob.send(b" ")
        await bob.screen.wait_for(lambda: "Ask them to go on with it?" in bob.screen.text())  # the game kept
        ann.close()
        bob.close()


async def test_killed_server_keeps_a_game_between_callers_for_both(tmp_path: Path) -> None:
    """Killed with ``kill -9`` in the play, the server comes back: each
    caller is offered the game, one asks the other to go on with it, and
    both screens are where they were (same seats, cards and scores)."""
    data = tmp_path / "data"
    store = await Store.open(data / DATABASE_NAME)
    for name in ("Ann", "Bob"):
        await store.accounts.create(name, hash_password(PASSWORD))
    proc, port, _ = start_server_process(data)
    try:
        ann = await registered(port, store, "Ann")
        bob = await registered(port, store, "Bob")
        await challenge(ann, "Bob", run_mode=b"2")
        await bob.screen.wait_for(lambda: "Ann challenges you" in bob.screen.text())
        await bob.send(b"y")
        await both_in_chat(ann, bob)
        for c in (ann, bob):
            await c.send(b"\r")  # the dealer deals (the other is told to wait)
        for c in (ann, bob):
            await c.screen.wait_for(lambda c=c: c.screen.prompt().startswith("Choose 2 cards"))
            await c.send(b"\r" + RIGHT + b"\r\r")
        await ann.screen.wait_for(lambda: any(c.screen.prompt().startswith("Your turn") for c in (ann, bob)),
                                  timeout=15)
        pone = next(c for c in (ann, bob) if c.screen.prompt().startswith("Your turn"))
        dealer = bob if pone is ann else ann
        await pone.send(b"\r")  # the pone leads
        await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        before = {c is ann: c.screen.lines()[GAME_ROWS] for c in (ann, bob)}
        ann_deals = dealer is ann
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(10) == -signal.SIGKILL
        for c in (ann, bob):
            await asyncio.wait_for(c.done, 5)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, port, _ = start_server_process(data)
    try:
        bob = await registered(port, store, "Bob", until="Ask them to go on with it?")
        assert re.search(r"unfinished game #\d+ \(hand 1, you \d+, Ann \d+\)", " ".join(bob.screen.text().split()))
        await bob.send(b"n")  # kept for later: Bob waits at the menu
        await bob.screen.wait_for(lambda: "Main menu" in bob.screen.text())
        assert "R  Resume game #" in bob.screen.text()
        ann = await registered(port, store, "Ann", until="Ask them to go on with it?")
        assert re.search(r"unfinished game #\d+ \(hand 1, you \d+, Bob \d+\)", " ".join(ann.screen.text().split()))
        await ann.send(b"y")
        await bob.screen.wait_for(lambda: "Ann asks you to go on with your game #" in " ".join(bob.screen.text().split()))
        await bob.send(b"y")
        dealer = ann if ann_deals else bob
        await dealer.screen.wait_for(lambda: dealer.screen.prompt().startswith("Your turn"), timeout=15)
        await asyncio.sleep(0.3)
        assert ann.screen.lines()[GAME_ROWS] == before[True]
        assert bob.screen.lines()[GAME_ROWS] == before[False]
        assert "runs in order" in ann.screen.lines()[0]  # the rules it began with
        ann.close()
        bob.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        await store.close()


# -- challenge spam -----------------------------------------------------------


async def test_a_withdrawn_challenge_cools_down_and_leaves_the_victim_at_the_menu(door: DoorServer) -> None:
    """Two guests from one address challenge a caller and withdraw at once
    (the attack looped 102 times in 30 s): the victim is back at the menu
    without a key, and neither guest, nor anybody from their address, may
    challenge them again for the cool-down."""
    victim = await telnet_caller(door.telnet_port)
    await log_in_as_guest(victim, "Vic")
    spam = await telnet_caller(door.telnet_port)
    await log_in_as_guest(spam, "Spam")
    await challenge(spam, "Vic")
    await victim.screen.wait_for(lambda: "Spam challenges you" in victim.screen.text())
    await spam.send(b"\x1b")  # withdrawn at once
    await spam.screen.wait_for(lambda: "You withdrew the challenge" in spam.screen.text())
    # the victim is back at the menu without pressing anything, and told why
    await victim.screen.wait_for(lambda: "Main menu" in victim.screen.text())
    await victim.screen.wait_for(lambda: "no longer waiting for an answer" in victim.screen.text())
    await spam.send(b" ")
    await spam.screen.wait_for(lambda: "Main menu" in spam.screen.text())
    await asyncio.sleep(1.2)  # (the menu looks at who may be challenged every second)
    assert "Play another caller" not in spam.screen.text() or "Vic" not in await _opponents(spam)
    other = await telnet_caller(door.telnet_port)  # another guest from the same address
    await log_in_as_guest(other, "Spam2")
    await asyncio.sleep(1.2)
    assert "Play another caller" not in other.screen.text() or "Vic" not in await _opponents(other)
    for c in (victim, spam, other):
        c.close()


async def test_one_opponent_is_offered_in_words_that_read_right(door: DoorServer) -> None:
    """"Press 1 to 1 to challenge a caller"."""
    ann = await telnet_caller(door.telnet_port)
    await log_in_as_guest(ann, "Ann")
    bob = await telnet_caller(door.telnet_port)
    await log_in_as_guest(bob, "Bob")
    text = await _opponents(ann)
    assert "Press 1 to challenge a caller, ESC to go back." in text and "1 to 1" not in text
    ann.close()
    bob.close()


async def _opponents(caller: TelnetCaller) -> str:
    """The list of callers that "Play another caller" offers (then back to the menu)."""
    await caller.send(b"8")
    await caller.screen.wait_for(lambda: "Play another caller" in caller.screen.lines()[0])
    text = caller.screen.text()
    await caller.send(b"\x1b")
    await caller.screen.wait_for(lambda: "Main menu" in caller.screen.text())
    return text


async def test_a_caller_can_turn_challenges_off(door: DoorServer) -> None:
    vic = await telnet_caller(door.telnet_port)
    await log_in_as_guest(vic, "Vic")
    await vic.screen.wait_for(lambda: "C  Challenges from other callers: on" in vic.screen.text())
    await vic.send(b"c")
    await vic.screen.wait_for(lambda: "C  Challenges from other callers: off" in vic.screen.text())
    ann = await telnet_caller(door.telnet_port)
    await log_in_as_guest(ann, "Ann")
    await asyncio.sleep(1.2)
    assert "Play another caller" not in ann.screen.text()
    await vic.send(b"c")
    await ann.screen.wait_for(lambda: "8  Play another caller" in ann.screen.text())
    vic.close()
    ann.close()


async def test_a_challenge_does_not_take_the_victim_s_own_choice(door: DoorServer) -> None:
    """A menu key pressed while a challenge arrives is the caller's choice
    (the challenge is declined by it), not swallowed by the challenge."""
    vic = await telnet_caller(door.telnet_port)
    await log_in_as_guest(vic, "Vic")
    ann = await telnet_caller(door.telnet_port)
    await log_in_as_guest(ann, "Ann")
    lobby = door.ctx.lobby
    presences = {p.name: p for p in lobby.presences.values()}
    await asyncio.sleep(0.3)
    waiting = asyncio.create_task(lobby.challenge(presences["Ann"], presences["Vic"], Rules()))
    presences["Vic"].terminal.feed(b"4")  # the key and the challenge arrive together (the challenge a hair first)
    await vic.screen.wait_for(lambda: "Top players" in vic.screen.lines()[0])
    got = await asyncio.wait_for(waiting, 5)
    assert got.declined
    vic.close()
    ann.close()


def test_one_address_sends_a_few_challenges_a_minute() -> None:
    """The rate limit, by address, over accounts and guests alike (the lobby alone, on a clock)."""
    from door.config import PagingConfig
    from door.records.identity import Identity
    from door.sysop.lobby import CHALLENGE_RATE, CHALLENGE_RATE_WINDOW, Lobby
    from tests.support.memory_terminal import MemoryTerminal

    async def run() -> None:
        lobby = Lobby(PagingConfig(page_timeout=60))
        now = [1000.0]
        lobby.clock = lambda: now[0]
        spammers = [lobby.join(i, MemoryTerminal()) for i in (1, 2)]
        spammers[1].identity = Identity.of_account(7)  # one guest and one account, one address
        victims = [lobby.join(10 + i, MemoryTerminal()) for i in range(CHALLENGE_RATE + 2)]
        for p, name in zip([*spammers, *victims], ["S1", "S2", *(f"V{i}" for i in range(len(victims)))]):
            p.name = name
            lobby.at_menu(p, True)
        sent = 0
        for i, victim in enumerate(victims):
            spammer = spammers[i % 2]
            if not lobby.challenges_left(spammer):
                break
            task = asyncio.create_task(lobby.challenge(spammer, victim, Rules()))
            await asyncio.sleep(0)
            lobby.withdraw(spammer)
            await task
            sent += 1
        assert sent == CHALLENGE_RATE
        assert lobby.opponents(spammers[0]) and not lobby.challenges_left(spammers[0])
        now[0] += CHALLENGE_RATE_WINDOW
        assert lobby.challenges_left(spammers[0]) == CHALLENGE_RATE
        # and the victims already asked stay off limits for the cool-down, to both
        assert all(v not in lobby.opponents(s) for s in spammers for v in victims[:CHALLENGE_RATE])

    asyncio.run(run())


async def test_a_guest_opponent_who_drops_is_a_forfeit_said_and_recorded(door: DoorServer) -> None:
    """A guest who drops cannot come back; the registered
    caller who stayed was back at the menu with no word, offered to
    "resume" a game nobody could go on with."""
    ann = await registered(door.telnet_port, door.store, "Ann")
    gus = await telnet_caller(door.telnet_port)
    await log_in_as_guest(gus, "Gus")
    await challenge(ann, "Gus")
    await gus.screen.wait_for(lambda: "Ann challenges you" in gus.screen.text())
    await gus.send(b"y")
    await both_in_chat(ann, gus)
    gus.close()  # the guest's line drops
    s = ann.screen
    await s.wait_for(lambda: "Main menu" in s.text() and "you win by forfeit" in " ".join(s.text().split()),
                     timeout=10)
    assert "Resume" not in s.text()
    games = await door.store.games.recent("Ann")
    assert len(games) == 1 and games[0].winner == games[0].players.index("Ann") and games[0].forfeit
    assert await door.store.saved.load((await door.store.accounts.find("Ann")).id) is None
    ann.close()


async def test_a_kept_game_against_a_guest_is_never_offered_to_resume(door: DoorServer) -> None:
    """"R Resume game #715088", then "A guest cannot come back
    to a game" (a game kept from before, against a guest)."""
    from door.records.passwords import hash_password as hashed

    ann = await door.store.accounts.create("Ann", hashed(PASSWORD))
    await door.store.saved.begin(GameStart(ann.id, Opponent.CALLER.value, 715088, 0, Rules(game_to=61), (0, 0), seat=0,
                                 other_account=None, players=("Ann", "Gus")))
    caller = await registered(door.telnet_port, door.store, "Ann")
    s = caller.screen
    await s.wait_for(lambda: "Main menu" in s.text() and "cannot come back" in " ".join(s.text().split()))
    assert "Resume" not in s.text() and "Unfinished game" not in s.text()
    assert await door.store.saved.load(ann.id) is None
    caller.close()
