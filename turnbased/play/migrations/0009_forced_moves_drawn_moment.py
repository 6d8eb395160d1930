"""A forced move waits for a moment drawn like its player's own time to move (issue 42): the moment, and when its
player comes back from the absence it was put off past."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0008_forced_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="forcedmovedue",
            name="due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="forcedmovedue",
            name="returns_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
