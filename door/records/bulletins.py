"""Bulletins for the BBS: the top players, the recent games,
the day's news and today's deal's ranking, each written as ``.ans`` (CP437 with colour, 80
columns), ``.txt`` (plain ASCII) and ``.html``, into a folder the board
shows them from.

The sysop's own ``header.ans``/``.txt``/``.html``, ``footer.*`` and
``bulletins.css`` in that folder are used (put before and after each
bulletin; the CSS linked) and never written.  Each file is written whole:
to a temporary file in the same folder, then renamed over the old one, so
a board never shows half of one.
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from door.net.ansi import CONTROL
from door.net.charset import ASCII, CP437
from door.records.daily import DailyResult, day_of, par_line
from door.records.games import GameSummary
from door.records.statistics import TopPlayer
from door.records.store import Store

__all__ = ["Bulletin", "BULLETINS", "write_bulletins", "render_bulletins", "BulletinWriter"]

log = logging.getLogger(__name__)

BULLETINS = ("top", "recent", "news", "daily")
"""The bulletins written, by file name (``top.ans``, ``top.txt``, ``top.html`` ...)."""

WIDTH = 80
SHOWN = 15
"""Rows in each table."""


@dataclass(frozen=True)
class Bulletin:
    """One bulletin: its file ``name``, ``title`` and ``rows`` (the first
    is the table's heading, or none when ``heading`` is False)."""

    name: str
    title: str
    rows: Sequence[str]
    heading: bool = True


def render_bulletins(top: Sequence[TopPlayer], recent: Sequence[GameSummary], now: float,
                     daily: Sequence[DailyResult] = (), par: tuple[int, int] | None = None,
                     commitment: str = "") -> list[Bulletin]:
    """The bulletins from the records (``now``: seconds since the epoch,
    for the day's news, in local time; ``daily``, ``par`` and
    ``commitment``: today's deal's ranking, the expert's own result on it
    and its seed's SHA-256)."""
    rows = [f"{'':>3} {'Name':<20} {'Games':>6} {'Won':>5} {'Win %':>6} {'Credited':>9}"]
    rows += [f"{i:>3} {p.name[:20]:<20} {p.games:>6} {p.wins:>5} {p.win_rate:>5.0f}% {p.credited:>9}"
             for i, p in enumerate(top[:SHOWN], 1)]
    games = [g.line() for g in recent[:SHOWN]]
    today = day_of(now)
    todays = [g for g in recent if day_of(g.ended) == today]
    skunks = [g for g in todays if g.skunk.value]
    news = [f"{len(todays)} game{'s' if len(todays) != 1 else ''} finished today ({today})."]
    if todays:
        best = max(todays, key=lambda g: (g.value, g.scores[g.winner] - g.scores[1 - g.winner]))
        news.append(f"Biggest win: {best.players[best.winner]} over {best.players[1 - best.winner]}, "
                    f"{best.scores[best.winner]} to {best.scores[1 - best.winner]}.")
    if skunks:
        news.append(f"Skunks today: {len(skunks)}.")
    deal = ["The same cards for everyone today."]
    if commitment:
        deal.append(f"Its seed's SHA-256: {commitment}")
    if par is not None:
        deal.append(par_line(par))
    deal.append("")
    deal += [r.line(i) for i, r in enumerate(daily[:SHOWN], 1)]
    if not daily:
        deal.append("Nobody has finished today's deal yet.")
    return [Bulletin("top", "Cribbage door: top players", rows if top else ["No games recorded yet."], bool(top)),
            Bulletin("recent", "Cribbage door: recent games", games or ["No games recorded yet."], False),
            Bulletin("news", "Cribbage door: today", news, False),
            Bulletin("daily", f"Cribbage door: today's deal, {today}", deal, False)]


OWN = ("header.ans", "header.txt", "header.html", "footer.ans", "footer.txt", "footer.html", "bulletins.css")
"""The sysop's files in the folder: used, never written."""


def _own_files(folder: Path) -> dict[str, bytes]:
    """The sysop's files (:data:`OWN`) found in ``folder``, as written (CR LF stays CR LF)."""
    found = {}
    for name in OWN:
        try:
            found[name] = (folder / name).read_bytes()
        except OSError:
            pass
    return found


def _txt(b: Bulletin, own: dict[str, bytes]) -> bytes:
    lines = [b.title, "=" * len(b.title), "", *b.rows]
    text = "\r\n".join(line[:WIDTH - 1] for line in lines) + "\r\n"
    text = own.get("header.txt", b"").decode("utf-8", "replace") + text + own.get("footer.txt", b"").decode(
        "utf-8", "replace")
    return ASCII.encode(text)  # (plain ASCII, the sysop's lines too: box lines as - | +, suits as letters)


def _ans(b: Bulletin, own: dict[str, bytes]) -> bytes:
    def sgr(params: str) -> str:
        return CONTROL["sgr"].format(params=params)

    out = [sgr("0;1;37;44") + f" {b.title:<{WIDTH - 2}}" + sgr("0"), ""]
    for i, line in enumerate(b.rows):
        colour = "1;36" if i == 0 and b.heading else "0;37"
        out.append(sgr(colour) + line[:WIDTH - 1] + sgr("0"))
    body = "\r\n".join(out) + "\r\n"
    return own.get("header.ans", b"") + CP437.encode(body) + own.get("footer.ans", b"")


def _html(b: Bulletin, own: dict[str, bytes]) -> bytes:
    css = '<link rel="stylesheet" href="bulletins.css">\n' if "bulletins.css" in own else ""
    header = own.get("header.html", b"").decode("utf-8", "replace")
    footer = own.get("footer.html", b"").decode("utf-8", "replace")
    if b.heading:
        head, *rest = b.rows
        body = f"<pre><b>{html.escape(head)}</b>\n" + "\n".join(html.escape(r) for r in rest) + "</pre>"
    else:
        body = "<pre>" + "\n".join(html.escape(r) for r in b.rows) + "</pre>"
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(b.title)}'
            f"</title>\n{css}</head>\n<body>\n{header}<h1>{html.escape(b.title)}</h1>\n"
            f"{body}\n{footer}</body>\n</html>\n")
    return page.encode("utf-8")


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half of one."""
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_files(bulletins: Sequence[Bulletin], folder: Path) -> list[Path]:
    """Write each bulletin in the three formats into ``folder`` (made if
    need be); returns the files written.  Raises ``OSError``."""
    folder.mkdir(parents=True, exist_ok=True)
    own = _own_files(folder)
    written = []
    for b in bulletins:
        for suffix, render in ((".ans", _ans), (".txt", _txt), (".html", _html)):
            path = folder / f"{b.name}{suffix}"
            _write_whole(path, render(b, own))
            written.append(path)
    return written


async def write_bulletins(store: Store, folder: Path) -> list[Path]:
    """Read the records and write the bulletins into ``folder`` (the
    files off the event loop).  Raises ``OSError`` and
    :class:`~door.records.store.StoreError`."""
    top = await store.statistics.top(SHOWN)
    recent = await store.games.recent(limit=200)
    today = store.daily.today()
    bulletins = render_bulletins(top, recent, store.clock(), await store.daily.ranking(today),
                                 await store.daily.par(today), await store.daily.commitment(today))
    return await asyncio.to_thread(write_files, bulletins, folder)


class BulletinWriter:
    """Writes the bulletins after each finished game: at most one write at
    a time, and one more after it when games finished meanwhile."""

    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def game_recorded(self) -> None:
        """A game was recorded: write soon."""
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while True:
            self._again = False
            try:
                await write_bulletins(self.store, self.folder)
            except Exception as exc:  # (a full disk, a folder taken away: said, and the door plays on)
                log.warning("could not write the bulletins into %s: %s", self.folder, exc)
            if not self._again:
                return
