"""Room tiers keep linked accounts apart, on by default (existing tiers too)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0002_tier_rule_constraints'),
    ]

    operations = [
        migrations.AddField(
            model_name='roomtier',
            name='separate_linked',
            field=models.BooleanField(default=True, help_text='Never seat at one table two accounts that signed up from one address or logged in from one browser.', verbose_name='keep linked accounts apart'),
        ),
    ]
