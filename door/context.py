"""What every session of one server shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rules import Rules

from .config import CallerConfig
from .store import Store
from .throttle import LoginThrottle

__all__ = ["DoorContext"]


@dataclass
class DoorContext:
    """The house ``rules``, the computer's ``computer_delay`` in seconds,
    the ``store``, the ``caller`` section of the configuration (what
    callers may choose) and the wrong-password ``throttle``."""

    rules: Rules
    computer_delay: float
    store: Store
    caller: CallerConfig = field(default_factory=CallerConfig)
    throttle: LoginThrottle = field(default_factory=LoginThrottle)
