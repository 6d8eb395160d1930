"""Settings every test shares."""

import os

import pytest


@pytest.fixture(autouse=True)
def _celery_runs_tasks_inline():
    """Run Celery tasks in the test's own process unless a test starts a real worker."""
    if "DATABASE_URL" not in os.environ:  # engine tests run without Django and its services
        yield
        return
    from celery.result import allow_join_result

    from turnbased.celery import app

    app.conf.task_always_eager = True
    # A test may wait on an inline task's result. Celery keeps "a join would block" in one flag for the whole
    # process, which each inline call sets and restores; two threads calling at once (a live server's) can
    # leave it set, and every later test in the process would then be refused its results.
    with allow_join_result():
        yield
    app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def _fresh_rate_limit_counters():
    """Start each test with empty rate-limit counters (they live in the shared cache)."""
    if "DATABASE_URL" in os.environ:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """Leave no language active after a test: a request's or a test's activation would word the next test."""
    yield
    if "DATABASE_URL" in os.environ:
        from django.utils import translation

        translation.deactivate()
