"""Create (once) the demo accounts a new user can log in with, verified, and print them."""

import json
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from turnbased.accounts.services.accounts import account_create, email_mark_verified

DEMO_USERS = ("alice", "bob")


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
            password = known.get(username) or secrets.token_urlsafe(9)
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
