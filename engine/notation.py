"""Text forms of actions and rules, for saving a game and reading it back.

An action is one short line: ``"D0 5H JD"`` (seat 0 discards 5H and JD),
``"P1 TC"`` (seat 1 plays TC), ``"C0 12"`` (seat 0 claims 12 points),
``"R0"`` (seat 0 replays the hand just finished), ``"H1"`` (seat 1 lets
the computer peg this hand).
Rules become a plain dict of strings, numbers and booleans (JSON-ready).
Both round-trip exactly: ``action_from_text(action_to_text(a)) == a``.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from .actions import Action, Claim, Discard, HandOver, Play, ReplayHand
from .cards import Card, CardParseError
from .rules import Rules

__all__ = ["action_to_text", "action_from_text", "rules_to_dict", "rules_from_dict", "NotationError"]


class NotationError(ValueError):
    """Text that is not a saved action or rules; the message quotes it."""


def action_to_text(action: Action) -> str:
    """``Discard(0, (5H, JD))`` -> ``"D0 5H JD"``; see the module text."""
    if isinstance(action, Discard):
        return f"D{action.seat} {action.cards[0]} {action.cards[1]}"
    if isinstance(action, Play):
        return f"P{action.seat} {action.card}"
    if isinstance(action, Claim):
        return f"C{action.seat} {action.points}"
    if isinstance(action, ReplayHand):
        return f"R{action.seat}"
    if isinstance(action, HandOver):
        return f"H{action.seat}"
    raise NotationError(f"not an action: {action!r}")


def action_from_text(text: str) -> Action:
    """The inverse of :func:`action_to_text`.  Raises :class:`NotationError`.

    >>> action_from_text("P1 TC")
    Play(seat=1, card=Card.from_str('TC'))
    """
    parts = text.split()
    try:
        kind, seat = parts[0][0], int(parts[0][1:])
        if seat not in (0, 1):
            raise ValueError
        if kind == "D" and len(parts) == 3:
            return Discard(seat, (Card.from_str(parts[1]), Card.from_str(parts[2])))
        if kind == "P" and len(parts) == 2:
            return Play(seat, Card.from_str(parts[1]))
        if kind == "C" and len(parts) == 2:
            return Claim(seat, int(parts[1]))
        if kind == "R" and len(parts) == 1:
            return ReplayHand(seat)
        if kind == "H" and len(parts) == 1:
            return HandOver(seat)
    except (IndexError, ValueError, CardParseError):
        pass
    raise NotationError(f"not a saved action: {text!r}")


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` as JSON-ready values (enums by value)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        out[f.name] = value.value if isinstance(value, Enum) else value
    return out


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """The inverse of :func:`rules_to_dict`.  Raises :class:`NotationError`
    for unknown keys or invalid values."""
    known = {f.name for f in fields(Rules)}
    unknown = set(data) - known
    if unknown:
        raise NotationError(f"unknown rules options {sorted(unknown)!r}")
    try:
        return Rules(**data)
    except (TypeError, ValueError) as exc:
        raise NotationError(f"invalid saved rules {data!r}: {exc}") from None
