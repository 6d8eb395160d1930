"""Each event that is written writes its webhook deliveries, in the same statement.

A statement trigger on the events table inserts one pending delivery per event and
per active hook of the event's user that chose the event's kind. So deliveries commit
exactly with their events (and vanish with them on a rollback), the events app needs
no knowledge of webhooks, and a user without hooks costs one probe of the
``(owner, id)`` index per statement. ``ON CONFLICT`` leaves a delivery already written
for that hook and event (the unique ``webhook_delivery_once_per_event``).
"""

from django.db import migrations

DELIVER = """
CREATE FUNCTION webhooks_deliveries_for_events() RETURNS trigger AS $$
BEGIN
    INSERT INTO webhooks_webhookdelivery
        (hook_id, event_id, kind, state, attempts, next_attempt_at, created_at, response_excerpt, error)
    SELECT hook.id, written.id, written.kind, 'pending', 0, now(), now(), '', ''
    FROM written JOIN webhooks_webhook AS hook ON hook.owner_id = written.user_id
    WHERE hook.active AND written.kind = ANY(hook.kinds)
    ORDER BY written.id, hook.id
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhooks_deliveries_for_events
    AFTER INSERT ON events_event
    REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION webhooks_deliveries_for_events();
"""

FORGET = """
DROP TRIGGER IF EXISTS webhooks_deliveries_for_events ON events_event;
DROP FUNCTION IF EXISTS webhooks_deliveries_for_events();
"""


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0001_initial"),
        ("webhooks", "0001_initial"),
    ]

    operations = [migrations.RunSQL(DELIVER, FORGET)]
