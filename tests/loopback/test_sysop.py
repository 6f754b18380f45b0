"""Playing the sysop, with real clients: a telnet caller pages, the sysop
(SSH, key login) accepts, they chat between hands and play a whole game;
declined and unanswered pages fall back to the computer; the local console
over its Unix socket; messages, disconnects, a dropped caller who comes back;
and nobody but a sysop reaches the console."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from door.net.console_socket import CONSOLE_SOCKET
from door.server import DoorServer
from tests.support.clients import console_client, watch
from tests.support.player import ClientScreen, Player, log_in_as_guest, log_in_registered, telnet_caller
from tests.support.server import make_config, running, with_sysop

SYSOP_PASSWORD = "sysop-secret"


@pytest.fixture
async def door(tmp_path: Path, sysop_key: asyncssh.SSHKey) -> AsyncIterator[DoorServer]:
    config = with_sysop(make_config(tmp_path / "data"), "Sysop", SYSOP_PASSWORD, sysop_key)
    config.paging.page_timeout = 5
    async with running(config) as server:
        yield server


class SysopSide:
    """An asyncssh client logged in as the sysop, its screen through pyte."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess,
                 screen: ClientScreen, task: asyncio.Task[None]) -> None:
        self.conn, self.process, self.screen, self.task = conn, process, screen, task
        self.raw = screen.raw

    async def send(self, data: bytes) -> None:
        self.process.stdin.write(data)


async def sysop_login(door: DoorServer, key: asyncssh.SSHKey) -> SysopSide:
    conn = await asyncssh.connect("127.0.0.1", door.ssh_port, username="sysop", client_keys=[key], password=None,
                                  known_hosts=None, agent_path=None, config=None)
    process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    screen, task = watch(process, 80, 24)
    side = SysopSide(conn, process, screen, task)
    await screen.wait_for(lambda: "SYSOP CONSOLE" in screen.text())
    return side


async def guest(door: DoorServer, name: str):
    caller = await telnet_caller(door.telnet_port)
    await log_in_as_guest(caller, name)
    return caller


async def page(caller, reason: bytes) -> None:
    s = caller.screen
    await s.wait_for(lambda: "Play the sysop" in s.text())
    await caller.send(b"6")
    await s.wait_for(lambda: "Reason:" in s.text())
    await caller.send(reason + b"\r")
    await s.wait_for(lambda: "Paging the sysop" in s.text())


@pytest.mark.slow
async def test_caller_and_sysop_page_chat_and_play_a_whole_game(door: DoorServer, sysop_key) -> None:
    sysop = await sysop_login(door, sysop_key)
    caller = await guest(door, "Ann")
    await sysop.screen.wait_for(lambda: "Ann" in sysop.screen.text() and "main menu" in sysop.screen.text())
    await page(caller, b"fancy a game?")
    # the page rings on the console: bell and banner
    await sysop.screen.wait_for(lambda: "PAGE from Ann" in sysop.screen.text())
    assert "fancy a game?" in sysop.screen.text() and b"\x07" in sysop.raw
    await sysop.send(b"y")
    s = caller.screen
    await s.wait_for(lambda: "accepted your page" in s.text())
    await caller.send(b"2")  # the caller picks the run mode (the original door)
    await s.wait_for(lambda: s.prompt().startswith("Chat"))
    await sysop.screen.wait_for(lambda: sysop.screen.prompt().startswith("Chat"))
    assert "runs in order" in s.lines()[0] and "runs in order" in sysop.screen.lines()[0]
    assert "The rules:" in s.text() and "The rules:" in sysop.screen.text()  # both see the rules first
    # chat between hands, both ways; escape sequences arrive harmless
    await caller.send(b"hello sysop\r")
    await sysop.screen.wait_for(lambda: "Ann: hello sysop" in sysop.screen.text())
    await sysop.send(b"\x1b[2Jhi \x1b[31mAnn\x07\r")
    await s.wait_for(lambda: "Sysop: hi Ann" in s.text())  # the sequences never reach the caller
    assert "Ann" in s.lines()[2]  # the board is still there: nothing cleared the caller's screen
    assert "computer" not in s.lines()[1]  # the rules box: no computer in this game
    # both play the whole game through their own screens
    mine = Player(s, caller.send, name="Ann")
    theirs = Player(sysop.screen, sysop.send, name="Sysop")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    for end in ends:
        assert re.search(r"(You win|Ann wins|Sysop wins) \d+ to \d+!", end), end
    assert mine.counts and theirs.counts  # both counted their own hands
    await s.wait_for(lambda: "Main menu" in s.text())  # both said N to another game
    await sysop.screen.wait_for(lambda: "SYSOP CONSOLE" in sysop.screen.text())
    assert not door.ctx.lobby.tables
    caller.close()
    sysop.conn.close()


