"""The usernames' look-alike keys now fold punctuation (issue 27: ``sec_p1.`` beside ``sec_p1``): every key is
written again. Where two existing names now share a key, the older account keeps it; both names stay."""

from django.db import migrations

from turnbased.accounts.confusables import skeletons


def rewrite_keys(apps, schema_editor):
    User = apps.get_model("auth", "User")
    UsernameSkeleton = apps.get_model("accounts", "UsernameSkeleton")
    UsernameSkeleton.objects.all().delete()
    taken: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        keys = skeletons(user.username) - taken
        UsernameSkeleton.objects.bulk_create([UsernameSkeleton(user_id=user.pk, skeleton=key) for key in keys])
        taken |= keys


class Migration(migrations.Migration):
    dependencies = [("accounts", "0009_profile_play_forced_moves")]

    operations = [migrations.RunPython(rewrite_keys, migrations.RunPython.noop)]
