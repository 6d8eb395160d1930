"""Make table talk append-only in the database itself, as the move log is: a message said stays said."""

from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION chat_message_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'chat messages are append-only: % on chat_message is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER chat_message_append_only
    BEFORE UPDATE OR DELETE ON chat_message
    FOR EACH ROW EXECUTE FUNCTION chat_message_append_only();
"""

ALLOW = """
DROP TRIGGER IF EXISTS chat_message_append_only ON chat_message;
DROP FUNCTION IF EXISTS chat_message_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]

    operations = [migrations.RunSQL(FORBID, ALLOW)]
