"""My devices told of my turns through the API (/api/me/push-subscriptions/): subscribe, list, read, forget."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.conftest import PASSWORD
from turnbased.notifications.models import PushSubscription

pytestmark = pytest.mark.django_db

LIST = "/api/me/push-subscriptions/"
FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"


def test_a_device_is_subscribed_listed_read_and_forgotten(alice, push_service, api_client_for):
    client = api_client_for(alice)
    phone = push_service.device("phone")
    answer = client.post(LIST, phone.subscription(), format="json", HTTP_USER_AGENT=FIREFOX_ON_WINDOWS)
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    assert (created["endpoint"], created["browser"], created["system"], created["last_pushed_at"]) == (
        phone.endpoint, "Firefox", "Windows", None)
    assert client.get(LIST).json()["results"] == [created]
    assert client.get(f"{LIST}{created['id']}/").json() == created
    assert client.delete(f"{LIST}{created['id']}/").status_code == 204
    assert client.get(LIST).json()["results"] == []
    assert client.delete(f"{LIST}{created['id']}/").status_code == 404


def test_the_same_browser_subscribing_again_replaces_its_keys(alice, push_service, api_client_for):
    phone = push_service.device("phone")
    first = api_client_for(alice).post(LIST, phone.subscription(), format="json").json()
    again = push_service.device("again").subscription()
    again["endpoint"] = phone.endpoint
    answer = api_client_for(alice).post(LIST, again, format="json")
    assert answer.status_code == 200 and answer.json()["id"] == first["id"]
    assert PushSubscription.objects.get().p256dh == again["keys"]["p256dh"]


def _told(answer) -> tuple:
    """What an answer to a subscription tells its poster, but for the new row's own id, endpoint and time."""
    body = answer.json()
    return (answer.status_code, answer.has_header("Location"),
            {key: value for key, value in body.items() if key not in ("id", "endpoint", "created_at")})


def test_another_account_posting_a_known_endpoint_takes_nothing_over_and_is_told_nothing(
        alice, bob, push_service, api_client_for):
    """Issue 42: the endpoint was unique, so bob posting alice's (a URL, no secret) moved her device to him."""
    phone = push_service.device("phone")
    alices = api_client_for(alice).post(LIST, phone.subscription(), format="json",
                                        HTTP_USER_AGENT=FIREFOX_ON_WINDOWS).json()
    stolen = push_service.device("bobs-keys").subscription()
    stolen["endpoint"] = phone.endpoint
    known = api_client_for(bob).post(LIST, stolen, format="json")
    # The same request with an endpoint nobody has subscribed: bob cannot tell the two apart.
    fresh = push_service.device("bobs-own").subscription()
    unknown = api_client_for(bob).post(LIST, fresh, format="json")
    assert _told(known) == _told(unknown) == (201, True, {"browser": "", "system": "", "last_pushed_at": None})
    # Alice's device is as she left it: hers, with her browser's keys; bob's row is his alone.
    kept = PushSubscription.objects.get(pk=alices["id"])
    assert (kept.user, kept.p256dh, kept.auth, kept.browser) == (alice, phone.p256dh,
                                                                  phone.subscription()["keys"]["auth"], "Firefox")
    assert api_client_for(alice).get(LIST).json()["results"] == [alices]
    assert sorted(row["endpoint"] for row in api_client_for(bob).get(LIST).json()["results"]) == sorted(
        [phone.endpoint, fresh["endpoint"]])
    # Bob sending it again is his own row again (200), as for any device of his.
    again = api_client_for(bob).post(LIST, stolen, format="json")
    assert again.status_code == 200 and again.json()["id"] == known.json()["id"]
    assert PushSubscription.objects.filter(endpoint=phone.endpoint).count() == 2
    # Forgetting his row leaves hers.
    assert api_client_for(bob).delete(f"{LIST}{known.json()['id']}/").status_code == 204
    assert PushSubscription.objects.filter(pk=alices["id"], user=alice).exists()


