"""The shape of the code holds: layers only point down, no circle of files, modules of a readable size.

The layers and the features that must not know each other are import-linter contracts (``.importlinter``,
drawn in docs/design.md); this runs them, and adds what a contract cannot say: every module of the
platform sits in a layer (a new app cannot escape the contract), no import is ignored, no two
files import each other even through a chain, and no module grows past what a reader takes in at once.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import grimp
import pytest
from importlinter import configuration
from importlinter.application.use_cases import lint_imports

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = ROOT / ".importlinter"
PACKAGES = ("games", "turnbased")
# A module a reader takes in at once; the engines and apps are split by concern below it.
MAX_MODULE_LINES = 500


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)


def _modules(graph: grimp.ImportGraph) -> list[str]:
    return sorted(module for module in graph.modules if ".migrations" not in module)


def _contracts() -> configparser.ConfigParser:
    config = configparser.ConfigParser(inline_comment_prefixes=None, comment_prefixes=(";",))
    config.read(CONTRACTS, encoding="utf-8")
    return config


def _layers() -> list[list[str]]:
    raw = _contracts()["importlinter:contract:layers"]["layers"]
    return [[name.strip() for name in line.replace("|", ":").split(":")]
            for line in raw.splitlines() if line.strip()]


def test_the_import_contracts_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    configuration.configure()  # what import-linter's command does first: its readers and printer
    assert lint_imports(config_filename=str(CONTRACTS), cache_dir=None, no_logo=True), \
        "an import breaks a contract of .importlinter: run PYTHONPATH=. .venv/bin/lint-imports to see which"


def _a_room_only(module: str) -> bool:
    """Whether ``module`` is a package that holds nothing itself (an ``__init__.py`` with at most a docstring, as
    ``turnbased.kit``): its modules sit in the layers, and it has no code to place."""
    origin = importlib.util.find_spec(module).origin or ""
    if not origin.endswith("__init__.py"):
        return False
    body = ast.parse(Path(origin).read_text(encoding="utf-8")).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body)


def test_every_module_of_the_platform_sits_in_a_layer(graph):
    layered = [name for layer in _layers() for name in layer]
    loose = [module for module in _modules(graph) if module.count(".") >= 1 and not _a_room_only(module)
             and not any(module == name or module.startswith(name + ".") for name in layered)]
    assert loose == [], f"add these to a layer of .importlinter (docs/design.md says which): {loose}"


def test_the_contracts_ignore_no_import():
    """No layer reaches up, not even by an explained exception: the core tells what happened (``play.facts``) and
    the features react (issue 43); a new feature must do the same, not add an ignored import."""
    ignored = [line for line in CONTRACTS.read_text(encoding="utf-8").splitlines()
               if line.strip().startswith("ignore_imports")]
    assert ignored == [], "the core names no feature: tell a fact in turnbased/play/facts.py and react to it instead"


def _circle(graph: grimp.ImportGraph) -> list[str]:
    """Return one circle of files (the first module again at its end), or an empty list when there is none."""
    modules = _modules(graph)
    known = set(modules)
    imports = {module: {found for found in graph.find_modules_directly_imported_by(module) if found in known}
               for module in modules}
    try:
        TopologicalSorter(imports).prepare()
    except CycleError as circle:
        return list(reversed(circle.args[1]))
    return []


def test_no_circle_of_files(graph):
    """An import inside a function counts too: the two files still need each other."""
    assert _circle(graph) == []


def test_the_circle_finder_finds_a_circle():
    made = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        made.add_module(module)
    made.add_import(importer="pkg.a", imported="pkg.b")
    made.add_import(importer="pkg.b", imported="pkg.c")
    made.add_import(importer="pkg.c", imported="pkg.a")
    circle = _circle(made)
    assert circle[0] == circle[-1] and sorted(circle[:-1]) == ["pkg.a", "pkg.b", "pkg.c"]


def test_every_module_is_shorter_than_a_reader_takes_in_at_once():
    long = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines >= MAX_MODULE_LINES:
                long[str(path.relative_to(ROOT))] = lines
    assert long == {}, f"split these by concern (docs/design.md): {long}"
