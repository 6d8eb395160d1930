"""A parallel test run (pytest-xdist's workers, ``-n``): each worker gets Redis databases of its own.

Every test starts by clearing the cache (``tests/conftest.py``: rate-limit counters live there), so
workers sharing one cache would clear each other's counters in the middle of a test. Loaded with
``-p tests.parallel`` (pytest.ini) before pytest-django configures Django, which reads these URLs.
PostgreSQL needs nothing here: pytest-django gives each worker a test database of its own.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

# Redis has 16 numbered databases: 0 and 1 are the broker's and the cache's of a run without workers.
_FIRST_WORKER_DATABASE = 2


def _with_database(url: str, number: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{number}"))


def _separate_worker() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", … in a worker; unset otherwise
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not worker.startswith("gw") or not broker.startswith("redis"):
        return
    first = _FIRST_WORKER_DATABASE + 2 * int(worker.removeprefix("gw"))
    if first + 1 > 15:
        raise RuntimeError(f"Redis has databases for {(16 - _FIRST_WORKER_DATABASE) // 2} test workers, not more")
    os.environ["CELERY_BROKER_URL"] = _with_database(broker, first)
    os.environ["CACHE_URL"] = _with_database(broker, first + 1)


_separate_worker()
