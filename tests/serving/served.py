"""The web process served as in production, in front of the test database: gunicorn with deploy/gunicorn.conf.py.

Production settings (DEBUG off, a strong random key; plain HTTP on loopback, no nginx), a fresh
embedded Redis as broker and cache (no worker: queued tasks wait there), and the test run's own
database, which the test fills through the services in committed transactions (``transactional_db``).
"""

from __future__ import annotations

import os
import runpy
import secrets
import signal
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.topology.stack import Process, wait_until
from turnbased.local.services import BASE_DIR, embedded_redis, free_port, port_answers

GUNICORN_CONFIG = BASE_DIR / "deploy" / "gunicorn.conf.py"
# The name the served web process gives its database connections, so a test can count them.
SERVED_APPLICATION_NAME = "served-web"


@dataclass
class ServedWeb:
    port: int
    workers: int
    threads: int
    process: Process

    @property
    def connection_bound(self) -> int:
        """The web tier's most database connections: one per gunicorn thread (deploy/README.md)."""
        return self.workers * self.threads


def database_url_for(name: str) -> str:
    """Return the URL of database ``name`` on the server the test run uses."""
    return urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))


def with_application_name(database_url: str) -> str:
    """Return ``database_url`` with ``SERVED_APPLICATION_NAME`` as the connections' application_name."""
    parts = urlsplit(database_url)
    query = "&".join(filter(None, [parts.query, f"application_name={SERVED_APPLICATION_NAME}"]))
    return urlunsplit(parts._replace(query=query))


def gunicorn_sizing(environment: dict[str, str]) -> tuple[int, int]:
    """Return (workers, threads) as gunicorn reads them from the deploy config in ``environment``."""
    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(environment)
        config = runpy.run_path(str(GUNICORN_CONFIG))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return config["workers"], config["threads"]


@contextmanager
def served_web(folder: Path, database_url: str, **settings: str):
    """Serve the site with gunicorn and the deploy config on a free port; yield a ServedWeb; stop it all."""
    (folder / "data" / "staticfiles").mkdir(parents=True)
    port = free_port()
    with embedded_redis(free_port(), folder=folder / "redis") as broker_url:
        environment = {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
            "HOME": os.environ.get("HOME", str(folder)),
            "LANG": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "turnbased.settings",
            "TURNBASED_DATA_DIR": str(folder / "data"),
            "DATABASE_URL": with_application_name(database_url),
            "CELERY_BROKER_URL": broker_url,
            "DJANGO_DEBUG": "false",
            "DJANGO_HTTPS": "off",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "WEB_BIND": f"127.0.0.1:{port}",
            **settings,
        }
        workers, threads = gunicorn_sizing(environment)
        process = Process("gunicorn", ["gunicorn", "--config", str(GUNICORN_CONFIG), "turnbased.wsgi"],
                          folder / "gunicorn.log")
        process.start(environment)
        try:
            wait_until(lambda: port_answers(port), "gunicorn to listen", [process])
            yield ServedWeb(port, workers, threads, process)
        finally:
            process.signal(signal.SIGTERM)
            try:
                process.popen.wait(30)
            except subprocess.TimeoutExpired:
                process.signal(signal.SIGKILL)
                process.popen.wait()
            process.signal(signal.SIGKILL)  # a worker left in the group goes too
