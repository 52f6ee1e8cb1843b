"""The runtime with the real 必下德州 (texas) engine: its one simultaneous countdown, bot hands, privacy."""

import json

import pytest
from django.db.models import Sum

import games
from rooms import transport
from rooms.tables import broadcast, services
from rooms.tables.clock import actors_deadline
from rooms.tables.models import Hand, HandAction, Seat
from rooms.tables.play import read
from rooms.tables.tests.conftest import expire, run_clock, time_passes
from rooms.tables.tests.helpers import open_hand, per_group, sit_connected
from wallets.models import Account, LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def texas_game():
    """The texas engine in the registry (registered for good once its page exists; here for the tests)."""
    from games.texas import GAME

    added = "texas" not in games.REGISTRY
    if added:
        games.REGISTRY["texas"] = GAME
    yield GAME
    if added:
        games.REGISTRY.pop("texas", None)


@pytest.fixture
def texas_tier_factory(db, texas_game):
    from rooms.models import Game, RoomTier

    def make(*, seats: int, bots: bool = True):
        game, _ = Game.objects.get_or_create(
            slug="texas",
            defaults={
                "name_zh": "必下德州",
                "name_en": "Must-bet Texas Hold'em",
                "family": "seated",
                "min_seats": 2,
                "max_seats": 9,
            },
        )
        return RoomTier.objects.create(
            game=game,
            code=f"tx-{seats}-{int(bots)}",
            name="初级场",
            base_stake=5,
            minimum_rule=RoomTier.MinimumRule.FIXED,
            fixed_minimum=100,
            rake_bps=500,
            seats=seats,
            options={"bet_sizes": [1, 2, 4, 8], "turn_seconds": 20},
            bots_enabled=bots,
        )

    return make


def shift_countdown(hand: Hand, seconds: float) -> Hand:
    """Move the round's deadline (and the stored one) ``seconds`` earlier, as if that time had passed."""
    return time_passes(hand, seconds)


def test_bots_acting_in_the_countdown_do_not_reset_the_human_clock(texas_tier_factory, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, texas_tier_factory(seats=3))
    hand = open_hand(table)
    engine = games.REGISTRY["texas"].engine
    assert len(engine.actors(hand.state)) == 3
    round_deadline = actors_deadline(hand)
    assert round_deadline is not None
    # The bots may act at once; the page still shows the round's deadline, not theirs.
    ctx = read(table.pk)
    shown = broadcast.snapshot(ctx, seat_index=0, balance=None)["hand"]["deadline"]
    assert shown == int(round_deadline.timestamp() * 1000)

    run_clock()
    hand.refresh_from_db()
    me = Seat.objects.get(user=alice).index
    assert engine.actors(hand.state) == [me], "the bots have acted, alice has not"
    assert hand.deadline == round_deadline, "a bot's move gave alice a fresh clock"
    assert actors_deadline(hand) == round_deadline

    expire(hand)
    run_clock()
    hand.refresh_from_db()
    assert hand.status in ("finished", "settled")
    mine = HandAction.objects.get(hand=hand, seat=me)
    # 托管 at the end of the countdown: a blind checks, anyone else bets the smallest stake (必下).
    if me in hand.state["blind_seats"]:
        assert mine.auto and mine.action == {"type": "check"}
    else:
        assert mine.auto and mine.action == {"type": "bet", "amount": hand.state["bet_sizes"][0]}


def test_a_player_whose_page_is_not_there_yet_is_not_played_by_the_bots_turn(
    texas_tier_factory, make_player, settings
):
    """Quick start, bots fill, the hand starts before the page connects: only the grace may play for her."""
    settings.TABLE_DISCONNECT_GRACE = 60
    alice = make_player(coins=5000)
    table = services.table_quick_start(tier_id=texas_tier_factory(seats=3).pk, user=alice)
    run_clock()  # bots sit down, the hand starts, the bots take their quick turns
    hand = open_hand(table)
    assert hand is not None and hand.status == Hand.Status.PLAYING
    me = Seat.objects.get(user=alice).index
    engine = games.REGISTRY["texas"].engine
    assert engine.actors(hand.state) == [me], "the bots have acted, alice has not"
    assert not HandAction.objects.filter(hand=hand, seat=me).exists()
    assert not Seat.objects.get(user=alice).trustee

    services.table_presence(table_id=table.pk, user=alice, connected=True)  # her page arrives in time
    hand.refresh_from_db()
    assert hand.deadline == actors_deadline(hand)  # her own countdown, not the grace


