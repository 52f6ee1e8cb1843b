"""The player banker (上庄/下庄) of the round runtime, on 百人三公: the queue, the ledger, the bank limit."""

import pytest
from django.db.models import Sum

import games
from games.base import GameInfo
from games.sangong import present
from games.sangong.engine import DEFAULT_OPTIONS, SangongEngine
from rooms.rounds import services
from rooms.rounds.errors import BankerMayNotBet, BankError, OverBankLimit
from rooms.rounds.models import BankerSeat, Round
from rooms.rounds.tests.conftest import committing, live_round, run_to, stack_shoe, tick, watch
from wallets.lines import coins_at_table
from wallets.models import Account, LedgerEntry
from wallets.selectors import ledger_check, wallet_balance

pytestmark = pytest.mark.usefixtures("fast_rounds")

SLUG = "sangong_hundred"


def sangong_info() -> GameInfo:
    """The game's registry entry: the registered one, or the same built here before its registry line lands."""
    if SLUG in games.REGISTRY:
        return games.REGISTRY[SLUG]
    return GameInfo(
        slug=SLUG,
        name_zh="百人三公",
        name_en="Hundred-player San Gong",
        family="banker",
        min_seats=1,
        max_seats=1,
        engine=SangongEngine(),
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )


@pytest.fixture
def sangong(monkeypatch):
    monkeypatch.setitem(games.REGISTRY, SLUG, sangong_info())


def make_tier(*, bank_minimum=1000, bank_rounds=3, rake_bps=500, code="beginner"):
    from rooms.models import Game, RoomTier

    game, _ = Game.objects.get_or_create(
        slug=SLUG,
        defaults={
            "name_zh": "百人三公",
            "name_en": "Hundred-player San Gong",
            "family": "banker",
            "min_seats": 1,
            "max_seats": 1,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code=code,
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=rake_bps,
        options={"bank_minimum": bank_minimum, "bank_rounds": bank_rounds},
    )


def coup(*hands):
    """The 15 cards that deal ``hands`` (banker, east, south, west, north), one card to each in turn."""
    return [hand[i] for i in range(3) for hand in hands]


# Banker 8 points; east 爆玖 (wins ×5), south 三公 (×3), west 6 points (loses ×2), north 9 points (×2).
COUP = coup(
    ["8s", "Kh", "Td"], ["3s", "3h", "3d"], ["Js", "Qh", "Kd"], ["6s", "Th", "Qc"], ["9s", "Tc", "Kc"]
)
# Banker 爆玖: every area loses ×5.
BANKER_BAO_JIU = coup(
    ["3s", "3h", "3d"], ["Ks", "Kh", "Kd"], ["2s", "4h", "Td"], ["As", "Ah", "Ad"], ["9c", "Tc", "Qc"]
)


def banked_round(tier, banker, *others):
    """Enter, queue ``banker`` (上庄) and open the first round, which they bank."""
    table = services.round_enter(tier_id=tier.pk, user=banker)
    with committing():
        services.round_bank_apply(table_id=table.pk, user=banker)
    for user in (banker, *others):
        watch(table, user)
    tick()
    return table, live_round(table)


def settle(rnd, cards):
    stack_shoe(rnd, cards)
    rnd = run_to(rnd, "result")
    assert rnd.status == "settled"
    return rnd


def next_round(rnd):
    run_to(rnd, "over")
    return live_round(rnd.table)


def test_a_player_banker_is_paid_and_pays_through_the_ledger(sangong, db, make_player):
    bob = make_player(coins=5000)  # the banker
    alice, carol = make_player(coins=1000), make_player(coins=1000)
    table, rnd = banked_round(make_tier(), bob, alice, carol)
    assert (rnd.banker_id, rnd.bank) == (bob.pk, 5000)
    assert wallet_balance(user=bob) == 0  # the banker's coins are in escrow, like a bet
    assert coins_at_table(user=bob) == 5000  # and the wallet page counts them at the table
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="east", amount=100)
        services.round_bet(table_id=table.pk, user=carol, area="west", amount=100)
    assert wallet_balance(user=alice) == 500  # a bet holds the most it can lose: 5 × 100
    assert Account.objects.get(code="escrow").balance == 5000 + 500 + 500

    rnd = settle(rnd, COUP)
    # alice: 爆玖 beats 8 points, +500 less 5% = 475; carol: 6 points lose ×2 (the banker's 8), −200;
    # bob: −500 + 200 = −300, a loss, so no fee. The house takes the 25 of rake and nothing else.
    assert wallet_balance(user=alice) == 1475
    assert wallet_balance(user=carol) == 800
    assert wallet_balance(user=bob) == 4700
    assert (rnd.rake, Account.objects.get(code="escrow").balance) == (25, 0)
    entries = LedgerEntry.objects.filter(transaction__key=rnd.settle_key)
    assert not entries.filter(account__code="bank").exists()
    assert dict(entries.filter(account__user__isnull=False).values_list("account__user_id", "amount")) == {
        alice.pk: 500 + 475,
        carol.pk: 300,
        bob.pk: 4700,
    }
    assert entries.aggregate(s=Sum("amount"))["s"] == 0
    assert coins_at_table(user=bob) == 0 and coins_at_table(user=alice) == 0
    assert ledger_check() == []  # every invariant of the ledger, escrow per round included


