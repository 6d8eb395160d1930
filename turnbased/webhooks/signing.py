"""The signatures of a webhook delivery, and the checks a receiver makes (docs/api-guide.md shows them, under
"Verifying a delivery").

Every attempt is signed the Standard Webhooks way (https://www.standardwebhooks.com/, issue 27), so a receiver
can check it with that convention's published libraries: ``webhook-id`` (the delivery's id, the same on every
retry), ``webhook-timestamp`` (Unix seconds) and ``webhook-signature``: ``v1,`` and the base64 HMAC-SHA256 of
``<id>.<timestamp>.<body>`` keyed with the secret's bytes (the base64 after its ``whsec_``).

The headers of before, ``X-Turnbased-Timestamp`` and ``X-Turnbased-Signature`` (``sha256=`` and the hex
HMAC-SHA256 of ``<timestamp>.<body>`` keyed with the whole secret's text), are still sent, deprecated under the
API's policy until ``LEGACY_HEADERS.sunset_on``; every delivery says so in its ``Deprecation`` and ``Sunset``
headers. Either way the timestamp is inside the signature, so a receiver that refuses old timestamps and
delivery ids it has seen cannot be sent a captured request again later.
"""

from __future__ import annotations

import base64
import binascii
import calendar
import hashlib
import hmac
import secrets
import time
from datetime import date

from django.conf import settings
from django.utils.http import http_date

from turnbased.kit.api.deprecation import Deprecated

HEADER_EVENT = "X-Turnbased-Event"
HEADER_DELIVERY = "X-Turnbased-Delivery"
HEADER_TIMESTAMP = "X-Turnbased-Timestamp"
HEADER_SIGNATURE = "X-Turnbased-Signature"
# Standard Webhooks' headers.
STANDARD_ID = "webhook-id"
STANDARD_TIMESTAMP = "webhook-timestamp"
STANDARD_SIGNATURE = "webhook-signature"
SECRET_PREFIX = "whsec_"
LEGACY_HEADERS = Deprecated(
    what="the webhook headers X-Turnbased-Timestamp and X-Turnbased-Signature",
    instead="webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)",
    deprecated_on=date(2026, 12, 2), sunset_on=date(2027, 6, 1), notice="/api/docs/#/webhooks",
)
# How far from its own clock a receiver accepts a timestamp (docs/api-guide.md's example uses the same).
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    """Return a new random secret (256 bits): ``whsec_`` and their base64, as Standard Webhooks writes a secret."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def standard_key(secret: str) -> bytes:
    """Return the key Standard Webhooks signs with: the bytes the base64 after ``whsec_`` holds.

    A secret made before (``whsec_`` and URL-safe base64 without padding, which those libraries cannot read)
    signs with its own text's bytes: its receiver rotates it to check with a library.
    """
    try:
        return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError):
        return secret.encode()


def standard_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """Return the ``webhook-signature`` value: ``v1,`` and the base64 HMAC-SHA256 of ``<id>.<timestamp>.<body>``."""
    digest = hmac.new(standard_key(secret), f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """Return the ``X-Turnbased-Signature`` value: ``sha256=`` and the hex HMAC-SHA256 of ``<timestamp>.<body>``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def headers(*, secret: str, body: bytes, kind: str, delivery_id: int, timestamp: int | None = None) -> dict[str, str]:
    """Return the headers of one attempt: what it is, which delivery, when, and the signature of both."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {
        HEADER_EVENT: kind,
        HEADER_DELIVERY: str(delivery_id),
        STANDARD_ID: str(delivery_id),
        STANDARD_TIMESTAMP: str(timestamp),
        STANDARD_SIGNATURE: standard_signature(secret, str(delivery_id), timestamp, body),
        HEADER_TIMESTAMP: str(timestamp),
        HEADER_SIGNATURE: signature(secret, timestamp, body),
        # The two headers above are on their way out (the API's deprecation policy).
        "Deprecation": f"@{calendar.timegm(LEGACY_HEADERS.deprecated_on.timetuple())}",
        "Sunset": http_date(calendar.timegm(LEGACY_HEADERS.sunset_on.timetuple())),
        "Link": f'<{settings.SITE_URL.rstrip("/")}{LEGACY_HEADERS.notice}>; rel="deprecation"; type="text/html"',
    }


def verify(secret: str, body: bytes, timestamp: str, signature_header: str, *, now: float | None = None,
           tolerance: int = TOLERANCE_SECONDS) -> bool:
    """Tell whether a received request is signed with ``secret`` and recent: the receiver's side.

    A receiver also keeps the delivery ids it has handled (for longer than ``tolerance``) and drops
    a repeated one: that is a retry of something it already has, or a replay.
    """
    if not (timestamp.isascii() and timestamp.isdigit()):
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, int(timestamp), body).encode(), signature_header.encode())
