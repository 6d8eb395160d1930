"""``/api/webhooks/``: register, list, read, change, delete, ping, rotate; a hook is its owner's alone."""

from __future__ import annotations

import pytest

from turnbased.events.services import NewEvent, events_record
from turnbased.webhooks import signing
from turnbased.webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db

ALL_KINDS = ["game_started", "your_turn", "move_played", "message_posted", "game_finished", "deadline_near",
             "group_invitation", "group_request", "tables_left", "competition_invite", "competition_started",
             "competition_table", "competition_round", "competition_ended", "competition_removed",
             "competition_season", "ladder_challenge", "game_note", "proposal_made", "proposal_decided",
             "seat_offered", "seat_taken", "followed_move", "followed_end"]
HOOK_FIELDS = {"id", "url", "kinds", "active", "consecutive_failures", "failing_since", "disabled_at",
               "disabled_reason", "created_at"}


@pytest.fixture
def api(api_client_for, alice, loopback_allowed):
    return api_client_for(alice)


def _register(api, url="http://127.0.0.1:9999/hook", **fields):
    return api.post("/api/webhooks/", {"url": url, **fields}, format="json")


def test_registering_answers_the_hook_with_its_secret_once(api, alice):
    answer = _register(api, kinds=["move_played", "your_turn", "move_played"])
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body.keys() == HOOK_FIELDS | {"secret"}
    assert body["kinds"] == ["your_turn", "move_played"]  # once each, in the kinds' own order
    assert body["active"] is True and body["secret"].startswith("whsec_")
    assert Webhook.objects.get(pk=body["id"], owner=alice).secret == body["secret"]

    read = api.get(f"/api/webhooks/{body['id']}/").json()
    listed = api.get("/api/webhooks/").json()
    assert read.keys() == HOOK_FIELDS and "secret" not in str(listed)
    assert listed == {"next": None, "previous": None, "results": [read]}


def test_without_kinds_a_hook_gets_every_kind(api):
    assert _register(api).json()["kinds"] == ALL_KINDS


# 400: the body breaks the schema (a kind off the enum, a blank or overlong URL, a value of the wrong JSON type).
@pytest.mark.parametrize(("fields", "detail"), [
    ({"kinds": []}, "kinds"),
    ({"kinds": ["ping"]}, "kinds"),
    ({"kinds": ["your_turn", "nonsense"]}, "kinds"),
    ({"kinds": "your_turn"}, "kinds"),
    ({"kinds": [0]}, "kinds"),
    ({"url": ""}, "url"),
    ({"url": "x" * 2001}, "url"),
    ({"url": 0}, "url"),
    # Issue 42: the scheme is the schema's pattern for url (https, and http where WEBHOOKS_ALLOW_HTTP).
    ({"url": "ftp://127.0.0.1/"}, "url: The URL must start with https:// or http://."),
])
def test_a_malformed_registration_is_a_400_and_writes_nothing(api, fields, detail):
    answer = _register(api, **fields)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["detail"].startswith(detail)
    assert detail.partition(":")[0] in answer.json()["errors"]
    assert not Webhook.objects.exists()


# 422: a string the schema allows, but not a URL webhooks may be sent to.
@pytest.mark.parametrize(("url", "detail"), [
    ("http://127.0.0.1:25/", "url: Port 25 is not allowed"),
    ("http://user:pw@127.0.0.1:8000/", "url: The URL may not carry a user name or password."),
])
def test_a_url_webhooks_may_not_go_to_is_a_422_and_writes_nothing(api, url, detail):
    answer = _register(api, url=url)
    assert answer.status_code == 422, answer.json()
    assert answer.json()["detail"].startswith(detail)
    assert "url" in answer.json()["errors"]
    assert not Webhook.objects.exists()


