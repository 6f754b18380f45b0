"""Dealing a recorded game again: ``cribbage-door verify``, and a past
day's daily deal against its commitment: ``cribbage-door verify --daily DAY``.

Each recorded game keeps the cards each of its shuffles gave (table
``game_deals``) and, for a game dealt by a verifiable shuffle, its seeds
(``games.shuffle``).  :func:`check_game` deals every shuffle again from
the seeds (:mod:`engine.shuffle`; a numbered game from its number) and
says where the record differs; :func:`verify_games` does it for the store.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from door.records.connection import Connection
from door.records.daily import REVEAL_GRACE, daily_shuffle, marker
from door.records.store import Store
from engine.cards import Card, CardParseError, format_cards, parse_cards, shuffled_deck
from engine.shuffle import SeededShuffle, ShuffleError

__all__ = ["RecordedDeals", "Verdict", "check_game", "load_deals", "verify_games", "verify_daily"]


@dataclass
class RecordedDeals:
    """What the store holds of one game's shuffles: its ``game_id`` and game
    ``number``, its seeds as stored (``shuffle``: the JSON text, ``None`` for
    a numbered game) and the cards each shuffle gave (``dealt``, by shuffle
    number, as card text ``"5H TD ..."``)."""

    game_id: int
    number: int
    shuffle: str | None
    dealt: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """The outcome for one game: ``checked`` the shuffles dealt again and
    found as recorded; ``problems`` one sentence each (empty: verified);
    ``seeded`` True for a verifiable shuffle, False for a numbered game."""

    game_id: int
    number: int
    seeded: bool
    checked: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every recorded shuffle was dealt again as recorded."""
        return not self.problems and self.checked > 0

    def line(self) -> str:
        """One line for the sysop: ``"game 12 (#345): 8 shuffles dealt again
        as recorded, from the seeds (the commitment matches)"``, or the first
        problem."""
        head = f"game {self.game_id} (#{self.number})"
        if self.problems:
            return f"{head}: FAILED: {'; '.join(self.problems)}"
        if not self.checked:
            return f"{head}: not checked: recorded before the door kept its deals"
        how = "from the seeds (the commitment matches)" if self.seeded else "from its game number"
        return f"{head}: {self.checked} shuffles dealt again as recorded, {how}"


def _cut_length(deck: list[Card]) -> int:
    """How many cards the cut for first deal takes from ``deck``: pairs
    until one is not a tie (as :meth:`engine.game.Game.start`)."""
    for i in range(0, 52, 2):
        if deck[i].rank != deck[i + 1].rank:
            return i + 2
    return 52


def check_game(record: RecordedDeals) -> Verdict:
    """Deal every recorded shuffle of ``record`` again and compare.  A
    seeded game's seeds must be well formed and its commitment must be the
    SHA-256 of its server seed; each shuffle's cards must be the first
    cards of the deck dealt again (13 for a hand; for shuffle 0, the cut
    for first deal, the pairs cut until one was not a tie)."""
    problems: list[str] = []
    seeded = record.shuffle is not None
    shuffle: SeededShuffle | None = None
    if record.shuffle is not None:
        try:
            shuffle = SeededShuffle.from_dict(record.number, json.loads(record.shuffle))
        except (ShuffleError, ValueError) as exc:
            return Verdict(record.game_id, record.number, True, 0, (f"seeds: {exc}",))
    checked = 0
    for k, text in sorted(record.dealt.items()):
        try:
            cards = list(parse_cards(text))
            deck = shuffle.deck(k) if shuffle is not None else shuffled_deck(record.number, k)
        except (CardParseError, ValueError) as exc:
            problems.append(f"shuffle {k}: {exc}")
            continue
        want = _cut_length(deck) if k == 0 else 13
        if cards != deck[:want]:
            what = "the cut for first deal" if k == 0 else f"hand {k}"
            problems.append(f"{what} was {text!r}, the seeds deal {format_cards(deck[:want])!r}")
        else:
            checked += 1
    return Verdict(record.game_id, record.number, seeded, checked, tuple(problems))


