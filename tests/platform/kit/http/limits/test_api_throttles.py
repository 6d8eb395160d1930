"""API rate limits: every scope, per account and per address, a 429 with Retry-After, and the off switch."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from turnbased.kit.http.limits import AccountRateThrottle, AddressRateThrottle, client_address
from turnbased.play.models import Game, Move

pytestmark = pytest.mark.django_db

HERE = {"REMOTE_ADDR": "198.51.100.7"}


def a_wrong_move(client, game, **meta):
    """A move the game refuses (its text names none): of the schema's shape, so a 422."""
    return client.post(f"/api/games/{game.pk}/moves/", {"text": "fly away", "expected_seq": 0}, format="json", **meta)


def a_bad_table(client, **meta):
    """A table of a game not on the schema's list: a 400."""
    return client.post("/api/games/", {"game": "chess"}, format="json", **meta)


def assert_refused(response, *, counted: str) -> int:
    """Check a 429 that says what was counted and when to retry; return its Retry-After."""
    assert response.status_code == 429, response.content
    wait = int(response["Retry-After"])
    body = response.json()
    assert body["retry_after"] == wait and 1 <= wait
    assert body["detail"].startswith(f"Too many {counted}") and f"Try again in {wait} second" in body["detail"]
    return wait


class PasswordCheckApi(APIView):
    """A view that only names its scope, as POST /api/auth/token/ does."""

    permission_classes = [AllowAny]
    throttle_scope = "auth"

    def post(self, request):
        raise AuthenticationFailed("Wrong username or password.")


@pytest.mark.parametrize(("view", "scope", "counted"), [(PasswordCheckApi, "auth", "sign-in attempts")])
def test_a_view_naming_only_its_scope_gets_that_scopes_rate_per_address(view, scope, counted, rates):
    rates(**{scope: "3/hour"})
    factory = APIRequestFactory()
    answer = view.as_view()
    for _ in range(3):
        assert answer(factory.post("/", {"username": "bob"}, format="json", **HERE)).status_code != 429
    refused = answer(factory.post("/", {"username": "bob"}, format="json", **HERE)).render()
    assert refused.status_code == 429 and 3000 < int(refused["Retry-After"]) <= 3600
    assert refused.data["detail"].startswith(f"Too many {counted} (at most 3 per hour). Try again in ")
    other = factory.post("/", {"username": "bob"}, format="json", REMOTE_ADDR="203.0.113.9")
    assert answer(other).status_code != 429, "another address has its own budget"


def test_the_default_auth_rate_stops_password_guessing_within_a_minute():
    factory = APIRequestFactory()
    answers = [PasswordCheckApi.as_view()(factory.post("/", {}, format="json", **HERE)).status_code for _ in range(25)]
    assert answers[:10] == [401] * 10 and set(answers[10:]) == {429}


def test_creating_tables_is_limited_but_listing_them_is_not(alice, api_client_for, rates):
    rates(table_create="2/hour")
    client = api_client_for(alice)
    assert [a_bad_table(client).status_code for _ in range(2)] == [400, 400]
    created = client.post("/api/games/", {"game": "love-letter", "players": 2}, format="json")
    assert_refused(created, counted="new tables")
    assert not Game.objects.exists(), "a refused creation creates nothing"
    assert client.get("/api/games/").status_code == 200


def test_moves_are_limited_and_a_refused_move_is_not_played(started_game, alice, api_client_for):
    client = api_client_for(alice)
    assert {a_wrong_move(client, started_game).status_code for _ in range(60)} == {422}
    refused = client.post(f"/api/games/{started_game.pk}/moves/", {"text": "handmaid", "expected_seq": 0},
                          format="json")
    assert_refused(refused, counted="moves")
    assert "(at most 60 per minute)" in refused.json()["detail"]
    assert not Move.objects.filter(game=started_game).exists()


