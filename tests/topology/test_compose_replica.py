"""deploy/compose.replica.yaml and its two scripts, run for real: the primary's script lets a standby in, the
replica's entrypoint copies the primary and follows it (issue 29).

Docker is not here, so the scripts run as PostgreSQL's image would run them, on the embedded server's own
binaries (PostgreSQL 16, the image's major version): a primary that asks for a password on TCP as the image's
does, ``primary-replication.sh`` run against it, then ``replica-entrypoint.sh`` on an empty folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg2
import pytest
import yaml

from tests.topology.compose import COMPOSE_FILE, load_compose
from tests.waiting import wait_for
from turnbased.local.services import free_port
from turnbased.local.replica import POSTGRES_BIN, STANDBY_NAME, Server, _folder, _server_user

pytestmark = pytest.mark.topology

REPLICA_FILE = COMPOSE_FILE.parent / "compose.replica.yaml"
SCRIPTS = COMPOSE_FILE.parent / "postgres"
PASSWORD = "a-replication-secret"


def _script_environment(**values: str) -> dict[str, str]:
    return {"PATH": f"{POSTGRES_BIN}:{os.environ['PATH']}", **values}


def test_the_override_adds_a_replica_of_the_primarys_version_that_only_the_web_reads():
    base, override = load_compose(), yaml.safe_load(REPLICA_FILE.read_text())
    replica = override["services"]["postgres-replica"]
    assert replica["image"] == base["services"]["postgres"]["image"]  # a standby runs its primary's major version
    assert replica["environment"]["STANDBY_NAME"] == STANDBY_NAME  # the name docs/operating.md tells to use
    assert "ports" not in replica
    readers = {name for name, service in override["services"].items()
               if "DATABASE_REPLICA_URL" in service.get("environment", {})}
    assert readers == {"web"}
    assert "@postgres-replica:5432/" in override["services"]["web"]["environment"]["DATABASE_REPLICA_URL"]
    for entry in (*replica["volumes"], *override["services"]["postgres"]["volumes"]):
        source = entry.split(":")[0]
        if source.startswith("./"):
            script = COMPOSE_FILE.parent / source
            assert script.is_file() and os.access(script, os.X_OK), source  # the image runs it, not sources it


@pytest.fixture
def folder():
    path = Path(tempfile.mkdtemp(prefix="turnbased-compose-replica-"))
    path.chmod(0o755)  # the servers' user must reach its folders inside
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _primary(folder: Path, user: str | None) -> Server:
    """A primary as PostgreSQL's image makes one: the local socket trusted, TCP asking for a password."""
    primary = Server("primary", _folder(folder / "primary", 0o700, user), _folder(folder / "primary-socket", 0o755, user),
                     folder / "primary.log", user, port=free_port(), listen="127.0.0.1")
    primary.run("initdb", "-D", str(primary.data), "-U", "postgres", "--auth-local=trust",
                "--auth-host=scram-sha-256", "--no-sync")
    # initdb's own lines let every local user replicate over TCP: the image's pg_hba.conf has none of them.
    hba = primary.data / "pg_hba.conf"
    hba.write_text("".join(line for line in hba.read_text().splitlines(keepends=True)
                           if not (line.startswith("host") and "replication" in line)))
    return primary.start()


def _new_replica(folder: Path, name: str, user: str | None) -> Server:
    return Server(name, _folder(folder / name, 0o700, user), _folder(folder / f"{name}-socket", 0o755, user),
                  folder / f"{name}.log", user)


def _start_entrypoint(replica: Server, primary: Server, password: str) -> Server:
    """Run the replica's entrypoint on its folder, as the compose service does (it becomes the server)."""
    with replica.log.open("ab") as log:
        replica.popen = subprocess.Popen(
            [str(SCRIPTS / "replica-entrypoint.sh"), *replica.arguments()], user=replica.user, start_new_session=True,
            env=_script_environment(PGDATA=str(replica.data), PRIMARY_HOST="127.0.0.1",
                                    PRIMARY_PORT=str(primary.port), REPLICATION_PASSWORD=password),
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    return replica


def _count(server: Server) -> int:
    return server.sql("SELECT count(*) FROM moves", database="turnbased")


def test_the_scripts_make_a_streaming_replica_and_refuse_a_wrong_password(folder):
    user = _server_user()
    primary = _primary(folder, user)
    servers = [primary]
    try:
        environment = _script_environment(PGDATA=str(primary.data), PGHOST=str(primary.sockets),
                                          PGPORT=str(primary.port), REPLICATION_PASSWORD=PASSWORD)
        for _ in range(2):  # run again by hand on a primary that has it: no second line, no error
            subprocess.run([str(SCRIPTS / "primary-replication.sh")], user=user, env=environment, check=True,
                           capture_output=True, timeout=60)
        assert (primary.data / "pg_hba.conf").read_text().count("host replication replicator all") == 1
        primary.sql("CREATE DATABASE turnbased")
        primary.sql("CREATE TABLE moves (seq int PRIMARY KEY)", database="turnbased")
        primary.sql("INSERT INTO moves VALUES (1)", database="turnbased")

        # A wrong password gets no copy: the role's line asks for it.
        refused = _start_entrypoint(_new_replica(folder, "refused", user), primary, "not-the-password")
        servers.append(refused)
        assert refused.popen.wait(60) != 0
        assert "password authentication failed" in refused.tail()

        replica = _start_entrypoint(_new_replica(folder, "replica", user), primary, PASSWORD)
        servers.append(replica)
        replica.wait_ready()
        assert replica.sql("SELECT pg_is_in_recovery()") is True
        # Ready to read is not yet streaming: its WAL receiver connects to the primary a moment after (a CI run
        # asked in between and found no row).
        streaming = f"SELECT count(*) FROM pg_stat_replication WHERE application_name = '{STANDBY_NAME}' " \
                    "AND state = 'streaming'"
        wait_for(lambda: primary.sql(streaming) == 1, "the replica to stream from the primary", timeout=30)
        primary.sql("INSERT INTO moves VALUES (2)", database="turnbased")
        wait_for(lambda: _count(replica) == 2, "the replica to replay the primary's insert", timeout=30)
        with pytest.raises(psycopg2.errors.ReadOnlySqlTransaction):
            replica.sql("INSERT INTO moves VALUES (3)", database="turnbased")

        # Started again on its data (a container restarted), it copies nothing (no password needed) and follows on.
        replica.stop()
        _start_entrypoint(replica, primary, "not-needed-now").wait_ready()
        primary.sql("INSERT INTO moves VALUES (3)", database="turnbased")
        wait_for(lambda: _count(replica) == 3, "the restarted replica to follow on", timeout=30)
        replica.check_running()
    finally:
        for server in reversed(servers):
            server.kill()
