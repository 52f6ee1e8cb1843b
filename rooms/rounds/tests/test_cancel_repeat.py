"""撤销 (cancel this round's bets) and 重复投 (repeat the last round's bets) through the ledger, and payouts per area."""

from unittest import mock

import pytest
from django.db.models import Sum

from rooms.rounds import services
from rooms.rounds.errors import RoundError
from rooms.rounds.models import Bet, Round
from rooms.rounds.tests.conftest import (
    BANKER_NATURAL_9,
    PLAYER_NATURAL_9,
    expire,
    live_round,
    open_round,
    run_to,
    stack_shoe,
)
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check, wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def bet(table, user, area, amount):
    return services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def cancel(table, user):
    return services.round_cancel(table_id=table.pk, user=user)


def repeat(table, user):
    return services.round_repeat(table_id=table.pk, user=user)


def escrow() -> int:
    account = Account.objects.filter(code="escrow").first()
    return account.balance if account else 0


def escrow_of(rnd) -> int:
    rows = LedgerEntry.objects.filter(transaction__reference=f"round:{rnd.pk}", account__code="escrow")
    return rows.aggregate(s=Sum("amount"))["s"] or 0


def everything(users, rnd):
    """What a refusal must leave as it was: balances, escrow, rows, the ledger, the round's totals."""
    return (
        [wallet_balance(user=u) for u in users],
        escrow(),
        list(Bet.objects.order_by("pk").values_list("pk", "amount", "cancel_key")),
        LedgerTransaction.objects.count(),
        LedgerEntry.objects.count(),
        Round.objects.filter(pk=rnd.pk).values_list("staked", "area_totals").get(),
    )


def finish(table, rnd, cards):
    """Deal ``cards``, pay the round (eager Celery) and run it out; return the next round, betting."""
    stack_shoe(rnd, cards)
    run_to(rnd, "result")
    rnd.refresh_from_db()
    assert rnd.status in ("settled", "refunded")
    run_to(rnd, "over")
    nxt = live_round(table)
    assert nxt is not None and nxt.phase == "betting" and nxt.pk != rnd.pk
    return nxt


# --- 撤销 cancel ----------------------------------------------------------------------


def test_cancel_returns_exactly_the_players_stakes_from_escrow(bacc_tier, make_player):
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    total_coins = sum(Account.objects.values_list("balance", flat=True))
    bet(table, alice, "banker", 100)
    bet(table, alice, "banker", 100)
    bet(table, alice, "tie", 10)
    bet(table, bob, "banker", 50)
    escrow_before = escrow()
    cancel(table, alice)
    assert wallet_balance(user=alice) == 1000
    assert wallet_balance(user=bob) == 950
    assert escrow() == escrow_before - 210 == 50
    assert escrow_of(rnd) == 50
    assert sum(Account.objects.values_list("balance", flat=True)) == total_coins == 0  # coins conserved
    rnd.refresh_from_db()
    assert rnd.staked == 50 and rnd.area_totals == {"banker": 50}
    cancel_tx = LedgerTransaction.objects.get(kind="cancel")
    last_bet = Bet.objects.filter(user=alice).order_by("pk").last()
    assert cancel_tx.key == f"round:{rnd.pk}:cancel:{alice.pk}:{last_bet.pk}"
    assert cancel_tx.reference == f"round:{rnd.pk}" and cancel_tx.game_slug == "baccarat"
    assert sorted(cancel_tx.entries.values_list("amount", flat=True)) == [-210, 210]
    assert set(Bet.objects.filter(user=alice).values_list("cancel_key", flat=True)) == {cancel_tx.key}
    assert set(Bet.objects.filter(user=bob).values_list("cancel_key", flat=True)) == {""}
    assert ledger_check() == []


def test_cancel_is_idempotent_on_a_retry(bacc_tier, make_player):
    from wallets.services import house_account, ledger_post, wallet_for_user

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player", 300)
    cancel(table, alice)
    after = everything([alice], rnd)
    # The service again: nothing left to return, refused, nothing moves.
    with pytest.raises(RoundError, match="no bets on this round to cancel") as refused:
        cancel(table, alice)
    assert refused.value.code == "nothing_to_cancel"
    assert everything([alice], rnd) == after
    # The ledger posting again under its key (a retry after a lost answer): the first one is returned.
    first = LedgerTransaction.objects.get(kind="cancel")
    again = ledger_post(
        key=first.key,
        kind="cancel",
        legs=[(house_account(code="escrow"), -300), (wallet_for_user(user=alice), 300)],
        reference=first.reference,
        memo=first.memo,
    )
    assert again.pk == first.pk
    assert everything([alice], rnd) == after
    assert wallet_balance(user=alice) == 1000


