"""Profiles remember whether the person chose their time zone; one set to anything but UTC was chosen."""

import turnbased.accounts.models
from django.db import migrations, models


def zones_set_were_chosen(apps, schema_editor):
    apps.get_model("accounts", "Profile").objects.exclude(time_zone="UTC").update(time_zone_chosen=True)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_confirm_moves'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='time_zone_chosen',
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name='profile',
            name='time_zone',
            field=models.CharField(default='UTC', help_text='Pages and emails show times in this zone; weekends and dates are counted in it.', max_length=64, validators=[turnbased.accounts.models.validate_time_zone]),
        ),
        migrations.RunPython(zones_set_were_chosen, migrations.RunPython.noop),
    ]
