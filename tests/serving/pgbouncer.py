"""Debian's pgbouncer run with deploy/pgbouncer/pgbouncer.ini, its addresses and authentication made local."""

from __future__ import annotations

import configparser
import os
import pwd
import shutil
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.topology.stack import Process, wait_until
from turnbased.local.services import BASE_DIR, free_port, port_answers

PGBOUNCER = Path("/usr/sbin/pgbouncer")
INI = BASE_DIR / "deploy" / "pgbouncer" / "pgbouncer.ini"


def read_ini(path: Path) -> configparser.ConfigParser:
    ini = configparser.ConfigParser(comment_prefixes=(";",), interpolation=None)
    ini.optionxform = str
    ini.read(path)
    return ini


def require_pgbouncer() -> None:
    """Skip the test on a machine without pgbouncer; fail it under CI, where .ci/run installs it."""
    if not PGBOUNCER.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{PGBOUNCER} is missing: .ci/run installs Debian's pgbouncer package")
        pytest.skip("no pgbouncer on this machine (apt-get install pgbouncer)")


def local_ini(folder: Path, databases: dict[str, str], port: int, pool: int, user: str = "postgres") -> Path:
    """Write the deploy ini with ``databases`` (name: libpq settings), loopback, trust and a pool of ``pool``.

    Each database has a pool of its own of ``pool`` server connections; return the ini's path.
    """
    ini = read_ini(INI)
    ini["databases"] = databases
    users = folder / "userlist.txt"
    users.write_text(f'"{user}" ""\n')
    ini["pgbouncer"].update({
        "listen_addr": "127.0.0.1", "listen_port": str(port), "auth_type": "trust", "auth_file": str(users),
        "default_pool_size": str(pool), "reserve_pool_size": "0", "max_db_connections": str(pool),
    })
    path = folder / "pgbouncer.ini"
    with path.open("w") as output:
        ini.write(output)
    for item in (folder, users, path):
        item.chmod(0o755 if item.is_dir() else 0o644)
    return path


@contextmanager
def running_pgbouncer(databases: dict[str, str], *, pool: int, socket_folder: Path):
    """Run pgbouncer in front of ``databases``; yield its port. ``socket_folder`` holds a server's Unix socket.

    PgBouncer refuses to run as root: then it runs as the owner of ``socket_folder``, which it must reach.
    """
    require_pgbouncer()
    folder = Path(tempfile.mkdtemp(prefix="pgbouncer-"))  # readable by the user pgbouncer runs as
    port = free_port()
    argv = [str(PGBOUNCER), str(local_ini(folder, databases, port, pool))]
    if os.geteuid() == 0:
        owner = socket_folder.stat().st_uid if socket_folder.is_dir() else 0
        argv[1:1] = ["-u", pwd.getpwuid(owner).pw_name if owner else "nobody"]
    process = Process("pgbouncer", argv, folder / "pgbouncer.log").start({"PATH": os.environ["PATH"]})
    try:
        wait_until(lambda: port_answers(port), "pgbouncer to listen", [process])
        yield port
        process.check_running()  # it must not have died under the test
    finally:
        process.signal(signal.SIGTERM)
        process.popen.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
