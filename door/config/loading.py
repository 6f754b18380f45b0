"""Reading ``door.toml`` and checking every key: an unknown section or
key, a value of the wrong type or out of range, an invalid house rule is
a :class:`ConfigError` whose message names the file, the key and what was
expected."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from door.config.sections import (
    DAYS_CHOICES,
    BoardConfig,
    BulletinsConfig,
    CallerConfig,
    ComputerConfig,
    Config,
    CorrespondenceConfig,
    DailyConfig,
    Handshake,
    LimitsConfig,
    PagingConfig,
    RankedConfig,
    RloginConfig,
    ServerConfig,
    StoreConfig,
    SysopConfig,
    WebConfig,
)
from door.net.gate import check_networks
from door.net.metrics import parse_listen
from door.play.options import CHANGEABLE_RULES, Pace, Skill
from door.records.names import name_key
from door.records.postgres_database import is_postgres_url, masked
from engine.rules import Rules, RulesError

__all__ = ["ConfigError", "load_config", "DEFAULT_CONFIG_PATH"]

DEFAULT_CONFIG_PATH = Path("conf/door.toml")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and why."""


_RANGES: dict[str, tuple[float, float]] = {
    "telnet_port": (0, 65535), "ssh_port": (0, 65535), "idle_timeout": (1, 86400),
    "connect_maxwait": (0, 60), "login_timeout": (1, 3600), "reader_wait": (0, 30), "delay": (0, 10),
    "pegging_pause": (0, 10), "processes": (0, 64), "hand_pause": (0, 20),
    "page_timeout": (1, 600), "rejoin_timeout": (1, 86400), "chat_limit": (10, 200), "ranked_grace": (1, 86400),
    "max_sessions": (1, 100000), "max_per_address": (1, 100000), "idle_warning": (0, 3600),
    "max_output": (4096, 64 * 1024 * 1024), "stuck_timeout": (1, 3600), "ssh_password_attempts": (1, 100), "ssh_sessions": (1, 16),
    "password_window": (1, 86400), "peer_port": (0, 65535), "password_per_address": (1, 10000), "password_per_account": (1, 100000),
    "register_window": (1, 864000), "register_per_address": (0, 100000), "register_total": (0, 1000000),
    "register_per_network": (0, 100000), "register_reserve": (0, 1000000), "prelogin_total": (1, 100000),
    "prelogin_per_address": (1, 100000), "prelogin_per_network": (1, 100000),
    "port": (0, 65535), "max_message": (256, 1024 * 1024), "message_rate": (1, 100000),
    "min_games": (0, 10000), "min_age_days": (0, 3650), "pair_per_day": (0, 1000), "abort_limit": (1, 1000),
    "abort_window": (0, 8760), "abort_hold": (0, 8760), "decision_clock": (10, 86400), "clock_warning": (0, 3600),
    "drain_timeout": (0, 86400),
    "default_days": (1, 14), "max_open": (1, 1000), "offer_days": (1, 60), "offers_per_hour": (1, 1000),
    "vacation_days": (0, 366), "abandon_days": (1, 3650),
}


_NETWORK_LISTS = {"shared_addresses", "proxies", "metrics_from"}
"""Keys whose value is a list of addresses and networks (CIDR)."""


