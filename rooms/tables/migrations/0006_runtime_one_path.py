from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_hand_hot_updates")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="present_until",
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name="present until"),
        ),
        migrations.AddField(
            model_name="hand",
            name="clock",
            field=models.JSONField(blank=True, default=dict, verbose_name="clock"),
        ),
    ]
