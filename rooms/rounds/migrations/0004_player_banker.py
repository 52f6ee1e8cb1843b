import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def held_is_amount(apps, schema_editor):
    """Every bet placed before this migration escrowed exactly its amount."""
    Bet = apps.get_model("rounds", "Bet")
    Bet.objects.update(held=models.F("amount"))


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0003_bet_cancel_key"),
        ("tables", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="bet",
            name="held",
            field=models.PositiveBigIntegerField(default=0, verbose_name="held in escrow"),
            preserve_default=False,
        ),
        migrations.RunPython(held_is_amount, migrations.RunPython.noop),
        migrations.AddField(
            model_name="bet",
            name="most_won",
            field=models.PositiveBigIntegerField(default=0, verbose_name="most it can win"),
        ),
        migrations.AddConstraint(
            model_name="bet",
            constraint=models.CheckConstraint(
                condition=models.Q(("held__gte", models.F("amount"))), name="bet_held_covers_amount"
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="banker",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="banked_rounds",
                to=settings.AUTH_USER_MODEL,
                verbose_name="player banker",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="bank",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="banker's coins"),
        ),
        migrations.AddField(
            model_name="round",
            name="bank_key",
            field=models.CharField(blank=True, max_length=80, verbose_name="banker's escrow transaction key"),
        ),
        migrations.AddField(
            model_name="round",
            name="exposure",
            field=models.PositiveBigIntegerField(default=0, verbose_name="most the bets can win"),
        ),
        migrations.CreateModel(
            name="BankerSeat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "status",
                    models.CharField(
                        choices=[("queued", "Queued"), ("banking", "Banking"), ("done", "Done")],
                        default="queued",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("rounds", models.PositiveIntegerField(default=0, verbose_name="rounds banked")),
                ("leaving", models.BooleanField(default=False, verbose_name="asked to step down")),
                ("end_reason", models.CharField(blank=True, max_length=20, verbose_name="why it ended")),
                ("applied_at", models.DateTimeField(auto_now_add=True, verbose_name="applied")),
                ("ended_at", models.DateTimeField(blank=True, null=True, verbose_name="ended")),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="banker_seats",
                        to="tables.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={"verbose_name": "banker seat", "verbose_name_plural": "banker seats", "ordering": ["pk"]},
        ),
        migrations.AddConstraint(
            model_name="bankerseat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "done"), _negated=True),
                fields=("table", "user"),
                name="bankerseat_one_live_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="bankerseat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "banking")), fields=("table",), name="bankerseat_one_banker_per_table"
            ),
        ),
    ]
