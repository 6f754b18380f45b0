"""Refresh the vendored xterm.js: fetch the pinned packages from
the npm registry with ``npm pack``, check each tarball's integrity against
the registry's, copy the files the page uses into
``door/net/webpage/vendor/`` with their licence, and write ``VENDOR.json``
(package, version, the tarball's integrity, each file's SHA-256).

    python3 scripts/refresh_xterm.py            # the pinned versions
    python3 scripts/refresh_xterm.py --xterm 6.0.0 --fit 0.11.0

Nothing is fetched at run time: the server serves these files, and
tests/unit/test_vendor.py checks them against ``VENDOR.json``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "door" / "net" / "webpage" / "vendor"
PACKAGES = {
    "@xterm/xterm": {"lib/xterm.js": "xterm.js", "css/xterm.css": "xterm.css", "LICENSE": "LICENSE.xterm"},
    "@xterm/addon-fit": {"lib/addon-fit.js": "addon-fit.js", "LICENSE": "LICENSE.addon-fit"},
}


def pack(name: str, version: str, into: Path) -> tuple[Path, str]:
    """``npm pack name@version`` into ``into``: the tarball and the
    registry's integrity string for it (checked here)."""
    out = subprocess.run(["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", str(into)],
                         check=True, capture_output=True, text=True).stdout
    info = json.loads(out)[0]
    tarball = into / info["filename"]
    algorithm, digest = info["integrity"].split("-", 1)
    actual = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if actual != digest:
        raise SystemExit(f"{name}@{version}: the tarball does not match the registry's integrity")
    return tarball, info["integrity"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xterm", default="6.0.0", help="@xterm/xterm version (default 6.0.0)")
    parser.add_argument("--fit", default="0.11.0", help="@xterm/addon-fit version (default 0.11.0)")
    args = parser.parse_args()
    versions = {"@xterm/xterm": args.xterm, "@xterm/addon-fit": args.fit}
    VENDOR.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, files in PACKAGES.items():
            tarball, integrity = pack(name, versions[name], Path(tmp))
            with tarfile.open(tarball) as tar:
                for inside, target in files.items():
                    member = tar.extractfile(f"package/{inside}")
                    assert member is not None, inside
                    with open(VENDOR / target, "wb") as out:
                        shutil.copyfileobj(member, out)
            manifest[name] = {"version": versions[name], "integrity": integrity,
                              "files": {target: hashlib.sha256((VENDOR / target).read_bytes()).hexdigest()
                                        for target in files.values()}}
    (VENDOR / "VENDOR.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"vendored into {VENDOR}: " + ", ".join(f"{n}@{v['version']}" for n, v in manifest.items()))


if __name__ == "__main__":
    main()
