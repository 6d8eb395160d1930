"""The package stands alone: installable metadata, one dependency (httpx), its command, and no server code."""

from __future__ import annotations

import ast
import importlib
import sys
import tomllib
from pathlib import Path

import httpx

from tests.clients.conftest import CLIENT_SOURCE

PROJECT = CLIENT_SOURCE.parent / "pyproject.toml"
PACKAGE = CLIENT_SOURCE / "turnbased_client"


def test_the_project_depends_on_httpx_alone_in_a_range_holding_the_pinned_version():
    project = tomllib.loads(PROJECT.read_text())["project"]
    (requirement,) = project["dependencies"]
    name, _, bounds = requirement.partition(">=")
    low, _, high = bounds.partition(",<")
    version = tuple(int(part) for part in httpx.__version__.split(".")[:2])
    assert name == "httpx" and tuple(map(int, low.split("."))) <= version < tuple(map(int, high.split(".")))
    pinned = (Path(__file__).resolve().parents[2] / "requirements-dev.txt").read_text()
    assert f"httpx=={httpx.__version__}" in pinned


def test_the_command_entry_point_names_the_cli_main():
    scripts = tomllib.loads(PROJECT.read_text())["project"]["scripts"]
    module, _, function = scripts["turnbased-cli"].partition(":")
    assert callable(getattr(importlib.import_module(module), function))
    assert (PACKAGE / "py.typed").is_file() and (PACKAGE / "__main__.py").is_file()


def test_the_package_imports_only_the_standard_library_and_httpx():
    allowed = set(sys.stdlib_module_names) | {"httpx", "turnbased_client"}
    imported = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert imported - allowed == set()
    assert "httpx" in imported

