"""A web request costs no SELECT 1, and one whose kept connection died is answered on a new connection.

The dead connection is real: the test's own connection, kept between requests as the web process keeps
it, is ended by PostgreSQL (``pg_terminate_backend`` from another connection, as a restart ends it).
The fault suite restarts a real server under gunicorn (``tests/faults/test_database_reconnect.py``).
"""

from __future__ import annotations

import logging

import pytest
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.platform.conftest import api_token
from turnbased.kit.db.reconnect import FirstStatementWatch

pytestmark = pytest.mark.django_db(transaction=True)


def end_backend(pid: int) -> None:
    """End the server process of connection ``pid`` from another connection, as a database restart would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()


# The clients do not raise the first run's error (Django's test client would, although a response followed).


def kept_connection_pid(client: Client, path: str, **headers) -> int:
    response = client.get(path, **headers)
    assert response.status_code == 200
    assert connection.connection is not None  # kept for the next request, as CONN_MAX_AGE keeps it
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_request_on_a_connection_that_died_is_answered_on_a_new_one(make_user, caplog):
    # The notice is INFO: asked for here, whatever an earlier test in this process left the root logger at (an
    # in-process Celery worker sets it to ERROR, and which tests a worker runs before this one varies).
    caplog.set_level(logging.INFO, logger="turnbased.kit.db.reconnect")
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}", raise_request_exception=False)
    dead = kept_connection_pid(client, "/api/me/")
    end_backend(dead)
    response = client.get("/api/me/")
    assert response.status_code == 200, response.content
    assert "language" in response.json()  # my profile, read on the new connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != dead
    assert "runs again on a new one" in caplog.text


def test_a_move_on_a_connection_that_died_is_played_once(make_user, start_scripted_game):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_scripted_game(alice, bob)
    mover = alice if 0 in game.to_move else bob
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(mover)}", raise_request_exception=False)
    legal = client.get(f"/api/games/{game.pk}/legal-moves/").json()
    end_backend(kept_connection_pid(client, f"/api/games/{game.pk}/"))
    response = client.post(f"/api/games/{game.pk}/moves/", {"move": legal["moves"][0]["move"],
                           "expected_seq": legal["seq"]}, content_type="application/json")
    assert response.status_code == 201, response.content
    game.refresh_from_db()
    assert game.seq == legal["seq"] + 1 and game.moves.count() == legal["seq"] + 1


def test_a_page_on_a_connection_that_died_is_answered_on_a_new_one(make_user):
    alice = make_user("alice")
    client = Client(raise_request_exception=False)  # the first run's error is logged, not the answer
    client.force_login(alice)
    end_backend(kept_connection_pid(client, "/"))
    response = client.get("/accounts/settings/")
    assert response.status_code == 200


def test_a_database_that_is_really_away_is_still_a_503(make_user, monkeypatch):
    """Run again once, not forever: a connection that cannot be made answers the retry-after 503 as before."""
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}", raise_request_exception=False)
    end_backend(kept_connection_pid(client, "/api/me/"))
    settings_dict = connection.settings_dict
    monkeypatch.setitem(settings_dict, "PORT", "1")  # nothing listens there: a new connection is refused
    monkeypatch.setitem(settings_dict, "HOST", "127.0.0.1")
    response = client.get("/api/me/")
    monkeypatch.undo()
    connection.close()
    assert response.status_code == 503 and response["Retry-After"]


def test_a_request_on_a_kept_connection_sends_no_select_1(make_user):
    """The check Django would make (CONN_HEALTH_CHECKS) is a statement of its own: the web request skips it."""
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}", raise_request_exception=False)
    kept_connection_pid(client, "/api/me/")
    sent = []
    original = connection.is_usable

    def counted():
        sent.append("SELECT 1")
        return original()

    connection.is_usable = counted
    try:
        with CaptureQueriesContext(connection):
            assert client.get("/api/me/").status_code == 200
    finally:
        del connection.is_usable
    assert sent == []


def test_the_watch_tells_a_first_statement_lost_from_a_later_one():
    watch = FirstStatementWatch()

    def lost(*args):
        from django.db import OperationalError
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(Exception):
        watch(lost, "SELECT 1", None, False, {})
    assert watch.first_failed
    later = FirstStatementWatch()
    later(lambda *args: None, "SELECT 1", None, False, {})
    with pytest.raises(Exception):
        later(lost, "SELECT 2", None, False, {})
    assert not later.first_failed


def test_the_stream_processs_reads_send_no_select_1_and_survive_a_dead_connection(make_user, caplog, monkeypatch,
                                                                                   settings):
    """The stream process's database calls (``without_health_check``, as ``_in_database_thread`` runs them)."""
    caplog.set_level(logging.INFO, logger="turnbased.kit.db.reconnect")
    from turnbased.kit.db.reconnect import without_health_check
    from turnbased.events.selectors import events_after

    settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = connection.settings_dict["CONN_HEALTH_CHECKS"] = True
    checks = []
    wrapper = type(connections["default"])
    original = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda self: checks.append(1) or original(self))
    alice = make_user("alice")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        dead = cursor.fetchone()[0]
    connection.health_check_done = False  # as at the start of a call, after close_old_connections()
    with CaptureQueriesContext(connection) as captured:
        assert without_health_check(events_after, user_id=alice.pk, after_id=0) == []
    assert checks == [] and len(captured.captured_queries) == 1  # the read alone: no SELECT 1 before it
    connection.health_check_done = False
    events_after(user_id=alice.pk, after_id=0)
    assert checks == [1]  # without it, Django's check runs (the test would see a missing fix)
    end_backend(dead)
    connection.health_check_done = False
    assert without_health_check(events_after, user_id=alice.pk, after_id=0) == []
    assert "events_after runs again on a new one" in caplog.text
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != dead
