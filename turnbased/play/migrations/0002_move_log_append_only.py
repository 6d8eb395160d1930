"""Make the move log append-only in the database itself, whatever code runs against it."""

from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION play_move_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only: % on play_move is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER play_move_append_only
    BEFORE UPDATE OR DELETE ON play_move
    FOR EACH ROW EXECUTE FUNCTION play_move_append_only();
"""

ALLOW = """
DROP TRIGGER IF EXISTS play_move_append_only ON play_move;
DROP FUNCTION IF EXISTS play_move_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("play", "0001_initial")]

    operations = [migrations.RunSQL(FORBID, ALLOW)]
