"""The manual's TLS to PostgreSQL (docs/machines.md, "The database"), tried:
a server with ``ssl = on`` and a certificate for its name signed by an
authority of one's own (made with the manual's ``openssl`` lines),
``hostssl`` only in ``pg_hba.conf``, and a node's URL with
``sslmode=verify-full`` and ``sslrootcert``: the store opens; with
another authority, or without TLS, it is refused with a clear message."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from door.records.store import Store, StoreError
from tests.support.postgres import PostgresServer, find_bin


def authority(folder: Path, name: str) -> Path:
    """An authority of one's own (the manual's line): its certificate."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "30", "-subj", f"/CN={name}", "-keyout", str(folder / f"{name}.key"),
                    "-out", str(folder / f"{name}.crt")], check=True, capture_output=True, timeout=60)
    return folder / f"{name}.crt"


def certificate(folder: Path, ca: str, host: str) -> tuple[Path, Path]:
    """A certificate for ``host`` signed by ``ca`` (the manual's two lines): its certificate and key."""
    key, csr, crt = folder / f"{host}.key", folder / f"{host}.csr", folder / f"{host}.crt"
    subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-subj", f"/CN={host}", "-keyout", str(key), "-out", str(csr)],
                   check=True, capture_output=True, timeout=60)
    subprocess.run(["openssl", "x509", "-req", "-in", str(csr), "-CA", str(folder / f"{ca}.crt"), "-CAkey",
                    str(folder / f"{ca}.key"), "-CAcreateserial", "-days", "30", "-out", str(crt)],
                   check=True, capture_output=True, timeout=60)
    return crt, key


@pytest.fixture
def tls_postgres(tmp_path: Path) -> Iterator[tuple[PostgresServer, Path, Path]]:
    bin_dir = find_bin()
    if bin_dir is None or shutil.which("openssl") is None:
        pytest.skip("PostgreSQL or openssl is not installed")
    server = PostgresServer(bin_dir)
    server.start()
    try:
        ca = authority(tmp_path, "db-ca")
        other = authority(tmp_path, "other-ca")
        crt, key = certificate(tmp_path, "db-ca", "localhost")
        for source in (crt, key):
            target = server.data / source.name
            shutil.copy(source, target)
            target.chmod(0o600)
            if os.geteuid() == 0:
                entry = pwd.getpwnam("postgres")
                os.chown(target, entry.pw_uid, entry.pw_gid)
        with open(server.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nssl = on\nssl_cert_file = '{crt.name}'\nssl_key_file = '{key.name}'\n")
        hba = server.data / "pg_hba.conf"
        hba.write_text(hba.read_text().replace("\nhost ", "\nhostssl "))  # (TLS only, as the manual's lines)
        server.restart()
        yield server, ca, other
    finally:
        server.remove()


async def test_verify_full_with_the_authority_named_opens_the_store(
        tls_postgres: tuple[PostgresServer, Path, Path]) -> None:
    server, ca, other = tls_postgres
    url = f"postgresql://{server.user}@localhost:{server.port}/postgres"
    store = await Store.open(f"{url}?sslmode=verify-full&sslrootcert={ca}")
    await store.ping()
    await store.close()
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL"):
        await Store.open(f"{url}?sslmode=verify-full&sslrootcert={other}")  # (another authority: refused)
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL"):
        await Store.open(f"{url}?sslmode=disable")  # (hostssl only: no TLS, no entry)
