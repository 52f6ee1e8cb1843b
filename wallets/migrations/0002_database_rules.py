"""Let PostgreSQL refuse bad money on its own (on SQLite the service enforces the same rules).

- Ledger rows are append-only: UPDATE and DELETE of entries and transactions raise.
- At commit, every transaction has at least two entries and they sum to zero
  (DEFERRABLE INITIALLY DEFERRED constraint triggers, so the header and its
  entries can be inserted one statement at a time inside one transaction).

The CHECK constraints (non-negative balances by kind, non-zero amounts) are
ordinary model constraints in 0001 and exist on every database.
"""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION wallets_refuse_ledger_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'ledger rows are append-only: % on % refused; post a reversal instead',
            TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER wallets_ledgerentry_append_only
        BEFORE UPDATE OR DELETE ON wallets_ledgerentry
        FOR EACH ROW EXECUTE FUNCTION wallets_refuse_ledger_change()
    """,
    """
    CREATE TRIGGER wallets_ledgertransaction_append_only
        BEFORE UPDATE OR DELETE ON wallets_ledgertransaction
        FOR EACH ROW EXECUTE FUNCTION wallets_refuse_ledger_change()
    """,
    """
    CREATE OR REPLACE FUNCTION wallets_check_transaction_balanced() RETURNS trigger AS $$
    DECLARE
        txn_id bigint;
        total numeric;
        legs integer;
    BEGIN
        IF TG_TABLE_NAME = 'wallets_ledgerentry' THEN
            txn_id := NEW.transaction_id;
        ELSE
            txn_id := NEW.id;
        END IF;
        SELECT COALESCE(SUM(amount), 0), COUNT(*) INTO total, legs
            FROM wallets_ledgerentry WHERE transaction_id = txn_id;
        IF legs < 2 THEN
            RAISE EXCEPTION 'ledger transaction % has % entries; at least 2 are required', txn_id, legs
                USING ERRCODE = 'check_violation';
        END IF;
        IF total <> 0 THEN
            RAISE EXCEPTION 'ledger transaction % is unbalanced: its entries sum to %', txn_id, total
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE CONSTRAINT TRIGGER wallets_ledgerentry_balanced
        AFTER INSERT ON wallets_ledgerentry
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION wallets_check_transaction_balanced()
    """,
    """
    CREATE CONSTRAINT TRIGGER wallets_ledgertransaction_balanced
        AFTER INSERT ON wallets_ledgertransaction
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION wallets_check_transaction_balanced()
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS wallets_ledgertransaction_balanced ON wallets_ledgertransaction",
    "DROP TRIGGER IF EXISTS wallets_ledgerentry_balanced ON wallets_ledgerentry",
    "DROP FUNCTION IF EXISTS wallets_check_transaction_balanced()",
    "DROP TRIGGER IF EXISTS wallets_ledgertransaction_append_only ON wallets_ledgertransaction",
    "DROP TRIGGER IF EXISTS wallets_ledgerentry_append_only ON wallets_ledgerentry",
    "DROP FUNCTION IF EXISTS wallets_refuse_ledger_change()",
]


def _run_on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in statements:
            # params=None: the SQL holds literal % signs that must not be read as placeholders.
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("wallets", "0001_initial")]

    operations = [migrations.RunPython(_run_on_postgresql(FORWARD), _run_on_postgresql(BACKWARD))]