def _check_section(path: Path, name: str, raw: Any, cls: type) -> Any:
    """The section ``[name]`` of the file ``path`` as an instance of the
    dataclass ``cls``: each key known, each value of its default's type
    and in its range (:data:`_RANGES`).  Raises :class:`ConfigError`."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [{name}] must be a table of keys, got {raw!r}")
    known = {f.name: f for f in fields(cls)}
    values = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"{path}: {name}.{key}: unknown key (expected one of {', '.join(known)})")
        values[key] = _check_value(f"{path}: {name}.{key}", name, key, value, known[key].default)
    return cls(**values)


def _check_value(where: str, name: str, key: str, value: Any, default: Any) -> Any:
    """One value of the section ``name`` (``where`` names it in a
    message), checked against its ``default``'s type and the key's range;
    a whole number for a float key becomes a float, a list of networks is
    checked.  Raises :class:`ConfigError`."""
    if isinstance(default, (bool, str)):
        if type(value) is not type(default):
            raise ConfigError(f"{where}: expected {'true or false' if isinstance(default, bool) else 'a string'}, got {value!r}")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{where}: expected a whole number, got {value!r}")
    elif isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            unit = "" if name == "ranked" else " of seconds"  # ([ranked] counts days and hours)
            raise ConfigError(f"{where}: expected a number{unit}, got {value!r}")
        value = float(value)
    elif key in _NETWORK_LISTS:
        value = _check_networks(where, value)
    if key in _RANGES:
        lo, hi = _RANGES[key]
        if not lo <= value <= hi:
            raise ConfigError(f"{where}: expected a value from {lo:g} to {hi:g}, got {value!r}")
    return value


def _check_networks(where: str, value: Any) -> list[str]:
    """A list of addresses and networks (CIDR), as :func:`check_networks`
    gives it back.  Raises :class:`ConfigError` naming ``where``."""
    try:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"expected a list of addresses or networks, got {value!r}")
        return check_networks(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


_RULE_KEYS = {f.name for f in fields(Rules)}


def _check_rules(path: Path, raw: Any) -> Rules:
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [rules] must be a table of keys, got {raw!r}")
    for key in raw:
        if key not in _RULE_KEYS:
            raise ConfigError(f"{path}: rules.{key}: unknown key (expected one of {', '.join(sorted(_RULE_KEYS))})")
    try:
        return Rules(**raw)
    except RulesError as exc:
        raise ConfigError(f"{path}: rules: {exc}") from None


def _check_list(path: Path, key: str, value: Any, allowed: Sequence[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value):
        raise ConfigError(f"{path}: caller.{key}: expected a list of names from {', '.join(allowed)}, got {value!r}")
    return list(value)


def _check_caller(path: Path, raw: Any) -> CallerConfig:
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [caller] must be a table of keys, got {raw!r}")
    lists = {k: raw[k] for k in ("may_change", "skills") if k in raw}
    caller: CallerConfig = _check_section(path, "caller", {k: v for k, v in raw.items() if k not in lists},
                                          CallerConfig)
    if "may_change" in lists:
        caller.may_change = _check_list(path, "may_change", lists["may_change"], CHANGEABLE_RULES)
    if "skills" in lists:
        caller.skills = _check_list(path, "skills", lists["skills"], [s.value for s in Skill])
        if not caller.skills:
            raise ConfigError(f"{path}: caller.skills: name at least one level (expert, hard, easy)")
    if caller.pace not in [p.value for p in Pace]:
        raise ConfigError(f"{path}: caller.pace: expected \"prompt\" or \"pause\", got {caller.pace!r}")
    if caller.skill not in caller.skills:
        raise ConfigError(f"{path}: caller.skill: expected one of the offered skills {caller.skills!r}, "
                          f"got {caller.skill!r}")
    return caller


def _check_web(path: Path, raw: Any) -> WebConfig:
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [web] must be a table of keys, got {raw!r}")
    lists = {k: raw[k] for k in ("origins", "proxies", "hosts") if k in raw}
    web: WebConfig = _check_section(path, "web", {k: v for k, v in raw.items() if k not in lists}, WebConfig)
    for key, value in lists.items():
        if not isinstance(value, list) or not all(isinstance(v, str) and v and v.isprintable() for v in value):
            raise ConfigError(f"{path}: web.{key}: expected a list of strings, got {value!r}")
        setattr(web, key, list(value))
    for origin in web.origins:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise ConfigError(f"{path}: web.origins: expected origins like \"https://bbs.example.org\", got {origin!r}")
    if bool(web.certfile) != bool(web.keyfile):
        raise ConfigError(f"{path}: web: give both certfile and keyfile (HTTPS), or neither")
    if any(c in web.frame_ancestors for c in ";,\r\n"):
        raise ConfigError(f"{path}: web.frame_ancestors: origins or 'self', separated by spaces")
    return web


def _check_sysops(path: Path, raw: Any) -> list[SysopConfig]:
    if not isinstance(raw, list):
        raise ConfigError(f"{path}: sysop: write each sysop as a [[sysop]] table, got {raw!r}")
    sysops: list[SysopConfig] = []
    for i, entry in enumerate(raw):
        where = f"{path}: sysop[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a table, got {entry!r}")
        unknown = set(entry) - {"name", "password", "ssh_keys"}
        if unknown:
            raise ConfigError(f"{where}.{sorted(unknown)[0]}: unknown key (expected name, password, ssh_keys)")
        name = entry.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 20 or name != name.strip():
            raise ConfigError(f"{where}.name: expected a name of 1 to 20 characters, got {name!r}")
        password = entry.get("password", "")
        if not isinstance(password, str) or (password and not password.startswith("scrypt$")):
            raise ConfigError(f"{where}.password: expected an scrypt hash from `cribbage-door passwd` "
                              f"(starting scrypt$), never a plain password")
        keys = entry.get("ssh_keys", [])
        if not isinstance(keys, list) or not all(isinstance(k, str) and len(k.split()) >= 2 for k in keys):
            raise ConfigError(f"{where}.ssh_keys: expected a list of OpenSSH public keys (\"ssh-ed25519 AAAA...\")")
        if not password and not keys:
            raise ConfigError(f"{where}: give a password hash or ssh_keys, or the sysop cannot log in")
        if any(name_key(s.name) == name_key(name) for s in sysops):
            raise ConfigError(f"{where}.name: {name!r} is listed twice")
        sysops.append(SysopConfig(name, password, [" ".join(k.split()[:2]) for k in keys]))
    return sysops


_TAG = re.compile(r"[A-Za-z0-9]{1,8}")


def _check_rlogin(path: Path, raw: Any) -> RloginConfig:
    """The ``[rlogin]`` section and its ``[[rlogin.board]]`` entries."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [rlogin] must be a table of keys, got {raw!r}")
    entries = raw.get("board", [])
    flat = {k: v for k, v in raw.items() if k != "board"}
    if "boards" in flat:
        raise ConfigError(f"{path}: rlogin.boards: unknown key (each board is a [[rlogin.board]] entry)")
    section: RloginConfig = _check_section(path, "rlogin", flat, RloginConfig)
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: rlogin.board: expected [[rlogin.board]] entries")
    boards: list[BoardConfig] = []
    for i, entry in enumerate(entries):
        boards.append(_check_board(f"{path}: rlogin.board[{i}]", entry, boards))
    section.boards = boards
    return section


