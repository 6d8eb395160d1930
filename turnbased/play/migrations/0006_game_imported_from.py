from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0005_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="imported_from",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