async def test_declined_page_offers_the_computer(door: DoorServer, sysop_key) -> None:
    sysop = await sysop_login(door, sysop_key)
    caller = await guest(door, "Bob")
    await page(caller, b"")
    await sysop.screen.wait_for(lambda: "PAGE from Bob" in sysop.screen.text())
    await sysop.send(b"n")
    s = caller.screen
    await s.wait_for(lambda: "not available" in s.text())
    await caller.send(b"y")
    await s.wait_for(lambda: "Press 1 or 2" in s.text() and "Options for this game" in s.text())
    caller.close()
    sysop.conn.close()


async def test_unanswered_page_times_out(door: DoorServer, sysop_key) -> None:
    door.ctx.lobby.paging.page_timeout = 1
    sysop = await sysop_login(door, sysop_key)
    caller = await guest(door, "Cy")
    await page(caller, b"anyone?")
    await caller.screen.wait_for(lambda: "not available" in caller.screen.text(), timeout=5)
    await sysop.screen.wait_for(lambda: "0 page(s) waiting" in sysop.screen.text())
    caller.close()
    sysop.conn.close()


async def test_no_sysop_no_paging(door: DoorServer) -> None:
    caller = await guest(door, "Dee")
    assert "Play the sysop" not in caller.screen.text()
    caller.close()


async def test_local_console_socket_lists_messages_and_disconnects(door: DoorServer) -> None:
    path = Path(door.config.server.data_dir) / CONSOLE_SOCKET
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    caller = await guest(door, "Eve")
    reader, writer = await asyncio.open_unix_connection(str(path))
    writer.write(b"CONSOLE 80 24 xterm\n")
    console = ClientScreen(80, 24)

    async def pump() -> None:
        while data := await reader.read(4096):
            console.feed(data)

    task = asyncio.create_task(pump())
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text() and "Eve" in console.text())
    row = next(line for line in console.lines() if "Eve" in line)
    assert "telnet" in row and "127.0.0.1" in row and "main menu" in row
    writer.write(b"m")
    await console.wait_for(lambda: "Message to Eve" in console.text())
    writer.write(b"tea is ready\r")
    await caller.screen.wait_for(lambda: "Message from the sysop: tea is ready" in caller.screen.text())
    writer.write(b"k")
    await console.wait_for(lambda: "Disconnect Eve?" in console.text())
    writer.write(b"y")
    await asyncio.wait_for(caller.done, 5)
    assert "The sysop has ended your call" in caller.screen.text()
    await console.wait_for(lambda: "Nobody is on line" in console.text())
    writer.write(b"q")
    await asyncio.wait_for(task, 5)
    writer.close()


async def test_console_socket_is_closed_to_other_users(door: DoorServer) -> None:
    system_python = Path("/usr/bin/python3")
    if os.getuid() != 0 or not system_python.exists():
        pytest.skip("needs root and a system python3 to run a client as another user")
    path = Path(door.config.server.data_dir) / CONSOLE_SOCKET
    code = ("import socket,sys\ns=socket.socket(socket.AF_UNIX)\n"
            "try:\n s.connect(sys.argv[1]); print('connected', s.recv(200))\n"
            "except OSError as e:\n print('refused', e.errno)\n")

    async def as_nobody() -> str:
        proc = await asyncio.create_subprocess_exec(str(system_python), "-c", code, str(path), cwd="/",
                                                    stdout=subprocess.PIPE, preexec_fn=lambda: os.setuid(65534))
        out, _ = await proc.communicate()
        return out.decode()

    # The socket file is 0600: another user cannot connect.  (The server also
    # refuses any peer whose SO_PEERCRED uid differs from its own; this
    # sandbox refuses such connections even to a socket open to all, so that
    # second guard cannot be driven from here.)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert (await as_nobody()).startswith("refused 13")