def test_one_human_acting_keeps_the_other_humans_deadline(texas_tier_factory, make_player):
    tier = texas_tier_factory(seats=2, bots=False)
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table = sit_connected(alice, tier)
    assert sit_connected(bob, tier).pk == table.pk
    hand = open_hand(table)
    assert hand is not None
    # Ten seconds of the countdown pass, then alice checks (heads-up, both seats are blinds).
    hand = shift_countdown(hand, 10)
    before = hand.deadline
    services.table_act(table_id=table.pk, user=alice, action={"type": "check"})
    hand.refresh_from_db()
    bob_seat = Seat.objects.get(user=bob).index
    assert games.REGISTRY["texas"].engine.actors(hand.state) == [bob_seat]
    assert hand.deadline == before, "alice's check restarted bob's clock"

    # Presence changes do not move it either.
    services.table_presence(table_id=table.pk, user=bob, connected=True)
    hand.refresh_from_db()
    assert hand.deadline == before

    expire(hand)
    run_clock()
    hand.refresh_from_db()
    assert hand.status in ("finished", "settled")
    assert HandAction.objects.get(hand=hand, seat=bob_seat).action == {"type": "check"}


def play_under_trustee(table, user) -> Hand:
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(20):
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
    return hand


def test_whole_bot_hands_settle_through_the_ledger_with_rake(texas_tier_factory, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, texas_tier_factory(seats=5))
    assert Seat.objects.filter(table=table, is_bot=True).count() == 4
    rake_total = 0
    for _ in range(3):
        hand = play_under_trustee(table, alice)
        assert hand.status == "settled", hand.cancel_reason
        assert sum(hand.outcome["deltas"]) == 0
        assert sum(hand.outcome["net"]) + hand.outcome["rake"] == 0
        tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
        assert sum(tx.entries.values_list("amount", flat=True)) == 0
        pots = hand.outcome["details"]["pots"]
        assert sum(p["amount"] for p in pots) == sum(hand.state["stakes"])
        assert Account.objects.get(code="escrow").balance == 0
        rake_total += hand.outcome["rake"]
        services.table_ready(table_id=table.pk, user=alice)
    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0
    assert Account.objects.get(code="rake").balance == rake_total
    first, second = list(Hand.objects.filter(table=table).order_by("number"))[:2]
    assert second.config["first_seat"] == first.outcome["details"]["next_first_seat"]


def test_state_frames_never_carry_another_seats_hole_cards_before_showdown(
    texas_tier_factory, make_player, monkeypatch
):
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(transport, "send_many", lambda messages: sent.extend(per_group(messages)))
    alice = make_player(coins=5000)
    table = sit_connected(alice, texas_tier_factory(seats=4))
    hand = play_under_trustee(table, alice)
    assert hand.status == "settled", hand.cancel_reason
    holes = hand.state["_hands"]
    folded = hand.state["folded"]
    checked = 0
    for group, message in sent:
        seat = int(group.rsplit("-", 1)[1]) if "-seat-" in group else None
        for event in message["events"]:
            if event["type"] != "state":
                continue
            live = event["hand"] if event["hand"] and event["hand"]["id"] == hand.pk else None
            last = event["last_hand"] if event["last_hand"] and event["last_hand"]["id"] == hand.pk else None
            view = (live or last or {}).get("view")
            if not view:
                continue
            text = json.dumps(event)
            assert '"_hands"' not in text and "countdown" not in text  # the engine's private key
            over = view["phase"] == "finished"
            for other, cards in enumerate(holes):
                visible = other == seat or (over and not folded[other])
                quoted = [f'"{card}"' for card in cards]
                if visible:
                    assert view["hands"][other] == cards
                else:
                    assert view["hands"][other] is None
                    assert not any(q in text for q in quoted), (group, other, view["phase"])
            checked += 1
    assert checked > 5