def test_a_private_address_is_refused_unless_the_setting_allows_it(api, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    answer = _register(api, url="http://127.0.0.1:8000/hook")
    assert answer.status_code == 422
    assert answer.json()["detail"] == ("url: The host 127.0.0.1 does not resolve only to public addresses: webhooks "
                                       "are sent only to public addresses.")
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    assert _register(api, url="http://127.0.0.1:8000/hook").status_code == 201


def test_an_account_may_register_five_hooks_and_no_more(api, api_client_for, bob, loopback_allowed):
    for number in range(5):
        assert _register(api, url=f"http://127.0.0.1:9999/{number}").status_code == 201
    answer = _register(api, url="http://127.0.0.1:9999/6")
    assert answer.status_code == 409
    assert answer.json()["detail"] == "You have 5 webhooks, the most an account may have: delete one first."
    assert Webhook.objects.count() == 5
    # Someone else's count is their own; deleting one makes room.
    assert _register(api_client_for(bob)).status_code == 201
    first = Webhook.objects.filter(owner__username="alice").first()
    assert api.delete(f"/api/webhooks/{first.pk}/").status_code == 204
    assert _register(api, url="http://127.0.0.1:9999/6").status_code == 201


def test_another_users_hook_is_not_found_through_any_door(api, api_client_for, bob):
    hook = _register(api).json()
    stranger = api_client_for(bob)
    base = f"/api/webhooks/{hook['id']}/"
    answers = [stranger.get(base), stranger.patch(base, {"active": False}, format="json"), stranger.delete(base),
               stranger.get(base + "deliveries/"), stranger.post(base + "ping/"), stranger.post(base + "rotate-secret/")]
    assert [answer.status_code for answer in answers] == [404] * 6
    assert {answer.json()["detail"] for answer in answers} == {"No such webhook."}
    assert stranger.get("/api/webhooks/").json()["results"] == []
    unchanged = Webhook.objects.get(pk=hook["id"])
    assert unchanged.active and unchanged.secret == hook["secret"] and not WebhookDelivery.objects.exists()
    assert api.get("/api/webhooks/999999999/").status_code == 404


def test_changing_the_url_kinds_and_state(api):
    hook = _register(api).json()
    path = f"/api/webhooks/{hook['id']}/"
    changed = api.patch(path, {"url": "http://127.0.0.1:9999/new", "kinds": ["game_finished"]}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["url"], changed.json()["kinds"], changed.json()["active"]) == (
        "http://127.0.0.1:9999/new", ["game_finished"], True)
    off = api.patch(path, {"active": False}, format="json").json()
    assert (off["active"], off["disabled_reason"]) == (False, "turned off by its owner")
    assert off["disabled_at"] is not None
    refused = api.patch(path, {"url": "http://127.0.0.1:25/"}, format="json")
    assert refused.status_code == 422
    assert api.patch(path, {"url": "gopher://127.0.0.1/"}, format="json").status_code == 400  # off the pattern
    assert api.patch(path, {"active": 0}, format="json").status_code == 400  # not a boolean: breaks the schema
    assert Webhook.objects.get(pk=hook["id"]).url == "http://127.0.0.1:9999/new"
    on = api.patch(path, {"active": True}, format="json").json()
    assert (on["active"], on["disabled_at"], on["disabled_reason"], on["url"]) == (True, None, "",
                                                                                 "http://127.0.0.1:9999/new")


def test_re_enabling_a_disabled_hook_resets_its_failures(api):
    hook = _register(api).json()
    from django.utils import timezone

    Webhook.objects.filter(pk=hook["id"]).update(active=False, consecutive_failures=10, failing_since=timezone.now(),
                                                 disabled_at=timezone.now(), disabled_reason="10 failed attempts",
                                                 notice_due=True)
    on = api.patch(f"/api/webhooks/{hook['id']}/", {"active": True}, format="json").json()
    assert (on["active"], on["consecutive_failures"], on["failing_since"], on["disabled_reason"]) == (True, 0, None, "")
    assert Webhook.objects.get(pk=hook["id"]).notice_due is False


def test_rotating_the_secret_answers_the_new_one_and_signs_with_it(api):
    hook = _register(api).json()
    rotated = api.post(f"/api/webhooks/{hook['id']}/rotate-secret/")
    assert rotated.status_code == 200
    new = rotated.json()["secret"]
    assert new != hook["secret"] and Webhook.objects.get(pk=hook["id"]).secret == new
    assert "secret" not in api.get(f"/api/webhooks/{hook['id']}/").json()


def test_a_ping_is_sent_and_logged(api, receiver, monkeypatch):
    monkeypatch.setattr("django.db.transaction.on_commit", lambda function, *args, **kwargs: function())
    hook = _register(api, url=receiver.url).json()
    answer = api.post(f"/api/webhooks/{hook['id']}/ping/")
    assert answer.status_code == 202
    assert (answer.json()["kind"], answer.json()["event"]) == ("ping", None)
    [request] = receiver.wait_for(1)
    assert signing.verify(hook["secret"], request.body, request.headers["X-Turnbased-Timestamp"],
                          request.headers["X-Turnbased-Signature"])
    [logged] = api.get(f"/api/webhooks/{hook['id']}/deliveries/").json()["results"]
    assert (logged["id"], logged["kind"], logged["state"], logged["status_code"], logged["attempts"]) == (
        answer.json()["id"], "ping", "delivered", 200, 1)
    assert logged["next_attempt_at"] is None and logged["finished_at"] is not None


def test_a_hook_that_is_off_cannot_be_pinged(api):
    hook = _register(api).json()
    api.patch(f"/api/webhooks/{hook['id']}/", {"active": False}, format="json")
    answer = api.post(f"/api/webhooks/{hook['id']}/ping/")
    assert answer.status_code == 409
    assert answer.json()["detail"] == 'This webhook is off: turn it on first (PATCH {"active": true}).'
    assert not WebhookDelivery.objects.exists()


def test_the_delivery_log_is_newest_first_in_cursor_pages(api, alice):
    hook = _register(api).json()
    events_record(events=[NewEvent(user_id=alice.pk, kind="your_turn", seq=number) for number in range(60)])
    path = f"/api/webhooks/{hook['id']}/deliveries/"
    first = api.get(path).json()
    assert first["previous"] is None and len(first["results"]) == 50
    second = api.get(first["next"]).json()
    assert second["next"] is None and len(second["results"]) == 10
    ids = [row["id"] for row in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 60
    row = first["results"][0]
    assert (row["kind"], row["state"], row["attempts"], row["status_code"], row["error"]) == (
        "your_turn", "pending", 0, None, "")
    assert row["next_attempt_at"] is not None and row["event"] is not None
    # A cursor of the right shape that the list did not give out names no page (404); one that is not base64 breaks
    # the schema's pattern (400).
    assert api.get(first["next"].replace("cursor=", "cursor=x")).status_code == 404
    assert api.get(first["next"].replace("cursor=", "cursor=x!")).status_code == 400


# Cursors a client could forge, of the shape the schema gives a cursor: not a number where an id goes, beyond a
# bigint. They name a page that is not there.
@pytest.mark.parametrize("cursor", ["cD1hYmM=", "cD05OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5", "x"])
def test_a_cursor_the_list_did_not_give_out_is_a_404_naming_it(api, cursor):
    hook = _register(api).json()
    for path in ("/api/webhooks/", f"/api/webhooks/{hook['id']}/deliveries/"):
        answer = api.get(f"{path}?cursor={cursor}")
        assert answer.status_code == 404, (path, cursor, answer.content)
        assert answer.json()["detail"].startswith("The cursor is not one this list gave out")


# Cursors that are not base64 at all break the schema's pattern for a cursor; one that is not UTF-8 is not even text
# (refused before the list reads it, naming the parameter too).
@pytest.mark.parametrize("cursor", ["%FF", "é", "x!", ""])
def test_a_cursor_that_is_not_base64_is_a_400_naming_it(api, cursor):
    hook = _register(api).json()
    for path in ("/api/webhooks/", f"/api/webhooks/{hook['id']}/deliveries/"):
        answer = api.get(f"{path}?cursor={cursor}")
        assert answer.status_code == 400, (path, cursor, answer.content)
        assert "cursor" in answer.json().get("errors", {}) or "cursor" in answer.json()["detail"]


def test_writes_count_against_the_webhooks_rate(api, settings):
    settings.RATE_LIMITS_ON = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "webhooks": "2/hour"}}
    hook = _register(api).json()
    assert api.post(f"/api/webhooks/{hook['id']}/rotate-secret/").status_code == 200
    refused = api.post(f"/api/webhooks/{hook['id']}/rotate-secret/")
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many webhook changes")
    assert api.get(f"/api/webhooks/{hook['id']}/").status_code == 200  # reads are not counted here


def test_without_a_token_nothing_answers(client):
    assert client.get("/api/webhooks/").status_code in (401, 403)
    assert client.post("/api/webhooks/", {"url": "https://example.org/"}, content_type="application/json"
                       ).status_code in (401, 403)