async def to_the_chat(sysop: SysopSide, caller, name: str) -> None:
    """The caller ``name`` pages, the sysop accepts, the caller picks run
    mode 1: both are in chat mode before the first hand."""
    await page(caller, b"")
    await sysop.screen.wait_for(lambda: f"PAGE from {name}" in sysop.screen.text())
    await sysop.send(b"y")
    await caller.screen.wait_for(lambda: "accepted your page" in caller.screen.text())
    await caller.send(b"1")
    await caller.screen.wait_for(lambda: caller.screen.prompt().startswith("Chat"))


async def registered(door: DoorServer, name: str, password: str = "flo-secret", until: str = "Main menu"):
    """A registered caller logged in over telnet with their password."""
    return await log_in_registered(door.telnet_port, door.store, name, password, until)


async def test_dropped_caller_comes_back_and_finishes(door: DoorServer, sysop_key) -> None:
    sysop = await sysop_login(door, sysop_key)
    caller = await registered(door, "Flo")
    await to_the_chat(sysop, caller, "Flo")
    caller.close()  # the line drops
    await sysop.screen.wait_for(lambda: "Flo's line dropped" in " ".join(sysop.screen.text().split()), timeout=2)
    assert "come back" in sysop.screen.prompt()
    # the countdown runs by itself (the key loop's clock starts with the
    # drop; it is stopped while nobody is away)
    shown = sysop.screen.prompt()
    await sysop.screen.wait_for(lambda: "come back" in sysop.screen.prompt() and sysop.screen.prompt() != shown,
                                timeout=2.5)
    caller = await registered(door, "flo", until="is waiting for you")
    await caller.send(b"y")
    s = caller.screen
    await s.wait_for(lambda: s.prompt().startswith("Chat") or "Choose 2" in s.prompt() or "turn" in s.prompt())
    await sysop.screen.wait_for(lambda: "Flo is back" in sysop.screen.text())
    mine = Player(s, caller.send, name="Flo")
    theirs = Player(sysop.screen, sysop.send, name="Sysop")
    ends = await asyncio.gather(mine.play(timeout=200), theirs.play(timeout=200))
    assert all(re.search(r"wins? \d+ to \d+!", e) for e in ends)
    caller.close()
    sysop.conn.close()


async def test_a_dropped_seat_goes_back_to_the_same_account_never_to_a_name(door: DoorServer, sysop_key) -> None:
    """A guest who types the dropped player's name is not
    offered their seat; the account is."""
    sysop = await sysop_login(door, sysop_key)
    caller = await registered(door, "Flo")
    await to_the_chat(sysop, caller, "Flo")
    caller.close()
    await sysop.screen.wait_for(lambda: "Flo's line dropped" in " ".join(sysop.screen.text().split()), timeout=5)
    impostor = await telnet_caller(door.telnet_port)
    s = impostor.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    await impostor.send(b"\xef\xbc\xa6lo\r")  # a full-width F: the same name as Flo
    await s.wait_for(lambda: "Password:" in s.text())  # it is Flo's account, so it asks Flo's password
    assert "is waiting for you" not in s.text()
    impostor.close()
    back = await registered(door, "flo", until="is waiting for you")
    await back.send(b"y")
    await sysop.screen.wait_for(lambda: "Flo is back" in sysop.screen.text())
    back.close()
    sysop.conn.close()


async def test_a_guest_who_drops_ends_the_game_at_once(door: DoorServer, sysop_key) -> None:
    sysop = await sysop_login(door, sysop_key)
    caller = await guest(door, "Gus")
    await to_the_chat(sysop, caller, "Gus")
    caller.close()
    await sysop.screen.wait_for(lambda: "Nobody is on line" in sysop.screen.text(), timeout=10)
    assert not door.ctx.lobby.tables  # no table waits for a guest nobody could prove to be
    sysop.conn.close()


@pytest.mark.parametrize("typed", [b"Sysop", b"SYSOP", b"Sys\xc2\xadop", b"Computer", b"\xef\xbd\x83omputer"])
async def test_nobody_takes_a_sysop_name_or_the_computer_s(door: DoorServer, typed: bytes) -> None:
    caller = await telnet_caller(door.telnet_port)
    s = caller.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    await caller.send(typed + b"\r")
    await s.wait_for(lambda: "is reserved" in s.text())
    caller.close()


