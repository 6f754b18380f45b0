"""Loading and checking the configuration file (TOML, ``conf/door.toml``).

Every key is optional and has the default documented in ``conf/door.toml``.
A mistake — bad TOML, an unknown section or key, a value of the wrong type
or out of range, an invalid house rule — raises :class:`ConfigError` whose
message names the file, the key and what was expected.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.rules import Rules, RulesError

__all__ = ["Config", "ServerConfig", "ComputerConfig", "ConfigError", "load_config", "DEFAULT_CONFIG_PATH"]

DEFAULT_CONFIG_PATH = Path("conf/door.toml")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and why."""


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


@dataclass
class ComputerConfig:
    """The ``[computer]`` section: ``delay`` in seconds before each move."""

    delay: float = 0.6


@dataclass
class Config:
    """The whole configuration; ``source`` is the file it came from (or
    ``None`` for the built-in defaults)."""

    server: ServerConfig = field(default_factory=ServerConfig)
    computer: ComputerConfig = field(default_factory=ComputerConfig)
    rules: Rules = field(default_factory=Rules)
    source: Path | None = None


_RANGES: dict[str, tuple[float, float]] = {
    "telnet_port": (0, 65535), "ssh_port": (0, 65535), "idle_timeout": (1, 86400),
    "connect_maxwait": (0, 60), "login_timeout": (1, 3600), "delay": (0, 10),
}


def _check_section(path: Path, name: str, raw: Any, cls: type) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [{name}] must be a table of keys, got {raw!r}")
    known = {f.name: f for f in fields(cls)}
    values = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"{path}: {name}.{key}: unknown key (expected one of {', '.join(known)})")
        default = known[key].default
        where = f"{path}: {name}.{key}"
        if isinstance(default, bool) or isinstance(default, str):
            if type(value) is not type(default):
                raise ConfigError(f"{where}: expected {'true or false' if isinstance(default, bool) else 'a string'}, got {value!r}")
        elif isinstance(default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{where}: expected a whole number, got {value!r}")
        elif isinstance(default, float):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ConfigError(f"{where}: expected a number of seconds, got {value!r}")
            value = float(value)
        if key in _RANGES:
            lo, hi = _RANGES[key]
            if not lo <= value <= hi:
                raise ConfigError(f"{where}: expected a value from {lo:g} to {hi:g}, got {value!r}")
        values[key] = value
    return cls(**values)


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
        if section not in ("server", "computer", "rules"):
            raise ConfigError(f"{path}: [{section}]: unknown section (expected server, computer, rules)")
    return Config(
        server=_check_section(path, "server", raw.get("server", {}), ServerConfig),
        computer=_check_section(path, "computer", raw.get("computer", {}), ComputerConfig),
        rules=_check_rules(path, raw.get("rules", {})),
        source=path,
    )
