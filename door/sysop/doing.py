"""What somebody on line is doing, as a value: set by their
session in one place (:meth:`door.sysop.lobby.Lobby.update`), compared as
an enum, carried to the other nodes of a shared store as its value
(:meth:`Activity.encode`), and put into words only when a console shows it
(:meth:`Activity.words`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Doing", "Activity"]


class Doing(enum.Enum):
    """What a caller (or a sysop) is doing; the value is how a console says
    it, ``{}`` standing for the :attr:`Activity.whom` it names."""

    LOGGING_IN = "logging in"
    LOGGED_IN = "logged in"
    MAIN_MENU = "main menu"
    CHOOSING_OPTIONS = "choosing options"
    CHOOSING_NUMBER = "choosing a game number"
    READING_STATISTICS = "reading statistics"
    READING_TOP = "reading the top players"
    READING_RECENT = "reading recent games"
    DAILY_DEAL = "at today's deal"
    TESTING_TERMINAL = "testing the terminal"
    WATCHING_DEMONSTRATION = "watching a demonstration"
    CLUB_NIGHT = "at the club night"
    """A caller between the rounds of a club night."""
    WATCHING_GAME = "watching {}"
    """A caller watching a game between callers."""
    WATCHED = "done watching"
    """A caller told why the game they watched stopped showing (it ended)."""
    REJOIN_PROMPT = "asked to rejoin a game"
    RESUME_PROMPT = "resume prompt"
    KEPT_GAME_PROMPT = "asked about a kept game"
    PAGING = "paging the sysop"
    CHOOSING_OPPONENT = "choosing an opponent"
    CHOOSING_RULES = "choosing the rules"
    CHALLENGING = "challenging {}"
    ANSWERING_CHALLENGE = "answering a challenge"
    VS_COMPUTER = "vs computer"
    VS_SYSOP = "vs sysop"
    VS_CALLER = "vs {}"
    GOING_TO_SYSOP = "going to the sysop's server"
    GOING_ELSEWHERE = "going to another server"
    ON_NODE = "on node {}"
    CONSOLE = "console"
    """A sysop at the console."""
    PLAYING = "playing"
    """A sysop at a table."""
    AVAILABLE = "available"
    """A sysop at another node's console, free to be paged (as the nodes tell each other)."""
    BUSY = "busy"
    """A sysop at another node's console, playing."""
    AWAY = "away"
    """A sysop at another node's console, not taking pages."""
    OTHER = "{}"
    """Something a node of another version said (its words, kept as they came)."""


@dataclass(frozen=True, slots=True)
class Activity:
    """``doing``, and ``whom`` it names (the opponent, the node), if anything.

    >>> a = Activity(Doing.VS_CALLER, "Ann")
    >>> a.words(), Activity.decode(a.encode()) == a
    ('vs Ann', True)
    >>> Activity.decode("something new").words()
    'something new'
    """

    doing: Doing
    whom: str = ""

    def words(self) -> str:
        """How a console says it: ``"vs Ann"``, ``"main menu"``."""
        return self.doing.value.format(self.whom) if "{}" in self.doing.value else self.doing.value

    def encode(self) -> str:
        """The value carried to the other nodes: ``"VS_CALLER Ann"``, ``"MAIN_MENU"``."""
        return f"{self.doing.name} {self.whom}" if self.whom else self.doing.name

    @classmethod
    def decode(cls, text: str) -> Activity:
        """What :meth:`encode` made; anything else is :attr:`Doing.OTHER`
        with ``text`` as its words (a node of another version)."""
        name, _, whom = text.partition(" ")
        doing = Doing.__members__.get(name)
        if doing is None or doing is Doing.OTHER:
            return cls(Doing.OTHER, text)
        return cls(doing, whom)
