"""Bets from many connections at once on PostgreSQL: nobody overdraws, every escrow empties, the ledger checks."""

import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from rooms.rounds import services
from rooms.rounds.errors import RoundError
from rooms.rounds.models import Bet, Round
from rooms.rounds.tests.conftest import PLAYER_NATURAL_9, open_round, run_to, stack_shoe
from wallets.models import Account, LedgerEntry
from wallets.selectors import wallet_balance

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_rounds"),
]

BETS_PER_PLAYER = 50
THREADS_PER_PLAYER = 2
STAKE = 30
COINS = 1000  # room for 33 bets of 30, not 50


def test_two_players_betting_from_two_connections_each_never_overdraw(bacc_tier, make_player):
    alice, bob = make_player(coins=COINS), make_player(coins=COINS)
    table, rnd = open_round(bacc_tier, alice)
    # Keep the window open however slow the machine is; the clock is not what is tested here.
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timezone.timedelta(minutes=5))
    start = threading.Barrier(2 * THREADS_PER_PLAYER)
    outcomes: list[str] = []
    lock = threading.Lock()

    def place(user, areas):
        try:
            start.wait()
            for i in range(BETS_PER_PLAYER // THREADS_PER_PLAYER):
                try:
                    services.round_bet(table_id=table.pk, user=user, area=areas[i % 2], amount=STAKE)
                    code = "ok"
                except RoundError as exc:
                    code = exc.code
                with lock:
                    outcomes.append((user.pk, code))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=place, args=(user, areas))
        for user in (alice, bob)
        for areas in (("banker", "player"), ("player", "tie"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)

    assert len(outcomes) == 2 * BETS_PER_PLAYER
    assert {code for _user, code in outcomes} == {"ok", "insufficient_coins"}
    for user in (alice, bob):
        accepted = sum(1 for uid, code in outcomes if uid == user.pk and code == "ok")
        assert accepted == COINS // STAKE  # every coin that could be staked was, and no more
        assert wallet_balance(user=user) == COINS - accepted * STAKE >= 0
        assert Bet.objects.filter(round=rnd, user=user).count() == accepted
    rnd.refresh_from_db()
    assert rnd.staked == Bet.objects.filter(round=rnd).aggregate(s=Sum("amount"))["s"] == 2 * 33 * STAKE
    assert Account.objects.get(code="escrow").balance == rnd.staked

    stack_shoe(rnd, PLAYER_NATURAL_9)
    rnd = run_to(rnd, "result")
    assert rnd.status == "settled"
    escrow = LedgerEntry.objects.filter(transaction__reference=f"round:{rnd.pk}", account__code="escrow")
    assert escrow.aggregate(s=Sum("amount"))["s"] == 0
    assert Account.objects.get(code="escrow").balance == 0
    call_command("ledger_check")


def test_a_bet_that_waited_for_the_table_sees_the_stake_placed_meanwhile(make_player):
    """限红 holds for two bets that queued on the table's lock together: the second sees the first's stake.

    The bet's reads run in a statement of their own after the table's lock
    (``rooms/rounds/betting.py``): read in the locking statement, they would
    use a snapshot taken before the wait, miss the first bet and take both.
    """
    from rooms.rounds.tests.conftest import make_tier
    from rooms.tables.models import Table

    tier = make_tier(code="limited", area_limits={"player": 100})
    alice = make_player(coins=COINS)
    table, rnd = open_round(tier, alice)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timezone.timedelta(minutes=5))
    outcomes: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def hold_table():
        from django.db import transaction

        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                holding.set()
                release.wait(20)
        finally:
            connection.close()

    def bet():
        try:
            holding.wait(20)
            services.round_bet(table_id=table.pk, user=alice, area="player", amount=60)
            outcomes.append("ok")
        except RoundError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=hold_table),
        threading.Thread(target=bet),
        threading.Thread(target=bet),
    ]
    for thread in threads:
        thread.start()
    # Both bets are queued on the table's row before it is let go.
    with connection.cursor() as cursor:
        for _ in range(200):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND state = 'active'"
            )
            if cursor.fetchone()[0] >= 2:
                break
            threading.Event().wait(0.05)
        else:
            raise AssertionError("the bets never queued on the table's lock")
    release.set()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["ok", "over_area_limit"]
    assert Bet.objects.filter(round=rnd, user=alice).aggregate(s=Sum("amount"))["s"] == 60
    assert wallet_balance(user=alice) == COINS - 60