def test_reads_are_limited_by_the_default_scope(started_game, alice, api_client_for, rates):
    rates(api="5/min")
    client = api_client_for(alice)
    assert [client.get(f"/api/games/{started_game.pk}/").status_code for _ in range(5)] == [200] * 5
    assert_refused(client.get(f"/api/games/{started_game.pk}/history/"), counted="requests")


def test_a_client_polling_twice_a_second_for_three_minutes_is_never_refused(started_game, alice, api_client_for):
    client = api_client_for(alice)
    with time_machine.travel(datetime(2026, 3, 2, 12, tzinfo=timezone.utc), tick=False) as clock:
        for _ in range(180):
            assert client.get(f"/api/games/{started_game.pk}/").status_code == 200
            assert client.get(f"/api/games/{started_game.pk}/history/?since=0").status_code == 200
            clock.shift(timedelta(seconds=1))


def test_each_scope_has_its_own_budget(started_game, alice, api_client_for, rates):
    rates(moves="2/min")
    client = api_client_for(alice)
    for _ in range(2):
        a_wrong_move(client, started_game)
    assert a_wrong_move(client, started_game).status_code == 429
    assert client.get(f"/api/games/{started_game.pk}/").status_code == 200
    assert a_bad_table(client).status_code == 400
    assert client.post(f"/api/games/{started_game.pk}/resign/").status_code == 200


def test_retry_after_is_when_the_oldest_counted_request_leaves_the_window(started_game, alice, api_client_for, rates):
    rates(moves="3/min")
    client = api_client_for(alice)
    with time_machine.travel(datetime(2026, 3, 2, 12, tzinfo=timezone.utc), tick=False) as clock:
        for _ in range(3):
            assert a_wrong_move(client, started_game).status_code == 422
            clock.shift(timedelta(seconds=10))
        clock.shift(timedelta(seconds=5))  # 35 s after the first of the three
        assert assert_refused(a_wrong_move(client, started_game), counted="moves") == 25
        clock.shift(timedelta(seconds=24))
        assert assert_refused(a_wrong_move(client, started_game), counted="moves") == 1
        clock.shift(timedelta(seconds=1))
        assert a_wrong_move(client, started_game).status_code == 422


def test_many_accounts_from_one_address_share_its_budget(started_game, alice, bob, carol, api_client_for, rates):
    rates(moves="2/min")
    for user in (alice, bob):
        assert a_wrong_move(api_client_for(user), started_game, **HERE).status_code != 429
    assert a_wrong_move(api_client_for(carol), started_game, **HERE).status_code == 429
    assert a_wrong_move(api_client_for(carol), started_game, REMOTE_ADDR="203.0.113.9").status_code != 429


def test_one_account_from_many_addresses_shares_its_budget(started_game, alice, bob, api_client_for, rates):
    rates(moves="2/min")
    client = api_client_for(alice)
    for address in ("203.0.113.1", "203.0.113.2"):
        assert a_wrong_move(client, started_game, REMOTE_ADDR=address).status_code == 422
    assert a_wrong_move(client, started_game, REMOTE_ADDR="203.0.113.3").status_code == 429
    assert a_wrong_move(api_client_for(bob), started_game, REMOTE_ADDR="203.0.113.4").status_code != 429


def test_anonymous_clients_are_limited_by_address(started_game, rates):
    rates(api="2/min")
    for _ in range(2):
        assert APIClient().get(f"/api/games/{started_game.pk}/", **HERE).status_code == 200
    assert_refused(APIClient().get(f"/api/games/{started_game.pk}/", **HERE), counted="requests")
    assert APIClient().get(f"/api/games/{started_game.pk}/", REMOTE_ADDR="203.0.113.9").status_code == 200


def test_a_forged_forwarded_for_header_does_not_make_a_new_address(started_game, rates):
    rates(api="2/min")
    for number in range(2):
        APIClient().get(f"/api/games/{started_game.pk}/", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}", **HERE)
    forged = APIClient().get(f"/api/games/{started_game.pk}/", HTTP_X_FORWARDED_FOR="192.0.2.99", **HERE)
    assert forged.status_code == 429


