"""API tokens: many per user, named, stored hashed, listed without keys, revoked at once, expiring."""

from __future__ import annotations

import hashlib
import importlib
import re
import threading
from datetime import timedelta

import pytest
import time_machine
from django.apps import apps
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD, api_token
from turnbased.accounts.models import ApiToken, ApiTokenManager
from turnbased.accounts.selectors import tokens_of
from turnbased.accounts.services.tokens import TooManyTokens, token_create

pytestmark = pytest.mark.django_db


def authed(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_create_list_and_revoke_through_the_api(alice):
    client = authed(api_token(alice, "first"))
    created = client.post("/api/tokens/", {"name": "  my bot ", "expires_in_days": 30}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["name"] == "my bot" and body["token"] and body["current"] is False
    assert timedelta(days=29) < timezone.datetime.fromisoformat(body["expiry"]) - timezone.now() <= timedelta(days=30)

    listed = client.get("/api/tokens/").json()["results"]
    assert [(token["name"], token["current"]) for token in listed] == [("my bot", False), ("first", True)]
    assert all("token" not in token for token in listed)  # a key is shown once, at creation
    assert body["token"] not in str(listed)

    new = authed(body["token"])
    assert new.get("/api/games/").status_code == 200
    assert client.delete(f"/api/tokens/{body['id']}/").status_code == 204
    refused = new.get("/api/games/")  # the very next request
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert client.get("/api/games/").status_code == 200


def test_only_a_hash_of_the_key_is_stored(alice):
    key = api_token(alice)
    stored = ApiToken.objects.get(user=alice)
    assert key not in (stored.digest, stored.token_key) and stored.digest == hashlib.sha512(key.encode()).hexdigest()


def test_a_token_can_revoke_itself_and_nobody_can_revoke_another_users(alice, bob):
    alices_key, bobs_key = api_token(alice), api_token(bob)
    bobs_id = ApiToken.objects.get(user=bob).pk
    assert authed(alices_key).delete(f"/api/tokens/{bobs_id}/").status_code == 404
    assert authed(bobs_key).get("/api/games/").status_code == 200
    assert authed(bobs_key).delete(f"/api/tokens/{bobs_id}/").status_code == 204
    assert authed(bobs_key).get("/api/games/").status_code == 401


def test_the_token_endpoint_names_the_token_and_gives_it_the_default_lifetime(alice):
    answer = APIClient().post("/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json").json()
    token = ApiToken.objects.get(pk=answer["id"])
    assert token.name == "API log in" and answer["token"]
    assert timedelta(days=89) < token.expiry - timezone.now() <= timedelta(days=90)
    never = APIClient().post("/api/auth/token/", {"username": "alice", "password": PASSWORD, "name": "forever",
                                                  "expires_in_days": None}, format="json").json()
    assert never["expiry"] is None and never["name"] == "forever"


def test_an_expired_token_fails(alice):
    key = api_token(alice)
    ApiToken.objects.filter(user=alice).update(expiry=timezone.now() + timedelta(days=1))
    assert authed(key).get("/api/games/").status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        assert authed(key).get("/api/games/").status_code == 401


def test_last_use_is_noted_to_the_minute(alice):
    key = api_token(alice)
    assert ApiToken.objects.get(user=alice).last_used_at is None
    authed(key).get("/api/games/")
    first = ApiToken.objects.get(user=alice).last_used_at
    assert first is not None
    authed(key).get("/api/games/")
    assert ApiToken.objects.get(user=alice).last_used_at == first  # no write on every request
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        authed(key).get("/api/games/")
    assert ApiToken.objects.get(user=alice).last_used_at > first


def test_a_token_is_read_and_its_use_noted_in_one_statement(alice, settings):
    """Issue 26: the write of ``last_used_at`` goes in the lookup's own statement, not a round trip of its own."""
    from django.test.utils import CaptureQueriesContext

    settings.DATABASE_PREPARED_STATEMENTS = False  # the statement's own text, not an EXECUTE of it
    key = api_token(alice)
    with CaptureQueriesContext(connection) as captured:
        assert authed(key).get("/api/me/").status_code == 200
    token_sql = [query["sql"] for query in captured.captured_queries if "accounts_apitoken" in query["sql"]]
    assert len(token_sql) == 1 and token_sql[0].startswith("WITH noted AS (UPDATE")
    assert ApiToken.objects.get(user=alice).last_used_at is not None


def test_a_wrong_key_with_a_tokens_prefix_notes_no_use(alice):
    key = api_token(alice)
    forged = key[:15] + ("0" if key[15] != "0" else "1") + key[16:]
    assert authed(forged).get("/api/games/").status_code == 401
    assert ApiToken.objects.get(user=alice).last_used_at is None
    assert authed(key).get("/api/games/").status_code == 200
    assert ApiToken.objects.get(user=alice).last_used_at is not None


@pytest.mark.parametrize("body", [{}, {"name": "   "}, {"name": "x" * 101}, {"name": "ok", "expires_in_days": 0},
                                  {"name": "ok", "expires_in_days": "soon"}, {"name": "ok", "expires_in_days": 10**9},
                                  {"name": 0}, {"name": "ok", "expires_in_days": "30"}])
def test_bad_token_requests_are_400_and_create_nothing(alice, body):
    client = authed(api_token(alice))
    assert client.post("/api/tokens/", body, format="json").status_code == 400
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_tokens_need_a_login(alice):
    assert APIClient().get("/api/tokens/").status_code == 401
    assert APIClient().post("/api/tokens/", {"name": "x"}, format="json").status_code == 401


def test_the_web_page_creates_shows_the_key_once_and_revokes(alice):
    client = Client()
    client.force_login(alice)
    page = client.post("/accounts/tokens/", {"name": "laptop script", "lifetime_days": "0"})
    key = re.search(r'<code id="new-token">([0-9a-f]+)</code>', page.content.decode()).group(1)
    token = ApiToken.objects.get(user=alice)
    assert token.name == "laptop script" and token.expiry is None
    assert authed(key).get("/api/games/").status_code == 200
    listing = client.get("/accounts/tokens/").content.decode()
    assert "laptop script" in listing and key not in listing
    assert client.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 302
    assert authed(key).get("/api/games/").status_code == 401


def test_the_web_page_refuses_a_blank_name_and_anothers_token(alice, bob):
    client = Client()
    client.force_login(alice)
    blank = client.post("/accounts/tokens/", {"name": " ", "lifetime_days": "30"})
    assert b"This field is required" in blank.content and not ApiToken.objects.filter(user=alice).exists()
    bobs_key = api_token(bob)
    client.post(f"/accounts/tokens/{ApiToken.objects.get(user=bob).pk}/revoke/")
    assert authed(bobs_key).get("/api/games/").status_code == 200


def _refused_for_the_cap(answer, most: int) -> bool:
    return answer.status_code == 409 and answer.json()["detail"] == (
        f"You have {most} API tokens, the most an account may have: revoke one you no longer use first.")


def test_past_the_cap_every_door_refuses_a_new_token_with_409_and_makes_nothing(alice, settings):
    """Issue 42: tokens were unlimited, so a script logging in on every run piled them up unseen."""
    settings.API_TOKENS_MAX_PER_USER = 3
    client = authed(api_token(alice, "first"))
    assert [client.post("/api/tokens/", {"name": f"bot {n}"}, format="json").status_code for n in (2, 3)] == [201, 201]
    assert _refused_for_the_cap(client.post("/api/tokens/", {"name": "bot 4"}, format="json"), 3)
    assert _refused_for_the_cap(APIClient().post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                                                 format="json"), 3)
    page = Client()
    page.force_login(alice)
    refused = page.post("/accounts/tokens/", {"name": "laptop script", "lifetime_days": "30"})
    assert refused.status_code == 409 and 'id="new-token"' not in refused.content.decode()
    assert "You have 3 API tokens, the most an account may have" in refused.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == 3
    # An expired token counts no more; nor does a revoked one.
    ApiToken.objects.filter(user=alice, name="bot 2").update(expiry=timezone.now() - timedelta(seconds=1))
    assert client.post("/api/tokens/", {"name": "bot 4"}, format="json").status_code == 201
    assert _refused_for_the_cap(client.post("/api/tokens/", {"name": "bot 5"}, format="json"), 3)
    assert client.delete(f"/api/tokens/{ApiToken.objects.get(name='bot 3').pk}/").status_code == 204
    assert page.post("/accounts/tokens/", {"name": "laptop script", "lifetime_days": "30"}).status_code == 200
    assert sorted(token.name for token in tokens_of(alice)) == ["bot 4", "first", "laptop script"]


def test_the_cap_is_fifty_live_tokens_by_default(alice):
    for number in range(50):
        api_token(alice, f"script {number}")
    with pytest.raises(TooManyTokens):
        token_create(user=alice, name="one more", lifetime=None)
    assert ApiToken.objects.filter(user=alice).count() == 50


@pytest.mark.parametrize(("language", "refusal"), [
    ("hu", "Már 2 API-tokened van, ennél több nem lehet egy fióknak: előbb vonj vissza egyet, amelyet már nem "
           "használsz."),
    ("de", "Du hast 2 API-Tokens, mehr darf ein Konto nicht haben: Widerrufe zuerst eines, das du nicht mehr "
           "brauchst."),
])
def test_the_cap_is_said_in_the_readers_language(language, refusal, alice, settings):
    settings.API_TOKENS_MAX_PER_USER = 2
    client = authed(api_token(alice))
    client.post("/api/tokens/", {"name": "second"}, format="json")
    answer = client.post("/api/tokens/", {"name": "third"}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert (answer.status_code, answer.json()["detail"]) == (409, refusal)


@pytest.mark.django_db(transaction=True)
def test_two_creations_at_once_cannot_both_pass_the_cap(make_user, settings, monkeypatch):
    """The first creation, past its count, holds its transaction open for up to 2 seconds while the second one
    counts: without a lock per account both counted one token below the cap, and both were made."""
    settings.API_TOKENS_MAX_PER_USER = 2
    dora = make_user("dora")
    api_token(dora, "first")
    first_counted, second_counted = threading.Event(), threading.Event()
    real_create = ApiTokenManager.create

    def create(manager, *args, **kwargs):
        if not first_counted.is_set():
            first_counted.set()
            second_counted.wait(2)  # the other creation counts meanwhile, unless something holds it back
        else:
            second_counted.set()
        return real_create(manager, *args, **kwargs)

    monkeypatch.setattr(ApiTokenManager, "create", create)
    outcomes = []

    def make(name: str) -> None:
        try:
            token_create(user=dora, name=name, lifetime=None)
            outcomes.append("created")
        except TooManyTokens:
            outcomes.append("refused")
        finally:
            connection.close()

    first = threading.Thread(target=make, args=("second",))
    first.start()
    assert first_counted.wait(10), "the first creation counted"
    second = threading.Thread(target=make, args=("third",))
    second.start()
    for thread in (first, second):
        thread.join(30)
    assert sorted(outcomes) == ["created", "refused"]
    assert ApiToken.objects.filter(user=dora).count() == 2


def test_keys_from_before_named_tokens_keep_working(alice):
    """The data migration moves DRF's plain-text keys into hashed, named tokens and deletes the plain ones."""
    legacy_key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT NULL, "
                       "user_id integer NOT NULL)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)",
                       [legacy_key, timezone.now() - timedelta(days=400), alice.pk])
    migration = importlib.import_module("turnbased.accounts.migrations.0003_existing_accounts")
    with connection.schema_editor() as schema_editor:
        migration.legacy_tokens(apps, schema_editor)

    token = ApiToken.objects.get(user=alice)
    assert token.expiry is None and token.created < timezone.now() - timedelta(days=399)
    assert authed(legacy_key).get("/api/games/").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)


