"""Configuration: defaults, the shipped file, and errors that name the
file, the key and what was expected."""

import subprocess
import sys
from pathlib import Path

import pytest

from door.config import ConfigError, load_config
from engine.scoring import RunMode

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_file_is_the_defaults() -> None:
    shipped = load_config(ROOT / "conf" / "door.toml")
    default = load_config(None)
    assert shipped.server == default.server and shipped.rules == default.rules
    assert shipped.computer == default.computer and shipped.caller == default.caller
    assert shipped.limits == default.limits and shipped.web == default.web
    assert shipped.bulletins == default.bulletins and shipped.rlogin == default.rlogin
    assert shipped.paging == default.paging and shipped.correspondence == default.correspondence


def test_correspondence_values_are_read(tmp_path: Path) -> None:
    f = tmp_path / "door.toml"
    f.write_text("[correspondence]\ndays = [7, 1, 3]\ndefault_days = 7\nmax_open = 5\nvacation_days = 0\n"
                 "weekends = false\nabandon_days = 30\nrated = false\n")
    c = load_config(f).correspondence
    assert c.days == [1, 3, 7] and c.default_days == 7 and c.max_open == 5 and c.vacation_days == 0
    assert not c.weekends and c.abandon_days == 30 and not c.rated and c.offer_days == 7
    assert c.sweep_rules().abandon_days == 30.0 and not c.sweep_rules().weekends
    assert c.offer_limits().offer_days == 7.0 and c.offer_limits().per_hour == 10


def test_values_are_read(tmp_path: Path) -> None:
    f = tmp_path / "door.toml"
    f.write_text('[server]\ntelnet_port = 0\n[computer]\ndelay = 1\nprocesses = 0\n[rules]\ngame_to = 61\n'
                 'run_mode = "ordered"\n')
    c = load_config(f)
    assert c.server.telnet_port == 0 and c.computer.delay == 1.0 and c.computer.processes == 0
    assert c.rules.game_to == 61 and c.rules.run_mode is RunMode.ORDERED and c.rules.skunk == 31