@pytest.mark.parametrize("when", ["countdown_over", "dealing", "result"])
def test_cancel_is_refused_after_the_betting_window_and_changes_nothing(bacc_tier, make_player, when):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 100)
    with mock.patch("rooms.rounds.services._queue_settlement"):  # keep the stakes in escrow
        if when == "countdown_over":
            expire(rnd)
        else:
            stack_shoe(rnd, PLAYER_NATURAL_9)
            run_to(rnd, when)
    before = everything([alice], rnd)
    with pytest.raises(RoundError, match="Betting is closed") as refused:
        cancel(table, alice)
    assert refused.value.code == "betting_closed"
    assert everything([alice], rnd) == before
    assert wallet_balance(user=alice) == 900


def test_without_bets_cancel_is_refused(bacc_tier, make_player):
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, bob, "banker", 100)
    before = everything([alice, bob], rnd)
    with pytest.raises(RoundError) as refused:
        cancel(table, alice)
    assert refused.value.code == "nothing_to_cancel"
    assert everything([alice, bob], rnd) == before


def test_a_round_pays_only_the_bets_standing_after_a_cancel(bacc_tier, make_player):
    from wallets.lines import coins_at_table

    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player", 200)
    assert coins_at_table(user=alice) == 200
    cancel(table, alice)
    assert coins_at_table(user=alice) == 0
    bet(table, alice, "player", 100)  # bets again after cancelling
    bet(table, bob, "banker", 100)
    assert coins_at_table(user=alice) == 100
    finish(table, rnd, PLAYER_NATURAL_9)
    assert wallet_balance(user=alice) == 1100  # won 100 on the 100 standing, the 200 came back
    assert wallet_balance(user=bob) == 900
    assert escrow_of(rnd) == 0 and escrow() == 0
    assert {(b.amount, b.net) for b in Bet.objects.filter(user=alice)} == {(200, None), (100, 100)}
    assert coins_at_table(user=alice) == 0
    assert ledger_check() == []


def test_a_round_everyone_cancelled_pays_nothing(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "tie", 100)
    cancel(table, alice)
    finish(table, rnd, BANKER_NATURAL_9)
    rnd.refresh_from_db()
    assert rnd.status == "settled" and rnd.staked == 0 and rnd.paid == 0
    assert not LedgerTransaction.objects.filter(kind="payout").exists()
    assert wallet_balance(user=alice) == 1000 and escrow() == 0
    assert ledger_check() == []


# --- 重复投 repeat --------------------------------------------------------------------


def test_repeat_stakes_the_last_rounds_bets_again(bacc_tier, make_player):
    alice = make_player(coins=2000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 100)
    bet(table, alice, "tie", 10)
    bet(table, alice, "banker", 50)
    nxt = finish(table, rnd, PLAYER_NATURAL_9)  # all lost: 1840
    assert wallet_balance(user=alice) == 1840
    escrow_before = escrow()
    repeat(table, alice)
    assert wallet_balance(user=alice) == 1840 - 160
    assert escrow() == escrow_before + 160
    nxt.refresh_from_db()
    assert nxt.staked == 160 and nxt.area_totals == {"banker": 150, "tie": 10}
    bets = list(Bet.objects.filter(round=nxt).order_by("pk"))
    assert [(b.area, b.amount) for b in bets] == [("banker", 150), ("tie", 10)]  # one bet per area
    txns = LedgerTransaction.objects.filter(reference=f"round:{nxt.pk}", kind="bet")
    assert sorted(txns.values_list("key", flat=True)) == sorted(b.ledger_key for b in bets)
    assert ledger_check() == []


