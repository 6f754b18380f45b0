"""A scripted caller for tests: it reads the screen the door drew (through
pyte) and picks keys as a person would, by what the prompt line asks.

It counts its hands exactly by reading the cards on the screen and scoring
them with the engine, so a whole game ends with correct claims.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pyte

from engine.cards import Card
from engine.scoring import score_show

SUITS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
CARD_RE = re.compile(r"(10|[A2-9JQK])([\u2663\u2666\u2665\u2660])")

UP, DOWN, RIGHT, LEFT = b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"


def parse_card(token: str) -> Card:
    m = CARD_RE.fullmatch(token.strip())
    assert m, f"not a card on screen: {token!r}"
    rank = "T" if m.group(1) == "10" else m.group(1)
    return Card.from_str(rank + SUITS[m.group(2)])


class ClientScreen:
    """What a test client sees: a pyte screen fed with the door's output bytes (UTF-8).  (Not the
    door's :class:`~door.net.terminal.Terminal`: this is the other end of the line.)"""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.raw = bytearray()
        """Every byte fed, in order (for byte-level checks)."""
        self.changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        self.raw.extend(data)
        self.stream.feed(data)
        self.changed.set()

    def lines(self) -> list[str]:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(self.lines())

    def prompt(self) -> str:
        return self.lines()[-1].strip()

    def row_of(self, label: str) -> int:
        for i, line in enumerate(self.lines()):
            if line.startswith(" " + label):
                return i
        raise AssertionError(f"no {label!r} row on screen:\n{self.text()}")

    def cards_in_row(self, row: int, start: int = 0, end: int = 44) -> list[tuple[int, Card]]:
        """(column, card) of every face-up card in ``row`` between columns."""
        line = self.lines()[row][start:end]
        return [(start + m.start(), parse_card(m.group(0))) for m in CARD_RE.finditer(line)]

    def bar_column(self, row: int) -> int | None:
        """The column where the cyan highlight bar starts in ``row``."""
        for col, cell in self.screen.buffer[row].items():
            if cell.bg == "cyan":
                return col
        return None

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting; screen:\n{self.text()}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
            except TimeoutError:
                pass


@dataclass
class Player:
    """Plays a whole game through ``send`` while ``term`` shows the screen;
    with ``game_number``, that numbered game (the same deals every time)."""

    term: ClientScreen
    send: Callable[[bytes], Awaitable[None]]
    name: str = "Tester"
    game_number: int | None = None
    password: str | None = None
    run_mode: str = "1"
    play_again: bool = False
    resume: bool = True
    option_keys: bytes = b""
    holds: int = 0
    reviews: list[str] = field(default_factory=list)
    actions: int = 0
    counts: list[tuple[str, int]] = field(default_factory=list)
    final_screen: str = ""

    async def play(self, timeout: float = 120.0) -> str:
        """Answer every prompt until the game is over; returns the screen
        text at the end of the game."""
        deadline = time.monotonic() + timeout
        last_screen = ""
        last_action = 0.0
        while time.monotonic() < deadline:
            screen = self.term.text()
            prompt = self.term.prompt()
            stale = time.monotonic() - last_action > 1.5
            if screen != last_screen or stale:
                acted = await self.act(prompt, screen)
                if acted == "over":
                    return self.final_screen
                if acted:
                    last_screen = screen
                    last_action = time.monotonic()
                    self.actions += 1
            self.term.changed.clear()
            try:
                await asyncio.wait_for(self.term.changed.wait(), 0.3)
            except TimeoutError:
                pass
            await asyncio.sleep(0.01)
        raise AssertionError(f"game did not finish in {timeout}s; screen:\n{self.term.text()}")

    async def act(self, prompt: str, screen: str) -> bool | str:
        if "Your name:" in screen and "Type your name" in screen:
            await self.send(self.name.encode() + b"\r")
            return True
        if "is not registered" in screen:
            await self.send(b"r" if self.password else b"g")
            return True
        if "Password:" in screen:
            assert self.password is not None, "the door asked for a password the test does not have"
            await self.send(self.password.encode() + b"\r")
            return True
        if "Resume it?" in screen:
            await self.send(b"y" if self.resume else b"n")
            return True
        if "Main menu" in screen and "Play the computer" in screen:
            await self.send(b"1" if self.game_number is None else b"2")
            return True
        if "Game number:" in screen and self.game_number is not None:
            await self.send(f"{self.game_number}\r".encode())
            return True
        if "Press 1 or 2" in screen:
            await self.send(self.option_keys + self.run_mode.encode())
            return True
        if prompt.startswith("Press a key to go on"):
            self.holds += 1
            await self.send(b" ")
            return True
        if prompt.startswith("Choose 2 cards"):
            await self.send(b"\r" + RIGHT + b"\r")
            return True
        if prompt.startswith("RETURN lays away"):
            await self.send(b"\r")
            return True
        if prompt.startswith("Your turn, count"):
            await self.play_card(int(re.search(r"count (\d+)", prompt).group(1)))
            return True
        if prompt.startswith("Count your"):
            await self.count(prompt)
            return True
        if prompt.startswith("Chat"):  # chat mode before each hand (as in the original door)
            if "blank line deals" not in prompt:
                return False  # the other player deals
            if "The show" in screen:
                self.reviews.append(screen)
            await self.send(b"\r")
            return True
        if prompt.startswith(("Play again?", "Rematch?")):
            self.final_screen = screen
            await self.send(b"y" if self.play_again else b"n")
            return "over"
        return False

    async def play_card(self, count: int) -> None:
        t = self.term
        row = t.row_of("Your cards")
        cards = t.cards_in_row(row + 2)
        marks = t.lines()[row + 1]
        unplayed = [(col, c) for col, c in cards if not marks[col:col + 4].strip()]
        playable = [(col, c) for col, c in unplayed if count + c.pip <= 31]
        assert playable, f"the door asked for a card but none plays on {count}:\n{t.text()}"
        target = playable[0][0]
        bar = t.bar_column(row + 2)
        # the bar moves over unplayed cards only
        cols = [col for col, _ in unplayed]
        steps = 0
        if bar is not None:
            here = min(range(len(cols)), key=lambda i: abs(cols[i] - bar))
            steps = (cols.index(target) - here) % len(cols)
        await self.send(RIGHT * steps + b"\r")

    async def leave(self) -> None:
        """From the main menu after a game: press Q to say goodbye."""
        await self.term.wait_for(lambda: "Main menu" in self.term.text())
        await self.send(b"q")

    async def count(self, prompt: str) -> None:
        t = self.term
        starter_row = next(i for i, line in enumerate(t.lines()) if "Starter" in line) + 2
        starter = t.cards_in_row(starter_row, 66, 80)[0][1]
        if "crib" in prompt:
            cards = [c for _, c in t.cards_in_row(starter_row, 40, 66)]
        else:
            cards = [c for _, c in t.cards_in_row(t.row_of("Your cards") + 2)]
        assert len(cards) == 4, f"expected four cards to count:\n{t.text()}"
        points = score_show(cards, starter, "crib" in prompt).total
        self.counts.append(("crib" if "crib" in prompt else "hand", points))
        await self.send(str(points).encode() + b"\r")


