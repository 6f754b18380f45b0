"""``cribbage-door records ban TARGET --reason WORDS [--for DURATION]``,
``records unban ID`` and ``records bans``: the bans every node of the
store refuses (:mod:`door.records.bans`), made from the command line."""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import TextIO

from door.records.store import Store

__all__ = ["BAN_ACTIONS", "duration", "run_ban"]

BAN_ACTIONS = ("ban", "unban", "bans")
"""The ``records`` actions this module carries out."""

_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def duration(text: str) -> float:
    """Seconds in ``text``: a number and a unit, ``m`` (minutes), ``h``,
    ``d`` or ``w`` (``"90m"``, ``"12h"``, ``"7d"``).  Raises ``ValueError``
    saying what is expected.

    >>> duration("12h"), duration("1.5d")
    (43200.0, 129600.0)
    """
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*", text.lower())
    if not found or float(found.group(1)) <= 0:
        raise ValueError(f"expected a length such as 90m, 12h, 7d or 2w, got {text!r}")
    return float(found.group(1)) * _UNITS[found.group(2)]


def _when(t: float | None) -> str:
    return "never" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


async def run_ban(store: Store, args: argparse.Namespace, out: TextIO) -> int:
    """Carry out ``records ban``, ``unban`` or ``bans``; the exit status
    (2 for a mistake in the command, said on standard error)."""
    if args.action == "bans":
        bans = await store.bans.active()
        for ban in bans:
            print(f"{ban.id:>5}  {ban.kind.value:<8} {ban.shown:<24} until {_when(ban.expires):<16}  "
                  f"by {ban.made_by}: {ban.reason}", file=out)
        if not bans:
            print("Nobody is banned.", file=out)
        return 0
    if args.action == "unban":
        try:
            ban_id = int(args.target)
        except ValueError:
            print(f"cribbage-door: records unban: expected a ban's number (records bans lists them), got "
                  f"{args.target!r}", file=sys.stderr)
            return 2
        if not await store.bans.lift(ban_id):
            print(f"cribbage-door: no ban number {ban_id}", file=sys.stderr)
            return 1
        print(f"Lifted ban {ban_id}: every node lets them in again within a second.", file=out)
        return 0
    try:
        expires = None if not args.ban_for else time.time() + duration(args.ban_for)
        if not args.reason:
            raise ValueError("give the reason the caller is told (--reason)")
        ban = await store.bans.add(args.target, args.reason, "the command line", expires)
    except ValueError as exc:
        print(f"cribbage-door: records ban: {exc}", file=sys.stderr)
        return 2
    print(f"Ban {ban.id}: {ban.kind.value} {ban.shown}, until {_when(ban.expires)}. Every node refuses it within a "
          "second, and ends its calls on line now.", file=out)
    return 0
