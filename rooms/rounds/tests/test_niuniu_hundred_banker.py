"""百人牛牛 on the round runtime with a player banker (上庄): paid and paying through the ledger,
stood down when short, bets past the bank limit refused (the helpers are 百人三公's)."""

import pytest
from django.db.models import Sum

import games
from games.base import GameInfo
from games.niuniu_hundred import present
from games.niuniu_hundred.engine import DEFAULT_OPTIONS, NiuniuHundredEngine
from rooms.rounds import services
from rooms.rounds.errors import BelowMinimum, OverBankLimit
from rooms.rounds.models import BankerSeat
from rooms.rounds.tests.conftest import committing
from rooms.rounds.tests.test_player_banker import banked_round, next_round, settle
from wallets.models import Account, LedgerEntry
from wallets.selectors import ledger_check, wallet_balance

pytestmark = pytest.mark.usefixtures("fast_rounds")

SLUG = "niuniu_hundred"


@pytest.fixture
def niuniu_hundred(monkeypatch):
    """The registered game, or the same built here before its registry line lands."""
    info = games.REGISTRY.get(SLUG) or GameInfo(
        slug=SLUG,
        name_zh="百人牛牛",
        name_en="Hundred-player Bull",
        family="banker",
        min_seats=1,
        max_seats=1,
        engine=NiuniuHundredEngine(),
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
    monkeypatch.setitem(games.REGISTRY, SLUG, info)


def make_tier(*, bank_minimum=2000, bank_rounds=3):
    from rooms.models import Game, RoomTier

    game, _ = Game.objects.get_or_create(
        slug=SLUG,
        defaults={
            "name_zh": "百人牛牛",
            "name_en": "Hundred-player Bull",
            "family": "banker",
            "min_seats": 1,
            "max_seats": 1,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="beginner",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={"bank_minimum": bank_minimum, "bank_rounds": bank_rounds},
    )


def coup(*hands):
    """The 25 cards that deal ``hands`` (banker, 福, 禄, 寿, 禧), one card to each in turn."""
    return [hand[i] for i in range(5) for hand in hands]


# Banker 牛8 (×3); 福 小牛牛 (wins ×10), 禄 牛牛 (×5), 寿 牛7 and 禧 无牛 (lose ×3).
COUP = coup(
    ["Ks", "Qs", "Js", "5s", "3s"],
    ["3h", "2s", "2h", "As", "Ah"],
    ["Kc", "Qc", "Jc", "9c", "Ac"],
    ["Kh", "Qh", "Jh", "4h", "3d"],
    ["Kd", "Qd", "9d", "8d", "7d"],
)


def test_a_player_banker_of_niuniu_hundred_is_paid_and_pays_through_the_ledger(
    niuniu_hundred, db, make_player
):
    bob = make_player(coins=5000)  # the banker
    alice, carol = make_player(coins=2000), make_player(coins=2000)
    table, rnd = banked_round(make_tier(), bob, alice, carol)
    assert (rnd.banker_id, rnd.bank, wallet_balance(user=bob)) == (bob.pk, 5000, 0)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="fu", amount=100)
        services.round_bet(table_id=table.pk, user=carol, area="shou", amount=100)
    assert wallet_balance(user=alice) == 1000  # a bet holds the most it can lose: 10 × 100 (小牛牛)
    rnd = settle(rnd, COUP)
    # alice: 小牛牛 beats 牛8, +1000 less 5% = 950; carol: 牛7 loses the banker's ×3, −300;
    # bob: −1000 + 300 = −700, a loss, so no fee. The house takes the 50 of rake and nothing else.
    assert (wallet_balance(user=alice), wallet_balance(user=carol), wallet_balance(user=bob)) == (
        2950,
        1700,
        4300,
    )
    assert (rnd.rake, Account.objects.get(code="escrow").balance) == (50, 0)
    entries = LedgerEntry.objects.filter(transaction__key=rnd.settle_key)
    assert not entries.filter(account__code="bank").exists()
    assert entries.aggregate(s=Sum("amount"))["s"] == 0
    assert ledger_check() == []


def test_the_niuniu_hundred_banker_wins_and_pays_the_fee(niuniu_hundred, db, make_player):
    bob, alice = make_player(coins=3000), make_player(coins=2000)
    table, rnd = banked_round(make_tier(), bob, alice)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="xi", amount=100)
    settle(rnd, COUP)  # 无牛 loses the banker's 牛8: ×3
    assert wallet_balance(user=alice) == 1700
    assert wallet_balance(user=bob) == 3000 + 300 - 15
    assert ledger_check() == []


def test_a_niuniu_hundred_banker_short_of_the_minimum_is_stood_down(niuniu_hundred, db, make_player):
    bob, dave, alice = make_player(coins=2500), make_player(coins=3000), make_player(coins=2000)
    table, rnd = banked_round(make_tier(bank_minimum=2000), bob, alice)
    with committing():
        services.round_bank_apply(table_id=table.pk, user=dave)
        services.round_bet(table_id=table.pk, user=alice, area="fu", amount=100)
    settle(rnd, COUP)  # alice's 小牛牛 takes 1000 of bob's 2500
    assert wallet_balance(user=bob) == 1500
    rnd = next_round(rnd)
    assert (rnd.banker_id, rnd.bank) == (dave.pk, 3000)
    seat = BankerSeat.objects.get(user=bob)
    assert (seat.status, seat.end_reason) == ("done", "short")
    assert ledger_check() == []


def test_bets_past_what_the_niuniu_hundred_banker_can_pay_are_refused(niuniu_hundred, db, make_player):
    bob, alice = make_player(coins=2000), make_player(coins=5000)
    table, _rnd = banked_round(make_tier(), bob, alice)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="fu", amount=150)
    # 2000 coins cover wins of 10 × 200 staked (小牛牛): 50 more coins fit, on any area.
    with pytest.raises(OverBankLimit, match="holds 2000 coins.*at most 50 more coins on this area"):
        services.round_bet(table_id=table.pk, user=alice, area="lu", amount=60)
    assert wallet_balance(user=alice) == 5000 - 1500


def test_the_demo_rooms_take_a_new_player_who_may_bank_the_beginner_room(
    niuniu_hundred, db, make_player, settings
):
    from rooms.demo import demo_tiers_for
    from rooms.models import Game
    from rooms.services import catalogue_sync, tier_ensure

    catalogue_sync()
    game = Game.objects.get(slug=SLUG)
    specs = demo_tiers_for(game)
    assert [spec["code"] for spec in specs] == ["beginner", "advanced"]
    for spec in specs:
        # Entering takes ten bets of the minimum, each holding 10× (小牛牛); 5% of winners' profit.
        held, _ = NiuniuHundredEngine().bet_exposure(DEFAULT_OPTIONS, "fu", spec["options"]["min_bet"])
        assert (spec["fixed_minimum"], spec["rake_bps"]) == (10 * held, 500)
        assert spec["options"]["bank_minimum"] >= spec["fixed_minimum"]
    tier, _created = tier_ensure(game=game, **specs[0])
    newcomer, alice = make_player(coins=settings.SIGNUP_GRANT_FIRST), make_player(coins=1000)
    table, rnd = banked_round(tier, newcomer, alice)
    assert (rnd.banker_id, rnd.bank) == (newcomer.pk, settings.SIGNUP_GRANT_FIRST)
    with committing():
        services.round_bet(table_id=table.pk, user=alice, area="xi", amount=10)
    assert wallet_balance(user=alice) == 900  # the 10-coin minimum bet holds 100
    with pytest.raises(BelowMinimum):
        services.round_bet(table_id=table.pk, user=alice, area="fu", amount=5)