def test_another_users_device_is_not_found(alice, bob, push_service, api_client_for):
    mine = api_client_for(alice).post(LIST, push_service.device("phone").subscription(), format="json").json()
    other = api_client_for(bob)
    assert other.get(f"{LIST}{mine['id']}/").status_code == 404
    assert other.delete(f"{LIST}{mine['id']}/").status_code == 404
    assert other.get(LIST).json()["results"] == []
    assert PushSubscription.objects.filter(user=alice).count() == 1


# 400: the body breaks the schema (a field missing, null or of the wrong JSON type); 422: strings of the schema's
# shape that are no push service we send to, or no key we can push with.
@pytest.mark.parametrize(("change", "field", "status"), [
    ({"endpoint": "https://example.org/push/1"}, "endpoint", 422),  # not a push service we send to
    ({"endpoint": "http://127.0.0.1:1/push/1"}, "endpoint", 422),  # loopback, plain http: only in the tests' settings
    ({"endpoint": "not a url"}, "endpoint", 422),
    ({"endpoint": "https://fcm.googleapis.com.example.org/x"}, "endpoint", 422),
    ({"endpoint": "https://user@fcm.googleapis.com/x"}, "endpoint", 422),
    ({"keys": {"p256dh": "BAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", 400),  # off the schema's length
    ({"keys": {"p256dh": "B" + "A" * 86, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", 422),  # 65 bytes, off the curve
    ({"keys": {"p256dh": None, "auth": "x"}}, "keys", 400),
    ({"keys": "no"}, "keys", 400),
    ({"keys": {"p256dh": 0, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys", 400),
    ({"endpoint": 0}, "endpoint", 400),
], ids=["elsewhere", "loopback", "not-a-url", "lookalike", "userinfo", "short-key", "off-curve", "null", "not-keys",
        "key-not-a-string", "endpoint-not-a-string"])
def test_a_subscription_we_cannot_push_to_is_refused_and_kept_nowhere(change, field, status, alice, push_service,
                                                                      api_client_for, settings):
    settings.WEB_PUSH_SERVICES = ["fcm.googleapis.com"]
    settings.WEB_PUSH_ALLOW_HTTP = False
    body = push_service.device("phone").subscription()
    body["endpoint"] = "https://fcm.googleapis.com/fcm/send/abc"
    body.update(change)
    answer = api_client_for(alice).post(LIST, body, format="json")
    assert answer.status_code == status, answer.json()
    assert field in answer.json()["errors"]
    assert not PushSubscription.objects.exists()


def test_a_bad_auth_secret_is_refused(alice, push_service, api_client_for):
    body = push_service.device("phone").subscription()
    body["keys"]["auth"] = "c2hvcnQ"  # not 16 bytes: off the schema's pattern
    answer = api_client_for(alice).post(LIST, body, format="json")
    assert answer.status_code == 400 and "16 bytes" in answer.json()["errors"]["keys"]["auth"][0]
    assert not PushSubscription.objects.exists()


def test_beyond_the_most_devices_the_one_unused_longest_goes(alice, push_service, api_client_for, settings):
    settings.WEB_PUSH_MAX_PER_USER = 2
    client = api_client_for(alice)
    devices = [push_service.device(f"device{n}") for n in range(3)]
    ids = [client.post(LIST, device.subscription(), format="json").json()["id"] for device in devices]
    assert sorted(row["id"] for row in client.get(LIST).json()["results"]) == ids[1:]


def test_the_page_subscribes_with_its_session_and_csrf_token(alice, push_service):
    browser = Client(enforce_csrf_checks=True)
    browser.login(username="alice", password=PASSWORD)
    body = push_service.device("phone").subscription()
    assert browser.post(LIST, body, content_type="application/json").status_code == 403  # no CSRF token
    page = browser.get("/accounts/settings/")
    token = page.cookies["csrftoken"].value
    assert browser.post(LIST, body, content_type="application/json", HTTP_X_CSRFTOKEN=token).status_code == 201


def test_only_my_account_reads_my_devices():
    assert Client().get(LIST).status_code in (401, 403)
