"""A page's stream: the stream process (uvicorn) opened with the browser's session cookie instead of a token.

The same rules as a token: an ended, expired or foreign session, an inactive account, a password
changed since, or a bot account's session is refused (401) as a revoked token is, and a stream whose
session ends receives nothing more; no CSRF token is asked of a GET. The site's own origin gets CORS
headers (a page on the site's port reads the stream's port), no other origin does, and another
origin's request is read as if it carried no cookie.
"""

from __future__ import annotations

import time
from datetime import timedelta

import httpx
import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from tests.platform.conftest import api_token
from tests.platform.events.streams import reading, stream_process
from tests.waiting import wait_for
from turnbased.events.models import Event
from turnbased.events.presence import is_present
from turnbased.play import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SITE = "http://pages.test:8000"
PAGE = {"SITE_URL": SITE, "STREAM_HEARTBEAT_SECONDS": "1"}
SESSION_ENDED = "Your session has ended: log in again."


def signed_in(user) -> Client:
    """Return a browser signed in as ``user`` (a session row, as logging in makes one)."""
    client = Client()
    client.force_login(user)
    return client


def cookie_of(client: Client) -> dict[str, str]:
    """Return the headers a page's EventSource sends from the site's own origin: its session cookie and Origin."""
    return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}",
            "Origin": SITE}


def test_a_page_reads_its_own_users_events_with_its_session_and_no_csrf_token(tmp_path, started_game, alice, bob,
                                                                             make_user):
    carol = make_user("carol")
    with stream_process(tmp_path, **PAGE) as stream:
        with reading(stream, None, headers=cookie_of(signed_in(bob))) as bob_stream, \
                reading(stream, None, headers=cookie_of(signed_in(carol))) as carol_stream:
            headers = bob_stream.response.headers
            assert headers["access-control-allow-origin"] == SITE
            assert headers["access-control-allow-credentials"] == "true" and headers["vary"] == "Origin"
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            played, turn = bob_stream.take(2)
            assert (played.kind, turn.kind) == ("move_played", "your_turn")
            assert {played.id, turn.id} <= set(Event.objects.filter(user=bob).values_list("id", flat=True))
            carol_stream.nothing_more(1.0)  # nobody reads another's events: carol sits at no game


def test_refused_sessions_are_answered_as_a_revoked_token_is(tmp_path, alice, make_user, make_bot_account):
    cases = {}
    ended = signed_in(alice)
    cases["ended"] = cookie_of(ended)
    ended.logout()
    expired = signed_in(alice)
    cases["expired"] = cookie_of(expired)
    Session.objects.filter(session_key=expired.session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1))
    cases["not a session"] = {"Cookie": f"{settings.SESSION_COOKIE_NAME}=nothing-like-a-key", "Origin": SITE}
    inactive = make_user("gone")
    cases["inactive"] = cookie_of(signed_in(inactive))
    inactive.is_active = False
    inactive.save()
    changed = make_user("changed")
    cases["password changed since"] = cookie_of(signed_in(changed))
    changed.set_password("another-long-pass-10")
    changed.save()
    robo = make_bot_account("robo")
    with stream_process(tmp_path, **PAGE) as stream:
        for case, headers in cases.items():
            with reading(stream, None, headers=headers) as refused:
                assert refused.status_code == 401, (case, refused.text)
                assert refused.json()["detail"] == SESSION_ENDED and refused.json()["status"] == 401, case
                assert refused.headers["www-authenticate"] == "Token"
                assert refused.headers["access-control-allow-origin"] == SITE  # the page may read why
        with reading(stream, None, headers=cookie_of(signed_in(robo))) as refused:
            assert refused.status_code == 401
            assert refused.json()["detail"].startswith("robo is a bot account: it plays through the API with an API "
                                                       "token")
        # The bot account's own way in still works.
        with reading(stream, api_token(robo)) as robo_stream:
            assert robo_stream.response.status_code == 200


