"""Let PostgreSQL refuse TRUNCATE of the ledger, as it refuses UPDATE and DELETE (0002).

TRUNCATE fires no row trigger, so ``TRUNCATE wallets_ledgerentry,
wallets_ledgertransaction CASCADE`` emptied the append-only ledger in one
statement. A statement-level ``BEFORE TRUNCATE`` trigger on each table raises
instead; it also fires when the tables are reached through CASCADE from a table
that references them (``TRUNCATE wallets_account CASCADE``).

The tables' owner can still ``ALTER TABLE ... DISABLE TRIGGER`` first; that is
deliberate (the test suite's flush does it, see the root conftest.py), and is
why the application should not run as the owner where that matters.
"""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION wallets_refuse_ledger_truncate() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'ledger rows are append-only: TRUNCATE of % refused; post a reversal instead',
            TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER wallets_ledgerentry_no_truncate
        BEFORE TRUNCATE ON wallets_ledgerentry
        FOR EACH STATEMENT EXECUTE FUNCTION wallets_refuse_ledger_truncate()
    """,
    """
    CREATE TRIGGER wallets_ledgertransaction_no_truncate
        BEFORE TRUNCATE ON wallets_ledgertransaction
        FOR EACH STATEMENT EXECUTE FUNCTION wallets_refuse_ledger_truncate()
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS wallets_ledgertransaction_no_truncate ON wallets_ledgertransaction",
    "DROP TRIGGER IF EXISTS wallets_ledgerentry_no_truncate ON wallets_ledgerentry",
    "DROP FUNCTION IF EXISTS wallets_refuse_ledger_truncate()",
]


def _run_on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in statements:
            # params=None: the SQL holds a literal % sign that must not be read as a placeholder.
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("wallets", "0005_finance_reports")]

    operations = [migrations.RunPython(_run_on_postgresql(FORWARD), _run_on_postgresql(BACKWARD))]
