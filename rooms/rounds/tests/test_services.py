"""The round runtime's services: entering, betting and its limits, the clock, payouts and refunds."""

import json
import time
from unittest import mock

import pytest
from django.db.models import Sum
from django.utils import timezone

from rooms.errors import EntryRefused
from rooms.rounds import services
from rooms.rounds.broadcast import public_state
from rooms.rounds.errors import RoundError
from rooms.rounds.models import Bet, Round, Shoe, Viewer
from rooms.rounds.tests.conftest import (
    BANKER_NATURAL_9,
    BANKER_WINS_6,
    PLAYER_NATURAL_9,
    PLAYER_PAIR_8,
    TIE_8,
    advance,
    committing,
    expire,
    live_round,
    make_tier,
    open_round,
    run_to,
    stack_shoe,
    tick,
    watch,
)
from rooms.tables.models import Table
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def bet(table, user, area, amount):
    return services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def escrow_net(rnd) -> int:
    return (
        LedgerEntry.objects.filter(
            transaction__reference=f"round:{rnd.pk}", account__code="escrow"
        ).aggregate(s=Sum("amount"))["s"]
        or 0
    )


def house(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance if account else 0


# --- entering and idling ------------------------------------------------------------


def test_entering_gives_every_player_the_tiers_one_table(bacc_tier, make_player):
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table = services.round_enter(tier_id=bacc_tier.pk, user=alice)
    assert services.round_enter(tier_id=bacc_tier.pk, user=bob) == table
    assert table.seat_count == 0 and table.status == Table.Status.PLAYING
    assert Table.objects.filter(tier=bacc_tier).count() == 1


def test_entering_checks_the_tiers_entry_rule(bacc_tier, make_player):
    poor = make_player(coins=99)
    with pytest.raises(EntryRefused, match="needs at least 100 coins to enter; your balance is 99"):
        services.round_enter(tier_id=bacc_tier.pk, user=poor)
    assert not Table.objects.filter(tier=bacc_tier).exists()


def test_a_table_nobody_watches_opens_no_round(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table = services.round_enter(tier_id=bacc_tier.pk, user=alice)
    assert tick() == 0
    assert not Round.objects.exists()

    channel = watch(table, alice)
    services.round_presence(table_id=table.pk, user=alice, channel=channel, connected=False)
    Viewer.objects.filter(channel=channel).update(left_at=timezone.now() - timezone.timedelta(seconds=31))
    assert tick() == 0  # the last viewer left more than 30 s ago: idle
    assert not Round.objects.exists()

    Viewer.objects.filter(channel=channel).update(left_at=timezone.now() - timezone.timedelta(seconds=10))
    assert tick() == 1  # left 10 s ago: they may be reloading the page
    assert live_round(table).phase == "betting"


def test_a_socket_not_heard_of_for_minutes_stops_keeping_the_table_going(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table = services.round_enter(tier_id=bacc_tier.pk, user=alice)
    channel = watch(table, alice)
    # Its ASGI process died: the row still says "connected", but nothing refreshes it.
    Viewer.objects.filter(channel=channel).update(seen_at=timezone.now() - timezone.timedelta(seconds=121))
    assert tick() == 0
    services.round_presence_seen(channel=channel)
    assert tick() == 1


def test_rows_of_sockets_gone_for_an_hour_are_deleted_when_someone_enters(bacc_tier, make_player):
    """A socket whose close was never recorded (its process was killed) left an open row for good."""
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table = services.round_enter(tier_id=bacc_tier.pk, user=alice)
    killed, closed, quiet = (watch(table, alice, f"test-{name}") for name in ("killed", "closed", "quiet"))
    services.round_presence(table_id=table.pk, user=alice, channel=closed, connected=False)
    hour_ago = timezone.now() - timezone.timedelta(minutes=61)
    Viewer.objects.filter(channel=killed).update(seen_at=hour_ago)
    Viewer.objects.filter(channel=closed).update(left_at=hour_ago)
    Viewer.objects.filter(channel=quiet).update(seen_at=timezone.now() - timezone.timedelta(minutes=59))

    watch(table, bob)
    assert set(Viewer.objects.filter(table=table).values_list("user_id", "channel")) == {
        (alice.pk, quiet),
        (bob.pk, Viewer.objects.get(user=bob).channel),
    }


def test_an_idle_table_lets_its_last_round_finish_and_opens_no_next(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    Viewer.objects.filter(table=table).update(left_at=timezone.now() - timezone.timedelta(minutes=5))
    run_to(rnd, "over")
    assert live_round(table) is None
    assert Round.objects.filter(table=table).count() == 1
    assert public_state(table)["round"] is None


def test_the_clock_drives_the_rounds(bacc_tier, make_player, settings):
    from rooms.rounds.tasks import tick

    assert settings.CELERY_BEAT_SCHEDULE["rounds-tick"]["task"] == tick.name
    alice = make_player(coins=1000)
    table = services.round_enter(tier_id=bacc_tier.pk, user=alice)
    watch(table, alice)
    assert tick() >= 1
    assert live_round(table).phase == "betting"


# --- the phases over time -----------------------------------------------------------


def test_a_round_goes_betting_dealing_result_and_the_next_opens(bacc_tier, make_player, settings):
    settings.ROUNDS_REVEAL_MS = 50
    settings.ROUNDS_RESULT_SECONDS = 0.3
    alice = make_player(coins=1000)
    table, first = open_round(bacc_tier, alice)
    assert timezone.timedelta(seconds=14) < first.deadline - timezone.now() <= timezone.timedelta(seconds=15)
    bet(table, alice, "player", 100)
    settings.ROUNDS_BET_SECONDS = 0.3  # the next round's countdown; this one closes in 0.3 s too
    Round.objects.filter(pk=first.pk).update(deadline=timezone.now() + timezone.timedelta(seconds=0.3))
    seen = []
    revealed = []
    started = time.monotonic()
    while time.monotonic() - started < 10:
        tick()
        first.refresh_from_db()
        if not seen or seen[-1] != first.phase:
            seen.append(first.phase)
        if first.phase == "dealing":
            revealed.append(first.revealed)
        if first.phase == "over":
            break
        time.sleep(0.02)
    assert seen == ["betting", "dealing", "result", "over"]
    steps = len(first.result["steps"])
    assert sorted(set(revealed)) == list(range(steps + 1))  # one card at a time
    assert first.status == "settled"
    nxt = live_round(table)
    assert nxt.number == 2 and nxt.phase == "betting" and nxt.shoe_id == first.shoe_id
    assert nxt.coup == first.coup + 1 == 2
    assert nxt.deadline - nxt.opened_at <= timezone.timedelta(seconds=0.3)


def test_a_finished_shoe_is_replaced_and_its_seed_revealed(bacc_tier, make_player):
    import hashlib

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    shoe.state = {
        **shoe.state,
        "cut_position": shoe.state["position"] + 1,
    }  # this coup brings out the cut card
    shoe.save()
    run_to(rnd, "over")
    shoe.refresh_from_db()
    assert shoe.finished_at is not None
    nxt = live_round(table)
    assert nxt.shoe.number == 2 and nxt.coup == 1
    last = public_state(table)["last_shoe"]
    assert last["number"] == 1
    assert last["seed"] == bytes(shoe.seed).hex()
    assert last["seed_sha256"] == hashlib.sha256(bytes(shoe.seed)).hexdigest()
    assert (
        public_state(table)["round"]["shoe_seed_sha256"] == hashlib.sha256(bytes(nxt.shoe.seed)).hexdigest()
    )


# --- betting ------------------------------------------------------------------------


def test_a_bet_moves_the_coins_into_escrow_at_once(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    escrow_before = house("escrow")
    bet(table, alice, "banker", 100)
    bet(table, alice, "banker", 50)
    bet(table, alice, "tie", 10)
    assert wallet_balance(user=alice) == 840
    assert house("escrow") == escrow_before + 160
    rnd.refresh_from_db()
    assert rnd.staked == 160 and rnd.area_totals == {"banker": 150, "tie": 10}
    bets = list(Bet.objects.filter(round=rnd).order_by("pk"))
    assert [b.ledger_key for b in bets] == [f"round:{rnd.pk}:bet:{b.pk}" for b in bets]
    txns = LedgerTransaction.objects.filter(reference=f"round:{rnd.pk}", kind="bet")
    assert sorted(txns.values_list("key", flat=True)) == sorted(b.ledger_key for b in bets)


def _snapshot(users, rnd):
    return (
        [wallet_balance(user=u) for u in users],
        Bet.objects.count(),
        LedgerTransaction.objects.count(),
        Round.objects.filter(pk=rnd.pk).values_list("staked", "area_totals").get(),
    )


@pytest.mark.parametrize(
    ("setup", "area", "amount", "code", "message"),
    [
        ("closed", "banker", 100, "betting_closed", "Betting is closed for this round."),
        ("dealing", "banker", 100, "betting_closed", "Betting is closed for this round."),
        (None, "dragon", 100, "bad_area", "There is no such betting area at this table."),
        (None, "big", 100, "bad_area", "There is no such betting area at this table."),
        (None, "banker", 5, "below_minimum", "The smallest bet at this table is 10 coins."),
        (None, "banker", 0, "malformed", "A bet must be a positive whole number of coins."),
        (None, "banker", -10, "malformed", "A bet must be a positive whole number of coins."),
        (None, "banker", "100", "malformed", "A bet must be a positive whole number of coins."),
        (None, "banker", True, "malformed", "A bet must be a positive whole number of coins."),
        (None, "banker", 10**20, "malformed", "A bet must be a positive whole number of coins."),
        (
            "tie_2400",
            "tie",
            200,
            "over_area_limit",
            "at most 2500 coins a round; you already have 2400 on it",
        ),
        ("others_4990", "tie", 20, "over_table_limit", "at most 5000 coins; 10 more can be taken"),
        (None, "banker", 5001, "insufficient_coins", "You have 5000 coins; that bet needs 5001."),
    ],
)
def test_a_refused_bet_changes_nothing(bacc_tier, make_player, setup, area, amount, code, message):
    alice, whale = make_player(coins=5000), make_player(coins=300000)
    table, rnd = open_round(bacc_tier, alice)
    if setup == "closed":
        expire(rnd)
    elif setup == "dealing":
        run_to(rnd, "dealing")
    elif setup == "tie_2400":
        bet(table, alice, "tie", 2400)
    elif setup == "others_4990":
        rnd.config = {**rnd.config, "table_limit": 5000}
        rnd.save(update_fields=["config"])
        bet(table, whale, "player", 4000)
        bet(table, whale, "banker", 990)
    before = _snapshot([alice, whale], rnd)
    with pytest.raises(RoundError, match=message) as refused:
        bet(table, alice, area, amount)
    assert refused.value.code == code
    assert _snapshot([alice, whale], rnd) == before


def test_a_wallet_below_the_tiers_minimum_plays_no_new_round(bacc_tier, make_player):
    from wallets.services import wallet_adjust

    alice, bob = make_player(coins=1000), make_player(coins=120)
    table, rnd = open_round(bacc_tier, alice)
    wallet_adjust(user=alice, amount=-950, key="test:lost-elsewhere", reason="test")
    before = _snapshot([alice, bob], rnd)
    with pytest.raises(EntryRefused, match="needs at least 100 coins to enter; your balance is 50"):
        bet(table, alice, "banker", 10)
    assert _snapshot([alice, bob], rnd) == before
    # The rule is the door of a round, not of each chip: bob's second bet may take him below it.
    bet(table, bob, "banker", 50)
    bet(table, bob, "player", 50)
    assert wallet_balance(user=bob) == 20


def test_big_and_small_close_from_the_thirtieth_coup(super6_tier, make_player):
    from rooms.rounds.broadcast import engine_for

    alice = make_player(coins=5000)
    table, rnd = open_round(super6_tier, alice)
    bet(table, alice, "big", 100)  # open on the first coup
    rnd.areas = engine_for("baccarat").areas(rnd.config, {**rnd.shoe.state, "coups": 29})
    rnd.save()
    before = _snapshot([alice], rnd)
    with pytest.raises(RoundError, match="That area takes no bets in this round.") as refused:
        bet(table, alice, "small", 100)
    assert refused.value.code == "area_closed"
    assert _snapshot([alice], rnd) == before


# --- payouts --------------------------------------------------------------------------


def settle(table, rnd, cards):
    stack_shoe(rnd, cards)
    run_to(rnd, "result")
    rnd.refresh_from_db()
    assert rnd.status == "settled"  # eager Celery: the payout ran on entering the result
    return rnd


def test_commission_payouts_are_exact_and_the_commission_rounds_down(bacc_tier, make_player):
    alice, bob, carol = make_player(coins=1000), make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bank = house("bank")
    bet(table, alice, "banker", 105)  # wins 105 less the commission ⌊5.25⌋ = 5 → 100
    bet(table, bob, "player", 100)  # loses
    bet(table, carol, "tie", 10)  # loses
    bet(table, carol, "banker_pair", 10)  # loses
    rnd = settle(table, rnd, BANKER_NATURAL_9)
    assert wallet_balance(user=alice) == 1000 + 100
    assert wallet_balance(user=bob) == 900
    assert wallet_balance(user=carol) == 980
    assert house("bank") == bank + 100 + 20 - 100
    assert escrow_net(rnd) == 0
    assert rnd.paid == 105 + 100 and rnd.rake == 0
    assert {b.area: b.net for b in rnd.bets.all()} == {
        "banker": 100,
        "player": -100,
        "tie": -10,
        "banker_pair": -10,
    }


def test_a_tie_returns_banker_and_player_bets_and_pays_eight_to_one(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 100)
    bet(table, alice, "player", 50)
    bet(table, alice, "tie", 20)
    settle(table, rnd, TIE_8)
    assert wallet_balance(user=alice) == 1000 + 8 * 20


def test_a_player_pair_pays_eleven_to_one(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player_pair", 10)
    bet(table, alice, "player", 100)
    settle(table, rnd, PLAYER_PAIR_8)
    assert wallet_balance(user=alice) == 1000 + 110 + 100


def test_super6_pays_half_on_a_banker_six_and_twelve_on_super6(super6_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(super6_tier, alice)
    bet(table, alice, "banker", 15)  # 1:0.5 → 7.5 → 7
    bet(table, alice, "super6", 10)  # 1:12 → 120
    bet(table, alice, "big", 10)  # 5 cards: 1:0.5 → 5
    bet(table, alice, "small", 10)  # loses
    settle(table, rnd, BANKER_WINS_6)
    assert wallet_balance(user=alice) == 1000 + 7 + 120 + 5 - 10


def test_rake_takes_the_tiers_share_of_each_players_net_profit(db, make_player):
    tier = make_tier(code="raked", rake_bps=500)
    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(tier, alice)
    rake = house("rake")
    bet(table, alice, "player", 110)  # +110, rake 5.5 → alice gets 104 (rounded down), rake 6
    bet(table, alice, "banker", 10)  # −10: alice's round profit is 100 → rake 5
    bet(table, bob, "banker", 50)
    rnd = settle(table, rnd, PLAYER_NATURAL_9)
    assert wallet_balance(user=alice) == 1000 + 95
    assert wallet_balance(user=bob) == 950
    assert house("rake") == rake + 5 and rnd.rake == 5
    assert escrow_net(rnd) == 0


def test_settling_twice_posts_one_payout(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player", 100)
    with mock.patch("rooms.rounds.services._queue_settlement"):
        stack_shoe(rnd, PLAYER_NATURAL_9)
        run_to(rnd, "result")
    rnd.refresh_from_db()
    assert rnd.status == "due"
    from rooms.rounds.tasks import settle_round

    with committing():
        assert services.round_settle(round_id=rnd.pk) == f"round:{rnd.pk}:settle"
        assert services.round_settle(round_id=rnd.pk) is None
        settle_round.delay(rnd.pk)
    assert LedgerTransaction.objects.filter(reference=f"round:{rnd.pk}", kind="payout").count() == 1
    assert wallet_balance(user=alice) == 1100
    assert escrow_net(rnd) == 0


def test_the_tick_requeues_a_lost_payout(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player", 100)
    with mock.patch("rooms.rounds.services._queue_settlement"):  # the queued task is lost
        stack_shoe(rnd, PLAYER_NATURAL_9)
        run_to(rnd, "result")
    Round.objects.filter(pk=rnd.pk).update(result_at=timezone.now() - timezone.timedelta(seconds=31))
    tick()
    rnd.refresh_from_db()
    assert rnd.status == "settled"
    assert wallet_balance(user=alice) == 1100


def test_payout_counts_a_round_played_per_bettor(bacc_tier, make_player):
    from platform.accounts.models import GameStats

    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "player", 100)
    bet(table, alice, "banker", 100)
    bet(table, bob, "banker", 100)
    settle(table, rnd, PLAYER_NATURAL_9)
    stats = {s.user_id: (s.hands, s.wins) for s in GameStats.objects.filter(game_slug="baccarat")}
    assert stats == {alice.pk: (1, 0), bob.pk: (1, 0)}  # alice's round nets 0: played, not won


# --- faults ---------------------------------------------------------------------------


def test_a_round_the_engine_cannot_deal_refunds_every_bet(bacc_tier, make_player):
    from rooms.rounds.broadcast import engine_for

    alice, bob = make_player(coins=1000), make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 100)
    bet(table, alice, "tie", 10)
    bet(table, bob, "player", 300)
    engine = engine_for("baccarat")
    with mock.patch.object(type(engine), "deal", side_effect=RuntimeError("shoe jammed")):
        expire(rnd)
        advance(table.pk)
    rnd.refresh_from_db()
    assert (rnd.status, rnd.phase) == ("refunded", "over")
    assert rnd.refund_reason == "The round could not be dealt."
    assert wallet_balance(user=alice) == 1000 and wallet_balance(user=bob) == 1000
    assert LedgerTransaction.objects.get(key=f"round:{rnd.pk}:refund").kind == "refund"
    assert escrow_net(rnd) == 0
    tick()
    assert live_round(table).number == 2  # the table goes on


def test_round_refund_returns_the_bets_once(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    bet(table, alice, "banker", 100)
    assert services.round_refund(round_id=rnd.pk, reason="Staff stopped the table.") is True
    assert services.round_refund(round_id=rnd.pk, reason="Staff stopped the table.") is False
    assert services.round_settle(round_id=rnd.pk) is None
    assert wallet_balance(user=alice) == 1000
    assert escrow_net(rnd) == 0


# --- what viewers may see ---------------------------------------------------------------


def strings_in(value) -> set[str]:
    """Every string anywhere in a JSON-able value (keys and values)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(value), *(strings_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value))
    return set()


def test_no_state_shows_a_card_before_it_is_revealed(bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    stack_shoe(rnd, BANKER_WINS_6)
    seen = [public_state(table)]
    rnd = run_to(rnd, "dealing")
    steps = rnd.result["steps"]
    assert [s["card"] for s in steps] == ["Ks", "6h", "4c", "Qd", "Kh"]
    while rnd.phase == "dealing":
        state = public_state(table)
        values = strings_in(state)
        hidden = [s["card"] for s in steps[rnd.revealed :]]
        shown = [s["card"] for s in steps[: rnd.revealed]]
        assert not [card for card in hidden if card not in shown and card in values], (rnd.revealed, state)
        assert state["round"]["result"] is None
        assert sum(len(c) for c in state["round"]["cards"].values()) == rnd.revealed
        seen.append(state)
        expire(rnd)
        advance(table.pk)
        rnd.refresh_from_db()
    # Totals follow the revealed cards: after P Ks, B 6h the player shows 0, the banker 6.
    assert seen[3]["round"]["cards"] == {"player": ["Ks"], "banker": ["6h"]}
    assert seen[3]["round"]["totals"] == {"player": 0, "banker": 6}
    final = public_state(table)["round"]
    assert final["phase"] == "result" and final["result"]["winner"] == "banker"
    assert "steps" not in final["result"]
    assert "cards" not in json.dumps(seen[0]["roads"])  # the roads hold winners only


def test_a_round_without_a_table_limit_takes_no_more_than_it_can_pay_out(db, make_player):
    """A tier may drop the table limit; a round's bets still stop where one payout can carry them.

    Each leg of the payout transaction must stay within the ledger's limit: 2×10^14 on a
    tie that wins pays 1.8×10^15 back, which the ledger refuses, so the round stayed
    unpaid for ever and the stake stayed in escrow. Such a bet is refused up front.
    """
    from wallets.models import MAX_AMOUNT

    tier = make_tier(code="vip", table_limit=None, area_limits={})
    alice = make_player(coins=MAX_AMOUNT)
    table, rnd = open_round(tier, alice)
    cap = services.ROUND_STAKE_CAP
    assert cap == MAX_AMOUNT // 100
    with pytest.raises(RoundError, match=rf"may total at most {cap} coins; {cap} more can be taken"):
        bet(table, alice, "tie", 2 * 10**14)
    assert wallet_balance(user=alice) == MAX_AMOUNT
    bet(table, alice, "tie", cap - 10)
    with pytest.raises(RoundError, match="; 10 more can be taken"):
        bet(table, alice, "banker", 11)
    bet(table, alice, "banker", 10)
    settle(table, rnd, TIE_8)
    assert wallet_balance(user=alice) == MAX_AMOUNT + 8 * (cap - 10)
    assert escrow_net(rnd) == 0


def test_every_coup_of_a_finished_shoe_is_dealt_from_its_revealed_seed_in_order(bacc_tier, make_player):
    """Verify for a house-banked game: the shoe is re-derived here from the seed the table reveals,
    as a player would (docs/rules/baccarat.md: 8 decks, ``SeededRng(seed, "shoe")``'s shuffle, each
    coup dealt from the front: P, B, P, B, then the thirds), and every coup's cards follow in order."""
    from games.base import SeededRng

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    shoe.state = {**shoe.state, "cut_position": shoe.state["position"] + 20}  # a short shoe: 4 to 6 coups
    shoe.save()
    while True:
        run_to(rnd, "over")
        shoe.refresh_from_db()
        if shoe.finished_at is not None:
            break
        rnd = live_round(table)
    revealed = public_state(table)["last_shoe"]
    assert revealed["number"] == shoe.number

    cards = [rank + suit for _deck in range(8) for rank in "23456789TJQKA" for suit in "shcd"]
    SeededRng(bytes.fromhex(revealed["seed"]), "shoe").shuffle(cards)
    coups = list(Round.objects.filter(shoe=shoe).order_by("coup"))
    assert [r.coup for r in coups] == list(range(1, len(coups) + 1)) and len(coups) >= 4
    position = 0
    for coup in coups:
        dealt = [step["card"] for step in coup.result["steps"]]
        assert dealt == cards[position : position + len(dealt)], coup.coup
        player, banker = coup.result["player"], coup.result["banker"]
        assert player[:2] == [dealt[0], dealt[2]] and banker[:2] == [dealt[1], dealt[3]], coup.coup
        assert sorted(player + banker) == sorted(dealt)
        position += len(dealt)
    assert position == shoe.state["position"]  # no card left the shoe but these
