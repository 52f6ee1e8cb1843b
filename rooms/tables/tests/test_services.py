"""The runtime's services on the fake race-to-five game: seating, stakes, actions, timers, money."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from rooms.errors import EntryRefused
from rooms.tables import selectors, services
from rooms.tables.errors import ActionRefused, AlreadySeated, NotYourTurn
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import my_seat, open_hand, sit_connected, until_my_turn
from wallets.models import Account, LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def escrow_balance() -> int:
    return Account.objects.filter(code="escrow").values_list("balance", flat=True).first() or 0


def test_quick_start_seats_player_fills_bots_and_moves_the_carried_coins_to_escrow(tier, make_player):
    alice = make_player(coins=5000)
    table = services.table_quick_start(tier_id=tier.pk, user=alice)

    seats = list(table.seats.order_by("index"))
    assert [s.user_id is not None for s in seats] == [True, True]
    assert sorted(s.is_bot for s in seats) == [False, True]
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    assert len(hand.seed) == 32
    bot = next(s.user for s in seats if s.is_bot)
    carried = {p["user"]: p["carried"] for p in hand.players}
    assert tier.minimum_coins == 100 and carried[alice.pk] == 1000  # 10 × the minimum, by default
    assert wallet_balance(user=alice) == 4000  # the rest stays in the wallet
    assert escrow_balance() == 1000 + carried[bot.pk]
    stake = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:stake")
    assert stake.kind == "stake"
    assert selectors.seated_counts_by_tier() == {tier.pk: 1}


@pytest.mark.parametrize(
    ("balance", "carry_coins", "maximum", "carried"),
    [
        (5000, None, None, 1000),  # TABLE_CARRY_MULTIPLE (10) × the minimum (100)
        (1000, None, None, 1000),
        (999, None, None, 100),  # less than the carry: the minimum, never the wallet
        (100, None, None, 100),
        (5000, 2500, None, 2500),  # the tier's own carry
        (2499, 2500, None, 100),
        (2500, None, 3000, 1000),
        (2500, 4000, 3000, 100),  # the maximum to enter caps the carry: 3000 > 2500 held
        (40, None, None, 40),  # below the minimum (a bot's wallet): what it holds
    ],
)
def test_a_seat_carries_the_tiers_carry_or_its_minimum(tier, balance, carry_coins, maximum, carried):
    """携带: a seat's stack is shown to the table, so it is one of two public amounts, not the wallet."""
    from rooms.tables.hands import carried_amount

    tier.carry_coins, tier.maximum_coins = carry_coins, maximum
    assert carried_amount(tier=tier, balance=balance) == carried


def test_the_carry_multiple_is_a_setting(tier, settings):
    from rooms.tables.hands import carried_amount

    settings.TABLE_CARRY_MULTIPLE = 3
    assert carried_amount(tier=tier, balance=5000) == 300


def test_a_carry_below_the_minimum_is_refused(tier):
    from django.core.exceptions import ValidationError

    tier.carry_coins = 99
    with pytest.raises(ValidationError, match="below the minimum to enter"):
        tier.full_clean()


def test_carried_coins_are_capped_by_the_tier_maximum(tier, make_player):
    tier.maximum_coins = tier.carry_coins = 3000
    tier.save()
    alice = make_player(coins=3000)
    hand = open_hand(services.table_quick_start(tier_id=tier.pk, user=alice))
    assert wallet_balance(user=alice) == 0
    tier.maximum_coins = 2000
    tier.save()
    bob = make_player(coins=2000)
    Seat.objects.filter(user=alice).update(user=None)
    assert hand is not None
    hand2 = open_hand(services.table_quick_start(tier_id=tier.pk, user=bob))
    assert {p["user"]: p["carried"] for p in hand2.players}[bob.pk] == 2000


def test_quick_start_refuses_a_player_below_the_minimum(tier, make_player):
    poor = make_player(coins=40)
    with pytest.raises(EntryRefused, match="100"):
        services.table_quick_start(tier_id=tier.pk, user=poor)
    assert not Seat.objects.filter(user=poor).exists()
    assert not Table.objects.exists()


def test_a_player_sits_at_one_table_at_a_time(tier, make_player):
    alice = make_player()
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    with pytest.raises(AlreadySeated, match=f"table {table.pk}"):
        services.table_quick_start(tier_id=tier.pk, user=alice)
    other = Table.objects.create(tier=tier, seat_count=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=other, index=0, user=alice)


