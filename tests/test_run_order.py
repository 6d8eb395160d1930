"""The run begins with the heaviest files, as tests/heaviest_files.txt names them, and the list names real files."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests import conftest

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_the_list_names_exists():
    named = conftest._heaviest_files()
    assert len(named) >= 20 and len(set(named)) == len(named)
    assert [path for path in named if not (ROOT / path).is_file()] == []


def test_the_named_files_come_first_in_the_lists_order_and_the_rest_keep_theirs(monkeypatch):
    monkeypatch.setattr(conftest, "_heaviest_files", lambda: ["tests/b.py", "tests/a.py"])
    items = [SimpleNamespace(nodeid=nodeid) for nodeid in
             ["tests/c.py::one", "tests/a.py::one", "tests/b.py::one", "tests/d.py::one", "tests/a.py::two"]]
    conftest.pytest_collection_modifyitems(None, None, items)
    assert [item.nodeid for item in items] == ["tests/b.py::one", "tests/a.py::one", "tests/a.py::two",
                                               "tests/c.py::one", "tests/d.py::one"]
