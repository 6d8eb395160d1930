"""Presence on game pages lives in the shared cache now (``turnbased.mail.delivery.record_visit``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("mail", "0002_inbound_drop")]

    operations = [migrations.DeleteModel(name="GameVisit")]
