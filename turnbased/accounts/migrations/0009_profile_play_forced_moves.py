"""Profiles say whether a seat's only legal move is played for it at once (no choice: on for bot accounts, off for
people; existing bot accounts get it on without a row changed)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0008_profile_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='play_forced_moves',
            field=models.BooleanField(blank=True, default=None, help_text='When you have exactly one legal move, it is played for you at once, and your history says so. The others see it as any move of yours, though they may notice how soon it came.', null=True, verbose_name='Play my forced moves'),
        ),
    ]
