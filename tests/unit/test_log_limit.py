"""A stranger cannot flood the sysop's log.  Each source gets
:data:`SOURCE_BURST` lines a period; the rest are counted and said in one
line; errors and the door's own lines always pass."""

from __future__ import annotations

import io
import logging

from door.net.logs import SOURCE, SourceLimit


def _logger(limit: SourceLimit) -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(limit)
    logger = logging.getLogger("test.log_limit")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logging.getLogger("door.net.logs").handlers[:] = [handler]  # where the summary line is written
    logging.getLogger("door.net.logs").propagate = False
    return logger, out


def test_a_source_past_its_burst_is_held_back_and_counted() -> None:
    now = [0.0]
    limit = SourceLimit(burst=5, period=10.0, clock=lambda: now[0])
    logger, out = _logger(limit)
    for i in range(1000):
        logger.warning("refused %d", i, extra={"source": "10.0.0.1"})
    logger.warning("another caller", extra={"source": "10.0.1.2"})
    logger.info("the door's own line")
    logger.error("an error from the flooder", extra={"source": "10.0.0.1"})
    lines = out.getvalue().splitlines()
    assert lines[:5] == [f"refused {i}" for i in range(5)]
    assert "another caller" in lines and "the door's own line" in lines and "an error from the flooder" in lines
    assert len(lines) == 8
    now[0] = 10.5
    logger.warning("later", extra={"source": "10.0.0.1"})
    lines = out.getvalue().splitlines()
    assert lines[-2:] == ["995 log line(s) from 10.0.0.0/24 held back in 10 s", "later"]
    assert limit.held_back == 995


def test_the_summary_comes_even_if_the_flooder_falls_silent() -> None:
    now = [0.0]
    limit = SourceLimit(burst=2, period=10.0, clock=lambda: now[0])
    logger, out = _logger(limit)
    for _ in range(50):
        logger.warning("noise", extra={"source": "10.0.0.1"})
    now[0] = 25.0
    logger.info("somebody else")
    assert out.getvalue().splitlines()[-2:] == ["48 log line(s) from 10.0.0.0/24 held back in 10 s", "somebody else"]


def test_the_source_of_a_session_is_its_context() -> None:
    now = [0.0]
    limit = SourceLimit(burst=3, period=10.0, clock=lambda: now[0])
    logger, out = _logger(limit)
    token = SOURCE.set("192.0.2.9")
    try:
        for _ in range(10):
            logger.info("connect")
    finally:
        SOURCE.reset(token)
    assert out.getvalue().splitlines() == ["connect"] * 3


def test_a_block_of_addresses_is_one_source() -> None:
    """Sixty addresses of one /24 (the peer-port attack of bench.abuse) get
    one source's lines, not sixty."""
    now = [0.0]
    limit = SourceLimit(burst=5, period=10.0, clock=lambda: now[0])
    logger, out = _logger(limit)
    for i in range(600):
        logger.warning("refused", extra={"source": f"192.0.2.{i % 60}"})
    assert len(out.getvalue().splitlines()) == 5
    for i in range(10):  # two addresses of one IPv6 /56
        logger.warning("refused", extra={"source": "2001:db8:0:1::1" if i % 2 else "2001:db8:0:2::7"})
    assert len(out.getvalue().splitlines()) == 5 + 5