def load_deals(db: Connection, game_ids: list[int] | None = None) -> list[RecordedDeals]:
    """The recorded shuffles of the games ``game_ids`` (every game when
    ``None``), oldest first."""
    sql = "SELECT id, number, shuffle FROM games"
    args: list[Any] = []
    if game_ids is not None:
        sql += f" WHERE id IN ({', '.join('?' for _ in game_ids)})" if game_ids else " WHERE 1 = 0"
        args = list(game_ids)
    records = {int(r[0]): RecordedDeals(int(r[0]), int(r[1]), r[2]) for r in db.execute(sql + " ORDER BY id", args)}
    if records:
        for game_id, k, cards in db.execute("SELECT game_id, shuffle, cards FROM game_deals ORDER BY game_id"):
            if game_id in records:
                records[game_id].dealt[int(k)] = cards
    return list(records.values())


async def verify_games(store: Store, game_ids: list[int] | None = None) -> list[Verdict]:
    """:func:`check_game` for the games ``game_ids`` (every recorded game
    when ``None``) in ``store``.  Raises
    :class:`~door.records.store.StoreError` when the store cannot be read."""
    records = await store.database.query(lambda db: load_deals(db, game_ids))
    return [check_game(r) for r in records]


async def verify_daily(store: Store, day: str) -> tuple[list[str], bool]:
    """The daily deal of ``day`` (``"2026-11-27"``), once that day is over:
    its seed, the seed's SHA-256 (the commitment shown all that day), its
    game number and first deal, and every recorded play of it dealt again
    (:func:`check_game`) and checked to be from that seed.  Returns the
    lines to print and True when all holds; False (saying why) for a day
    not over yet, a day without a deal, or a play that fails.  Raises
    :class:`~door.records.store.StoreError` when the store cannot be read."""
    if not store.daily.over(day):
        return [f"{day} is not over: its seed is shown, and its deal checked, once it is."], False
    if not await store.daily.shown(day):
        return [f"{day}'s deal is still being played: its seed is shown, and its deal checked, once every "
                f"play of it is over (at most {REVEAL_GRACE / 3600:g} hours after the day)."], False
    seed = await store.daily.revealed(day)
    if seed is None:
        return [f"no deal was dealt on {day}."], False
    deal = daily_shuffle(day, seed)
    deck = deal.deck(1)
    lines = [f"daily deal of {day}: game #{deal.game}", f"  seed       {seed}", f"  commitment {deal.commitment}",
             f"  hand 1: pone {format_cards(deck[0:12:2])}, dealer {format_cards(deck[1:12:2])}, "
             f"starter {deck[12].to_str()}"]
    mark = marker(day)
    rows = await store.database.query(lambda db: db.execute(
        "SELECT id, shuffle FROM games WHERE shuffle LIKE ? ORDER BY id", (f"%{mark}%",)).fetchall())
    ids = [int(r[0]) for r in rows]
    stored_seeds = {int(r[0]): json.loads(r[1]).get("server_seed") for r in rows}
    verdicts = await verify_games(store, ids) if ids else []
    ok = True
    for verdict, record_id in zip(verdicts, ids):
        problems = list(verdict.problems)
        if verdict.number != deal.game:
            problems.append(f"game #{verdict.number} is not the day's game #{deal.game}")
        shown = Verdict(verdict.game_id, verdict.number, verdict.seeded, verdict.checked, tuple(problems))
        if stored_seeds.get(record_id) != seed:
            shown = Verdict(verdict.game_id, verdict.number, True, 0, (*problems, "not dealt from the day's seed"))
        ok = ok and not shown.problems
        lines.append("  " + shown.line())
    lines.append(f"{len(verdicts)} recorded plays of the deal; {sum(1 for v in verdicts if v.ok)} dealt again as "
                 f"recorded from the day's seed" if verdicts else "no recorded plays of the deal.")
    return lines, ok