def _check_board(where: str, entry: Any, boards: list[BoardConfig]) -> BoardConfig:
    """One ``[[rlogin.board]]`` entry (``where`` names it in a message),
    its tag and secret unlike those of the ``boards`` before it.  Raises
    :class:`ConfigError`."""
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a table with tag, secret and handshake")
    unknown = set(entry) - {"tag", "secret", "handshake", "addresses"}
    if unknown:
        raise ConfigError(f"{where}.{sorted(unknown)[0]}: unknown key (expected tag, secret, handshake, "
                          "addresses)")
    addresses = entry.get("addresses", [])
    _check_networks(f"{where}.addresses", addresses)
    tag, secret, style = entry.get("tag"), entry.get("secret"), entry.get("handshake", "synchronet")
    if not isinstance(tag, str) or not _TAG.fullmatch(tag):
        raise ConfigError(f"{where}.tag: expected 1 to 8 letters or digits, got {tag!r}")
    if any(b.tag.upper() == tag.upper() for b in boards):
        raise ConfigError(f"{where}.tag: {tag!r} is listed twice")
    if not isinstance(secret, str) or len(secret) < 12 or not secret.isprintable():
        raise ConfigError(f"{where}.secret: expected a shared secret of at least 12 printable characters")
    if any(b.secret == secret for b in boards):
        raise ConfigError(f"{where}.secret: each board needs its own secret")
    try:
        handshake = Handshake(style)
    except ValueError:
        raise ConfigError(f"{where}.handshake: expected \"synchronet\" or \"doorparty\", got {style!r}") from None
    return BoardConfig(tag.upper(), secret, handshake, tuple(addresses))


