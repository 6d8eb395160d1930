"""The signature of a webhook delivery, and the check a receiver makes (the README shows the same check).

The signed text is ``<timestamp>.<body>``: the timestamp (Unix seconds, also sent
as ``X-Turnbased-Timestamp``) is inside the signature, so a receiver that refuses
old timestamps and delivery ids it has seen cannot be sent a captured request
again later.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

HEADER_EVENT = "X-Turnbased-Event"
HEADER_DELIVERY = "X-Turnbased-Delivery"
HEADER_TIMESTAMP = "X-Turnbased-Timestamp"
HEADER_SIGNATURE = "X-Turnbased-Signature"
SECRET_PREFIX = "whsec_"
# How far from its own clock a receiver accepts a timestamp (the README's example uses the same).
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    """Return a new random secret (256 bits), recognisable by its prefix."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


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
        HEADER_TIMESTAMP: str(timestamp),
        HEADER_SIGNATURE: signature(secret, timestamp, body),
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