def test_wrong_turn_and_illegal_actions_change_nothing(tier, make_player):
    alice = make_player()
    table = sit_connected(alice, tier)
    hand = until_my_turn(table, alice)
    assert hand is not None
    seq, count = Table.objects.get(pk=table.pk).seq, hand.action_count

    with pytest.raises(ActionRefused, match="Add 1 or 2"):
        services.table_act(table_id=table.pk, user=alice, action={"type": "add", "n": 7})
    hand.refresh_from_db()
    assert (Table.objects.get(pk=table.pk).seq, hand.action_count) == (seq, count)

    services.table_act(table_id=table.pk, user=alice, action={"type": "add", "n": 1})
    hand.refresh_from_db()
    if hand.status == "playing":
        with pytest.raises(NotYourTurn, match="not your turn"):
            services.table_act(table_id=table.pk, user=alice, action={"type": "add", "n": 1})
    entry = HandAction.objects.get(hand=hand, n=count + 1)
    assert (entry.seat, entry.action, entry.auto) == (my_seat(alice).index, {"type": "add", "n": 1}, False)


def test_timeout_puts_the_player_under_trustee_until_they_take_control_back(tier, make_player):
    alice = make_player()
    table = sit_connected(alice, tier)
    hand = until_my_turn(table, alice)
    assert hand is not None and hand.deadline is not None
    expire(hand)
    hand.refresh_from_db()
    assert services.table_timeout(hand_id=hand.pk, token=hand.deadline_token) is True

    assert my_seat(alice).trustee is True
    mine = HandAction.objects.filter(hand=hand, seat=my_seat(alice).index).last()
    assert mine.auto is True and mine.action == {"type": "add", "n": 1}
    # Under 托管 the server keeps playing for her with no click: the hand runs to its end.
    run_clock()
    hand.refresh_from_db()
    assert hand.status == "settled"

    services.table_ready(table_id=table.pk, user=alice)
    hand = until_my_turn(table, alice) if not my_seat(alice).trustee else None
    services.table_trustee(table_id=table.pk, user=alice, on=False)
    assert my_seat(alice).trustee is False


def test_a_stale_timer_does_nothing(tier, make_player):
    alice = make_player()
    table = sit_connected(alice, tier)
    hand = until_my_turn(table, alice)
    old_token = hand.deadline_token
    services.table_act(table_id=table.pk, user=alice, action={"type": "add", "n": 1})
    hand.refresh_from_db()
    assert hand.status == "playing"  # 1 (+2 by the bot) cannot reach five yet
    expire(hand)
    count = hand.action_count
    assert services.table_timeout(hand_id=hand.pk, token=old_token) is False
    hand.refresh_from_db()
    assert hand.action_count == count


def test_a_hand_that_cannot_continue_is_cancelled_and_refunded(tier, make_player):
    alice = make_player(coins=3000)
    table = sit_connected(alice, tier)
    hand = until_my_turn(table, alice)
    escrowed = escrow_balance()
    assert escrowed > 0
    services.table_act(table_id=table.pk, user=alice, action={"type": "break"})
    run_clock()  # the bot's turn: the engine's auto action now fails

    hand.refresh_from_db()
    assert hand.status == "cancelled"
    assert "could not continue" in hand.cancel_reason
    assert wallet_balance(user=alice) == 3000
    assert escrow_balance() == 0
    refund = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:refund")
    assert refund.kind == "refund"
    assert not LedgerTransaction.objects.filter(key=f"hand:{hand.pk}:settle").exists()


def test_hand_cancel_refunds_every_stake(tier, make_player):
    alice = make_player(coins=3000)
    table = sit_connected(alice, tier)
    hand = open_hand(table)
    assert services.hand_cancel(hand_id=hand.pk, reason="Staff stopped the table.") is True
    assert services.hand_cancel(hand_id=hand.pk, reason="again") is False
    assert wallet_balance(user=alice) == 3000
    assert escrow_balance() == 0


def play_out(table, user) -> Hand:
    hand = open_hand(table)
    services.table_trustee(table_id=table.pk, user=user, on=True)
    run_clock()
    hand.refresh_from_db()
    return hand


