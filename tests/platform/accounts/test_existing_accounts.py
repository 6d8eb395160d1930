"""Accounts made before allauth: the data migration records their addresses and look-alike keys."""

from __future__ import annotations

import importlib

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from tests.platform.accounts.conftest import link_in, sent_to
from tests.platform.conftest import PASSWORD
from turnbased.accounts.models import UsernameSkeleton
from turnbased.accounts.selectors import verified_email
from turnbased.play import services
from turnbased.play.models import MoveSource

pytestmark = pytest.mark.django_db
User = get_user_model()
migration = importlib.import_module("turnbased.accounts.migrations.0003_existing_accounts")


def run(step) -> None:
    with connection.schema_editor() as schema_editor:
        step(apps, schema_editor)


def as_before_allauth(*users) -> None:
    EmailAddress.objects.filter(user__in=users).delete()
    UsernameSkeleton.objects.filter(user__in=users).delete()


def test_an_address_that_already_played_by_email_counts_as_verified(started_game, alice, bob):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid",
                         source=MoveSource.EMAIL)
    User.objects.filter(pk=bob.pk).update(email="Bob@Example.com")
    bob.refresh_from_db()
    as_before_allauth(alice, bob)
    run(migration.email_addresses)
    assert verified_email(alice) == "alice@example.com"  # only that mailbox got the signed reply address
    assert verified_email(bob) is None
    assert EmailAddress.objects.get(user=bob).email == "bob@example.com"


def test_an_old_account_confirms_its_address_at_the_next_log_in(alice, mailoutbox):
    as_before_allauth(alice)
    run(migration.email_addresses)
    response = Client().post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.url == "/accounts/confirm-email/"
    Client().post(link_in(sent_to(mailoutbox, "alice@example.com")[-1], "/accounts/confirm-email/"))
    assert verified_email(alice) == "alice@example.com"


def test_old_names_get_their_look_alike_keys_and_the_older_keeps_a_shared_one(alice):
    twin = User.objects.create_user(username="twin", email="twin@example.com", password=PASSWORD)
    later = User.objects.create_user(username="zed", email="zed@example.com", password=PASSWORD)
    as_before_allauth(alice, twin, later)
    User.objects.filter(pk=later.pk).update(username="aIice")  # taken before look-alikes were refused
    run(migration.username_skeletons)
    assert set(UsernameSkeleton.objects.filter(user=alice).values_list("skeleton", flat=True)) == {"alice"}
    assert set(UsernameSkeleton.objects.filter(user=later).values_list("skeleton", flat=True)) == {"aiice"}
    assert UsernameSkeleton.objects.filter(user=twin).exists()