@pytest.mark.parametrize("text,message", [
    ("[server\n", "not valid TOML"),
    ("[limits]\npassword_per_address = 0\n", "limits.password_per_address: expected a value from 1"),
    ("[srever]\n", "[srever]: unknown section"),
    ("[server]\ntelnet_prot = 23\n", "server.telnet_prot: unknown key"),
    ("[server]\ntelnet_port = 'abc'\n", "server.telnet_port: expected a whole number, got 'abc'"),
    ("[server]\nssh_port = 70000\n", "server.ssh_port: expected a value from 0 to 65535, got 70000"),
    ("[server]\nhost = 5\n", "server.host: expected a string"),
    ("[computer]\ndelay = 'slow'\n", "computer.delay: expected a number of seconds"),
    ("[computer]\nprocesses = -1\n", "computer.processes: expected a value from 0 to 64, got -1"),
    ("[rules]\ngame_to = 100\n", "rules: game_to must be 121 or 61"),
    ("[rules]\nmuggins = 'yes'\n", "rules: muggins must be true or false"),
    ("[rules]\nfirst_deal = 'dealer'\n", "rules: first_deal must be one of"),
    ("[caller]\nmay_change = ['wild_cards']\n", "caller.may_change: expected a list of names from game_to"),
    ("[caller]\nskills = []\n", "caller.skills: name at least one level"),
    ("[caller]\npace = 'slow'\n", "caller.pace: expected \"prompt\" or \"pause\""),
    ("[caller]\nskills = ['hard']\nskill = 'easy'\n", "caller.skill: expected one of the offered skills"),
    ("[caller]\nbeep = 'loud'\n", "caller.beep: expected true or false"),
    ("[store]\nurl = 'mysql://door:pw@db/crib'\n", "store.url: expected a postgresql:// URL"),
    ("[store]\nurl = 5\n", "store.url: expected a string"),
    ("[store]\npath = 'x'\n", "store.path: unknown key"),
    ("[web]\nport = 99999\n", "web.port: expected a value from 0 to 65535"),
    ("[web]\norigins = 'https://bbs.example.org'\n", "web.origins: expected a list of strings"),
    ("[web]\norigins = ['bbs.example.org']\n", "web.origins: expected origins like"),
    ("[web]\ncertfile = 'cert.pem'\n", "web: give both certfile and keyfile"),
    ("[web]\nframe_ancestors = \"'self'; script-src *\"\n", "web.frame_ancestors: origins or 'self'"),
    ("[web]\nmax_message = 10\n", "web.max_message: expected a value from 256"),
    ("[paging]\nranked_grace = 0\n", "paging.ranked_grace: expected a value from 1"),
    ("[correspondence]\ndays = [1, 4]\n", "correspondence.days: expected a list of days per move, each once, among 1, 2"),
    ("[correspondence]\ndays = [3, 3]\n", "correspondence.days: expected a list of days per move, each once"),
    ("[correspondence]\ndays = []\n", "correspondence.days: expected a list"),
    ("[correspondence]\ndays = 3\n", "correspondence.days: expected a list"),
    ("[correspondence]\ndays = [1, 2]\n", "correspondence.default_days: expected one of correspondence.days (1, 2), got 3"),
    ("[correspondence]\nabandon_days = 14\n", "correspondence.abandon_days: expected more than the longest days per move (14)"),
    ("[correspondence]\nvacation_days = -1\n", "correspondence.vacation_days: expected a value from 0 to 366"),
    ("[correspondence]\nmax_open = 0\n", "correspondence.max_open: expected a value from 1"),
    ("[correspondence]\nweekends = 'no'\n", "correspondence.weekends: expected true or false"),
    ("[correspondence]\nrate = true\n", "correspondence.rate: unknown key"),
    ("[rlogin]\nport = -1\n", "rlogin.port: expected a value from 0 to 65535"),
    ("[rlogin]\nboards = []\n", "rlogin.boards: unknown key"),
    ("[[rlogin.board]]\ntag = 'TOO-LONG-TAG'\nsecret = 'a-long-shared-secret'\n", "rlogin.board[0].tag: expected 1 to 8"),
    ("[[rlogin.board]]\ntag = 'A'\nsecret = 'short'\n", "rlogin.board[0].secret: expected a shared secret of at least 12"),
    ("[[rlogin.board]]\ntag = 'A'\nsecret = 'a-long-shared-secret'\nhandshake = 'bbslink'\n",
     "rlogin.board[0].handshake: expected \"synchronet\" or \"doorparty\""),
    ("[[rlogin.board]]\ntag = 'A'\nsecret = 'a-long-shared-secret'\n[[rlogin.board]]\ntag = 'a'\n"
     "secret = 'another-long-secret'\n", "rlogin.board[1].tag: 'a' is listed twice"),
    ("[[rlogin.board]]\ntag = 'A'\nsecret = 'a-long-shared-secret'\n[[rlogin.board]]\ntag = 'B'\n"
     "secret = 'a-long-shared-secret'\n", "rlogin.board[1].secret: each board needs its own secret"),
    ("[[rlogin.board]]\ntag = 'A'\nsecret = 'a-long-shared-secret'\npassword = 'x'\n",
     "rlogin.board[0].password: unknown key"),
])
def test_errors_name_file_key_and_expectation(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "door.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(f)
    assert str(err.value).startswith(str(f)) and message in str(err.value)


def test_member_boards_are_read(tmp_path: Path) -> None:
    f = tmp_path / "door.toml"
    f.write_text("[rlogin]\nenabled = true\n[[rlogin.board]]\ntag = 'sync'\nsecret = 'a-long-shared-secret'\n"
                 "[[rlogin.board]]\ntag = 'DP'\nsecret = 'another-long-secret'\nhandshake = 'doorparty'\n")
    c = load_config(f)
    assert c.rlogin.enabled and [(b.tag, b.handshake.value) for b in c.rlogin.boards] == [
        ("SYNC", "synchronet"), ("DP", "doorparty")]


def test_a_wrong_store_url_is_not_echoed_with_its_password(tmp_path: Path) -> None:
    f = tmp_path / "door.toml"
    f.write_text("[store]\nurl = 'mysql://door:s3cret@db/crib'\n")
    with pytest.raises(ConfigError) as err:
        load_config(f)
    assert "s3cret" not in str(err.value)


def test_the_store_is_the_sqlite_file_unless_a_url_is_given(tmp_path: Path) -> None:
    assert load_config(None).store.target(tmp_path) == tmp_path / "cribbage.sqlite3"
    f = tmp_path / "door.toml"
    f.write_text("[store]\nurl = 'postgresql://door@db:5432/crib'\n")
    assert load_config(f).store.target(tmp_path) == "postgresql://door@db:5432/crib"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_cli_refuses_a_bad_config(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("[rules]\novercalim = 'forfeit'\n")
    proc = subprocess.run([sys.executable, "-m", "door.cli", "serve", "--config", str(f)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert f"{f}: rules.overcalim: unknown key" in proc.stderr


def test_secret_files_readable_by_others_stop_the_server(tmp_path: Path) -> None:
    from door.records.passwords import hash_password

    def serve(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "door.cli", "serve", "--data-dir", str(tmp_path / "data"),
                               "--telnet-port", "0", "--ssh-port", "0", "--web-port", "0", *extra],
                              capture_output=True, text=True, timeout=30)

    (tmp_path / "data").mkdir()
    key = tmp_path / "data" / "ssh_host_ed25519_key"
    import asyncssh
    key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    key.chmod(0o644)
    proc = serve()
    assert proc.returncode == 1 and f"{key} holds the SSH host key but its mode is 0644" in proc.stderr
    assert f"chmod 600 {key}" in proc.stderr
    key.chmod(0o600)
    conf = tmp_path / "door.toml"
    conf.write_text(f'[[sysop]]\nname = "Sysop"\npassword = "{hash_password("long-enough")}"\n')
    conf.chmod(0o644)
    proc = serve("--config", str(conf))
    assert proc.returncode == 1 and "holds sysop password hashes" in proc.stderr
