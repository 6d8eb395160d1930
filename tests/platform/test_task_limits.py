"""No Celery task runs unbounded: each has a soft time limit (it is interrupted) and a hard one (its process
is replaced), its own or the project's default, so a stalled relay or a stuck query cannot hold a worker."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from turnbased.celery import app

PACKAGE = Path(__file__).resolve().parents[2] / "turnbased"


def _is_task_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in {"shared_task", "task"}


def declared_tasks() -> list[str]:
    """The name of every function in turnbased/ decorated as a Celery task."""
    names = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(map(_is_task_decorator, node.decorator_list)):
                names.append(f"{module}.{node.name}")
    return names


def test_every_task_has_a_soft_and_a_hard_time_limit():
    names = declared_tasks()
    assert {"turnbased.play.tasks.play_bot_turn", "turnbased.clocks.tasks.sweep_clocks",
            "turnbased.mail.tasks.send_email", "turnbased.mail.tasks.process_inbound_email"} <= set(names)
    for name in names:
        importlib.import_module(name.rsplit(".", 1)[0])
        task = app.tasks[name]
        soft = task.soft_time_limit or app.conf.task_soft_time_limit
        hard = task.time_limit or app.conf.task_time_limit
        assert soft and hard and soft < hard, (name, soft, hard)


def test_the_brokers_visibility_timeout_outlasts_every_task_and_countdown():
    """A task still running when the timeout passes would be given to a second worker (issue 27 set it to minutes)."""
    from django.conf import settings

    longest = 0
    for name in declared_tasks():
        importlib.import_module(name.rsplit(".", 1)[0])
        longest = max(longest, app.tasks[name].time_limit or app.conf.task_time_limit)
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert longest + settings.BOT_MOVE_DELAY_SECONDS < visibility <= 30 * 60
