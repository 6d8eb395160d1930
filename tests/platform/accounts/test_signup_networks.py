"""The network an account signed up from, kept as a keyed digest for the ratings (issue 42: related accounts)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD
from turnbased.accounts.models import Profile, signup_network_digest

pytestmark = pytest.mark.django_db
User = get_user_model()


def web_signup(username: str, address: str, **headers) -> None:
    answer = Client(REMOTE_ADDR=address, **headers).post("/accounts/signup/", {
        "username": username, "email": f"{username}@example.com", "password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 302, answer.content[:500]


def api_signup(username: str, address: str, **headers) -> None:
    answer = APIClient(REMOTE_ADDR=address, **headers).post(
        "/api/accounts/", {"username": username, "email": f"{username}@example.com", "password": PASSWORD},
        format="json")
    assert answer.status_code == 201, answer.content[:500]


def network_of(username: str) -> str:
    """Return the network kept for the account ("" when none is: an account may have no profile yet)."""
    assert User.objects.filter(username=username).exists()
    return Profile.objects.filter(user__username=username).values_list("signup_network", flat=True).first() or ""


def test_sign_ups_from_one_address_through_the_web_and_the_api_keep_the_same_digest_and_not_the_address():
    web_signup("ann", "81.2.69.142")
    api_signup("ben", "81.2.69.142")
    api_signup("cid", "81.2.69.143")
    assert network_of("ann") == network_of("ben") != network_of("cid")
    assert len(network_of("ann")) == 64 and "81.2.69" not in network_of("ann")


def test_an_ipv6_sign_up_counts_by_its_64_network():
    api_signup("ann", "2a00:1450:4001:81c::1")
    web_signup("ben", "2a00:1450:4001:81c:beef::2")
    api_signup("cid", "2a00:1450:4001:81d::1")
    assert network_of("ann") == network_of("ben") != network_of("cid")
    assert signup_network_digest("::ffff:81.2.69.142") == signup_network_digest("81.2.69.142")


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "192.168.0.7", "172.16.5.4", "::1", "fd00::5",
                                     "fe80::1", "203.0.113.9", "", "not an address"])
def test_an_address_that_says_nothing_of_who_signed_up_keeps_no_network(address):
    assert signup_network_digest(address) == ""


def test_a_loopback_sign_up_and_an_account_made_by_the_services_keep_no_network(make_user):
    api_signup("ann", "127.0.0.1")
    make_user("ben")
    assert network_of("ann") == network_of("ben") == ""


def test_behind_a_proxy_the_address_it_appends_is_kept_and_one_a_client_forges_is_not(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    api_signup("ann", "10.0.0.2", HTTP_X_FORWARDED_FOR="81.2.69.142")
    api_signup("ben", "10.0.0.2", HTTP_X_FORWARDED_FOR="1.1.1.1, 81.2.69.142")  # the client wrote the first
    assert network_of("ann") == network_of("ben") == signup_network_digest("81.2.69.142")
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    api_signup("cid", "81.2.69.150", HTTP_X_FORWARDED_FOR="81.2.69.142")  # no proxy trusted: the header is not
    assert network_of("cid") == signup_network_digest("81.2.69.150")
