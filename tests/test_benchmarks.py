"""The benchmarks reach the embedded services through ``turnbased.local``: every name they use there exists.

They run outside ``make test``, so a name moved out of the module (as ``embedded_postgres`` once was, to
``local_services``) would break them unseen until someone measured; this reads their source instead.
"""

from __future__ import annotations

import ast

from turnbased import local
from turnbased.local import BASE_DIR


def test_every_name_a_benchmark_takes_from_turnbased_local_is_there():
    missing = []
    for path in sorted((BASE_DIR / "benchmarks").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "local"
                    and not hasattr(local, node.attr)):
                missing.append(f"{path.relative_to(BASE_DIR)}:{node.lineno} local.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "turnbased.local":
                missing += [f"{path.relative_to(BASE_DIR)}:{node.lineno} {alias.name}" for alias in node.names
                            if not hasattr(local, alias.name)]
    assert not missing, missing
