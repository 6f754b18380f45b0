"""A program's seat at a table, by the game protocol: what happens goes
out as messages (:mod:`door.play.api_messages`), each seen as this seat
may see it, with what the game asks of it and the legal answers; what the
program sends comes in as moves for the table.  It sits beside the full
screen's and the spoken lines' seats: the table does not know which."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from door.play.api_events import EventMessages
from door.play.api_messages import ask_message, cards_of, error_message, shuffle_message, state_message
from door.play.table import Table
from door.records.identity import Identity
from door.ui.speech import SpokenWords
from engine.actions import Claim, Discard, HandOver, Play
from engine.events import Event
from engine.game import Game, Phase

__all__ = ["ApiSeat"]

log = logging.getLogger(__name__)


class ApiSeat:
    """Seat ``name`` for a program: ``send`` puts one message on its
    connection.  :meth:`take` hands it the program's messages during the
    game; :attr:`over` is set when the table is done with it.  At a table
    between people it deals when it is the dealer (a program has no blank
    chat line to type)."""

    computer = False

    def __init__(self, name: str, send: Callable[[dict[str, Any]], None], seed: str,
                 identity: Identity | None = None) -> None:
        self.name = name
        self.send = send
        self.identity = identity
        self._seed = seed
        self.table: Table | None = None
        self.index = 0
        self.over = asyncio.Event()
        """Set when the table is done with this seat (or the program left)."""
        self._game: Game | None = None
        """The game this seat was last told of."""
        self._asked: tuple[int, dict[str, Any]] | None = None
        self._handing_over = False
        """True from a ``peg_for_me`` until the next move: refused, it is no answer to the ask, which stands."""
        """The last ask sent, with how many moves this seat had made then:
        the same ask is not sent again while the program's answer is on
        its way (the other seat moving meanwhile changes nothing it asks)."""
        self._clock_sent: dict[int, float] = {}
        """The deadline of each decision clock last sent, by seat."""

    def redirect(self, send: Callable[[dict[str, Any]], None]) -> None:
        """Send to ``send`` from now on (a guest's new connection, or none
        while the line is down); the next notify says the table and where
        the game stands again."""
        self.send, self._game, self._asked = send, None, None

    @property
    def shuffle_seed(self) -> str:
        return self._seed

    def attach(self, table: Table, index: int) -> None:
        self.table, self.index = table, index

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """``events`` happened in ``game``: the table first when the game is
        new to this seat, each event, then the game's end, or the clocks
        and what the game asks of this seat."""
        if self._game is not game:  # (each game of a match begins with its table)
            self._game = game
            self._sit(game)
        names = [seat.name for seat in self.table.seats] if self.table is not None else ["", ""]
        spoken, messages = SpokenWords(self.index, names), EventMessages(self.index, names)
        for event in events:
            body = messages.tell(event)
            if body is not None:  # (with the screen-reader mode's sentences, for a live region)
                self.send({"type": "event", **body, "said": spoken.tell(event)})
        if game.over:
            self._game_over(game)
            return
        table = self.table
        if table is not None and not table.dealt.is_set() and game.dealer == self.index:
            asyncio.get_running_loop().call_soon(table.deal, self.index)  # (after this notify, not inside it)
        self._clocks()
        self._ask(game)

    def _sit(self, game: Game) -> None:
        """Send the ``table`` message of ``game`` (and, for a game resumed,
        its ``state``: where it stands)."""
        assert self.table is not None
        sat: dict[str, Any] = {"type": "table", "seat": self.index, "players": [s.name for s in self.table.seats],
                               "game_to": game.rules.game_to, "game": game.number}
        if self.table.terms is not None:  # (a match between people: its length, and whether it is rated)
            sat.update(best_of=self.table.terms.best_of, rated=self.table.terms.rated)
        if game.shuffle is not None:  # (the verifiable shuffle: the commitment before the cut)
            sat["shuffle"] = shuffle_message(game.shuffle, self.table.sealed)
        if self.table.clocks is not None:  # (the seconds each decision has)
            sat["clock"] = self.table.clocks.terms.seconds
        self.send(sat)
        if game.phase is not Phase.DISCARD or game.actions:  # (a game resumed: where it stands)
            self.send(state_message(game, self.index))

    def _game_over(self, game: Game) -> None:
        """Send the ``game_over`` message of ``game``, which is over."""
        assert game.result is not None
        over: dict[str, Any] = {"type": "game_over", "winner": game.result.winner, "scores": list(game.result.scores)}
        if self.table is not None and self.table.terms is not None:
            over["wins"] = list(self.table.series.wins())  # (the match's games won so far, this one in)
        if game.shuffle is not None:  # (the seed revealed, unless the day's deal keeps it till the day is over)
            over["shuffle"] = shuffle_message(game.shuffle, self.table.sealed if self.table is not None else None,
                                              revealed=True)
        self.send(over)

    def _ask(self, game: Game) -> None:
        """Send what ``game`` asks of this seat, unless it was asked already
        and nothing has been played since."""
        ask = ask_message(game, self.index)
        mine = sum(1 for action in game.actions if action.seat == self.index)
        if ask is None or self._asked == (mine, ask):
            return
        self._asked = (mine, ask)
        left = self.table.clock_left(self.index) if self.table is not None else None
        self.send(ask if left is None else {**ask, "seconds_left": round(left, 1)})

    def _clocks(self) -> None:
        """Send a ``clock`` for each decision clock that started since the
        last (either seat's: both players see whose clock runs)."""
        table = self.table
        if table is None or table.clocks is None:
            return
        running = table.clocks.running()
        for seat, deadline in sorted(running.items()):
            if self._clock_sent.get(seat) != deadline:
                left = table.clock_left(seat)
                if left is not None:
                    self.send({"type": "clock", "seat": seat, "seconds": round(left, 1)})
        self._clock_sent = running

    def take(self, message: dict[str, Any]) -> None:
        """A checked message from the program (a move, chat, leaving):
        a move is the table's to apply; one that is not legal now is
        answered with an ``error`` (:meth:`rejected`)."""
        table, kind = self.table, message["type"]
        if table is None or table.game is None:
            self.send(error_message("type", "no game is under way"))
            return
        me = self.index
        self._handing_over = kind == "peg_for_me"
        if kind == "discard":
            cards = cards_of(message["cards"])
            table.submit(me, Discard(me, (cards[0], cards[1])))
        elif kind == "play":
            table.submit(me, Play(me, cards_of([message["card"]])[0]))
        elif kind == "claim":
            table.submit(me, Claim(me, message["points"]))
        elif kind == "peg_for_me" and not table.settings.by_turns:
            self.send(error_message("move", "only a game by turns lets the computer peg a hand for a player"))
        elif kind == "peg_for_me":  # (a game by turns: the computer pegs this hand for the program's player)
            table.submit(me, HandOver(me))
        elif kind == "chat":
            table.chat(me, message["text"])
        else:
            self.send(error_message("type", f"{kind!r} is not a move during a game"))

    def rejected(self, message: str) -> None:
        self.send(error_message("move", message))
        if self.table is not None and self.table.game is not None and not self._handing_over:
            self._asked = None  # (asked again: the move sent was not the answer)
            self._ask(self.table.game)

    async def play_again(self) -> bool:
        return False  # (a program asks for a new game with a new play_computer)

    def on_chat(self, line: tuple[float, str, str]) -> None:
        if line[1] != self.name:
            self.send({"type": "chat", "name": line[1], "text": line[2]})

    def notice(self, text: str) -> None:
        self.send({"type": "notice", "text": text})

    def finish(self) -> None:
        table = self.table
        kept = table.journal.saved_id if table is not None and table.journal is not None else None
        if self.over.is_set():
            return
        if table is not None and table.ending.waiting and kept is not None:  # (a game by turns waits: kept)
            self.send({"type": "waiting", "game": kept,
                       "text": f"Your move is kept. It is {table.seats[1 - self.index].name}'s move now."})
        else:  # (the program is back at the menu: a game may end with no result, its
            self.send({"type": "menu"})  # opponent gone, and a program must not wait for one)
        self.over.set()
