"""Bot turns have a queue of their own, ``bots``, and a worker that serves it wherever the service runs: the Procfile
(``make run`` and ``make serve`` run it through the local runner), deploy/compose.yaml and its PgBouncer overlay.

A strong bot's search takes up to about two seconds of one core: on the default queue it would hold up forced
moves, replies and the sweeps (turnbased/config/schedule.py). A bot turn queued where no worker takes it waits
forever, so every process file must have one.
"""

from __future__ import annotations

import shlex

import yaml

from tests.serving.test_connection_budget import celery_concurrency, procfile
from tests.topology.compose import COMPOSE_FILE, compose_command, load_compose
from turnbased.celery import app
from turnbased.local.serve import extra_processes, leave_out
from turnbased.local.services import BASE_DIR
from turnbased.local.supervision import supervised_procfile
from turnbased.play import tasks

PGBOUNCER_OVERLAY = COMPOSE_FILE.parent / "compose.pgbouncer.yaml"


def _queues(argv: list[str]) -> set[str]:
    """Return the queues a ``celery worker`` command consumes (``--queues=`` or ``-Q``), none for another command."""
    if argv[:1] != ["celery"] or "worker" not in argv:
        return set()
    for number, argument in enumerate(argv):
        if argument.startswith("--queues="):
            return set(argument.split("=", 1)[1].split(","))
        if argument in ("-Q", "--queues"):
            return set(argv[number + 1].split(","))
    return {app.conf.task_default_queue}  # a worker given no queue consumes the default one


def _workers_of(queue: str, commands: dict[str, list[str]]) -> list[str]:
    return [name for name, argv in commands.items() if queue in _queues(argv)]


def _supervised_commands(written) -> dict[str, list[str]]:
    """Return the commands of a Procfile the local runner wrote, each unwrapped from ``local.supervision``."""
    commands = {}
    for line in written.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = (part.strip() for part in line.split(":", 1))
            argv = shlex.split(command)
            assert argv[1:3] == ["-m", "turnbased.local.supervision"] and argv[3] == name, line
            commands[name] = shlex.split(argv[4])
    return commands


def test_bot_turns_go_to_the_bots_queue_and_the_rest_of_play_stays_on_the_default_one():
    assert app.amqp.router.route({}, tasks.play_bot_turn.name)["queue"].name == "bots"
    assert app.amqp.router.route({}, tasks.play_forced_move.name)["queue"].name == app.conf.task_default_queue


def test_the_procfile_runs_one_bots_worker_of_one_pool_process():
    commands = procfile()
    assert _workers_of("bots", commands) == ["bots"]
    assert _queues(commands["bots"]) == {"bots"}  # nothing else waits behind a search
    assert celery_concurrency(commands["bots"]) == 1  # one core of the machine's two at most
    assert "--hostname=bots@%h" in commands["bots"]  # a node name of its own beside the default worker's


def test_make_run_and_make_serve_start_the_bots_worker(tmp_path):
    make_run = _supervised_commands(supervised_procfile(BASE_DIR / "Procfile", tmp_path / "Procfile.supervised"))
    environment = {"SITE_URL": "https://games.example.org", "MAIL_DOMAIN": "games.example.org"}
    make_serve = _supervised_commands(supervised_procfile(BASE_DIR / "Procfile", tmp_path / "Procfile.serve",
                                                          leave_out=leave_out(environment),
                                                          extra=extra_processes(environment, tmp_path)))
    for commands in (make_run, make_serve):
        assert _workers_of("bots", commands) == ["bots"]
        assert commands["bots"] == procfile()["bots"]


def test_compose_runs_a_bots_worker_and_the_pgbouncer_overlay_points_it_at_pgbouncer():
    services = load_compose()["services"]
    commands = {name: compose_command(service) for name, service in services.items() if service.get("command")}
    assert _workers_of("bots", commands) == ["bots"]
    assert _queues(commands["bots"]) == {"bots"}
    assert celery_concurrency(commands["bots"]) == 1
    overlay = yaml.safe_load(PGBOUNCER_OVERLAY.read_text())["services"]
    assert "6432" in overlay["bots"]["environment"]["DATABASE_URL"]