def test_another_sites_page_cannot_open_a_stream_as_its_visitor(tmp_path, alice):
    headers = cookie_of(signed_in(alice))
    with stream_process(tmp_path, **PAGE) as stream:
        with reading(stream, None, headers={**headers, "Origin": "http://elsewhere.test"}) as refused:
            assert refused.status_code == 401 and refused.json()["detail"] == "Authentication credentials were " \
                                                                                "not provided."
            assert "access-control-allow-origin" not in refused.headers
        # Without an Origin (a page of the same origin, behind nginx) the session is read.
        with reading(stream, None, headers={"Cookie": headers["Cookie"]}) as same_origin:
            assert "access-control-allow-origin" not in same_origin.response.headers
        # A browser asking before it reconnects with Last-Event-ID: the site's origin may, another may not.
        asked = {"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "last-event-id"}
        preflight = httpx.options(stream.url, headers={**asked, "Origin": SITE})
        assert preflight.status_code == 204, preflight.text
        assert preflight.headers["access-control-allow-origin"] == SITE
        assert preflight.headers["access-control-allow-headers"] == "last-event-id"
        assert preflight.headers["access-control-allow-methods"] == "GET"
        assert preflight.headers["access-control-allow-credentials"] == "true"
        foreign = httpx.options(stream.url, headers={**asked, "Origin": "http://elsewhere.test"})
        assert foreign.status_code == 405 and "access-control-allow-origin" not in foreign.headers


@pytest.mark.parametrize("ending", ["log out", "account made inactive"])
def test_a_stream_whose_session_ends_receives_nothing_more_and_ends(tmp_path, started_game, alice, bob, ending):
    browser = signed_in(bob)
    headers = cookie_of(browser)
    with stream_process(tmp_path, **PAGE) as stream:
        with reading(stream, None, headers=headers) as bob_stream:
            if ending == "log out":
                browser.logout()
            else:
                type(bob).objects.filter(pk=bob.pk).update(is_active=False)
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            assert bob_stream.ended.wait(10), "the stream ended at its next read"
            assert bob_stream.events.empty()
        with reading(stream, None, headers=headers) as refused:
            assert refused.status_code == 401


def test_logging_out_closes_the_sessions_open_stream_at_once(tmp_path, bob):
    """Issue 27: no event needed; the log out itself wakes the stream, which finds its session gone."""
    browser = signed_in(bob)
    with stream_process(tmp_path, **{**PAGE, "STREAM_HEARTBEAT_SECONDS": "30"}) as stream:
        with reading(stream, None, headers=cookie_of(browser)) as bob_stream:
            time.sleep(1)  # past the stream's first read: ending there is not what this holds
            browser.logout()
            assert bob_stream.ended.wait(5), "the stream ended at once"


def test_a_games_page_stream_keeps_its_player_present_without_the_database(tmp_path, started_game, bob):
    headers = cookie_of(signed_in(bob))
    with stream_process(tmp_path, **PAGE) as stream:
        assert not is_present(bob.pk, started_game.pk)
        with reading(stream, None, headers=headers, query=f"?game={started_game.pk}"):
            wait_for(lambda: is_present(bob.pk, started_game.pk), "the stream to note bob's page open", timeout=10)
        for bad in ("x", "-1", "1" * 19, "١"):
            with reading(stream, None, headers=headers, query=f"?game={bad}") as refused:
                assert refused.status_code == 400 and "game" in refused.json()["detail"], refused.text


def test_an_idle_page_stream_asks_the_database_nothing_and_keeps_its_player_present(started_game, bob, settings,
                                                                                   monkeypatch):
    """In this process, counting the application's trips to the database: a session costs them at the start only,
    and noting the page open every so often goes to Redis."""
    from tests.platform.events.test_asgi import CountingApplication, nothing, run_stream
    from turnbased.events import asgi, presence

    settings.STREAM_HEARTBEAT_SECONDS = 0.05
    monkeypatch.setattr(asgi, "PRESENCE_EVERY_SECONDS", 0.1)
    noted = []
    monkeypatch.setattr(asgi, "record_visit", lambda **visit: noted.append(visit) or presence.record_visit(**visit))
    application = CountingApplication()
    cookie = cookie_of(signed_in(bob))["Cookie"].encode()
    # Until five heartbeats and four visits noted, however long a loaded machine takes to send them (a fixed 0.7 s
    # saw three heartbeats once, on two cores busy with three workers): what is counted is trips, not time.
    bodies = run_stream(application, None, during=nothing, seconds=0.7, headers=[(b"cookie", cookie)],
                        query=f"game={started_game.pk}".encode(),
                        enough=lambda sent: sent.count(b": keep-alive\n\n") >= 5 and len(noted) >= 4)
    assert bodies.count(b": keep-alive\n\n") >= 5
    assert sorted(application.calls) == sorted(["authenticate", "latest_event_id", "events_after",
                                                "_listening_connection"])
    assert len(noted) >= 4 and {tuple(sorted(visit.items())) for visit in noted} == {
        (("game_id", started_game.pk), ("user_id", bob.pk))}
    assert is_present(bob.pk, started_game.pk)