def test_the_banker_wins_pays_the_fee_and_banks_again(sangong, db, make_player):
    bob, alice = make_player(coins=2000), make_player(coins=1000)
    table, rnd = banked_round(make_tier(), bob, alice)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="south", amount=100)
    settle(rnd, BANKER_BAO_JIU)
    assert wallet_balance(user=alice) == 500  # lost 5 × 100 to the banker's 爆玖
    assert wallet_balance(user=bob) == 2000 + 500 - 25  # 5% of the banker's profit
    rnd = next_round(rnd)
    assert (rnd.banker_id, rnd.bank) == (bob.pk, 2475)
    assert BankerSeat.objects.get(user=bob).rounds == 2


def test_a_banker_short_of_the_minimum_is_stood_down_and_the_queue_moves_on(sangong, db, make_player):
    bob, dave, alice = make_player(coins=1100), make_player(coins=3000), make_player(coins=1000)
    table, rnd = banked_round(make_tier(bank_minimum=1000), bob, alice)
    with committing():
        services.round_bank_apply(table_id=table.pk, user=dave)
        services.round_bet(table_id=table.pk, user=alice, area="east", amount=100)
    settle(rnd, COUP)  # alice's 爆玖 takes 500 of bob's 1100
    assert wallet_balance(user=bob) == 600
    rnd = next_round(rnd)
    assert (rnd.banker_id, rnd.bank) == (dave.pk, 3000)
    seat = BankerSeat.objects.get(user=bob)
    assert (seat.status, seat.end_reason) == ("done", "short")
    assert wallet_balance(user=bob) == 600  # a stood-down banker holds their coins again


def test_the_banker_steps_down_when_asked_or_after_the_tiers_rounds_then_the_house_banks(
    sangong, db, make_player
):
    bob, alice = make_player(coins=5000), make_player(coins=1000)
    table, rnd = banked_round(make_tier(bank_rounds=2), bob, alice)
    rnd = next_round(rnd)
    assert rnd.banker_id == bob.pk
    rnd = next_round(rnd)
    assert rnd.banker_id is None and rnd.bank is None  # two rounds banked: the house banks
    assert BankerSeat.objects.get(user=bob).end_reason == "rounds"
    with committing():
        services.round_bank_apply(table_id=table.pk, user=bob)
    rnd = next_round(rnd)
    assert rnd.banker_id == bob.pk
    with committing():
        services.round_bank_leave(table_id=table.pk, user=bob)
    assert live_round(table).banker_id == bob.pk  # stepping down waits for the round's end
    rnd = next_round(rnd)
    assert rnd.banker_id is None
    assert BankerSeat.objects.filter(user=bob).order_by("-pk").first().end_reason == "asked"
    assert wallet_balance(user=bob) == 5000


def test_applying_to_bank_is_refused_without_the_minimum_twice_or_where_only_the_house_banks(
    sangong, db, make_player
):
    bob, poor = make_player(coins=5000), make_player(coins=999)
    table, _rnd = banked_round(make_tier(), bob)
    with pytest.raises(BankError, match="needs 1000 coins; you have 999"):
        services.round_bank_apply(table_id=table.pk, user=poor)
    with pytest.raises(BankError, match="already banking or waiting"):
        services.round_bank_apply(table_id=table.pk, user=bob)
    with pytest.raises(BankError, match="not banking or waiting"):
        services.round_bank_leave(table_id=table.pk, user=poor)
    house = make_tier(bank_minimum=0, code="house")
    house_table = services.round_enter(tier_id=house.pk, user=poor)
    with pytest.raises(BankError, match="Only the house banks"):
        services.round_bank_apply(table_id=house_table.pk, user=poor)


def test_bets_past_what_the_banker_can_pay_are_refused_and_the_room_is_shown(sangong, db, make_player):
    bob, alice, carol = make_player(coins=1000), make_player(coins=5000), make_player(coins=5000)
    table, rnd = banked_round(make_tier(), bob, alice, carol)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="east", amount=150)
    # 1000 coins cover wins of 5 × 200 staked: 50 more coins fit, on any area.
    with pytest.raises(OverBankLimit, match="holds 1000 coins.*at most 50 more coins on this area"):
        services.round_bet(table_id=table.pk, user=carol, area="north", amount=60)
    with pytest.raises(BankerMayNotBet):
        services.round_bet(table_id=table.pk, user=bob, area="north", amount=10)
    assert wallet_balance(user=carol) == 5000
    with committing():
        services.round_bet(table_id=table.pk, user=carol, area="north", amount=50)
    from rooms.rounds.selectors import round_snapshot

    state = round_snapshot(table_id=table.pk, user=carol)
    assert state["round"]["bank"] == {"user": bob.pk, "coins": 1000, "exposure": 1000}
    assert [a["room"] for a in state["round"]["areas"]] == [0, 0, 0, 0]
    assert state["bank"]["banker"]["user"] == bob.pk and state["bank"]["minimum"] == 1000


def test_a_refunded_round_returns_the_bankers_coins_too(sangong, db, make_player):
    bob, alice = make_player(coins=2000), make_player(coins=1000)
    table, rnd = banked_round(make_tier(), bob, alice)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="east", amount=100)
        assert services.round_refund(round_id=rnd.pk, reason="test fault")
    assert (wallet_balance(user=bob), wallet_balance(user=alice)) == (2000, 1000)
    assert Round.objects.get(pk=rnd.pk).status == "refunded"
    assert Account.objects.get(code="escrow").balance == 0
