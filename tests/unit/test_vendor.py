"""The vendored xterm.js: each file the page serves is the one
``scripts/refresh_xterm.py`` took from npm, pinned by version and
checksum, with its licence beside it."""

from __future__ import annotations

import hashlib
import json

from door.net.web import PAGE


def test_every_vendored_file_matches_its_checksum() -> None:
    manifest = json.loads((PAGE / "vendor" / "VENDOR.json").read_text())
    assert manifest["@xterm/xterm"]["version"] == "6.0.0"
    for package in manifest.values():
        assert package["integrity"].startswith("sha512-")
        for name, digest in package["files"].items():
            assert hashlib.sha256((PAGE / "vendor" / name).read_bytes()).hexdigest() == digest, name
    assert "MIT" in (PAGE / "vendor" / "LICENSE.xterm").read_text() or "Permission is hereby granted" in (
        PAGE / "vendor" / "LICENSE.xterm").read_text()


def test_the_page_loads_nothing_from_elsewhere() -> None:
    for name in ("index.html", "door.js", "door.css"):
        text = (PAGE / name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
    assert "<script>" not in (PAGE / "index.html").read_text()  # no inline script
