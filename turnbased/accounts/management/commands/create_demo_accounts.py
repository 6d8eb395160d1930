"""Create (once) the demo accounts a new user can log in with, verified, and print them."""

import json
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand

from turnbased.accounts.services.accounts import account_create, email_mark_verified

DEMO_USERS = ("alice", "bob")


def _new_password(username: str) -> str:
    """A password the site's validators take for this account. Hexadecimal digits share few letters with the
    account's name and address (a random URL-safe one sometimes held every letter of "example", and the similarity
    check refused it); drawn again in the rare case a validator still refuses one (all digits, say)."""
    person = get_user_model()(username=username, email=f"{username}@example.com")
    for _ in range(20):
        password = secrets.token_hex(12)
        try:
            validate_password(password, user=person)
        except ValidationError:
            continue
        return password
    raise RuntimeError("no password drawn in twenty was taken by the site's password validators")


class Command(BaseCommand):
    help = "Create the demo accounts alice and bob (passwords kept in .data) and print their passwords."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print the accounts as JSON.")

    def handle(self, *args, **options):
        from django.conf import settings

        store = settings.DATA_DIR / "demo-accounts.json"
        store.parent.mkdir(parents=True, exist_ok=True)
        known = json.loads(store.read_text()) if store.exists() else {}
        User = get_user_model()
        accounts = []
        for username in DEMO_USERS:
            password = known.get(username) or _new_password(username)
            user = User.objects.filter(username=username).first()
            if user is None:
                user = account_create(username=username, email=f"{username}@example.com", password=password,
                                      email_verified=True)
            elif not user.check_password(password):
                user.set_password(password)
                user.save(update_fields=["password"])
            email_mark_verified(user=user)  # their address is the local mailbox's
            known[username] = password
            accounts.append({"username": username, "password": password, "email": user.email})
        store.write_text(json.dumps(known))
        if options["json"]:
            self.stdout.write(json.dumps(accounts))
        else:
            for account in accounts:
                self.stdout.write(f"{account['username']}: {account['password']}")
