"""The configuration's sections as plain values: one dataclass per
``door.toml`` section, every key with the default that ``conf/door.toml``
documents, and :class:`Config`, the whole of it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from door.net.gate import PreloginLimit
from door.net.peer_socket import PEER_SECRET
from door.play.decision_clock import ClockTerms
from door.play.options import CHANGEABLE_RULES, CallerOptions, Pace, Skill
from door.records.accounts import RegistrationLimit
from door.records.correspondence.offers import OfferLimits
from door.records.correspondence.sweeper import SweepRules
from door.records.names import name_key
from door.records.ranked.fair_play import FairPlayRules
from door.records.sqlite_database import DATABASE_NAME
from engine.rules import Rules

__all__ = ["Config", "ServerConfig", "WebConfig", "DailyConfig", "RankedConfig", "BulletinsConfig", "Handshake",
           "BoardConfig", "RloginConfig", "ComputerConfig", "CallerConfig", "LimitsConfig", "PagingConfig",
           "SysopConfig", "StoreConfig", "CorrespondenceConfig", "DAYS_CHOICES"]


@dataclass
class ServerConfig:
    """The ``[server]`` section: listen address, ports, data folder and
    timeouts (seconds)."""

    host: str = "127.0.0.1"
    telnet_port: int = 2323
    ssh_port: int = 2222
    data_dir: str = "data"
    idle_timeout: int = 900
    connect_maxwait: float = 4.0
    login_timeout: float = 60.0
    reader_wait: float = 2.0
    """Seconds the door waits after its first line (a plain line offering
    screen-reader mode) before it draws the full screen: S typed in that
    time turns screen-reader mode on before any escape sequence is sent;
    any other key draws the full screen at once (the key kept for the name)."""
    shared_addresses: list[str] = field(default_factory=list)
    """Addresses and networks (``"192.0.2.7"``, ``"10.0.0.0/8"``) that
    several callers share, such as a BBS or a proxy: the daily deal counts
    their callers by account only, and ranked play judges two accounts
    there by other signs than the address."""
    proxies: list[str] = field(default_factory=list)
    """Addresses and networks of TCP load balancers (HAProxy, nginx's
    stream module) that send the PROXY protocol (version 1 or 2) on the
    telnet, SSH and rlogin ports: a connection from one of them must begin
    with a header, which names the caller; a header from anywhere else is
    refused (:mod:`door.net.proxy_protocol`)."""
    node_name: str = ""
    """This node's name in its log lines and metrics (empty: the host's name)."""
    log_format: str = "text"
    """``"text"``: one line of words per event; ``"json"``: one JSON object
    per line, with the node, the connection and the account where known."""
    metrics_listen: str = ""
    """``"HOST:PORT"`` of a listener of its own for ``/metrics``, off the
    callers' web listener (empty: none; ``[web] metrics_from`` serves it
    on the web listener instead, or as well)."""
    drain_timeout: float = 600.0
    """Seconds a draining node waits for its callers to finish before it
    stops anyway (telling them, their games kept for another node)."""


@dataclass
class WebConfig:
    """The ``[web]`` section: the page and its WebSocket, on
    ``[server] host`` at ``port`` (on unless ``enabled`` is false);
    ``origins``: pages of other origins that may open the WebSocket (the
    page's own always may); ``proxies``: addresses of reverse proxies whose
    ``X-Forwarded-For`` is believed; ``certfile`` and ``keyfile``: serve
    HTTPS directly (PEM files); ``max_message``: the largest message from
    a browser, in bytes; ``message_rate``: messages a second read from one
    browser; ``frame_ancestors``: who may show the page in a frame
    (Content-Security-Policy words: ``'self'``, or the BBS site's origin);
    ``hosts``: the names callers reach the page by (empty: the listening
    address and ``localhost``); a request for any other name is refused;
    ``metrics_from``: who may read ``/metrics``."""

    enabled: bool = True
    port: int = 8080
    hosts: list[str] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    proxies: list[str] = field(default_factory=list)
    certfile: str = ""
    keyfile: str = ""
    max_message: int = 4096
    message_rate: int = 200
    frame_ancestors: str = "'self'"
    metrics_from: list[str] = field(default_factory=list)
    """Addresses and networks that may read ``/metrics`` (Prometheus); empty: nobody (not served)."""


@dataclass
class DailyConfig:
    """The ``[daily]`` section: whether the daily deal is played once an
    address a day as well as once an account (``per_address``; callers on
    a shared line, ``[server] shared_addresses``, a BBS's or a hub board's,
    are counted by account only)."""

    per_address: bool = True


@dataclass
class RankedConfig:
    """The ``[ranked]`` section: who may play rated matches, and how
    collusion is held off.  A rated match needs two accounts that have
    each finished ``min_games`` games and are ``min_age_days`` days old,
    and do not share an address or a network (an IPv4 /24, an IPv6 /56)
    now or when they registered (``same_network``: false; accounts on a
    ``[server] shared_addresses`` line are judged by the pair's history
    instead; ``same_network`` also lets an offer of a game by correspondence
    to anyone be taken from its maker's network); one pair counts at most
    ``pair_per_day`` rated matches a day.  A caller who aborts
    ``abort_limit`` rated matches before their first deal within
    ``abort_window`` hours is held back from rated play for
    ``abort_hold`` hours.  Each decision of a rated match has a clock
    of ``decision_clock`` seconds (the player is warned ``clock_warning``
    seconds before it runs out; whose clock runs out loses the match);
    ``clock_unrated``: games and matches between callers that are not
    rated have the same clock."""

    min_games: int = 5
    min_age_days: float = 1.0
    same_network: bool = False
    pair_per_day: int = 3
    abort_limit: int = 3
    abort_window: float = 24.0
    abort_hold: float = 6.0
    decision_clock: float = 90.0
    clock_warning: float = 20.0
    clock_unrated: bool = False

    def clock(self, rated: bool) -> ClockTerms | None:
        """The clock on each decision of a game between callers (``rated``
        or not), or ``None`` when it has none."""
        return ClockTerms(self.decision_clock, self.clock_warning) if rated or self.clock_unrated else None

    def rules(self) -> FairPlayRules:
        """These settings in seconds, as the records check them."""
        return FairPlayRules(self.min_games, self.min_age_days * 86400.0, self.same_network, self.pair_per_day,
                             self.abort_limit, self.abort_window * 3600.0, self.abort_hold * 3600.0)


@dataclass
class BulletinsConfig:
    """The ``[bulletins]`` section: the ``folder`` the
    bulletins (top players, recent games, the day's news, as ``.ans``,
    ``.txt`` and ``.html``) are written into after each finished game and
    by ``cribbage-door bulletins``; empty: none are written."""

    folder: str = ""


class Handshake(enum.StrEnum):
    """How a member board of the cribbage hub says who it sends."""

    SYNCHRONET = "synchronet"
    """Synchronet's game servers: client user = the board's secret, server user = the alias."""
    DOORPARTY = "doorparty"
    """DoorParty: server user = ``[TAG]alias``, client user = the board's secret."""


@dataclass(frozen=True)
class BoardConfig:
    """One ``[[rlogin.board]]`` entry: the board's ``tag`` (1 to 8 letters
    or digits, shown after its callers' names: ``alias@TAG``), its
    ``secret`` (the shared password it sends; at least 12 characters), the
    ``handshake`` it uses, and the ``addresses`` it may call from
    (addresses or networks; a call from elsewhere is refused before its
    secret is read: rlogin sends the secret in the clear, so it must not
    be all that proves a board; empty: any address, with a warning)."""

    tag: str
    secret: str
    handshake: Handshake
    addresses: tuple[str, ...] = ()


@dataclass
class RloginConfig:
    """The ``[rlogin]`` section: the cribbage hub's rlogin
    listener, off unless ``enabled``, on ``[server] host`` at ``port``;
    ``max_sessions``: its connections at once (one board's callers all come
    from the board's address, so they are counted here, not per address);
    ``boards``: the member boards (``[[rlogin.board]]``)."""

    enabled: bool = False
    port: int = 5513
    max_sessions: int = 100
    boards: list[BoardConfig] = field(default_factory=list)


@dataclass
class ComputerConfig:
    """The ``[computer]`` section: ``delay`` in seconds before each move;
    ``processes``: how many worker processes the expert thinks in while
    serving (0: a thread of the door's own process; see
    :mod:`door.play.thinking`)."""

    delay: float = 0.6
    processes: int = 1


@dataclass
class CallerConfig:
    """The ``[caller]`` section: which house rules callers may change
    (``may_change``), which computer levels they may choose (``skills``),
    the options a new caller starts with, the pauses of the "pause" pace
    in seconds, and whether hints (``?`` and the best discard after each
    hand) are given in games between people (``hints_between_people``;
    off: they would be advice from the house in a game of skill)."""

    may_change: list[str] = field(default_factory=lambda: list(CHANGEABLE_RULES))
    skills: list[str] = field(default_factory=lambda: ["expert", "hard", "easy"])
    pace: str = "pause"
    beep: bool = False
    sort: bool = True
    skill: str = "expert"
    box: bool = True
    pegging_pause: float = 1.0
    hand_pause: float = 2.0
    hints_between_people: bool = False

    def defaults(self) -> CallerOptions:
        """The options of a caller who has chosen none."""
        return CallerOptions(pace=Pace(self.pace), beep=self.beep, sort=self.sort, skill=Skill(self.skill),
                             box=self.box)


@dataclass
class LimitsConfig:
    """The ``[limits]`` section: connections at once (``max_sessions``) and
    from one address (``max_per_address``); the seconds before an idle
    disconnect at which the caller is warned (``idle_warning``); output a
    caller may leave unread, in bytes (``max_output``), and for how many
    seconds before being disconnected (``stuck_timeout``); wrong SSH
    passwords per connection (``ssh_password_attempts``); session channels
    one SSH connection may have open at once (``ssh_sessions``; each past
    the first counts as a connection of its address); wrong passwords
    counted over ``password_window`` seconds: an address gets
    ``password_per_address`` checks in it, and an account with
    ``password_per_account`` failures is no longer checked from the
    addresses that failed on it (:mod:`door.records.throttle`); new names
    registered in any ``register_window`` seconds: ``register_per_address``
    from one address, ``register_per_network`` from one network (an IPv4
    /24, an IPv6 /56), ``register_total`` from the networks that registered
    in the window and ``register_reserve`` more from those that did not
    (:class:`~door.records.accounts.RegistrationLimit`); connections not
    yet logged in: ``prelogin_total`` at once (the rest of
    ``max_sessions`` is kept for logged-in sessions), ``prelogin_per_address``
    from one address, ``prelogin_per_network`` from one network; when they
    are full the oldest of the busiest address is closed to make room
    (:class:`~door.net.gate.PreloginLimit`)."""

    max_sessions: int = 200
    max_per_address: int = 10
    idle_warning: float = 60.0
    max_output: int = 262144
    stuck_timeout: float = 30.0
    ssh_password_attempts: int = 3
    ssh_sessions: int = 1
    password_window: float = 600.0
    password_per_address: int = 10
    password_per_account: int = 20
    register_window: float = 3600.0
    register_per_address: int = 5
    register_total: int = 50
    register_per_network: int = 10
    register_reserve: int = 50
    prelogin_total: int = 100
    prelogin_per_address: int = 10
    prelogin_per_network: int = 40

    @property
    def prelogin(self) -> PreloginLimit:
        """The pre-login budget these settings make (never past ``max_sessions``)."""
        total = min(self.prelogin_total, self.max_sessions)
        return PreloginLimit(total, min(self.prelogin_per_address, total), min(self.prelogin_per_network, total))

    @property
    def registrations(self) -> RegistrationLimit:
        """The limit on new names these settings make."""
        return RegistrationLimit(self.register_window, self.register_per_address, self.register_total,
                                 self.register_per_network, self.register_reserve)


@dataclass
class PagingConfig:
    """The ``[paging]`` section: how long a page rings (``page_timeout``),
    how long a caller-vs-sysop game waits for a dropped player
    (``rejoin_timeout``), both in seconds, and the longest chat line in
    characters (``chat_limit``); ``ranked_grace``: seconds a player of a
    rated match may stay dropped before they forfeit it."""

    page_timeout: float = 60.0
    rejoin_timeout: float = 600.0
    chat_limit: int = 70
    ranked_grace: float = 120.0


@dataclass
class SysopConfig:
    """One ``[[sysop]]`` entry: ``name``, ``password`` (an scrypt hash from
    ``cribbage-door passwd``; empty for key-only logins) and ``ssh_keys``
    (OpenSSH public keys, ``"ssh-ed25519 AAAA..."``)."""

    name: str
    password: str = ""
    ssh_keys: list[str] = field(default_factory=list)


@dataclass
class StoreConfig:
    """The ``[store]`` section: ``url``, empty for the SQLite file
    ``cribbage.sqlite3`` in the data folder (the default), or a
    ``postgresql://user@host:port/database`` URL for a PostgreSQL server
    shared by several door processes.  On a shared store each
    serve process listens for callers handed over by the others on
    ``peer_host`` (empty: 127.0.0.1, loopback only; on several machines,
    an address the others reach) and ``peer_port`` (0: any free port), and
    the nodes prove to each other that they hold the secret in
    ``peer_secret_file`` (empty: ``peer_secret`` in the data folder, made
    on first start; on several machines, copy one file to all).  Between
    machines the link runs over TLS when ``peer_certfile``, ``peer_keyfile``
    and ``peer_cafile`` are given (PEM: this node's certificate and key,
    and the sysop's own authority that signed every node's)."""

    url: str = ""
    peer_host: str = ""
    peer_port: int = 0
    peer_secret_file: str = ""
    peer_certfile: str = ""
    peer_keyfile: str = ""
    peer_cafile: str = ""

    def secret_path(self, data_dir: Path) -> Path:
        """Where the peer secret is: ``peer_secret_file``, or
        ``peer_secret`` in ``data_dir``."""
        return Path(self.peer_secret_file) if self.peer_secret_file else data_dir / PEER_SECRET

    def target(self, data_dir: Path) -> Path | str:
        """What :meth:`door.records.store.Store.open` opens: the URL, or
        the SQLite file in ``data_dir``."""
        return self.url or data_dir / DATABASE_NAME


DAYS_CHOICES = (1, 2, 3, 5, 7, 14)
"""The days per move a correspondence game may have; ``[correspondence]
days`` is a choice among them."""


@dataclass
class CorrespondenceConfig:
    """The ``[correspondence]`` section: games between registered callers
    played over days (``docs/correspondence.md``).  ``days``: the days per
    move a challenger may choose (among :data:`DAYS_CHOICES`), and
    ``default_days`` the one offered first; ``max_open``: open
    correspondence games an account may have at once; ``offer_days``: days
    before an offer nobody answered lapses; ``offers_per_hour``: offers one
    address may make in an hour; ``vacation_days``: days away a caller may
    take in a calendar year (0: no vacation); ``weekends``: whether
    Saturdays and Sundays (UTC) count towards a deadline; ``abandon_days``:
    days with no move by either player before a game is aborted;
    ``rated``: whether correspondence matches may be rated (in their own
    pool, ``correspondence``)."""

    days: list[int] = field(default_factory=lambda: list(DAYS_CHOICES))
    default_days: int = 3
    max_open: int = 20
    offer_days: int = 7
    offers_per_hour: int = 10
    vacation_days: int = 30
    weekends: bool = True
    abandon_days: int = 60
    rated: bool = True

    def offer_limits(self) -> OfferLimits:
        """The limits on offers these settings make, as the records check them."""
        return OfferLimits(float(self.offer_days), self.offers_per_hour)

    def sweep_rules(self) -> SweepRules:
        """The sweeper's rules these settings make."""
        return SweepRules(self.weekends, float(self.abandon_days))


@dataclass
class Config:
    """The whole configuration; ``source`` is the file it came from (or
    ``None`` for the built-in defaults)."""

    server: ServerConfig = field(default_factory=ServerConfig)
    computer: ComputerConfig = field(default_factory=ComputerConfig)
    rules: Rules = field(default_factory=Rules)
    caller: CallerConfig = field(default_factory=CallerConfig)
    sysops: list[SysopConfig] = field(default_factory=list)
    paging: PagingConfig = field(default_factory=PagingConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    web: WebConfig = field(default_factory=WebConfig)
    bulletins: BulletinsConfig = field(default_factory=BulletinsConfig)
    rlogin: RloginConfig = field(default_factory=RloginConfig)
    daily: DailyConfig = field(default_factory=DailyConfig)
    ranked: RankedConfig = field(default_factory=RankedConfig)
    correspondence: CorrespondenceConfig = field(default_factory=CorrespondenceConfig)
    source: Path | None = None

    @property
    def shared(self) -> list[str]:
        """Addresses several callers share: ``[server] shared_addresses``
        and the web page's reverse proxies (a request without
        ``X-Forwarded-For`` comes from the proxy's own address)."""
        return [*self.server.shared_addresses, *self.web.proxies]

    def sysop(self, name: str) -> SysopConfig | None:
        """The sysop called ``name`` (ignoring case), if any."""
        return next((s for s in self.sysops if name_key(s.name) == name_key(name)), None)
