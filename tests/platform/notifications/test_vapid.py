"""The site's VAPID key: read and checked at start-up, made once into the data folder under `make run`."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured

from turnbased.local import services as local  # make run's keys are kept by the embedded services' module
from turnbased.notifications.vapid import (
    b64url,
    check_private_key,
    check_subject,
    generate_private_key,
    public_key_of,
)


def test_a_generated_key_is_read_and_gives_the_public_key_browsers_subscribe_with():
    key = generate_private_key()
    assert check_private_key(f"  {key}\n") == key
    public = base64.urlsafe_b64decode(public_key_of(key) + "==")
    assert len(public) == 65 and public[0] == 4  # an uncompressed P-256 point, as applicationServerKey takes


def test_a_der_key_is_read_too():
    key = ec.generate_private_key(ec.SECP256R1())
    der = b64url(key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))
    assert check_private_key(der) == der


@pytest.mark.parametrize("key", ["change-me", "AAAA", b64url(b"\x00" * 32)])
def test_a_key_that_is_not_one_stops_the_start(key):
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY"):
        check_private_key(key)


def test_a_key_on_another_curve_stops_the_start():
    other = ec.generate_private_key(ec.SECP384R1())
    der = b64url(other.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY"):
        check_private_key(der)


@pytest.mark.parametrize("subject", ["games@example.org", "http://example.org", ""])
def test_a_subject_the_push_services_refuse_stops_the_start(subject):
    with pytest.raises(ImproperlyConfigured, match="VAPID_SUBJECT"):
        check_subject(subject)


def test_make_run_makes_the_key_once_and_keeps_it(tmp_path, monkeypatch):
    monkeypatch.setattr(local, "DATA_DIR", tmp_path)
    first = local.persistent_vapid_key()
    assert check_private_key(first) == first
    assert local.persistent_vapid_key() == first
    assert (tmp_path / "vapid_private_key").read_text().strip() == first
