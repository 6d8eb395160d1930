"""A real Celery worker in a thread of the test process (``celery.contrib.testing``), that leaves the process as it
found it.

Starting one sets up Celery's logging for a worker: the root logger's level becomes the worker's (ERROR) and its
handlers are replaced. Left so, every later test in the same pytest worker lost its warnings: a test that reads a
logged warning (``tests/platform/test_celery.py``) failed whenever it ran after one of these in one process.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connection

from turnbased.celery import app

_CELERY_LOGGERS = ("celery", "celery.task", "celery.redirected")


def _close_connection(**kwargs):
    connection.close()


@contextmanager
def embedded_worker(queues: tuple[str, ...] = ("celery", "bots")) -> Iterator[None]:
    """Run tasks through a real worker of ``queues`` while the block runs: by default the default queue's and the bot
    turns' (two workers in production: ``worker`` and ``bots`` in the Procfile), so that games go on."""
    root = logging.getLogger()
    kept = {name: (logging.getLogger(name).level, list(logging.getLogger(name).handlers))
            for name in ("", *_CELERY_LOGGERS)}
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    # The worker thread's connection must not outlive its tasks, or the test database cannot be dropped.
    task_postrun.connect(_close_connection)
    try:
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10,
                          queues=list(queues)):
            yield
    finally:
        task_postrun.disconnect(_close_connection)
        app.conf.task_always_eager = was_eager
        for name, (level, handlers) in kept.items():
            logger = root if name == "" else logging.getLogger(name)
            logger.setLevel(level)
            logger.handlers = handlers
