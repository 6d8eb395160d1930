"""A round of a competition is opened by a task that makes its games in batches, one transaction each (issue 45):
a worker killed halfway leaves the games of the batches it committed, none of the batch it was in (no game without
its table, no table with two games), and the task run again makes the rest and opens the round.

The worst moment: a real process running ``round_open`` is inside a batch, having made its tables' games and waiting
on one of their players (the test holds that player's row) to commit them, when it is killed with SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection, connections
from django.utils import timezone

from tests.platform.conftest import make_user, people, record_queued  # noqa: F401 - the accounts' fixtures
from tests.serving.served import database_url_for
from tests.waiting import wait_for
from turnbased.competitions.models import Competition, Entrant, EventTable, Round, RoundStatus, TableStatus
from turnbased.competitions.services import entries, rounds
from turnbased.play.models import Game, Seat

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

OPENING = """
import sys
import django
django.setup()
from turnbased.competitions.services.rounds import round_open
print(round_open(round_id=int(sys.argv[1]), batch=2), flush=True)
"""


OPENER = "turnbased-round-opener"


def _opener(round_id: int) -> subprocess.Popen:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "turnbased.settings",
                   "DATABASE_URL": _named(database_url_for(connection.settings_dict["NAME"]))}
    return subprocess.Popen([sys.executable, "-c", OPENING, str(round_id)], env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _named(database_url: str) -> str:
    """Return the URL with the opener's application_name, so that the test finds its connection."""
    parts = urlsplit(database_url)
    return urlunsplit(parts._replace(query="&".join(filter(None, [parts.query, f"application_name={OPENER}"]))))


def _opener_connected() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [OPENER])
        return cursor.fetchone()[0] > 0


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_while_opening_a_round_leaves_whole_batches_and_the_task_again_opens_the_rest(people,
                                                                                                      monkeypatch):
    queued = record_queued(monkeypatch)  # the round's task is run here, by a process of the test's own
    organiser, *players = people(13)
    competition = entries.competition_create(user=organiser, settings={
        "name": "Fault Cup", "game": "love-letter", "time_control": {"kind": "per_move", "days_per_move": 3},
        "starts_at": (timezone.now() + timedelta(days=1)).isoformat(), "stages": [{"format": "swiss"}]})
    for player in players:
        entries.competition_enter(user=player, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    rounds.competition_start(competition_id=competition.pk)
    played = Round.objects.get(stage__competition=competition)
    tables = list(EventTable.objects.filter(round=played).order_by("number"))
    assert len(tables) == 6 and played.status == RoundStatus.OPENING  # twelve entrants: six tables, each its own
    assert queued == [("turnbased.competitions.tasks.round_open", [played.pk], 0)]
    held = Entrant.objects.get(pk=tables[4].players[0]).user_id  # the fifth table's first player: in batch three
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE", [held])
            opener = _opener(played.pk)
            try:
                wait_for(_waiting_on_a_lock, timeout=60, what="the opener waiting on the fifth table's player")
                made = EventTable.objects.filter(round=played).exclude(game=None).count()
                os.kill(opener.pid, signal.SIGKILL)
                opener.wait(timeout=30)
                # Its connection ends with it: PostgreSQL notices a dead client at its next read, and ends it now,
                # before the lock it waits on is let go (its foreign keys are checked at COMMIT: the seat it was
                # writing waits there, and would commit once the player's row is free).
                with connection.cursor() as probe:
                    probe.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE application_name = %s", [OPENER])
                wait_for(lambda: not _opener_connected(), timeout=30, what="the killed opener's connection to end")
            finally:
                if opener.poll() is None:
                    opener.kill()
            cursor.execute("ROLLBACK")
    finally:
        holder.close()
    assert made == 4  # batches one and two committed; the third was killed inside its transaction
    assert EventTable.objects.filter(round=played).exclude(game=None).count() == 4
    assert Game.objects.filter(created_by=organiser).count() == 4  # nothing of the killed batch stayed
    played.refresh_from_db()
    assert played.status == RoundStatus.OPENING and rounds.due_work()["opening"] == [played.pk]

    again = _opener(played.pk)
    output, errors = again.communicate(timeout=120)
    assert again.returncode == 0, errors
    assert output.strip() == "2"  # the two tables the killed batch had not made
    played.refresh_from_db()
    assert played.status == RoundStatus.OPEN
    assert EventTable.objects.filter(round=played, status=TableStatus.PLAYING).exclude(game=None).count() == 6
    assert Game.objects.filter(created_by=organiser).count() == 6  # one game a table
    seated = list(Seat.objects.filter(game__created_by=organiser).values_list("user_id", flat=True))
    assert sorted(seated) == sorted(player.pk for player in players)  # every entrant seated once
