"""The outbox of emails: one row per email, with its Message-ID fixed before the first attempt."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('mail', '0003_presence_in_the_cache'),
        ('notifications', '0006_both_invited_and_rematch_kinds'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='OutgoingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('message_id', models.CharField(max_length=255, unique=True)),
                ('kind', models.CharField(choices=[('notification', 'notification'), ('answer', 'answer to a reply'), ('digest', 'daily digest')], max_length=20)),
                ('from_email', models.CharField(max_length=254)),
                ('to', models.CharField(max_length=254)),
                ('reply_to', models.CharField(blank=True, max_length=254)),
                ('subject', models.CharField(max_length=255)),
                ('text', models.TextField()),
                ('html', models.TextField(blank=True)),
                ('headers', models.JSONField(default=dict)),
                ('picture', models.BinaryField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('claimed_until', models.DateTimeField(blank=True, null=True)),
                ('attempts', models.PositiveSmallIntegerField(default=0)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('last_error', models.TextField(blank=True)),
                ('given_up_at', models.DateTimeField(blank=True, null=True)),
                ('inbound', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='answer', to='mail.inboundemail')),
                ('notification', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='email', to='notifications.notification')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='outgoing_emails', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['created_at', 'pk'],
                'indexes': [models.Index(condition=models.Q(('given_up_at', None), ('sent_at', None)), fields=['created_at'], name='outgoing_email_pending')],
            },
        ),
    ]
