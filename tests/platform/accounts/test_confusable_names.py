"""Look-alike usernames are refused on every sign-up door, and the database refuses a race."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD
from turnbased.accounts.confusables import mixes_scripts, skeletons
from turnbased.accounts.models import UsernameSkeleton
from turnbased.accounts.services.accounts import AccountError, account_create

pytestmark = pytest.mark.django_db
User = get_user_model()

CYRILLIC_A = "\u0430"
CYRILLIC_CAPE = "\u0441\u0430\u0440\u0435"  # all four letters Cyrillic: one script, and it reads "cape"


@pytest.mark.parametrize("name, look_alike", [
    ("alice", f"{CYRILLIC_A}lice"),      # Cyrillic а
    ("alice", "aIice"),                  # capital I for l
    ("alice", "ALICE"),                  # case
    ("alice", "\uff41lice"),             # full-width a
    ("alice", "\U0001d41alice"),         # mathematical bold a
    ("mike", "rnike"),                   # rn for m
    ("bob", "b0b"),                      # zero for o
    ("player1", "playerl"),              # one for l
    ("jürgen", "ju\u0308rgen"),          # composed and decomposed ü
    ("sec_p1", "sec_p1."),               # issue 27: trailing punctuation
    ("sec_p1", "_sec_p1"),               # leading
    ("sec_p1", "sec-p1"),                # another separator
    ("sec_p1", "sec__p1"),               # more of it
])
def test_look_alikes_share_a_skeleton(name, look_alike):
    assert skeletons(name) & skeletons(look_alike)


@pytest.mark.parametrize("name, other", [("alice", "alicia"), ("player1", "player2"), ("bob", "rob"),
                                         ("player10", "player11"), ("sec_p1", "secp1"), ("sec_p1", "sec_p2")])
def test_different_names_do_not(name, other):
    assert not skeletons(name) & skeletons(other)


@pytest.mark.parametrize("name, mixed", [
    (f"p{CYRILLIC_A}ypal", True), ("paypal", False), ("боб", False), ("山田さくら", False), ("ann_2024", False),
    ("yamada山田", False), ("Ωmega", True),
])
def test_mixed_scripts(name, mixed):
    assert mixes_scripts(name) is mixed


def test_web_sign_up_refuses_a_look_alike_of_a_taken_name(make_user):
    make_user("cape")
    response = Client().post("/accounts/signup/", {
        "username": CYRILLIC_CAPE, "email": "mallory@example.com", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 200 and "looks too much like another player" in response.content.decode()
    assert not User.objects.filter(email="mallory@example.com").exists()


@pytest.mark.parametrize("username", [f"{CYRILLIC_A}lice", CYRILLIC_CAPE, "aIice", "ALICE", "\uff41lice", "alice.",
                                      "cape_"])
def test_api_sign_up_refuses_look_alikes(make_user, username):
    make_user("alice")
    make_user("cape")
    response = APIClient().post("/api/accounts/", {"username": username, "email": "mallory@example.com",
                                                   "password": PASSWORD}, format="json")
    assert response.status_code == 422 and "username" in response.json()["errors"]  # a string the schema allows
    assert User.objects.count() == 2


def test_sign_up_refuses_a_mixed_script_name():
    response = APIClient().post("/api/accounts/", {"username": f"p{CYRILLIC_A}ypal", "email": "m@example.com",
                                                   "password": PASSWORD}, format="json")
    assert response.status_code == 422
    assert "mixes Cyrillic and Latin" in response.json()["errors"]["username"][0]


def test_a_look_alike_of_a_reserved_name_is_refused():
    with pytest.raises(AccountError) as refused:
        account_create(username=f"{CYRILLIC_A}dmin", email="x@example.com", password=PASSWORD)
    assert "username" in refused.value.errors


def test_names_in_other_scripts_are_welcome():
    for name in ("боб", "山田さくら", "Jürgen"):
        account_create(username=name, email=f"user{ord(name[0])}@example.com", password=PASSWORD)
    assert User.objects.count() == 3


def test_the_database_refuses_a_look_alike_that_slipped_past_the_check(make_user):
    """Two sign-ups racing both pass the check; the unique skeleton stops the second."""
    make_user("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username=f"{CYRILLIC_A}lice", email="race@example.com", password=PASSWORD)
    assert set(UsernameSkeleton.objects.values_list("skeleton", flat=True)) == {"alice"}


def test_a_race_lost_at_sign_up_is_a_form_error_and_creates_nothing(make_user, monkeypatch):
    make_user("cape")
    monkeypatch.setattr("turnbased.accounts.adapter.UsernameSkeleton.objects.filter",
                        lambda **kwargs: UsernameSkeleton.objects.none())  # as if checked before alice existed
    page = Client().post("/accounts/signup/", {
        "username": CYRILLIC_CAPE, "email": "m@example.com", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert page.status_code == 200 and "looks too much like another player" in page.content.decode()
    api = APIClient().post("/api/accounts/", {"username": CYRILLIC_CAPE, "email": "m@example.com",
                                              "password": PASSWORD}, format="json")
    assert api.status_code == 422 and "username" in api.json()["errors"]
    assert User.objects.count() == 1


def test_a_look_alike_is_reported_with_the_forms_other_errors(make_user):
    """The check runs with the form's (so the person sees every problem at once), not only at saving."""
    make_user("alice")
    response = APIClient().post("/api/accounts/", {"username": f"{CYRILLIC_A}lice", "email": "not an address",
                                                   "password": "123"}, format="json")
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"username", "email", "password"}
    assert not User.objects.filter(email="not an address").exists()
