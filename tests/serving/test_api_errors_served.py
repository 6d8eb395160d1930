"""Every answer under /api/ is JSON through the real gunicorn, whatever refuses the request (issue 42).

The web process as ``make run`` serves it (gunicorn with deploy/gunicorn.conf.py, DEBUG on) and as production
does (DEBUG off), on the test database: an unknown address (Django's HTML debug page with DEBUG on), the
answers gunicorn writes itself before Django (turnbased/web_worker.py: a header it cannot read, 400; header
fields over its limit, 431), and a body over the limit (413), after which the connection either carries the
next request or is closed cleanly: the client reads the whole 413, never a reset. Requests are written on raw
sockets, as a client that gets them wrong would.
"""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from django.conf import settings
from django.db import connection

from tests.serving.served import database_url_for, served_web

pytestmark = [pytest.mark.serving]

PROBLEM = "application/problem+json"
# gunicorn's limit on one header field (limit_request_field_size, its default).
HEADER_FIELD_LIMIT = 8190


def exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes, read the answer to the end (gunicorn closes after its own errors): status, headers, body."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as client:  # a first request waits for the workers to boot
        client.sendall(request)
        answer = http.client.HTTPResponse(client)
        answer.begin()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()


def problem(status: int, answer: tuple[int, dict[str, str], bytes]) -> dict:
    got, headers, body = answer
    assert got == status and headers["content-type"] == PROBLEM, (got, headers, body[:300])
    document = json.loads(body)
    assert document["status"] == status and document["type"] == "about:blank" and document["detail"], document
    assert document["title"], document
    return document


@pytest.fixture(scope="module", params=["make run (DEBUG on)", "production (DEBUG off)"])
def web(request, tmp_path_factory, django_db_setup, django_db_blocker):
    """One web process of each kind for the module's tests: they write nothing, the database only has to exist."""
    debug = "true" if "DEBUG on" in request.param else "false"
    with django_db_blocker.unblock():
        database_url = database_url_for(connection.settings_dict["NAME"])
    with served_web(tmp_path_factory.mktemp("web"), database_url, DJANGO_DEBUG=debug) as served:
        yield served


def test_an_unknown_address_under_api_is_a_problem(web):
    answer = problem(404, exchange(web.port, b"GET /api/no-such-thing/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
    assert answer["title"] == "Not Found", answer


def test_the_answers_gunicorn_writes_itself_are_problems_under_api_and_pages_elsewhere(web):
    no_colon = b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nThis header has no colon\r\n\r\n"
    bad = problem(400, exchange(web.port, no_colon % b"/api/games/"))
    assert bad["title"] == "Bad Request" and "header" in bad["detail"].lower(), bad
    huge = b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * (HEADER_FIELD_LIMIT + 10) + b"\r\n\r\n"
    too_large = problem(431, exchange(web.port, huge % b"/api/games/"))
    assert too_large["title"] == "Request Header Fields Too Large", too_large
    absolute = b"GET http://127.0.0.1/api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon either\r\n\r\n"
    problem(400, exchange(web.port, absolute))
    for page in (exchange(web.port, no_colon % b"/accounts/login/"), exchange(web.port, huge % b"/")):
        assert page[0] in (400, 431) and page[1]["content-type"] == "text/html", page  # the site's pages: gunicorn's


def test_a_body_over_the_limit_is_a_problem_and_the_connection_carries_on_or_closes_cleanly(web):
    """The client sends the whole body (as most do, without Expect: 100-continue) and must read the whole 413."""
    body = b" " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE * 8)
    for _ in range(3):
        client = http.client.HTTPConnection("127.0.0.1", web.port, timeout=60)
        try:
            client.request("POST", "/api/games/", body=body, headers={"Content-Type": "application/json"})
            answer = client.getresponse()
            document = json.loads(answer.read())
            assert answer.status == 413 and answer.getheader("Content-Type") == PROBLEM, document
            assert document["status"] == 413 and document["title"] == "Content Too Large", document
            if answer.will_close:  # closed cleanly: the end of the stream, not a reset
                assert client.sock is None or client.sock.recv(1) == b""
            else:  # kept alive: it carries the next request
                client.request("GET", "/api/no-such-thing/")
                problem(404, (lambda next_answer: (next_answer.status, dict(
                    (name.lower(), value) for name, value in next_answer.getheaders()), next_answer.read()))(
                    client.getresponse()))
        finally:
            client.close()
