"""Signatures: what the server sends, and the receiver's check docs/api-guide.md shows, run on real deliveries."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time

import pytest
from django.conf import settings

from turnbased.events.services import NewEvent, events_record
from turnbased.webhooks import services, signing
from turnbased.webhooks.tasks import sweep_webhooks


def guide_verification():
    """Return the API guide's ``verify`` (the Python block under "Verifying a delivery") and its module."""
    guide = (settings.BASE_DIR / "docs" / "api-guide.md").read_text()
    section = guide.split("### Verifying a delivery", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    namespace: dict = {}
    exec(compile(block, "docs/api-guide.md", "exec"), namespace)  # noqa: S102 (our own documentation)
    return namespace


def test_the_signature_is_the_hmac_sha256_of_the_timestamp_a_dot_and_the_body():
    # Computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    assert signing.signature("whsec_test", 1700000000, b'{"a":1}') == (
        "sha256=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789")


def test_a_new_secret_is_random_and_recognisable():
    secrets = {signing.new_secret() for _ in range(50)}
    assert len(secrets) == 50
    assert all(secret.startswith("whsec_") and len(secret) >= 48 for secret in secrets)


def test_the_receivers_check_accepts_only_a_recent_request_signed_with_the_secret():
    body, now = b'{"id":1}', 1_800_000_000
    headers = signing.headers(secret="whsec_a", body=body, kind="your_turn", delivery_id=7, timestamp=now)
    check = lambda **changes: signing.verify(  # noqa: E731
        changes.get("secret", "whsec_a"), changes.get("body", body), changes.get("timestamp", headers[
            signing.HEADER_TIMESTAMP]), changes.get("signature", headers[signing.HEADER_SIGNATURE]),
        now=changes.get("now", now))
    # A bool each time (a receiver may compare it, or keep it), never a value that only reads as false.
    assert check() is True
    assert check(now=now + 300) is True and check(now=now - 300) is True
    assert check(now=now + 301) is False  # a captured request sent again later
    assert check(secret="whsec_b") is False
    assert check(body=b'{"id":2}') is False
    assert check(timestamp=str(now + 1)) is False  # the timestamp is signed too
    assert check(timestamp="") is False
    assert check(timestamp="١٨٠٠٠٠٠٠٠٠") is False
    assert check(signature="sha256=" + "0" * 64) is False
    assert check(signature="sha256=é") is False


def test_every_header_of_an_attempt_computed_independently(settings):
    settings.SITE_URL = "https://play.example.net/"  # the trailing slash dropped, and only it
    secret, body = "whsec_" + base64.b64encode(b"k" * 32).decode(), b'{"a":1}'
    sent = signing.headers(secret=secret, body=body, kind="your_turn", delivery_id=42, timestamp=1_800_000_000)
    standard = base64.b64encode(hmac.new(b"k" * 32, b'42.1800000000.{"a":1}', hashlib.sha256).digest()).decode()
    legacy = hmac.new(secret.encode(), b'1800000000.{"a":1}', hashlib.sha256).hexdigest()
    assert sent == {
        "X-Turnbased-Event": "your_turn", "X-Turnbased-Delivery": "42", "webhook-id": "42",
        "webhook-timestamp": "1800000000", "webhook-signature": f"v1,{standard}",
        "X-Turnbased-Timestamp": "1800000000", "X-Turnbased-Signature": f"sha256={legacy}",
        "Deprecation": "@1796169600",  # 2026-12-02 00:00 UTC
        "Sunset": "Tue, 01 Jun 2027 00:00:00 GMT",
        "Link": '<https://play.example.net/api/docs/#/webhooks>; rel="deprecation"; type="text/html"',
    }


def test_a_secret_made_before_signs_with_its_own_text_and_a_new_one_with_its_bytes():
    assert signing.standard_key("whsec_" + base64.b64encode(b"\x00\xff" * 16).decode()) == b"\x00\xff" * 16
    old = "whsec_" + base64.urlsafe_b64encode(b"\xfb" * 32).decode().rstrip("=")  # "-" and "_", no padding
    assert signing.standard_key(old) == old.encode()
    # Base64 read leniently would skip the "-" and "_" of an old secret: with three of them in its 43 characters
    # the other 40 would read as a key of 30 bytes that the receiver's library never derives.
    lenient = "whsec_" + "Q" * 40 + "-_-"
    assert signing.standard_key(lenient) == lenient.encode()
    assert len(base64.b64decode(signing.new_secret().removeprefix("whsec_"))) == 32


def test_the_receivers_check_reads_the_clock_when_given_no_time():
    body, now = b"{}", int(time.time())
    assert signing.verify("whsec_a", body, str(now), signing.signature("whsec_a", now, body))
    assert not signing.verify("whsec_a", body, str(now - 400), signing.signature("whsec_a", now - 400, body))
    assert signing.verify("whsec_a", body, str(now - 400), signing.signature("whsec_a", now - 400, body), tolerance=500)


@pytest.mark.django_db
def test_the_guides_verification_accepts_a_real_delivery_and_refuses_a_forged_or_old_one(alice, receiver,
                                                                                         monkeypatch):
    hook, secret = services.webhook_create(owner=alice, url=receiver.url)
    events_record(events=[NewEvent(user_id=alice.pk, kind="your_turn", payload={"name": "Love Letter #1"})])
    sweep_webhooks.delay().get()
    [request] = receiver.wait_for(1)
    guide = guide_verification()
    guide["SECRET"] = secret
    verify = guide["verify"]

    assert verify(request.body, request.headers)
    assert not verify(request.body + b" ", request.headers)
    assert not verify(request.body, {**request.headers, "webhook-signature": "v1," + "A" * 43 + "="})
    guide["SECRET"] = signing.new_secret()
    assert not verify(request.body, request.headers)
    guide["SECRET"] = secret
    monkeypatch.setattr(time, "time", lambda: int(request.headers["webhook-timestamp"]) + 301)
    assert not verify(request.body, request.headers)
