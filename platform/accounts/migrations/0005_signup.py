"""Sign-ups: the address each counts against (per-address limit) and the grant paid in parts.

Accounts made before this migration have no row: they received their whole
grant at sign-up, and ``grants.grant_progress`` pays them nothing more.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_nickname_key'),
    ]

    operations = [
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='signup', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='player')),
                ('address', models.GenericIPAddressField(blank=True, null=True, verbose_name='address')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='signed up')),
                ('grant_total', models.PositiveBigIntegerField(verbose_name='grant in all')),
                ('grant_first', models.PositiveBigIntegerField(verbose_name='paid at sign-up')),
                ('grant_parts', models.PositiveSmallIntegerField(verbose_name='parts paid by play')),
                ('grant_part_hands', models.PositiveIntegerField(verbose_name='hands per part')),
                ('parts_paid', models.PositiveSmallIntegerField(default=0, verbose_name='parts paid')),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
                'indexes': [models.Index(fields=['address', 'created_at'], name='signup_address_time')],
                'constraints': [models.CheckConstraint(condition=models.Q(('parts_paid__lte', models.F('grant_parts'))), name='signup_parts_within_grant'), models.CheckConstraint(condition=models.Q(('grant_part_hands__gte', 1)), name='signup_part_hands_positive')],
            },
        ),
    ]
