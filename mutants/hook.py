"""The pytest plugin that plants one mutant (``-p mutants.hook``): the module is imported from the
changed tree in memory (``plant.mutated_code``), never from a changed file, so no crash can leave one behind.

The runner names the mutant in ``TURNBASED_MUTANT`` (JSON of a ``plant.Mutant``). Loaded with ``-p``, this module
is imported before pytest-django sets Django up and before any conftest, so the module is not imported yet; a
run in which the mutant was not what got imported ends with ``NOT_PLANTED`` rather than passing as a survivor.
The tests run in the order the runner gives their paths (the cheapest, likeliest to fail, first), not the
heaviest-first order of a parallel run (``tests/conftest.py``).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import os
import sys

import pytest

from mutants.plant import Mutant, mutated_code

NOT_PLANTED = 7  # the exit status of a run whose module was imported before the mutant could be planted
_planted: list[str] = []


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, mutant: Mutant):
        self.mutant = mutant

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        _planted.append(module.__name__)
        exec(mutated_code(self.mutant), module.__dict__)


class _MutantFinder(importlib.abc.MetaPathFinder):
    """Find the one mutated module (by its file); leave every other import to the usual finders."""

    def __init__(self, mutant: Mutant, name: str):
        self.mutant, self.name = mutant, name

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.abspath(self.mutant.path),
                                                      loader=_MutantLoader(self.mutant))


def module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _install() -> str | None:
    spec = os.environ.get("TURNBASED_MUTANT")
    if not spec:
        return None
    mutant = Mutant(**json.loads(spec))
    name = module_name(mutant.path)
    if name in sys.modules:  # imported already: the tests would run the real module
        return name
    sys.meta_path.insert(0, _MutantFinder(mutant, name))
    return name


_TARGET = _install()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """Run the files in the order their paths were given (a stable sort: a file's tests keep their order)."""
    given = [os.path.abspath(arg.split("::")[0]) for arg in config.args]

    def place(item) -> int:
        path = str(item.path)
        return next((number for number, arg in enumerate(given) if path == arg or path.startswith(arg + os.sep)),
                    len(given))

    items.sort(key=place)


def pytest_sessionfinish(session, exitstatus):
    if _TARGET is not None and _TARGET not in _planted and exitstatus == 0:
        session.exitstatus = NOT_PLANTED