def test_behind_a_trusted_proxy_the_address_it_saw_counts(started_game, rates, settings):
    rates(api="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    def read(forwarded_for):
        return APIClient().get(f"/api/games/{started_game.pk}/", HTTP_X_FORWARDED_FOR=forwarded_for, **proxy)

    assert [read("192.0.2.1").status_code for _ in range(2)] == [200, 200]
    assert read("forged-by-the-client, 192.0.2.1").status_code == 429, "the proxy's own entry is the last one"
    assert read("192.0.2.2").status_code == 200


def test_an_ipv6_client_is_counted_by_its_64_network(started_game, rates):
    assert client_address("2001:db8:1:2::1") == client_address("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_address("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert client_address("::ffff:198.51.100.7") == "198.51.100.7"
    assert client_address("not an address") == "not an address"
    rates(api="2/min")
    for host in ("1", "2"):
        APIClient().get(f"/api/games/{started_game.pk}/", REMOTE_ADDR=f"2001:db8:1:2::{host}")
    assert APIClient().get(f"/api/games/{started_game.pk}/", REMOTE_ADDR="2001:db8:1:2::3").status_code == 429
    assert APIClient().get(f"/api/games/{started_game.pk}/", REMOTE_ADDR="2001:db8:1:3::3").status_code == 200


def test_rate_limits_off_lets_every_request_through(started_game, alice, api_client_for, rates, settings):
    rates(api="1/min", moves="1/min", table_create="1/min", auth="1/min")
    settings.RATE_LIMITS_ON = False
    client = api_client_for(alice)
    assert {a_wrong_move(client, started_game).status_code for _ in range(5)} == {422}
    assert {a_bad_table(client).status_code for _ in range(5)} == {400}
    assert {client.get(f"/api/games/{started_game.pk}/").status_code for _ in range(5)} == {200}
    factory = APIRequestFactory()
    assert {PasswordCheckApi.as_view()(factory.post("/", {}, format="json")).status_code for _ in range(5)} == {401}
    settings.RATE_LIMITS_ON = True
    assert [a_wrong_move(client, started_game).status_code for _ in range(2)] == [422, 429]


def api_view_classes(patterns=None):
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from api_view_classes(entry.url_patterns)
        elif isinstance(entry, URLPattern) and isinstance(getattr(entry.callback, "cls", None), type):
            if issubclass(entry.callback.cls, APIView):
                yield entry.callback.cls


def test_every_api_view_is_limited_per_account_and_address_with_a_known_scope():
    views = list(api_view_classes())
    assert len(views) > 10
    for view in views:
        assert {AccountRateThrottle, AddressRateThrottle} <= set(view.throttle_classes), view
        scope = getattr(view, "throttle_scope", None)
        assert scope is None or scope in api_settings.DEFAULT_THROTTLE_RATES, f"{view.__name__}: no rate for {scope}"


def test_a_lowered_rate_still_tells_when_to_retry(started_game, alice, api_client_for, rates):
    rates(moves="5/min")
    client = api_client_for(alice)
    with time_machine.travel(datetime(2026, 3, 2, 12, tzinfo=timezone.utc), tick=False) as clock:
        for _ in range(5):
            a_wrong_move(client, started_game)
            clock.shift(timedelta(seconds=5))
        rates(moves="2/min")
        # Two requests fit again once the fourth of the five (made at 15 s) leaves the window, at 75 s.
        assert assert_refused(a_wrong_move(client, started_game), counted="moves") == 75 - 25


def test_a_cache_outage_lets_requests_through_instead_of_failing_them(settings, started_game, api_client_for, rates):
    """With Redis away the counters cannot be read: the API answers as if there were no limit."""
    rates(moves="1/min")
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:1/0"}}
    alice = api_client_for(started_game.seats.get(index=0).user)
    assert alice.get("/api/game-types/", **HERE).status_code == 200
    for _ in range(3):
        assert a_wrong_move(alice, started_game, **HERE).status_code == 422