def test_the_schema_describes_the_token_endpoints_and_scheme():
    schema = APIClient().get("/api/schema/?format=json").json()
    operations = {path: {method: operation["operationId"] for method, operation in methods.items()}
                  for path, methods in schema["paths"].items() if "token" in path or path == "/api/accounts/"}
    assert operations == {
        "/api/accounts/": {"post": "account_create"},
        "/api/auth/token/": {"post": "auth_token_create"},
        "/api/tokens/": {"get": "tokens_list", "post": "tokens_create"},
        "/api/tokens/{token_id}/": {"get": "tokens_retrieve", "delete": "tokens_revoke"},
    }
    assert schema["components"]["securitySchemes"]["tokenAuth"] == {"type": "apiKey", "in": "header", "name": "Authorization", "description": "Token-based authentication with required prefix \"Token\""}
    assert "token" in schema["components"]["schemas"]["NewToken"]["properties"]
    for path in ("/api/tokens/", "/api/auth/token/"):  # the cap's refusal, where a token is made
        assert "409" in schema["paths"][path]["post"]["responses"], path


def test_the_admin_lists_tokens_without_keys_and_not_knoxs_unused_model(alice, django_user_model):
    key = api_token(alice, "laptop")
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root1", "root1@example.com", PASSWORD))
    listing = admin.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and "laptop" in listing.content.decode() and key not in listing.content.decode()
    assert admin.get("/admin/knox/authtoken/").status_code == 404