def test_repeat_skips_cancelled_bets_and_rounds_without_bets(bacc_tier, make_player):
    alice = make_player(coins=2000)
    table, first = open_round(bacc_tier, alice)
    bet(table, alice, "player", 100)
    second = finish(table, first, BANKER_NATURAL_9)  # lost 100
    bet(table, alice, "banker", 500)
    cancel(table, alice)  # round two's bets were all cancelled: it is not "the last round"
    third = finish(table, second, BANKER_NATURAL_9)
    fourth = finish(table, third, BANKER_NATURAL_9)  # round three had no bets at all
    repeat(table, alice)
    assert list(Bet.objects.filter(round=fourth).values_list("area", "amount")) == [("player", 100)]


@pytest.mark.parametrize(
    ("setup", "code", "message"),
    [
        ("poor", "insufficient_coins", "You have 300 coins; your last round's bets need 510."),
        ("area_limit", "over_area_limit", "at most 400 coins a round"),
        ("table_limit", "over_table_limit", "at most 500 coins"),
        ("already_bet", "already_bet", "cancel these bets first"),
        ("closed", "betting_closed", "Betting is closed"),
        ("first_round", "nothing_to_repeat", "no earlier round at this table to repeat"),
    ],
)
def test_a_refused_repeat_stakes_nothing(bacc_tier, make_player, setup, code, message):
    from wallets.services import wallet_adjust

    alice = make_player(coins=5000)
    table, rnd = open_round(bacc_tier, alice)
    if setup != "first_round":
        bet(table, alice, "banker", 500)
        bet(table, alice, "tie", 10)
        rnd = finish(table, rnd, PLAYER_NATURAL_9)  # lost 510
    if setup == "poor":
        wallet_adjust(user=alice, amount=300 - wallet_balance(user=alice), key="test:poor", reason="test")
    elif setup in ("area_limit", "table_limit"):
        limits = (
            {"area_limits": {**rnd.config["area_limits"], "banker": 400}} if setup == "area_limit" else {}
        )
        if setup == "table_limit":
            limits = {"table_limit": 500}
        rnd.config = {**rnd.config, **limits}
        rnd.save(update_fields=["config"])
    elif setup == "already_bet":
        bet(table, alice, "player", 10)
    elif setup == "closed":
        expire(rnd)
    before = everything([alice], rnd)
    with pytest.raises(RoundError, match=message) as refused:
        repeat(table, alice)
    assert refused.value.code == code
    assert everything([alice], rnd) == before


def test_repeat_checks_the_entry_rule_like_a_first_bet(bacc_tier, make_player):
    from rooms.errors import EntryRefused
    from wallets.services import wallet_adjust

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 10)
    rnd = finish(table, rnd, PLAYER_NATURAL_9)
    wallet_adjust(user=alice, amount=-940, key="test:below", reason="test")  # 50, under the tier's 100
    before = everything([alice], rnd)
    with pytest.raises(EntryRefused):
        repeat(table, alice)
    assert everything([alice], rnd) == before


# --- payouts per area -----------------------------------------------------------------


def test_a_payout_lists_one_line_per_area_with_its_net(bacc_tier, make_player):
    alice = make_player(coins=2000)
    table, rnd = open_round(bacc_tier, alice)
    for _ in range(3):
        bet(table, alice, "banker", 100)
    bet(table, alice, "tie", 10)
    bet(table, alice, "player", 50)
    bet(table, alice, "player", 50)
    sent = []
    real = services.round_changed

    def capture(table, **kwargs):
        sent.extend(kwargs.get("payouts") or [])
        return real(table, **kwargs)

    with mock.patch.object(services, "round_changed", capture):
        finish(table, rnd, PLAYER_NATURAL_9)
    (payout,) = [p for p in sent if p["round"] == rnd.pk]
    assert payout["net"] == -300 - 10 + 100
    assert payout["bets"] == [
        {"area": "banker", "amount": 300, "net": -300},
        {"area": "tie", "amount": 10, "net": -10},
        {"area": "player", "amount": 100, "net": 100},
    ]


def test_per_area_sums_in_the_order_of_the_first_bet():
    rows = [("banker", 100, -100), ("player", 10, 10), ("banker", 100, -100)]
    assert services.per_area(rows) == [
        {"area": "banker", "amount": 200, "net": -200},
        {"area": "player", "amount": 10, "net": 10},
    ]
    assert services.per_area([]) == []
