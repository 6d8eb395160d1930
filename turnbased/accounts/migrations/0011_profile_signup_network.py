"""Profiles keep a digest of the network the account signed up from, for the ratings (issue 42); accounts made before
it have none (unknown: no account is related to them by it)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0010_username_keys_fold_punctuation'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='signup_network',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
    ]
