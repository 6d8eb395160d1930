"""Bring accounts made before allauth and named tokens under the new rules.

- Each username gets its look-alike keys (a key two old names share stays with the older user).
- Each address gets allauth's record, primary; it counts as verified when a move was already
  made by replying to a turn email from it (only that mailbox received the signed reply address);
  the others are verified at the owner's next log in.
- Each old API key (DRF's authtoken table, plain text) becomes a named token stored as knox's
  hash, so today's clients keep working; the plain keys are then deleted.
"""

import hashlib

from django.db import migrations

from turnbased.accounts.confusables import skeletons

LEGACY_TOKEN_TABLE = "authtoken_token"
LEGACY_TOKEN_NAME = "API token (from before named tokens)"
KNOX_TOKEN_KEY_LENGTH = 15


def legacy_token_digest(key: str) -> str:
    """Hash a key as knox does (SHA-512 of its text, in hex)."""
    return hashlib.sha512(key.encode("utf-8")).hexdigest()


def username_skeletons(apps, schema_editor):
    User = apps.get_model("auth", "User")
    UsernameSkeleton = apps.get_model("accounts", "UsernameSkeleton")
    taken: set[str] = set(UsernameSkeleton.objects.values_list("skeleton", flat=True))
    for user in User.objects.order_by("pk").only("pk", "username"):
        keys = skeletons(user.username) - taken
        UsernameSkeleton.objects.bulk_create([UsernameSkeleton(user_id=user.pk, skeleton=key) for key in keys])
        taken |= keys


def email_addresses(apps, schema_editor):
    User = apps.get_model("auth", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    Move = apps.get_model("play", "Move")
    proven = set(Move.objects.filter(source="email").values_list("user_id", flat=True))
    recorded = set(EmailAddress.objects.values_list("user_id", flat=True))
    verified: set[str] = set(EmailAddress.objects.filter(verified=True).values_list("email", flat=True))
    for user in User.objects.exclude(email="").exclude(pk__in=recorded).order_by("pk"):
        email = user.email.lower()
        is_verified = user.pk in proven and email not in verified
        EmailAddress.objects.create(user_id=user.pk, email=email, primary=True, verified=is_verified)
        if is_verified:
            verified.add(email)


def legacy_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if LEGACY_TOKEN_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {LEGACY_TOKEN_TABLE}")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token = ApiToken(digest=legacy_token_digest(key), token_key=key[:KNOX_TOKEN_KEY_LENGTH], user_id=user_id,
                         name=LEGACY_TOKEN_NAME, expiry=None)
        token.save()
        ApiToken.objects.filter(pk=token.pk).update(created=created)  # auto_now_add ignores the value given
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {LEGACY_TOKEN_TABLE}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_api_tokens_and_username_skeletons"),
        ("account", "0009_emailaddress_unique_primary_email"),
        ("play", "0003_bot_seats"),
    ]

    operations = [
        migrations.RunPython(username_skeletons, migrations.RunPython.noop),
        migrations.RunPython(email_addresses, migrations.RunPython.noop),
        migrations.RunPython(legacy_tokens, migrations.RunPython.noop),
    ]
