"""The apps' layers read top-down: mail uses play and notifications; no other app imports mail.

Email is the outermost layer (its inbound replies make moves through play's
services). The notification rows are the hand-over: notifications names the
delivering task, never imports it, so no import circle runs back through mail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "turnbased"
MAIL = "turnbased.mail"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (inside functions too)."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def apps_below_mail() -> list[Path]:
    return sorted(app.parent for app in PACKAGE.glob("*/apps.py") if app.parent.name != "mail")


@pytest.mark.parametrize("app", apps_below_mail(), ids=lambda app: app.name)
def test_no_app_but_mail_imports_mail(app):
    offenders = {
        str(path.relative_to(PACKAGE.parent)): sorted(m for m in imported_modules(path) if m == MAIL or m.startswith(MAIL + "."))
        for path in app.rglob("*.py")
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


def test_play_and_notifications_are_among_the_apps_checked():
    assert {"play", "notifications", "clocks"} <= {app.name for app in apps_below_mail()}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    source = tmp_path / "module.py"
    source.write_text("def later():\n    from turnbased.mail.tasks import deliver_game_notifications\n")
    assert "turnbased.mail.tasks" in imported_modules(source)
    source.write_text("from turnbased import mail\n")
    assert MAIL in imported_modules(source)
