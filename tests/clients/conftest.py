"""The client library is tested from its source tree (clients/python/src), as installed it would be."""

from __future__ import annotations

import sys
from pathlib import Path

CLIENT_SOURCE = Path(__file__).resolve().parents[2] / "clients" / "python" / "src"
if str(CLIENT_SOURCE) not in sys.path:
    sys.path.insert(0, str(CLIENT_SOURCE))


import httpx  # noqa: E402 (after the path above)
import pytest  # noqa: E402

PASSWORD = "a-long-enough-pass-9"


class RecordingTransport(httpx.HTTPTransport):
    """A real HTTP transport that keeps ``(method, path, status)`` of every exchange."""

    def __init__(self) -> None:
        super().__init__()
        self.exchanges: list[tuple[str, str, int]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.exchanges.append((request.method, request.url.path, response.status_code))
        return response


@pytest.fixture
def make_account(transactional_db):
    """Return a function making a confirmed account, as after following the emailed link."""
    from turnbased.accounts.services.accounts import account_create

    def make(username: str):
        return account_create(username=username, email=f"{username}@example.com", password=PASSWORD,
                              email_verified=True)

    return make


@pytest.fixture
def connect(live_server):
    """Return a function making a client of the live server (with a token, or none); close them all after."""
    from turnbased_client import Client

    made = []

    def client(token: str | None = None, transport: httpx.BaseTransport | None = None) -> Client:
        made.append(Client(live_server.url, token=token, transport=transport))
        return made[-1]

    yield client
    for each in made:
        each.close()


@pytest.fixture
def player(make_account, connect):
    """Return a function making an account and a client logged in as it (a token asked for through the API)."""

    def make(username: str):
        make_account(username)
        token = connect().obtain_token(username, PASSWORD, name="tests")["token"]
        return connect(token)

    return make