def _check_correspondence(path: Path, raw: Any) -> CorrespondenceConfig:
    """The ``[correspondence]`` section: ``days`` a list of choices among
    :data:`~door.config.sections.DAYS_CHOICES`, ``default_days`` one of
    them, ``abandon_days`` longer than the longest.  Raises :class:`ConfigError`."""
    section: CorrespondenceConfig = _check_section(path, "correspondence", raw, CorrespondenceConfig)
    days = section.days
    if (not isinstance(days, list) or not days or any(type(d) is not int or d not in DAYS_CHOICES for d in days)
            or len(set(days)) != len(days)):
        raise ConfigError(f"{path}: correspondence.days: expected a list of days per move, each once, among "
                          f"{', '.join(map(str, DAYS_CHOICES))}, got {days!r}")
    section.days = sorted(days)
    if section.default_days not in days:
        raise ConfigError(f"{path}: correspondence.default_days: expected one of correspondence.days "
                          f"({', '.join(map(str, section.days))}), got {section.default_days!r}")
    if section.abandon_days <= max(days):
        raise ConfigError(f"{path}: correspondence.abandon_days: expected more than the longest days per move "
                          f"({max(days)}), got {section.abandon_days!r}")
    return section


def load_config(path: Path | None) -> Config:
    """Read ``path`` (TOML); ``None`` gives the defaults.  Raises
    :class:`ConfigError` for a missing, unreadable or invalid file."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    for section in raw:
        if section not in ("server", "computer", "rules", "caller", "sysop", "paging", "limits", "store", "web",
                           "bulletins", "rlogin", "daily", "ranked", "correspondence"):
            raise ConfigError(f"{path}: [{section}]: unknown section (expected server, computer, rules, caller, "
                              f"sysop, paging, limits, store, web, bulletins, rlogin, daily, ranked, correspondence)")
    server: ServerConfig = _check_section(path, "server", raw.get("server", {}), ServerConfig)
    if server.log_format not in ("text", "json"):
        raise ConfigError(f"{path}: server.log_format: expected \"text\" or \"json\", got {server.log_format!r}")
    if not server.node_name.isprintable() or len(server.node_name) > 40 or " " in server.node_name:
        raise ConfigError(f"{path}: server.node_name: expected up to 40 printable characters, no space, "
                          f"got {server.node_name!r}")
    if server.metrics_listen:
        try:
            parse_listen(server.metrics_listen)
        except ValueError as exc:
            raise ConfigError(f"{path}: server.metrics_listen: {exc}") from None
    store: StoreConfig = _check_section(path, "store", raw.get("store", {}), StoreConfig)
    tls = (store.peer_certfile, store.peer_keyfile, store.peer_cafile)
    if any(tls) and not all(tls):
        raise ConfigError(f"{path}: store: give peer_certfile, peer_keyfile and peer_cafile together (TLS between "
                          "nodes), or none")
    if store.url and not is_postgres_url(store.url):
        raise ConfigError(f"{path}: store.url: expected a postgresql:// URL (or nothing, for the SQLite file "
                          f"in the data folder), got {masked(store.url)!r}")
    return Config(
        server=server,
        computer=_check_section(path, "computer", raw.get("computer", {}), ComputerConfig),
        rules=_check_rules(path, raw.get("rules", {})),
        caller=_check_caller(path, raw.get("caller", {})),
        sysops=_check_sysops(path, raw.get("sysop", [])),
        paging=_check_section(path, "paging", raw.get("paging", {}), PagingConfig),
        limits=_check_section(path, "limits", raw.get("limits", {}), LimitsConfig),
        store=store,
        web=_check_web(path, raw.get("web", {})),
        bulletins=_check_section(path, "bulletins", raw.get("bulletins", {}), BulletinsConfig),
        rlogin=_check_rlogin(path, raw.get("rlogin", {})),
        daily=_check_section(path, "daily", raw.get("daily", {}), DailyConfig),
        ranked=_check_section(path, "ranked", raw.get("ranked", {}), RankedConfig),
        correspondence=_check_correspondence(path, raw.get("correspondence", {})),
        source=path,
    )
