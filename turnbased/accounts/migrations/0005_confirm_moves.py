"""Profiles say whether the boards ask before sending a move (on unless the player turns it off)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_drop_knox_own_token_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='confirm_moves',
            field=models.BooleanField(default=True, help_text='Ask before a board sends a move: pick it, read what it will do, then confirm or cancel. Untick to play on one click.', verbose_name='Confirm moves on the board'),
        ),
    ]
