"""``cribbage-door console``: the sysop's local console of a running server.

Puts this terminal in raw mode, connects to the server's console socket in
the data folder, and relays keys and screen both ways until the console is
closed (Q) or the server stops.  Window changes are passed on.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import socket
import sys
import termios
import tty
from pathlib import Path

from door.net.ansi import CONTROL
from door.net.console_socket import CONSOLE_SOCKET

__all__ = ["run_console", "run_drain"]


def run_console(data_dir: Path) -> int:
    """Run the console against the server whose data folder is
    ``data_dir``; returns the exit status."""
    path = data_dir / CONSOLE_SOCKET
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
    except OSError as exc:
        print(f"cribbage-door: no console at {path} ({exc.strerror}); is the server running?", file=sys.stderr)
        return 1
    cols, rows = shutil.get_terminal_size((80, 24))
    sock.sendall(f"CONSOLE {cols} {rows} {os.environ.get('TERM', 'xterm')}\n".encode())
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    saved = termios.tcgetattr(stdin) if os.isatty(stdin) else None

    def resized(*_: object) -> None:
        c, r = shutil.get_terminal_size((80, 24))
        sock.sendall(CONTROL["console_resize"].format(cols=c, rows=r).encode("ascii"))

    if saved is not None:
        tty.setraw(stdin)
        signal.signal(signal.SIGWINCH, resized)
    sel = selectors.DefaultSelector()
    sel.register(stdin, selectors.EVENT_READ)
    sel.register(sock, selectors.EVENT_READ)
    try:
        while True:
            for key, _ in sel.select():
                if key.fileobj == sock:
                    data = sock.recv(65536)
                    if not data:
                        return 0
                    os.write(stdout, data)
                else:
                    data = os.read(stdin, 4096)
                    if not data:
                        return 0
                    sock.sendall(data)
    finally:
        if saved is not None:
            termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        sock.close()
        print()


def run_drain(data_dir: Path) -> int:
    """Tell the server whose data folder is ``data_dir`` to drain (it
    takes no new caller, and stops once its callers are gone or its
    ``drain_timeout`` is over); print its answer.  Returns the exit status."""
    path = data_dir / CONSOLE_SOCKET
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        try:
            sock.connect(str(path))
            sock.sendall(b"DRAIN\n")
            answer = sock.makefile("rb").readline().decode("utf-8", "replace").strip()
        except OSError as exc:
            print(f"cribbage-door: no server at {path} ({exc.strerror or exc}); is it running?", file=sys.stderr)
            return 1
    print(answer or "the server did not answer")
    return 0 if answer.startswith("draining") else 1
