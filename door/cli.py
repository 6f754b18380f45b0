"""The ``cribbage-door`` command.

``cribbage-door serve`` starts the telnet and SSH listeners from
``conf/door.toml`` (when it exists in the current folder) or the file given
with ``--config``; the flags override the file.  ``cribbage-door records``
lists, shows, removes and exports the game records; ``cribbage-door
verify`` deals every recorded game again from its seeds.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from door.config import DEFAULT_CONFIG_PATH, Config, ConfigError, load_config
from door.net.logs import configure as configure_logs
from door.net.private import SecretFileError
from door.net.sorry import DEFAULT_WORDS
from door.records.cli import NAMED, run_records
from door.records.cli import add_parser as add_records_parser
from door.records.store import StoreError
from door.records.tournament_cli import add_parser as add_tournament_parser
from door.records.tournament_cli import run_tournament
from door.server import serve
from door.service import node_name
from door.workers import MAX_WORKERS, run_workers

__all__ = ["main"]


def _version() -> str:
    """The installed distribution's version (CHANGELOG.md says what each changed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cribbage-door")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cribbage-door", description="A BBS-door-style cribbage server.")
    p.add_argument("--version", action="version", version=f"cribbage-door {_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="start the telnet and SSH listeners")
    s.add_argument("--config", type=Path, help=f"configuration file (default: {DEFAULT_CONFIG_PATH} if present)")
    s.add_argument("--host", help="address to listen on (default from the config: 127.0.0.1)")
    s.add_argument("--telnet-port", type=int, help="telnet port, 0 for any free port (default 2323)")
    s.add_argument("--ssh-port", type=int, help="SSH port, 0 for any free port (default 2222)")
    s.add_argument("--web-port", type=int, help="web page's port, 0 for any free port (default 8080)")
    s.add_argument("--data-dir", help="folder for the SSH host key and data (default: data)")
    s.add_argument("--computer-delay", type=float, help="seconds before each computer move (default 0.6)")
    s.add_argument("--reader-wait", type=float, help="seconds the first line waits for S (screen-reader mode) "
                                                     "before the full screen (default 2)")
    s.add_argument("--workers", type=_workers, default=1,
                   help="serve processes on the same ports (SO_REUSEPORT), sharing the store: a number, or auto "
                        "(one a core this process may use; default 1)")
    s.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    add_records_parser(sub)
    add_tournament_parser(sub)
    pw = sub.add_parser("passwd", help="print the scrypt hash of a password, for a [[sysop]] entry")
    pw.add_argument("--stdin", action="store_true", help="read the password (twice, one a line) from standard input")
    d = sub.add_parser("door", help="run one caller over stdin/stdout (or a telnet socket) as a BBS door")
    d.add_argument("--dropfile", type=Path, help="DOOR32.SYS, DOOR.SYS, DORINFO1.DEF, CHAIN.TXT or BBSDEV.DRP "
                                                 "(default: the BBSDEV.DRP named by BBSDEV_DRP)")
    d.add_argument("--show-dropfile", action="store_true", help="print what the drop file says, field by field, "
                                                                "and exit")
    d.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    d.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    d.add_argument("--charset", choices=["cp437", "utf-8", "ascii"],
                   help="override the drop file's emulation (ANSI means CP437, else plain ASCII)")
    b = sub.add_parser("bulletins", help="write the bulletins (top players, recent games, today) for the BBS")
    b.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    b.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    b.add_argument("--folder", type=Path, help="where to write them (default from the config: [bulletins] folder)")
    v = sub.add_parser("verify", help="deal every recorded game again from its seeds and check the commitments")
    v.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    v.add_argument("--data-dir", help="data folder holding the database (default from the config: data)")
    v.add_argument("-q", "--quiet", action="store_true", help="print only the failures and the total")
    v.add_argument("games", nargs="*", type=int, metavar="GAME_ID", help="the games to check (default: all)")
    v.add_argument("--daily", metavar="DAY", help="instead: a past day's daily deal (YYYY-MM-DD): its seed against "
                                                 "the commitment shown that day, and every play of it")
    c = sub.add_parser("console", help="the local sysop console of a running server")
    c.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    c.add_argument("--data-dir", help="data folder of the running server (default from the config: data)")
    so = sub.add_parser("sorry", help="say the door is down for maintenance on its ports (no node running)")
    so.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    so.add_argument("--host", help="address to listen on (default from the config)")
    so.add_argument("--telnet-port", type=int, help="telnet port (default from the config; -1: none)")
    so.add_argument("--web-port", type=int, help="web port (default from the config; -1: none)")
    so.add_argument("--rlogin-port", type=int, default=-1, help="the hub's rlogin port (default: none)")
    so.add_argument("--message", default=DEFAULT_WORDS, help="what callers read (printable ASCII)")
    dr = sub.add_parser("drain", help="take no new callers, and stop once the callers are gone (for an upgrade)")
    dr.add_argument("--config", type=Path, help="configuration file (default: conf/door.toml if present)")
    dr.add_argument("--data-dir", help="data folder of the running server (default from the config: data)")
    return p


def _workers(text: str) -> int:
    """``--workers``: a number, or ``auto``: one a core this process may
    run on (its CPU affinity, as systemd's ``CPUAffinity`` or a container
    sets it), at most :data:`~door.workers.MAX_WORKERS`."""
    if text.strip().lower() == "auto":
        return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or auto, got {text!r}") from None


def _sorry(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door sorry``: the exit status (2 for words that are not ASCII, 1 for a port taken)."""
    from door.net.sorry import check_words
    from door.sorry_mode import run_sorry
    try:
        words = check_words(args.message)
    except ValueError as exc:
        print(f"cribbage-door: sorry --message: {exc}", file=sys.stderr)
        return 2
    telnet = config.server.telnet_port if args.telnet_port is None else args.telnet_port
    web = config.web.port if args.web_port is None else args.web_port
    ports = [(kind, port) for kind, port in (("telnet", telnet), ("web", web), ("rlogin", args.rlogin_port))
             if port >= 0]
    try:
        return run_sorry(args.host or config.server.host, ports, words, config.server.proxies)
    except OSError as exc:
        print(f"cribbage-door: sorry: cannot listen: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def _passwd(from_stdin: bool) -> int:
    """Ask a password twice and print its scrypt hash."""
    import getpass

    from door.records.passwords import hash_password
    if from_stdin or not sys.stdin.isatty():
        lines = sys.stdin.read().splitlines()
        first, again = (lines + ["", ""])[:2]
    else:
        first = getpass.getpass("Password: ")
        again = getpass.getpass("Again: ")
    if first != again:
        print("cribbage-door: the two passwords differ", file=sys.stderr)
        return 1
    if len(first) < 8:
        print("cribbage-door: a sysop password needs at least 8 characters", file=sys.stderr)
        return 1
    print(hash_password(first))
    return 0


def _bulletins(folder: Path | None, target: Any) -> int:
    """``cribbage-door bulletins`` (for a board's nightly event): write them once and say where."""
    from door.records.bulletins import write_bulletins
    from door.records.store import Store

    if folder is None:
        print("cribbage-door: say where the bulletins go: --folder, or [bulletins] folder in the config",
              file=sys.stderr)
        return 2

    async def run() -> list[Path]:
        store = await Store.open(target)
        try:
            return await write_bulletins(store, folder)
        finally:
            await store.close()

    try:
        written = asyncio.run(run())
    except (OSError, StoreError) as exc:
        print(f"cribbage-door: cannot write the bulletins: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files into {folder}")
    return 0


def _verify(target: Path | str, games: list[int], quiet: bool, daily: str | None = None) -> int:
    """``cribbage-door verify``: one line a game (or only the failures), then
    the total; exit status 1 when a game fails, or none was found.  With
    ``daily``, a past day's daily deal instead (exit status 1 unless it
    is over and every play of it holds)."""
    if isinstance(target, Path) and not target.exists():
        print(f"cribbage-door: no database at {target} (start the server once, or give --data-dir)", file=sys.stderr)
        return 1
    if daily is not None:
        return _verify_daily(target, daily)
    from door.records.store import Store
    from door.records.verify import verify_games

    async def run() -> list[Any]:
        store = await Store.open(target)
        try:
            return await verify_games(store, games or None)
        finally:
            await store.close()

    try:
        verdicts = asyncio.run(run())
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    return _print_verdicts(verdicts, games, quiet)


def _verify_daily(target: Path | str, daily: str) -> int:
    """``cribbage-door verify --daily DAY``: 2 for a day not written
    YYYY-MM-DD, 1 unless the day is over and every play of it holds."""
    from door.records.store import Store
    from door.records.verify import verify_daily

    try:
        datetime.date.fromisoformat(daily)
    except ValueError:
        print(f"cribbage-door: --daily: expected a day as YYYY-MM-DD, got {daily!r}", file=sys.stderr)
        return 2

    async def day() -> tuple[list[str], bool]:
        store = await Store.open(target)
        try:
            return await verify_daily(store, daily)
        finally:
            await store.close()

    try:
        lines, held = asyncio.run(day())
    except StoreError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0 if held else 1


def _print_verdicts(verdicts: list[Any], games: list[int], quiet: bool) -> int:
    """Print ``verify``'s verdicts (``door.records.verify.Verdict``: all,
    or with ``quiet`` only the failures) and the total; the exit status."""
    for v in verdicts:
        if not quiet or v.problems:
            print(v.line())
    failed = sum(1 for v in verdicts if v.problems)
    ok = sum(1 for v in verdicts if v.ok)
    seeded = sum(1 for v in verdicts if v.ok and v.seeded)
    unchecked = len(verdicts) - ok - failed
    print(f"verified {ok} of {len(verdicts)} games ({seeded} from their seeds, {ok - seeded} numbered); "
          f"{failed} failed; {unchecked} recorded before the door kept its deals")
    missing = sorted(set(games) - {v.game_id for v in verdicts})
    if missing:
        print(f"cribbage-door: no recorded game {', '.join(map(str, missing))}", file=sys.stderr)
    return 1 if failed or missing or not verdicts else 0


def _data_dir(args: argparse.Namespace, config: Config) -> Path:
    """The data folder: ``--data-dir``, else the config's ``[server] data_dir``."""
    return Path(args.data_dir or config.server.data_dir)


def _run_tournament(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door tournament ...`` on the configured store."""
    return run_tournament(args, config.store.target(_data_dir(args, config)))


def _run_records(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door records``."""
    return run_records(args, config.store.target(_data_dir(args, config)))


def _run_door(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door door``: one caller over stdin/stdout (2 for a bad drop file or store)."""
    if args.show_dropfile:
        from door.door_mode import show_dropfile
        return show_dropfile(args.dropfile, os.environ)
    from door.door_mode import door_main
    from door.net.dropfile import DropFileError
    if args.data_dir:
        config.server.data_dir = args.data_dir
    # stdout (and often stderr) is the caller's screen: log to a file
    Path(config.server.data_dir).mkdir(parents=True, exist_ok=True)
    configure_logs(logging.getLogger().level, logging.FileHandler(Path(config.server.data_dir) / "door.log"))
    try:
        return door_main(config, args.dropfile, args.charset)
    except (DropFileError, StoreError) as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 2


def _run_bulletins(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door bulletins``."""
    return _bulletins(args.folder or (Path(config.bulletins.folder) if config.bulletins.folder else None),
                      config.store.target(_data_dir(args, config)))


def _run_verify(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door verify``."""
    return _verify(config.store.target(_data_dir(args, config)), args.games, args.quiet, args.daily)


def _run_console(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door console``."""
    from door.net.console_client import run_console
    return run_console(_data_dir(args, config))


def _run_drain(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door drain``."""
    from door.net.console_client import run_drain
    return run_drain(_data_dir(args, config))


def _serve_flags(args: argparse.Namespace, config: Config) -> str | None:
    """Put ``serve``'s flags over the config (in place); what is wrong
    with them (a port outside 0..65535, a count of workers), or None."""
    s = config.server
    for flag in ("host", "telnet_port", "ssh_port", "data_dir"):
        value = getattr(args, flag)
        if value is not None:
            setattr(s, flag, value)
    if args.web_port is not None:
        config.web.port = args.web_port
    for port in (s.telnet_port, s.ssh_port, config.web.port):
        if not 0 <= port <= 65535:
            return f"port {port} is outside 0..65535"
    if args.computer_delay is not None:
        config.computer.delay = args.computer_delay
    if args.reader_wait is not None:
        config.server.reader_wait = max(0.0, min(30.0, args.reader_wait))
    if not 1 <= args.workers <= MAX_WORKERS:
        return f"--workers takes 1 to {MAX_WORKERS}"
    return None


def _run_serve(args: argparse.Namespace, config: Config) -> int:
    """``cribbage-door serve``: 2 for a bad flag, 1 when a listener cannot start."""
    wrong = _serve_flags(args, config)
    if wrong is not None:
        print(f"cribbage-door: {wrong}", file=sys.stderr)
        return 2
    s = config.server
    if s.node_name or s.log_format == "json":  # (the workers name their own lines: door.workers)
        configure_logs(logging.getLogger().level, node=node_name(s.node_name, 0, 1), json=s.log_format == "json")
    try:
        if args.workers > 1:
            return run_workers(config, args.workers, logging.getLogger().level)
        return asyncio.run(serve(config))
    except (OSError, StoreError, SecretFileError) as exc:
        print(f"cribbage-door: cannot start: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


#: Each subcommand that reads the config, and what runs it: ``(args, config)
#: -> exit status``.  A new subcommand adds its parser in :func:`_parser`
#: and its handler here.
COMMANDS: dict[str, Callable[[argparse.Namespace, Config], int]] = {
    "serve": _run_serve,
    "records": _run_records,
    "tournament": _run_tournament,
    "door": _run_door,
    "bulletins": _run_bulletins,
    "verify": _run_verify,
    "console": _run_console,
    "sorry": _sorry,
    "drain": _run_drain,
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # a player's name may start with "-" (records show -Bob): it is the name, not an option
        if args.command == "records" and args.action in NAMED and args.target is None and len(extra) == 1:
            args.target = extra[0]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "passwd":
        return _passwd(args.stdin)
    configure_logs(logging.DEBUG if getattr(args, "verbose", False) else logging.INFO)
    path = args.config
    if path is None and DEFAULT_CONFIG_PATH.exists():
        path = DEFAULT_CONFIG_PATH
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(f"cribbage-door: {exc}", file=sys.stderr)
        return 2
    return COMMANDS[args.command](args, config)


if __name__ == "__main__":
    sys.exit(main())