async def test_ssh_user_names_are_offered_only_as_they_could_be_typed(door: DoorServer) -> None:
    for user, offered in [("Ann ", False), ("Ann", True), ("Sysop", None), ("An\u200bn", False)]:
        if offered is None:
            continue  # the sysop's name needs the sysop's key (test_ssh_auth)
        async with asyncssh.connect("127.0.0.1", door.ssh_port, username=user, known_hosts=None, client_keys=None,
                                    password=None, agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            screen, task = watch(process, 80, 24)
            await screen.wait_for(lambda: "Your name:" in screen.text())
            line = next(x for x in screen.lines() if "Your name:" in x)
            assert ("Ann" in line) is offered, line
            task.cancel()


async def test_only_sysops_reach_the_console(door: DoorServer, sysop_key) -> None:
    other = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", door.ssh_port, username="sysop", client_keys=[other], password=None,
                               known_hosts=None, agent_path=None, config=None)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", door.ssh_port, username="Sysop", client_keys=None,
                               password="not-the-password", known_hosts=None, agent_path=None, config=None)
    # the right password works too, and reaches the console
    async with asyncssh.connect("127.0.0.1", door.ssh_port, username="Sysop", client_keys=None,
                                password=SYSOP_PASSWORD, known_hosts=None, agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen, task = watch(process, 80, 24)
        await screen.wait_for(lambda: "SYSOP CONSOLE" in screen.text())
        process.stdin.write(b"q")
        await asyncio.wait_for(task, 5)
    # a caller's own login never gets the console
    caller = await guest(door, "Gil")
    assert "SYSOP CONSOLE" not in caller.screen.text()
    caller.close()


async def open_console(door: DoorServer):
    return await console_client(Path(door.config.server.data_dir))


async def test_watch_a_game_with_hands_hidden_and_away(door: DoorServer) -> None:
    writer, console, task = await open_console(door)
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
    caller = await guest(door, "Hal")
    s = caller.screen
    assert "Play the sysop" in s.text()
    writer.write(b"a")  # away: the caller's menu stops offering the sysop
    await console.wait_for(lambda: "AWAY" in console.text())
    await s.wait_for(lambda: "Play the sysop" not in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "blank line deals" in s.text())
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    await console.wait_for(lambda: "vs computer, hand 1 0-0" in console.text())
    writer.write(b"w")
    await console.wait_for(lambda: "Watching Hal against Computer" in console.text())
    text = console.text()
    assert "Hal's cards" in text and "Computer's cards" in text
    # neither hand is shown to the watcher: card backs, no faces
    hal_row = console.row_of("Hal's cards") + 2
    assert "\u2592\u2592\u2592\u2592" in console.lines()[hal_row] and not console.cards_in_row(hal_row)
    assert s.cards_in_row(s.row_of("Your cards") + 2)  # while the caller sees their own
    writer.write(b"\x1b")
    await console.wait_for(lambda: "Who" in console.text() or "Name" in console.text())
    writer.write(b"q")
    await asyncio.wait_for(task, 5)
    caller.close()


async def test_the_console_stops_watching_a_game_that_ends(door: DoorServer) -> None:
    """The console kept a game that had ended on its watch screen (and said
    so on its list); now it goes back to the list and says why."""
    writer, console, task = await open_console(door)
    await console.wait_for(lambda: "SYSOP CONSOLE" in console.text())
    writer.write(b"a")
    await console.wait_for(lambda: "AWAY" in console.text())
    caller = await guest(door, "Ida")
    s = caller.screen
    await caller.send(b"1")
    await s.wait_for(lambda: "Press 1 or 2" in s.text())
    await caller.send(b"1")
    await s.wait_for(lambda: "blank line deals" in s.text())
    await caller.send(b"\r")
    await s.wait_for(lambda: s.prompt().startswith("Choose 2 cards"))
    await console.wait_for(lambda: "vs computer" in console.text())
    writer.write(b"w")
    await console.wait_for(lambda: "Watching Ida against Computer" in console.text())
    await caller.send(b"q")
    await s.wait_for(lambda: "Leave this game?" in s.text())
    await caller.send(b"y")  # the game ends (a guest's, against the computer: not kept)
    await console.wait_for(lambda: "the game you watched has ended" in console.text(), timeout=10)
    assert "Watching Ida" not in console.text()
    writer.write(b"q")
    await asyncio.wait_for(task, 5)
    caller.close()


async def test_wide_and_combining_names_keep_the_console_s_columns(door: DoorServer, sysop_key) -> None:
    """The sysop's list of callers with a twenty-cell name."""
    sysop = await sysop_login(door, sysop_key)
    callers = [await guest(door, name) for name in ("\u732b" * 10, "Zoe\u0308", "Al")]
    s = sysop.screen
    await s.wait_for(lambda: sum("telnet" in line for line in s.lines()) == 3)
    header = next(line for line in s.lines() if "Via" in line)
    via = header.index("Via")
    rows = [r for r in range(len(s.lines())) if "telnet" in s.lines()[r]]
    for r in rows:  # pyte places "telnet" by cells: the same cell on every row
        cells = "".join(s.screen.buffer[r][c].data or "\x00" for c in range(80))
        assert cells.index("telnet") == via, s.text()
    for c in callers:
        c.close()
    sysop.conn.close()


async def test_leaving_a_sysop_game_on_purpose_is_not_a_dropped_line(door: DoorServer, sysop_key) -> None:
    """Q, Y takes the caller to the menu at once; the sysop is
    told that they left (not that their line dropped) and is back at the
    console; the game is the caller's loss by forfeit."""
    sysop = await sysop_login(door, sysop_key)
    caller = await registered(door, "Lea")
    await to_the_chat(sysop, caller, "Lea")
    s = caller.screen
    await caller.send(b"\x03")  # Ctrl-C (in chat mode Q is a letter of the chat line)
    await s.wait_for(lambda: "Leave this game? (Y/N)" in s.text())
    await caller.send(b"y")
    await s.wait_for(lambda: "Main menu" in s.text(), timeout=5)
    flat = lambda: " ".join(sysop.screen.text().split())  # noqa: E731
    await sysop.screen.wait_for(lambda: "SYSOP CONSOLE" in sysop.screen.text() and "Lea left the game" in flat(),
                                timeout=5)
    assert "line dropped" not in flat()
    assert not door.ctx.lobby.tables
    games = await door.store.games.recent("Lea")
    assert len(games) == 1 and games[0].winner == 1  # seat 1, the sysop, won by forfeit
    caller.close()
    sysop.conn.close()


async def test_a_refused_deal_is_said_in_the_chat_and_goes_with_it(door: DoorServer, sysop_key) -> None:
    """"Sysop deals: wait for RETURN..." stayed on screen after the deal."""
    sysop = await sysop_login(door, sysop_key)
    caller = await guest(door, "Dee")
    await to_the_chat(sysop, caller, "Dee")
    await sysop.screen.wait_for(lambda: sysop.screen.prompt().startswith("Chat"))
    if "Sysop deals" in caller.screen.prompt():
        waiting, dealing = caller, sysop
    else:
        waiting, dealing = sysop, caller
    await waiting.send(b"\r")  # RETURN on a blank line, but it is not theirs to deal
    await waiting.screen.wait_for(lambda: "wait for RETURN" in waiting.screen.text())
    await dealing.send(b"\r")
    await waiting.screen.wait_for(lambda: "Choose 2 cards" in waiting.screen.prompt())
    assert "wait for RETURN" not in waiting.screen.text()
    caller.close()
    sysop.conn.close()


async def test_the_console_lists_every_key_and_rings_over_a_watched_game(door: DoorServer, sysop_key) -> None:
    """Q and R were missing from the key bar; a page while the
    sysop watched a game only rang the bell; "Doing" said "main menu" at
    the resume question."""
    from door.sysop.console_screen import KEYS

    sysop = await sysop_login(door, sysop_key)
    text = " ".join(sysop.screen.text().split())
    for key in ("Y accept", "N decline", "W watch", "M message", "K disconnect", "A available", "R resume",
                "Q quit"):
        assert key in text, key
    assert all(len(line) <= 78 for line in KEYS)
    # a registered caller with a kept game sits at the resume question
    kept = await registered(door, "Kit", until="Main menu")
    await kept.send(b"1")
    await kept.screen.wait_for(lambda: "Press 1 or 2" in kept.screen.text())
    await kept.send(b"1")
    await kept.screen.wait_for(lambda: kept.screen.prompt().startswith("Chat"))
    kept.close()  # a computer game of a registered caller is kept
    again = await registered(door, "Kit", until="Resume it?")
    await sysop.screen.wait_for(lambda: "resume prompt" in sysop.screen.text())
    again.close()
    # watch a caller's game; a page arrives meanwhile
    player = await guest(door, "Wes")
    await player.send(b"1")
    await player.screen.wait_for(lambda: "Press 1 or 2" in player.screen.text())
    await player.send(b"1")
    await player.screen.wait_for(lambda: player.screen.prompt().startswith("Chat"))
    await sysop.screen.wait_for(lambda: "Wes" in sysop.screen.text() and "vs computer" in sysop.screen.text())
    rows = sysop.screen.lines()
    wes = next(i for i, line in enumerate(rows) if "Wes " in line)
    first = next(i for i, line in enumerate(rows) if "telnet" in line)
    await sysop.send(b"\x1b[B" * (wes - first) + b"w")
    await sysop.screen.wait_for(lambda: "Watching Wes against Computer" in sysop.screen.text())
    pager = await guest(door, "Pam")
    await page(pager, b"a game?")
    await sysop.screen.wait_for(lambda: "PAGE from Pam" in sysop.screen.text() and
                                "Watching Wes" in sysop.screen.text())
    player.close()
    pager.close()
    sysop.conn.close()


async def test_a_caller_who_gives_up_a_waiting_game_has_nothing_left_to_resume(door: DoorServer, sysop_key) -> None:
    """A game against the sysop is journaled from its start; the
    caller who drops and then answers N to "Go back to it?" gives it up,
    and it is not offered again."""
    sysop = await sysop_login(door, sysop_key)
    caller = await registered(door, "Gil")
    await to_the_chat(sysop, caller, "Gil")
    account = await door.store.accounts.find("Gil")
    assert account is not None
    saved = await door.store.saved.load(account.id)
    assert saved is not None and saved.opponent == "sysop"
    caller.close()  # the line drops
    await sysop.screen.wait_for(lambda: "Gil's line dropped" in " ".join(sysop.screen.text().split()), timeout=2)
    caller = await registered(door, "gil", until="is waiting for you")
    await caller.send(b"n")
    await caller.screen.wait_for(lambda: "Main menu" in caller.screen.text())
    assert "Resume game #" not in caller.screen.text()
    assert await door.store.saved.load(account.id) is None
    caller.close()
    sysop.conn.close()


async def test_when_the_sysop_leaves_the_caller_is_told_and_wins_by_forfeit(door: DoorServer, sysop_key) -> None:
    """The caller landed on the bare menu with no word, and
    the game was recorded as a plain win."""
    sysop = await sysop_login(door, sysop_key)
    caller = await registered(door, "Liv")
    await to_the_chat(sysop, caller, "Liv")
    await sysop.screen.wait_for(lambda: sysop.screen.prompt().startswith("Chat"))
    await sysop.send(b"\x03")
    await sysop.screen.wait_for(lambda: "Leave this game? (Y/N)" in sysop.screen.text())
    await sysop.send(b"y")
    s = caller.screen
    await s.wait_for(lambda: "Main menu" in s.text() and "Sysop left the game: you win by forfeit." in s.text(),
                     timeout=5)
    games = await door.store.games.recent("Liv")
    assert len(games) == 1 and games[0].winner == 0 and games[0].forfeit
    assert "Liv by forfeit" in games[0].line()
    await caller.send(b"5")
    await s.wait_for(lambda: "Recent games of Liv" in s.text() and "Liv by forfeit" in s.text())
    await caller.send(b" ")
    await s.wait_for(lambda: "Main menu" in s.text())
    await caller.send(b"3")
    await s.wait_for(lambda: "Won / lost by forfeit (a player left)" in s.text())
    row = next(line for line in s.lines() if "by forfeit" in line)
    assert row.split()[-3:] == ["1", "/", "0"], row
    caller.close()
    sysop.conn.close()
