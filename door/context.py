"""What every session of one server shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from door.config import (
    BoardConfig,
    CallerConfig,
    Config,
    CorrespondenceConfig,
    DailyConfig,
    LimitsConfig,
    PagingConfig,
    RankedConfig,
    SysopConfig,
)
from door.games.house import GameHouse
from door.play.parked import ParkedGames
from door.play.reviews import GameReviews
from door.play.thinking import IN_THREAD, Thinking
from door.records.names import name_key
from door.records.store import Store
from door.records.throttle import LoginThrottle
from door.sysop.ban_list import BanList
from door.sysop.lobby import Lobby
from door.sysop.node_link import NodeLink
from engine.rules import Rules

__all__ = ["DoorContext", "Lines"]


@dataclass(frozen=True)
class Lines:
    """Where callers come from, as the door tells them apart: ``shared``,
    the addresses and networks several callers share
    (:attr:`door.config.Config.shared`), and ``boards``, the member boards
    of the cribbage hub (``[[rlogin.board]]`` when ``[rlogin] enabled``;
    none on a board that is no hub), whose callers are ``alias@TAG``."""

    shared: list[str] = field(default_factory=list)
    boards: list[BoardConfig] = field(default_factory=list)

    @classmethod
    def of(cls, config: Config) -> Lines:
        """The lines of a server run with ``config`` (its boards only when its rlogin listener is on)."""
        return cls(config.shared, config.rlogin.boards if config.rlogin.enabled else [])


@dataclass
class DoorContext:
    """The house ``rules``, the computer's ``computer_delay`` in seconds,
    the ``store``, the ``caller`` section of the configuration (what
    callers may choose), the ``sysops`` and the ``paging`` settings, the
    ``lobby`` (who is on line) and the wrong-password ``throttle``."""

    rules: Rules
    computer_delay: float
    store: Store
    caller: CallerConfig = field(default_factory=CallerConfig)
    sysops: list[SysopConfig] = field(default_factory=list)
    paging: PagingConfig = field(default_factory=PagingConfig)
    lobby: Lobby = field(default_factory=lambda: Lobby(PagingConfig()))
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    throttle: LoginThrottle = field(default_factory=LoginThrottle)
    login_timeout: float = 60.0
    """Seconds of silence allowed at the login screens (``[server] login_timeout``)."""
    reader_wait: float = 0.0
    """Seconds the first line waits for S before the full screen (``[server] reader_wait``)."""
    thinking: Thinking = IN_THREAD
    """Where the expert computer thinks (``[computer] processes``)."""
    daily: DailyConfig = field(default_factory=DailyConfig)
    """The daily deal's settings (``[daily]``)."""
    ranked: RankedConfig = field(default_factory=RankedConfig)
    """Who may play rated matches (``[ranked]``)."""
    correspondence: CorrespondenceConfig = field(default_factory=CorrespondenceConfig)
    """Games played over days: their choices and limits (``[correspondence]``)."""
    lines: Lines = field(default_factory=lambda: Lines())
    """Where callers come from: the addresses several share, the hub's member boards."""
    link: NodeLink | None = None
    """This process among the nodes of a shared store, if it is one (:mod:`door.sysop.node_link`)."""
    bans: BanList | None = None
    """The bans in force (:mod:`door.sysop.ban_list`; ``None``: none are checked)."""
    parked: ParkedGames = field(default_factory=ParkedGames)
    """Guests' games against the computer kept while their line is down (:mod:`door.play.parked`)."""
    reviews: GameReviews = field(init=False)
    """Game reviews, worked out by :attr:`thinking` one at a time and kept (:mod:`door.play.reviews`)."""

    def __post_init__(self) -> None:
        self.reviews = GameReviews(self.thinking)

    @property
    def shared(self) -> list[str]:
        """Addresses several callers share (:attr:`Lines.shared`)."""
        return self.lines.shared

    @property
    def boards(self) -> list[BoardConfig]:
        """The cribbage hub's member boards (:attr:`Lines.boards`)."""
        return self.lines.boards

    @property
    def games(self) -> GameHouse:
        """What a new game of this door needs (:mod:`door.games`): the
        store, the lobby as the registry of running tables, the settings."""
        return GameHouse(self.store, self.lobby, self.paging, self.caller, self.ranked, self.correspondence,
                         node=lambda: self.link.node_id if self.link is not None else None)

    def sysop(self, name: str) -> SysopConfig | None:
        """The sysop called ``name`` (ignoring case), if any."""
        key = name_key(name)
        return next((s for s in self.sysops if name_key(s.name) == key), None)
