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