@dataclass
class TelnetCaller:
    """An in-process telnetlib3 client whose output feeds ``screen``;
    ``done`` ends when the door hangs up."""

    writer: object
    screen: ClientScreen
    done: asyncio.Task[None]

    async def send(self, data: bytes) -> None:
        self.writer.write(data)  # type: ignore[attr-defined]
        await self.writer.drain()  # type: ignore[attr-defined]

    def close(self) -> None:
        self.writer.close()  # type: ignore[attr-defined]


async def telnet_caller(port: int, cols: int = 80, rows: int = 24, term: str = "xterm",
                        screen: ClientScreen | None = None, source: str | None = None) -> TelnetCaller:
    """Connect to the door's telnet port on loopback as a caller would;
    ``screen``: the terminal to show the output (a UTF-8 one of the size);
    ``source``: the loopback address to call from (127.0.0.1 unless given;
    any of 127.0.0.0/8 is this machine)."""
    import telnetlib3

    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term=term, cols=cols, rows=rows, connect_minwait=0.05,
        local_addr=(source, 0) if source else None)
    screen = screen or ClientScreen(cols, rows)

    async def pump() -> None:
        while data := await reader.read(4096):
            screen.feed(data)

    return TelnetCaller(writer, screen, asyncio.create_task(pump()))


async def log_in_as_guest(caller: TelnetCaller, name: str, until: str = "Main menu") -> None:
    """Type ``name`` at the prompt, choose to play as a guest, and wait
    until the screen shows ``until``."""
    await type_guest_login(caller.writer.write, caller.screen, name, until)  # type: ignore[attr-defined]


async def type_guest_login(write: Callable[[bytes], object], screen: ClientScreen, name: str,
                           until: str = "Main menu") -> None:
    """The guest login over any client (``write``: a telnet writer's or an
    SSH process's stdin's): wait for the name prompt, type ``name``
    (empty: accept the name offered), choose to play as a guest, and wait
    until ``screen`` shows ``until``."""
    await screen.wait_for(lambda: "Your name:" in screen.text())
    write(name.encode() + b"\r")
    await screen.wait_for(lambda: "is not registered" in screen.text())
    write(b"g")
    await screen.wait_for(lambda: until in screen.text())


class Cp437Screen(ClientScreen):
    """A :class:`ClientScreen` for a CP437 session: bytes 3-6 are the suits."""

    SUITS = {3: "\u2665", 4: "\u2666", 5: "\u2663", 6: "\u2660"}

    def __init__(self, cols: int = 80, rows: int = 25) -> None:
        super().__init__(cols, rows)
        self.stream = pyte.Stream(self.screen)  # type: ignore[assignment]

    def feed(self, data: bytes) -> None:
        self.received += len(data)
        self.raw.extend(data)
        self.stream.feed("".join(self.SUITS.get(b) or bytes([b]).decode("cp437") for b in data))
        self.changed.set()


async def log_in_registered(port: int, store, name: str, password: str, until: str = "Main menu",
                            source: str | None = None) -> TelnetCaller:
    """A registered caller (the account made in ``store`` if it is not
    there yet) logged in over telnet with ``password``, once the screen
    shows ``until``; ``source``: the loopback address to call from."""
    from door.records.passwords import hash_password

    if await store.accounts.find(name) is None:
        await store.accounts.create(name, hash_password(password))
    caller = await telnet_caller(port, source=source)
    s = caller.screen
    await s.wait_for(lambda: "Your name:" in s.text())
    await caller.send(name.encode() + b"\r")
    await s.wait_for(lambda: "Password:" in s.text())
    await caller.send(password.encode() + b"\r")
    await s.wait_for(lambda: until in s.text())
    return caller
