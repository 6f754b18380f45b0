"""The web listener's options from the configuration's ``[web]`` and ``[limits]``."""

from __future__ import annotations

import ssl

from door.config.sections import LimitsConfig, WebConfig
from door.net.web import WebOptions, default_hosts

__all__ = ["web_options"]


def web_options(web: WebConfig, host: str = "127.0.0.1", limits: LimitsConfig | None = None) -> WebOptions:
    """The web listener's options from ``[web]`` (with an HTTPS context
    when it names a certificate); ``host``: the listening address (the
    page's names by default, :func:`~door.net.web.default_hosts`).  Raises ``OSError`` or ``ssl.SSLError``
    when the certificate or key cannot be read."""
    tls = None
    if web.certfile:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(web.certfile, web.keyfile)
    hosts = tuple(h.lower().strip("[]") for h in web.hosts) or default_hosts(host)
    limits = limits or LimitsConfig()
    return WebOptions(hosts=hosts, max_output=limits.max_output, stuck_timeout=limits.stuck_timeout,
                      origins=tuple(web.origins), proxies=tuple(web.proxies),
                      max_message=web.max_message, message_rate=web.message_rate,
                      frame_ancestors=web.frame_ancestors, tls=tls, metrics_from=tuple(web.metrics_from))
