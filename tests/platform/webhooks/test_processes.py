"""Webhook tasks have a queue, a worker that serves it (under `make run` and in compose.yaml), and beat's sweeps."""

from __future__ import annotations

from django.conf import settings

from tests.serving.test_connection_budget import procfile
from tests.topology.compose import compose_command, load_compose
from turnbased.celery import app
from turnbased.webhooks import tasks

TASKS = [tasks.deliver_webhook, tasks.sweep_webhooks, tasks.prune_webhook_deliveries]


def _queues(argv: list[str]) -> set[str]:
    for argument in argv:
        if argument.startswith("--queues="):
            return set(argument.split("=", 1)[1].split(","))
    return set()


def test_every_webhook_task_goes_to_the_webhooks_queue():
    for task in TASKS:
        assert app.amqp.router.route({}, task.name)["queue"].name == "webhooks", task.name


def test_a_worker_serves_the_webhooks_queue_under_make_run_and_in_compose():
    assert [name for name, argv in procfile().items() if "webhooks" in _queues(argv)] == ["hooks"]
    services = load_compose()["services"]
    assert [name for name, service in services.items()
            if "celery" in str(service.get("command")) and "webhooks" in _queues(compose_command(service))] == ["hooks"]


def test_beat_sweeps_the_deliveries_every_few_seconds_and_prunes_the_log():
    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule[tasks.sweep_webhooks.name] == settings.WEBHOOKS_SWEEP_SECONDS == 5.0
    assert tasks.prune_webhook_deliveries.name in schedule
