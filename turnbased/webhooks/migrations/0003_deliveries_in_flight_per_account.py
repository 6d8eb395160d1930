"""An account's deliveries go one at a time (issue 42): what is being sent is marked, and its waiting ones are found
through its hooks.

``sending_since`` marks the attempt under way (null when none is), so an account's deliveries being sent count
against ``WEBHOOKS_IN_FLIGHT_PER_OWNER`` with those queued. The partial index finds an account's waiting
deliveries, oldest first, when one of its attempts is settled and its next follows at once. A nullable column
and an index of the pending rows only, built without holding up writes (``CONCURRENTLY``: every move may write
deliveries), so neither rewrites nor locks the log however long it is.
"""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run in a transaction

    dependencies = [
        ("webhooks", "0002_deliveries_written_with_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookdelivery",
            name="sending_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        AddIndexConcurrently(
            model_name="webhookdelivery",
            index=models.Index(condition=models.Q(("state", "pending")), fields=["hook", "id"],
                               name="webhook_delivery_pending"),
        ),
    ]