def test_settlement_pays_carried_plus_result_after_rake_once(tier, make_player):
    tier.rake_bps = 1000  # 10%: a fee of 1 on the winner's 10 (5% would be 0.5, rounded down to none)
    tier.save(update_fields=["rake_bps"])
    alice = make_player(coins=1000)
    table = sit_connected(alice, tier)
    hand = play_out(table, alice)
    assert hand.status == "settled"
    tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
    assert hand.settlement_key == tx.key
    me = my_seat(alice).index if Seat.objects.filter(user=alice).exists() else None
    won = me in hand.outcome["winners"]
    # Base stake 10; the 10% fee on the winner's profit of 10 is 1 → 9 net.
    assert wallet_balance(user=alice) == (1009 if won else 990)
    assert escrow_balance() == 0
    rake = Account.objects.get(code="rake").balance
    assert rake == 1

    assert services.hand_settle(hand_id=hand.pk) is None
    assert LedgerTransaction.objects.filter(key__startswith=f"hand:{hand.pk}:settle").count() == 1
    assert wallet_balance(user=alice) == (1009 if won else 990)


def test_a_hand_settles_under_the_rake_it_was_dealt_with(tier, make_player):
    """Staff raising a tier's rake changes the hands dealt after the edit, not the one in play."""
    alice = make_player(coins=1000)
    table = sit_connected(alice, tier)
    tier.rake_bps = 2000  # 20%, while the hand dealt at 5% is played
    tier.save(update_fields=["rake_bps"])
    assert play_out(table, alice).status == "settled"
    # 5% of the winner's 10 is 0.5, rounded down: no fee (20% would have been 2).
    assert Account.objects.get(code="rake").balance == 0

    services.table_ready(table_id=table.pk, user=alice)
    assert play_out(table, alice).status == "settled"
    assert Account.objects.get(code="rake").balance == 2


def test_wins_count_toward_levels_for_humans_only(tier, make_player):
    from platform.accounts.models import GameStats

    alice = make_player()
    table = sit_connected(alice, tier)
    hand = play_out(table, alice)
    stats = GameStats.objects.get(user=alice, game_slug="racetofive")
    assert stats.hands == 1
    assert stats.wins == (1 if my_seat(alice).index in hand.outcome["winners"] else 0)
    assert GameStats.objects.count() == 1


def test_conservation_after_many_hands_the_ledger_sums_to_zero_and_escrow_is_empty(tier, make_player):
    alice = make_player(coins=2000)
    table = sit_connected(alice, tier)
    for _ in range(8):
        hand = play_out(table, alice)
        assert hand.status == "settled"
        services.table_ready(table_id=table.pk, user=alice)
    assert Hand.objects.filter(status="settled").count() >= 8
    assert escrow_balance() in (0, sum(p["carried"] for p in open_hand(table).players))
    from django.db.models import Sum

    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_threads_settling_one_hand_post_one_transaction(tier, make_player):
    alice = make_player(coins=1000)
    table = sit_connected(alice, tier)
    hand = open_hand(table)
    # Finish the hand without settling it, so both threads race for the settlement.
    Hand.objects.filter(pk=hand.pk).update(
        status="finished", outcome={"deltas": [10, -10], "winners": [0], "details": {}}
    )
    results = []
    barrier = threading.Barrier(2)

    def settle():
        try:
            barrier.wait()
            results.append(services.hand_settle(hand_id=hand.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=settle) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results, key=str) == [None, f"hand:{hand.pk}:settle"]
    assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}", kind="settlement").count() == 1
    assert escrow_balance() == 0


def test_the_tick_settles_a_hand_whose_settlement_task_was_lost(tier, make_player):
    from django.utils import timezone

    alice = make_player(coins=1000)
    table = sit_connected(alice, tier)
    hand = open_hand(table)
    Hand.objects.filter(pk=hand.pk).update(
        status="finished",
        finished_at=timezone.now() - timezone.timedelta(minutes=5),
        outcome={"deltas": [10, -10], "winners": [0], "details": {}},
    )
    run_clock()
    hand.refresh_from_db()
    assert hand.status == "settled"
    assert LedgerTransaction.objects.filter(key=f"hand:{hand.pk}:settle").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_players_quick_starting_at_once_fill_tables_instead_of_opening_one_each(tier, make_player):
    """Six players at once at a two-seat tier without bots: three full tables, every hand started."""
    tier.bots_enabled = False
    tier.save(update_fields=["bots_enabled"])
    players = [make_player(coins=1000) for _ in range(6)]
    barrier = threading.Barrier(len(players))
    errors = []

    def quick_start(user):
        try:
            barrier.wait()
            services.table_quick_start(tier_id=tier.pk, user=user)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=quick_start, args=(user,)) for user in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    tables = Table.objects.filter(tier=tier)
    assert tables.count() == 3
    for table in tables:
        assert table.seats.filter(user__isnull=False, is_bot=False).count() == 2


