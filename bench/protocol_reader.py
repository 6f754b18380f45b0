"""Time the game protocol's reader (``door.play.api_messages.read_message``:
the JSON, the schema, the checks of numbers and text) on each kind of
message a program sends, good and bad.

    python3 -m bench.protocol_reader [--runs N] [--count N]

Prints, for each message, the median over N runs (default 5) of the
microseconds one read takes (``--count`` reads a run, default 5,000).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from door.play.api_messages import MessageError, read_message

MESSAGES = {
    "discard": {"type": "discard", "cards": ["QH", "5S"]},
    "play": {"type": "play", "card": "7D"},
    "claim": {"type": "claim", "points": 12},
    "chat, 200 characters": {"type": "chat", "text": "Good game, well played! " * 8 + "Thanks!!"},
    "login": {"type": "login", "name": "Robo", "token": "0" * 64},
    "bad: a card twice": {"type": "discard", "cards": ["QH", "QH"]},
    "bad: chat with a lone surrogate at its end": {"type": "chat", "text": "x" * 199 + "\ud800"},
    "bad: a field too many": {"type": "play", "card": "7D", "extra": 1},
}


def per_read(text: str, count: int) -> float:
    """Microseconds one read of ``text`` takes, over ``count`` reads."""
    start = time.perf_counter()
    for _ in range(count):
        try:
            read_message(text)
        except MessageError:
            pass
    return (time.perf_counter() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=5000)
    args = parser.parse_args()
    for name, message in MESSAGES.items():
        text = json.dumps(message)
        median = statistics.median(per_read(text, args.count) for _ in range(args.runs))
        print(f"{name:44s} {median:7.1f} us")


if __name__ == "__main__":
    main()
