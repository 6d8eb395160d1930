"""The events table, and the trigger that wakes the stream processes when rows are written.

The trigger runs once per INSERT statement and sends one NOTIFY on the channel ``turnbased_events``
(``turnbased.events.models.NOTIFY_CHANNEL``) naming the users written to, comma-separated, or ``*``
when the list would not fit a notification's 8000 bytes. PostgreSQL delivers it when the transaction
commits, never when it rolls back, and folds identical ones of one transaction into one.
"""

import django.contrib.postgres.indexes
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

NOTIFY = """
CREATE FUNCTION events_event_notify() RETURNS trigger AS $$
DECLARE
    users text;
BEGIN
    SELECT string_agg(DISTINCT user_id::text, ',') INTO users FROM written;
    IF users IS NOT NULL THEN
        PERFORM pg_notify('turnbased_events', CASE WHEN length(users) > 7900 THEN '*' ELSE users END);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER events_event_notify
    AFTER INSERT ON events_event
    REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION events_event_notify();
"""

FORGET = """
DROP TRIGGER IF EXISTS events_event_notify ON events_event;
DROP FUNCTION IF EXISTS events_event_notify();
"""


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('play', '0006_game_imported_from'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Event',
            fields=[
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('kind', models.CharField(choices=[('game_started', 'a game I sit at started'), ('your_turn', 'it became my turn'), ('move_played', "someone else's move, as I may see it"), ('message_posted', 'someone said something at my table'), ('game_finished', 'a game I sit at ended'), ('deadline_near', 'my deadline is near')], max_length=20)),
                ('seq', models.PositiveIntegerField(blank=True, help_text="The game's seq the event is about.", null=True)),
                ('payload', models.JSONField(default=dict)),
                ('created_at', models.DateTimeField()),
                ('game', models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='play.game')),
                ('user', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', 'id'], name='event_user_id'), django.contrib.postgres.indexes.BrinIndex(fields=['created_at'], name='event_created_brin')],
            },
        ),
        migrations.RunSQL(NOTIFY, FORGET),
    ]
