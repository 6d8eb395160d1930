"""The site's VAPID key pair (RFC 8292): the push services know our pushes by its signature.

Read by the settings at start-up, so nothing here touches models or settings at import. The private
key is written as the push world writes it: base64url of its 32 raw bytes (DER is read too).

    python -m turnbased.notifications.vapid   # prints a new private key, for VAPID_PRIVATE_KEY
"""

from __future__ import annotations

import base64
import functools

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid, _check_sub

HOWTO = "Make one with: python -m turnbased.notifications.vapid"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def generate_private_key() -> str:
    """Return a new P-256 private key as base64url of its 32 raw bytes."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@functools.cache
def signer(private_key: str) -> Vapid:
    """The key, ready to sign (one parse per process and key)."""
    return Vapid.from_string(private_key=private_key)


def check_private_key(private_key: str) -> str:
    """Return the key, stripped, once it reads as a P-256 private key; refuse to start otherwise."""
    private_key = private_key.strip()
    try:
        key = signer(private_key).private_key
    except Exception as error:  # py_vapid and cryptography raise many kinds for a bad key
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY cannot be read as a P-256 private key ({error}). "
                                   f"{HOWTO}") from None
    if not isinstance(key.curve, ec.SECP256R1):
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not on the P-256 curve. {HOWTO}")
    return private_key


def check_subject(subject: str) -> str:
    """Return the VAPID subject once the push services will take it (``mailto:`` an address, or an https URL)."""
    if not _check_sub(subject):
        raise ImproperlyConfigured(f"VAPID_SUBJECT={subject!r}: write mailto:someone@your.domain or an https:// URL "
                                   "where the push services can reach whoever runs the site.")
    return subject


def public_key_of(private_key: str) -> str:
    """Return the public key as the Push API's applicationServerKey takes it: the uncompressed point, base64url."""
    point = signer(private_key).public_key.public_bytes(serialization.Encoding.X962,
                                                        serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


if __name__ == "__main__":
    print(generate_private_key())
