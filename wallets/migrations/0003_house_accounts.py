"""Create the four house accounts so that they exist before the first hand.

``wallets.services.house_account`` also creates them lazily (a flushed test
database has none). Their primary keys do not matter for locking: the service
locks player wallets first and house accounts last (see ledger_post).
"""

from django.db import migrations

HOUSE_CODES = ["cashier", "rake", "bank", "escrow"]


def create_house_accounts(apps, schema_editor):
    Account = apps.get_model("wallets", "Account")
    for code in HOUSE_CODES:
        Account.objects.using(schema_editor.connection.alias).get_or_create(
            code=code, defaults={"kind": code, "balance": 0}
        )


class Migration(migrations.Migration):
    dependencies = [("wallets", "0002_database_rules")]

    operations = [migrations.RunPython(create_house_accounts, migrations.RunPython.noop)]
