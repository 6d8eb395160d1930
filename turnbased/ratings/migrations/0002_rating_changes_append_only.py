"""Make the record of rating changes append-only in the database itself, as the move log is."""

from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION ratings_change_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'rating changes are append-only: % on ratings_ratingchange is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER ratings_change_append_only
    BEFORE UPDATE OR DELETE ON ratings_ratingchange
    FOR EACH ROW EXECUTE FUNCTION ratings_change_append_only();
"""

ALLOW = """
DROP TRIGGER IF EXISTS ratings_change_append_only ON ratings_ratingchange;
DROP FUNCTION IF EXISTS ratings_change_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunSQL(FORBID, ALLOW)]
