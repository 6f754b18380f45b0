"""A whole cribbage-door bot in one file: it plays the computer by the
door's game protocol (docs/protocol.md) and prints the result.

    python examples/bot.py http://HOST:PORT/ [--name NAME] [--game-to 61|121]

It needs the ``websockets`` library (``pip install websockets``).  It
logs in as the bot ``--name`` with the token in ``CRIBBAGE_BOT_TOKEN``
(``cribbage-door records bot NAME`` gives one), or as a guest under that
name without it, asks for one game against the computer, and answers what it is asked: it lays away its two highest
cards, plays its lowest playable card, and claims the points a hand is
worth when the house counts by hand.  It exits 0 when the game is over.
With ``--seed WORDS`` it sets its own part of the shuffle first; with
``--verify`` it checks the game's shuffle when it is over, as
``cribbage-door verify`` would (``examples/check_shuffle.py``), and exits
1 if the deal was not the one the door committed to.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
from urllib.parse import urlsplit

from check_shuffle import ShuffleCheck
from websockets.asyncio.client import connect

RANKS = "A23456789TJQK"


def rank(card: str) -> int:
    """1 for an ace ... 13 for a king."""
    return RANKS.index(card[0]) + 1


def pips(card: str) -> int:
    """What a card counts: 10 for a ten or a face card."""
    return min(rank(card), 10)


def worth(hand: list[str], starter: str, crib: bool) -> int:
    """The points of ``hand`` with ``starter`` in the show: fifteens,
    pairs, runs, flush and nobs."""
    cards = [*hand, starter]
    points = 2 * sum(1 for n in range(2, 6) for combo in itertools.combinations(cards, n)
                     if sum(pips(c) for c in combo) == 15)
    points += 2 * sum(1 for a, b in itertools.combinations(cards, 2) if rank(a) == rank(b))
    for n in (5, 4, 3):  # the longest runs, each counted as many times as it can be made
        runs = [c for c in itertools.combinations(cards, n)
                if sorted(rank(x) for x in c) == list(range(min(rank(x) for x in c), min(rank(x) for x in c) + n))]
        if runs:
            points += n * len(runs)
            break
    suits = {c[1] for c in hand}
    if len(suits) == 1:
        points += 5 if starter[1] in suits else (0 if crib else 4)
    points += sum(1 for c in hand if c[0] == "J" and c[1] == starter[1])
    return points


def answer(ask: dict) -> dict:
    """The bot's answer to what the door asks."""
    if ask["ask"] == "discard":
        throw = sorted(ask["hand"], key=rank)[-2:]
        return {"type": "discard", "cards": throw}
    if ask["ask"] == "play":
        return {"type": "play", "card": min(ask["playable"], key=rank)}
    return {"type": "claim", "points": worth(ask["cards"], ask["starter"], ask["what"] == "crib")}


async def play(url: str, name: str, game_to: int, seed: str | None = None, verify: bool = False) -> int:
    parts = urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    async with connect(f"{scheme}://{parts.netloc}/api/v1/play", max_size=1 << 20) as ws:
        async def send(message: dict) -> None:
            await ws.send(json.dumps(message))

        seat, checker, verified, hand = 0, None, True, 0
        async for text in ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "hello":
                token = os.environ.get("CRIBBAGE_BOT_TOKEN")
                await send({"type": "login", "name": name, **({"token": token} if token else {})})
            elif kind == "welcome" and seed is not None:
                print(f"the door's next seed commits to {message['commitment']}")
                await send({"type": "seed", "seed": seed})  # (after the commitment: the door cannot choose to suit it)
            elif kind in ("welcome", "seed"):
                await send({"type": "play_computer", "game_to": game_to})
            elif kind == "table":
                seat = message["seat"]
                print(f"playing {' and '.join(message['players'])}, game #{message['game']} to {message['game_to']}")
                if verify and "shuffle" in message:
                    checker = ShuffleCheck(message["shuffle"])
            elif kind == "event" and checker is not None and message["event"] == "deal":
                hand = message["hand_number"]
                checker.dealt(hand, message["hand"], message["dealer"] == seat)
            elif kind == "event" and checker is not None and message["event"] == "starter":
                checker.starter(hand, message["card"])
            elif kind == "ask":
                await send(answer(message))
            elif kind == "error":
                print(f"the door says: {message['field']}: {message['message']}", file=sys.stderr)
            elif kind == "game_over":
                won = message["winner"] == seat
                mine, theirs = message["scores"][seat], message["scores"][1 - seat]
                if checker is not None:
                    problems = checker.check(message["shuffle"])
                    verified = not problems
                    print("the shuffle verifies: every hand dealt as the seeds say" if verified
                          else "the shuffle does NOT verify: " + "; ".join(problems))
                print(f"{'won' if won else 'lost'} {mine} to {theirs}")
                await send({"type": "leave"})
            elif kind == "bye":
                return 0 if verified else 1
    return 1  # (the door ended the connection first)


def main() -> None:
    parser = argparse.ArgumentParser(description="A cribbage-door bot: plays the computer once.")
    parser.add_argument("url", help="the door's web page, such as http://127.0.0.1:8080/")
    parser.add_argument("--name", default="Robo", help="the guest name to play under")
    parser.add_argument("--game-to", type=int, choices=(61, 121), default=121)
    parser.add_argument("--seed", help="your part of the shuffle (any words), set after the door's commitment")
    parser.add_argument("--verify", action="store_true", help="check the game's shuffle when it is over")
    args = parser.parse_args()
    sys.exit(asyncio.run(play(args.url, args.name, args.game_to, args.seed, args.verify)))


if __name__ == "__main__":
    main()
