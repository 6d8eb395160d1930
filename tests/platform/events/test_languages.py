"""The stream's refusals in the client's language (Accept-Language), in the stream process and the web process."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from django.utils.translation import gettext
from rest_framework.test import APIClient

from tests.platform.events.streams import run_in_own_loop
from turnbased.events.asgi import StreamApplication

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _english_after():
    """Leave English active after each test: a request's LocaleMiddleware activates its language and leaves it
    active in the thread, where the next test's services would word their texts in it."""
    yield
    translation.deactivate()


def answer(*, path: str = "/api/stream/", method: str = "GET", headers: dict[str, str]) -> tuple[int, dict]:
    """Call the stream application once as uvicorn would; return the status and the JSON body."""
    sent = []

    async def run() -> None:
        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        application = StreamApplication(threads=1)
        scope = {"type": "http", "method": method, "path": path, "query_string": b"",
                 "headers": [(name.encode(), value.encode()) for name, value in headers.items()]}
        await application(scope, receive, send)
        await application.stop()
        application.executor.shutdown()

    run_in_own_loop(run())
    return sent[0]["status"], json.loads(sent[1]["body"])


def in_language(language: str, english: str) -> str:
    with translation.override(language):
        worded = gettext(english)
    assert worded != english, f"no {language} words for {english!r}"
    return worded


def test_the_stream_process_refuses_in_the_language_asked():
    status, body = answer(path="/elsewhere/", headers={"accept-language": "hu"})
    assert (status, body["detail"], body["status"]) == (
        404, "Nem található: ez a szerver csak a GET /api/stream/ kérést szolgálja ki.", 404)
    status, body = answer(method="POST", headers={"accept-language": "de"})
    assert status == 405 and body["detail"] == in_language("de", 'Method "{method}" not allowed.').format(method="POST")
    status, body = answer(headers={"accept-language": "de"})
    assert (status, body["detail"]) == (401, in_language("de", "Authentication credentials were not provided."))
    # Checked in a database thread: it words the refusal in the stream's language too.
    status, body = answer(headers={"accept-language": "hu", "authorization": "Token nope"})
    assert (status, body["detail"]) == (401, in_language("hu", "Invalid token."))
    status, body = answer(headers={"authorization": "Token nope"})
    assert (status, body["detail"], body["title"]) == (401, "Invalid token.", "Unauthorized")


def test_a_bad_resume_point_is_refused_in_german_by_both_processes(alice):
    from tests.platform.conftest import api_token

    key = api_token(alice)
    german = "Last-Event-ID (oder last_event_id) muss eine Ereignis-ID sein: eine ganze Zahl mit höchstens 18 Ziffern."
    status, body = answer(headers={"accept-language": "de", "authorization": f"Token {key}", "last-event-id": "x"})
    assert (status, body["detail"]) == (400, german)
    web = APIClient(HTTP_ACCEPT_LANGUAGE="de", HTTP_AUTHORIZATION=f"Token {key}").get("/api/stream/?last_event_id=x")
    assert web.status_code == 400 and web.json()["errors"] == {"last_event_id": [german]}
