"""Settings every test shares, and the order a run takes its files in."""

import os
from pathlib import Path

import pytest

HEAVIEST = Path(__file__).resolve().parent / "heaviest_files.txt"


def _heaviest_files() -> list[str]:
    if not HEAVIEST.is_file():
        return []
    lines = (line.split("#", 1)[0].strip() for line in HEAVIEST.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def pytest_collection_modifyitems(session, config, items):
    """Begin with the heaviest files (tests/heaviest_files.txt, written by ``-p tests.file_times``).

    Two workers each take whole files (``--dist loadfile``, in the order collected: ``--no-loadscope-reorder``);
    a long file begun last runs alone at the end, the other worker idle. Heaviest first, the short ones fill in
    around them. A file the list does not name keeps its place after the named ones; the order within a file
    stays as written.
    """
    rank = {path: place for place, path in enumerate(_heaviest_files())}
    if rank:
        items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # a stable sort


def pytest_configure(config):
    if "DATABASE_URL" in os.environ:  # engine tests run without Django and its database
        from tests import emptying

        emptying.install()  # a test that commits is followed by DELETEs, not a TRUNCATE of every table


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
def quick_search(monkeypatch):
    """Each game's strong bot thinks a twentieth of its engine steps in a test, at most 200: the same search, at the
    cost of a test rather than a second a move (its real budget and strength are measured by benchmarks/bots.py).
    Every test that plays a strong seat, a competition's stand-ins among them, would otherwise spend minutes."""
    import dataclasses
    import importlib
    import pkgutil

    import games

    for package in pkgutil.iter_modules(games.__path__):
        if package.ispkg and importlib.util.find_spec(f"games.{package.name}.strong") is not None:
            module = importlib.import_module(f"games.{package.name}.strong")
            for name, settings in list(vars(module).items()):  # SETTINGS, and an edition's own (SETTINGS_2019)
                # A search's settings, or another strong bot's budget (Carcassonne's): engine steps either way.
                if name.startswith("SETTINGS") and dataclasses.is_dataclass(settings) and hasattr(settings, "steps"):
                    steps = min(200, max(1, settings.steps // 20))  # a twentieth, at most 200
                    monkeypatch.setattr(module, name, dataclasses.replace(settings, steps=steps))


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
