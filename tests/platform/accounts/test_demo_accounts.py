"""The demo accounts of `make run` log in at once: their addresses are verified."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from turnbased.accounts.selectors import verified_email

pytestmark = pytest.mark.django_db


def create_demo_accounts() -> list[dict]:
    out = io.StringIO()
    call_command("create_demo_accounts", "--json", stdout=out)
    return json.loads(out.getvalue())


def test_demo_accounts_are_verified_and_log_in_through_the_login_page(settings, tmp_path, django_user_model):
    settings.DATA_DIR = tmp_path
    accounts = create_demo_accounts()
    assert [account["username"] for account in accounts] == ["alice", "bob"]
    assert create_demo_accounts() == accounts  # a second run keeps them and their passwords
    for account in accounts:
        assert verified_email(django_user_model.objects.get(username=account["username"])) == account["email"]
        response = Client().post("/accounts/login/", {"login": account["username"], "password": account["password"]})
        assert response.status_code == 302 and response.url == "/"
