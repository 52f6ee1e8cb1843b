"""Migration 0007 names the game and tier of the hands' and rounds' transactions posted before it."""

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("wallets", "0006_ledger_refuses_truncate")]


def _post(apps, *, key, reference, legs):
    Txn, Entry = apps.get_model("wallets", "LedgerTransaction"), apps.get_model("wallets", "LedgerEntry")
    txn = Txn.objects.create(key=key, fingerprint="f" * 64, kind="stake", reference=reference)
    for account, amount in legs:
        account.balance += amount
        account.save(update_fields=["balance"])
        Entry.objects.create(transaction=txn, account=account, amount=amount, balance_after=account.balance)


@pytest.mark.django_db(transaction=True)
def test_the_backfill_names_the_game_and_tier_of_every_hand_and_round_reference():
    executor = MigrationExecutor(connection)
    # Every other app as it is now, the ledger as it was before 0007.
    before = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "wallets"] + BEFORE
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        User, Account = apps.get_model("accounts", "User"), apps.get_model("wallets", "Account")
        Game, RoomTier = apps.get_model("rooms", "Game"), apps.get_model("rooms", "RoomTier")
        Table, Hand = apps.get_model("tables", "Table"), apps.get_model("tables", "Hand")
        Shoe, Round = apps.get_model("rounds", "Shoe"), apps.get_model("rounds", "Round")
        with transaction.atomic():  # the ledger's rules are checked at the commit
            ddz = Game.objects.create(
                slug="doudizhu", name_zh="斗地主", name_en="Fight", family="seated", min_seats=3, max_seats=3
            )
            bacc = Game.objects.create(
                slug="baccarat",
                name_zh="百家乐",
                name_en="Baccarat",
                family="banker",
                min_seats=1,
                max_seats=1,
            )
            low = RoomTier.objects.create(game=ddz, code="low", name="初级场", base_stake=1)
            classic = RoomTier.objects.create(game=bacc, code="classic", name="经典场", base_stake=10)
            table = Table.objects.create(tier=low, seat_count=3)
            hand = Hand.objects.create(table=table, number=1, game_slug="doudizhu", seed=b"s" * 32)
            bacc_table = Table.objects.create(tier=classic, seat_count=0)
            shoe = Shoe.objects.create(table=bacc_table, number=1, seed=b"s" * 32)
            rnd = Round.objects.create(table=bacc_table, shoe=shoe, number=1, coup=1, game_slug="baccarat")
            player = User.objects.create(username="alice")
            wallet = Account.objects.create(kind="player", user=player)
            cashier, _ = Account.objects.get_or_create(kind="cashier", code="cashier")
            escrow, _ = Account.objects.get_or_create(kind="escrow", code="escrow")
            _post(apps, key="grant", reference="staff:1", legs=[(cashier, -100), (wallet, 100)])
            _post(apps, key="stake", reference=f"hand:{hand.pk}", legs=[(wallet, -60), (escrow, 60)])
            _post(apps, key="bet", reference=f"round:{rnd.pk}", legs=[(wallet, -30), (escrow, 30)])
            _post(apps, key="gone", reference="hand:999999", legs=[(wallet, -10), (escrow, 10)])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    from wallets.models import LedgerTransaction

    named = dict(LedgerTransaction.objects.values_list("key", "game_slug"))
    tiers = dict(LedgerTransaction.objects.values_list("key", "tier_id"))
    assert named == {"grant": "", "stake": "doudizhu", "bet": "baccarat", "gone": ""}
    assert tiers == {"grant": None, "stake": low.pk, "bet": classic.pk, "gone": None}
    # The rows are append-only again once the backfill is done.
    if connection.vendor == "postgresql":
        from django.db import IntegrityError

        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            LedgerTransaction.objects.filter(key="grant").update(memo="edited")
