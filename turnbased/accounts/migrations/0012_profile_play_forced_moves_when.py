"""The forced-moves setting's help says when the move comes: when its player would have played it (issue 42)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0011_profile_signup_network"),
    ]

    operations = [
        migrations.AlterField(
            model_name="profile",
            name="play_forced_moves",
            field=models.BooleanField(blank=True, default=None, help_text="When you have exactly one legal move, it is played for you when you would have played it yourself (after a time like your own, never while you are away), and your history says so. To the others it is any move of yours.", null=True, verbose_name="Play my forced moves"),
        ),
    ]
