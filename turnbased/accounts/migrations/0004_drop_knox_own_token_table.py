"""Drop knox's own token table: ApiToken replaces it (KNOX_TOKEN_MODEL), but knox's migrations create it anyway.

Left in place it would stay empty and unused, yet its foreign key to the users, on a table
Django no longer knows, stops a flush (``manage.py flush``, transactional tests) from emptying
the users. A knox release that migrates its own model again will fail here, loudly: review the
swap then.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_existing_accounts"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS knox_authtoken", reverse_sql=migrations.RunSQL.noop),
    ]
