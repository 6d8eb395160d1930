"""Fixtures for platform tests: real objects built through the services, on the real PostgreSQL."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from turnbased.accounts.services.accounts import account_create
from turnbased.accounts.services.tokens import token_create
from turnbased.play import services
from turnbased.play.services.bot_accounts import bot_account_enable

PASSWORD = "a-long-enough-pass-9"

# A classic two-player deck, top first: set aside, three face up, then the deal and the draws.
# Seat 0 starts, holding a Guard and drawing a Handmaid; seat 1 holds a Priest.
SCRIPTED_CLASSIC_2P = [
    "princess",                       # set aside
    "king", "countess", "baron",      # face up (two players)
    "guard",                          # seat 0's hand
    "priest",                         # seat 1's hand
    "handmaid",                       # seat 0 draws
    "guard", "guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince",
]


def record_queued(monkeypatch) -> list:
    """Record what the dispatcher would queue in Celery, as ``(task, args, countdown)``, instead of queueing it (the
    broker takes every task); return the list it fills."""
    from turnbased.kit.db import dispatch

    calls = []

    def record(task, args, countdown=0):
        calls.append((task, args, countdown))
        return True

    monkeypatch.setattr(dispatch, "queue", record)
    return calls


def api_token(user, name: str = "tests") -> str:
    """Return the key of a new API token for the user, made as any token is."""
    _, key = token_create(user=user, name=name, lifetime=None)
    return key


@pytest.fixture
def make_user(db):
    """Return a function making an account with a verified address (as after following the link): ``user_maker``'s."""
    return user_maker()


def user_maker():
    """Return a function making an account with a verified address (as after following the link); a fixture of a
    wider scope than a test's, which cannot ask for ``make_user``, calls this itself.

    The accounts are established players, as most at a table are: each joined some weeks ago, two hours after
    the one made before it, so the ratings neither take one for new nor two for one person's (issue 42;
    ``tests/platform/ratings/test_farming.py`` makes fresh ones with ``joined``).
    """
    numbers, made = itertools.count(1), itertools.count()
    first_joined = timezone.now() - timedelta(days=40)

    def make(username: str | None = None, *, email_verified: bool = True, joined=None, email: str | None = None):
        name = username or f"player{next(numbers)}"
        user = account_create(username=name, email=email or f"{name}@example.com", password=PASSWORD,
                              email_verified=email_verified)
        user.date_joined = joined or first_joined + timedelta(hours=2 * next(made))
        user.save(update_fields=["date_joined"])
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def people(make_user):
    """Return a function making ``count`` new accounts (entrant1, entrant2, …, numbered on across calls)."""
    made = []

    def make(count: int) -> list:
        new = [make_user(f"entrant{len(made) + number}") for number in range(1, count + 1)]
        made.extend(new)
        return new

    return make


@pytest.fixture
def make_bot_account(make_user):
    """Return a function making a new account and marking it a bot account, as ``POST /api/me/bot/`` does."""

    return lambda username: bot_account_made(make_user, username)


def bot_account_made(make_user, username: str):
    """Return a new account made by ``make_user`` and marked a bot account, as ``POST /api/me/bot/`` does."""
    user = make_user(username)
    bot_account_enable(user=user)
    user.refresh_from_db()  # drop the cached profile: the user is read afresh, as a request would
    return user


@pytest.fixture
def robo(make_bot_account):
    """A bot account that has played nobody yet."""
    return make_bot_account("robo")


@pytest.fixture
def api_client_for():
    def client_for(user) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
        return client

    return client_for


@pytest.fixture
def start_scripted_game():
    """Return a function starting a classic two-player Love Letter game on the scripted deck."""

    def start(first, second, **create):
        game = services.create_game(
            creator=first,
            engine_slug="love-letter",
            players=2,
            options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
            **create,
        )
        invite = game.invite_code if game.visibility == "private" else None
        services.join_game(game_id=game.pk, user=second, invite_code=invite)
        game.refresh_from_db()
        return game

    return start


@pytest.fixture
def started_game(start_scripted_game, alice, bob):
    """A classic two-player game between alice (seat 0, to move) and bob, on the scripted deck."""
    return start_scripted_game(alice, bob)


def settings_error(**environment: str) -> str:
    """Return what starting Django with these settings in the environment prints to stderr; fail if it starts."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", "import django; django.setup()"], capture_output=True, text=True,
                         env={"DJANGO_SETTINGS_MODULE": "turnbased.settings", "DJANGO_DEBUG": "1",
                              "DATABASE_URL": "postgres://nobody@/nothing", "PATH": "", **environment})
    assert run.returncode != 0, "the settings were accepted"
    return run.stderr
