"""The browsers each account logged in from, by the SHA-256 of their device cookie (never the cookie)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_signup'),
    ]

    operations = [
        migrations.CreateModel(
            name='UserDevice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('cookie_hash', models.CharField(max_length=64, verbose_name='device cookie hash')),
                ('first_seen', models.DateTimeField(default=django.utils.timezone.now, verbose_name='first log-in')),
                ('last_seen', models.DateTimeField(default=django.utils.timezone.now, verbose_name='last log-in')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='devices', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'browser',
                'verbose_name_plural': 'browsers',
                'indexes': [models.Index(fields=['cookie_hash'], name='userdevice_cookie_hash')],
                'constraints': [models.UniqueConstraint(fields=('user', 'cookie_hash'), name='userdevice_one_row_per_browser')],
            },
        ),
    ]
