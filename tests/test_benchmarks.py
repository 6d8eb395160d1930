"""The benchmarks and the development tools reach the service by module name: every name they take exists.

They run outside ``make test``, so a name moved away (as ``embedded_postgres`` once was, to
``turnbased/local/services.py``, and every loose module of ``turnbased/`` into ``turnbased/kit/`` and
``turnbased/local/``) would break them unseen until someone measured; this reads their source instead.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

from turnbased.local.services import BASE_DIR

SCRIPTS = sorted([*(BASE_DIR / "benchmarks").rglob("*.py"), *(BASE_DIR / "mutants").rglob("*.py")])


def _names_taken(path: Path):
    """Yield (line, module, name) for each ``from turnbased... import name`` and each attribute read of a module
    imported whole (``from turnbased.local import services as local`` ... ``local.free_port``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("turnbased", "games"):
            for alias in node.names:
                yield node.lineno, node.module, alias.name
                if _is_package(node.module) and importlib.util.find_spec(f"{node.module}.{alias.name}") is not None:
                    modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            yield node.lineno, modules[node.value.id], node.attr


def _is_package(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.submodule_search_locations is not None


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: str(path.relative_to(BASE_DIR)))
def test_every_name_a_benchmark_or_tool_takes_from_the_service_is_there(path):
    missing = []
    for line, module, name in _names_taken(path):
        found = importlib.import_module(module)
        if name != "*" and not hasattr(found, name) and importlib.util.find_spec(f"{module}.{name}") is None:
            missing.append(f"{path.relative_to(BASE_DIR)}:{line} {module}.{name}")
    assert not missing, missing


def test_a_name_that_moved_away_is_found_missing(tmp_path):
    script = tmp_path / "moved.py"
    script.write_text("from turnbased.local import services as local\nlocal.no_such_name\n"
                      "from turnbased.kit.db.one_statement import no_such_thing\n")
    assert {(module, name) for _, module, name in _names_taken(script)} >= {
        ("turnbased.local.services", "no_such_name"), ("turnbased.kit.db.one_statement", "no_such_thing")}
    assert not hasattr(importlib.import_module("turnbased.local.services"), "no_such_name")
