"""The door's configuration: ``door.toml`` read and checked
(:mod:`door.config.loading`) into plain values (:mod:`door.config.sections`).

Every key is optional and has the default documented in ``conf/door.toml``.
A mistake (bad TOML, an unknown section or key, a value of the wrong type
or out of range, an invalid house rule) raises :class:`ConfigError` whose
message names the file, the key and what was expected.
"""

from door.config.loading import DEFAULT_CONFIG_PATH, ConfigError, load_config
from door.config.sections import (
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

__all__ = ["Config", "ServerConfig", "WebConfig", "DailyConfig", "RankedConfig", "BulletinsConfig", "Handshake",
           "BoardConfig", "RloginConfig", "ComputerConfig", "CallerConfig", "LimitsConfig", "PagingConfig",
           "SysopConfig", "StoreConfig", "CorrespondenceConfig", "ConfigError", "load_config", "DEFAULT_CONFIG_PATH"]
