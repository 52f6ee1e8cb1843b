"""Carry the game and room tier on ledger transactions; fill them in for the ones already posted.

The finance reports group rake and house-bank legs by these two plain
columns instead of joining the ledger to the tables' hands and rounds
(wallets imports nothing from rooms). Transactions posted before this
migration carry their hand or round only in the reference (``hand:<id>``,
``round:<id>``); this migration reads the hand's or round's game and its
table's tier from the rooms apps' tables (through ``apps.get_model``, as
they were at these migrations) and writes them onto the transaction.

Ledger rows are append-only (0002's trigger refuses any UPDATE); on
PostgreSQL the trigger on transactions is switched off for this one
backfill, inside the migration's transaction, and on again before it
commits. Entries are not touched.
"""

from django.db import migrations, models
from django.db.models import BigIntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Substr

TRIGGER = "wallets_ledgertransaction_append_only"


def _id_after(prefix: str):
    """The number after ``prefix`` in the outer transaction's reference, as a bigint."""
    return Cast(Substr(OuterRef("reference"), len(prefix) + 1), output_field=BigIntegerField())


def backfill(apps, schema_editor):
    Txn = apps.get_model("wallets", "LedgerTransaction")
    Hand = apps.get_model("tables", "Hand")
    Round = apps.get_model("rounds", "Round")
    alias = schema_editor.connection.alias
    table = schema_editor.quote_name(Txn._meta.db_table)
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {TRIGGER}")
    for prefix, model, game, tier in (
        ("hand:", Hand, "game_slug", "table__tier_id"),
        ("round:", Round, "game_slug", "table__tier_id"),
    ):
        source = model.objects.using(alias).filter(pk=_id_after(prefix))
        Txn.objects.using(alias).filter(reference__regex=rf"^{prefix}[0-9]+$", game_slug="").update(
            # A reference naming no hand or round (deleted, mistyped) keeps "no game".
            game_slug=Coalesce(Subquery(source.values(game)[:1]), Value("")),
            tier_id=Subquery(source.values(tier)[:1]),
        )
    if postgres:
        schema_editor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {TRIGGER}")


class Migration(migrations.Migration):
    dependencies = [
        ("wallets", "0006_ledger_refuses_truncate"),
        ("tables", "0005_hand_hot_updates"),
        ("rounds", "0002_viewer_seen_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="ledgertransaction",
            name="game_slug",
            field=models.CharField(blank=True, db_default="", default="", max_length=40, verbose_name="game"),
        ),
        migrations.AddField(
            model_name="ledgertransaction",
            name="tier_id",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="room tier"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