def test_quick_start_picks_a_waiting_table_at_random_weighted_to_fill_it(tier, make_player, monkeypatch):
    """分组: never simply the table the last arrival joined, but likelier where more players wait."""
    from rooms.tables import seating
    from rooms.tables.seating import _table_create, quick_start_choice

    tier.bots_enabled = False
    tier.save(update_fields=["bots_enabled"])
    carol, alice, bob = (make_player(coins=1000) for _ in range(3))
    first = services.table_quick_start(tier_id=tier.pk, user=carol)  # opens the tier's first table
    newer = _table_create(tier)  # an empty table, as one left behind by players who went away
    # Weights 1 + 2 × the humans waiting: carol's table 3, the empty one 1.
    assert [quick_start_choice([first, newer], {first.pk: 1}, pick=n) for n in range(4)] == [first] * 3 + [
        newer
    ]
    monkeypatch.setattr(seating.secrets, "randbelow", lambda n: n - 1)  # the last ticket: the empty table
    assert services.table_quick_start(tier_id=tier.pk, user=alice) == newer
    assert services.table_quick_start(tier_id=tier.pk, user=bob) in (first, newer)  # each had room
    assert Table.objects.filter(tier=tier).count() == 2


def test_a_wallet_beyond_the_ledgers_limit_still_plays_carrying_the_cap(tier, make_player):
    """A stake moves a seat's coins in one leg, which the ledger takes up to MAX_AMOUNT.

    Carrying a whole balance above that, the stake was refused at every deal: no hand ever
    started while that player sat at the table. Each seat now carries at most CARRY_CAP
    (one tenth of the limit, so ten seats' stakes fit in the escrow leg).
    """
    import games
    from rooms.tables.hands import CARRY_CAP
    from wallets.models import MAX_AMOUNT
    from wallets.services import wallet_deposit

    assert CARRY_CAP * max(info.max_seats for info in games.REGISTRY.values()) <= MAX_AMOUNT
    whale = make_player(coins=MAX_AMOUNT)
    wallet_deposit(user=whale, amount=MAX_AMOUNT, key="whale-2", reason="test setup")
    tier.carry_coins = MAX_AMOUNT  # a tier carrying more than one leg may hold
    tier.save(update_fields=["carry_coins"])
    hand = open_hand(sit_connected(whale, tier))
    assert hand is not None and hand.status == "playing"
    assert {p["user"]: p["carried"] for p in hand.players}[whale.pk] == CARRY_CAP
    assert wallet_balance(user=whale) == 2 * MAX_AMOUNT - CARRY_CAP


def test_a_seat_is_told_whether_it_acts_and_of_the_others_only_what_the_game_shows(
    tier, make_player, monkeypatch
):
    """``Engine.shown_actors``: a game whose actors are a secret (who may claim a discard) shows a wider set."""
    from rooms.tables.tests.fake_game import RaceToFive

    alice, watcher = make_player(), make_player()
    table = sit_connected(alice, tier)
    hand = until_my_turn(table, alice)
    mine = my_seat(alice).index
    snapshot = selectors.table_snapshot(table_id=table.pk, user=alice)
    assert snapshot["hand"]["actors"] == [mine]  # by default the actors themselves

    seats = list(range(len(hand.players)))
    monkeypatch.setattr(RaceToFive, "shown_actors", lambda self, state: seats, raising=False)
    assert selectors.table_snapshot(table_id=table.pk, user=alice)["hand"]["actors"] == seats
    assert selectors.table_snapshot(table_id=table.pk, user=watcher)["hand"]["actors"] == seats

    monkeypatch.setattr(RaceToFive, "actors", lambda self, state: [i for i in seats if i != mine])
    # Alice is not acting now: she is told so, and sees every other seat as possibly acting.
    snapshot = selectors.table_snapshot(table_id=table.pk, user=alice)
    assert snapshot["hand"]["actors"] == [i for i in seats if i != mine]
