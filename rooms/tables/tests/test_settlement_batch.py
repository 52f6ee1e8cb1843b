"""Settling many finished hands in one database transaction: each still settles exactly once, alone in its
ledger transaction, with its own result broadcast."""

import json
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.base import apply_rake
from rooms import transport
from rooms.tables import services, settlement
from rooms.tables.models import Hand
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected
from wallets.errors import IdempotencyConflict, InsufficientFunds
from wallets.models import Account, LedgerTransaction
from wallets.selectors import ledger_check, wallet_balance
from wallets.services import Posting, house_account, ledger_post_many, wallet_for_user

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]


def finished_hands(tier, make_player, count: int, coins: int = 1000) -> list[Hand]:
    """Play ``count`` hands at ``count`` tables (one human under 托管 against a bot each), unsettled."""
    hands = []
    with mock.patch.object(settlement.settle_hand, "delay") as requested:
        for _ in range(count):
            user = make_player(coins=coins)
            table = sit_connected(user, tier)
            hand = open_hand(table)
            services.table_trustee(table_id=table.pk, user=user, on=True)
            run_clock(max_steps=1000)
            hand.refresh_from_db()
            assert hand.status == "finished"
            hands.append(hand)
    assert requested.call_count == count
    return hands


def settlement_legs(hand: Hand) -> dict[int, int]:
    txn = LedgerTransaction.objects.get(reference=f"hand:{hand.pk}", kind="settlement")
    return dict(txn.entries.values_list("account_id", "amount"))


def expected_legs(hand: Hand, rake_bps: int) -> dict[int, int]:
    net, rake = apply_rake(list(hand.outcome["deltas"]), rake_bps)
    legs = {house_account(code="escrow").pk: -sum(p["carried"] for p in hand.players)}
    for player, amount in zip(hand.players, net, strict=True):
        if player["carried"] + amount:
            legs[Account.objects.get(user_id=player["user"]).pk] = player["carried"] + amount
    if rake:
        legs[house_account(code="rake").pk] = rake
    return legs


def test_one_task_settles_every_waiting_hand_each_in_its_own_transaction(tier, make_player):
    hands = finished_hands(tier, make_player, 4)
    key = settlement.hand_settle(hand_id=hands[1].pk, batch=10)
    assert key == f"hand:{hands[1].pk}:settle"
    for hand in hands:
        hand.refresh_from_db()
        assert hand.status == "settled"
        assert hand.settlement_key == f"hand:{hand.pk}:settle"
        assert settlement_legs(hand) == expected_legs(hand, tier.rake_bps)
    assert Account.objects.get(code="escrow").balance == 0
    assert ledger_check() == []
    # The other hands' own tasks find nothing left to do.
    assert all(settlement.hand_settle(hand_id=hand.pk, batch=10) is None for hand in hands)
    assert LedgerTransaction.objects.filter(kind="settlement").count() == 4


def test_a_lone_finished_hand_settles_alone(tier, make_player):
    """Under a steady load most tasks find only their own hand: it settles as a batch of one would."""
    (hand,) = finished_hands(tier, make_player, 1)
    key = settlement.hand_settle(hand_id=hand.pk, batch=10)
    assert key == f"hand:{hand.pk}:settle"
    hand.refresh_from_db()
    assert hand.status == "settled" and hand.settlement_key == key
    assert hand.outcome["rake"] == apply_rake(list(hand.outcome["deltas"]), tier.rake_bps)[1]
    assert settlement_legs(hand) == expected_legs(hand, tier.rake_bps)
    assert ledger_check() == []
    assert settlement.hand_settle(hand_id=hand.pk, batch=10) is None  # nothing left to do
    assert LedgerTransaction.objects.filter(kind="settlement").count() == 1


def test_the_settlement_task_saves_seats_without_auditlogs_reads_of_their_old_rows(tier, make_player):
    """The task is no staff change (platform/staff/audit.py): its seat saves are UPDATEs alone, where
    auditlog would read every seat's old row first only for the gate to drop the entry."""
    (hand,) = finished_hands(tier, make_player, 1)
    with CaptureQueriesContext(connection) as queries:
        assert settlement.settle_hand(hand.pk) == f"hand:{hand.pk}:settle"
    seat_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "tables_seat"')]
    assert len(seat_reads) == 1  # the seats of the table, once, with their users
    assert "JOIN" in seat_reads[0]


def test_a_batch_takes_at_most_its_size_and_leaves_the_rest_waiting(tier, make_player):
    hands = finished_hands(tier, make_player, 3)
    settlement.hand_settle(hand_id=hands[2].pk, batch=2)
    statuses = {hand.pk: Hand.objects.get(pk=hand.pk).status for hand in hands}
    assert statuses[hands[2].pk] == "settled"
    assert sorted(statuses.values()) == ["finished", "settled", "settled"]


def test_wins_and_hands_count_once_per_hand_in_a_batch(tier, make_player):
    from platform.accounts.models import GameStats

    hands = finished_hands(tier, make_player, 3)
    settlement.hand_settle(hand_id=hands[0].pk, batch=10)
    for hand in hands:
        hand.refresh_from_db()
        human = next(i for i, p in enumerate(hand.players) if not p["is_bot"])
        stats = GameStats.objects.get(user_id=hand.players[human]["user"], game_slug=hand.game_slug)
        assert (stats.hands, stats.wins) == (1, 1 if human in hand.outcome["winners"] else 0)
    assert GameStats.objects.count() == 3  # bots are not counted


def test_result_levels_show_the_wins_the_hands_counted(tier, make_player):
    from platform.accounts.levels import level_for_wins
    from platform.accounts.models import GameStats

    hands = finished_hands(tier, make_player, 2)
    humans = [p["user"] for hand in hands for p in hand.players if not p["is_bot"]]
    # One player one win short of the second level: a win in this hand moves the level.
    GameStats.objects.create(user_id=humans[0], game_slug=hands[0].game_slug, hands=99, wins=99)
    with mock.patch.object(transport, "send_many") as sent:
        settlement.hand_settle(hand_id=hands[0].pk, batch=10)
    expected = {
        stats.user.display_name: level_for_wins(stats.wins).name
        for stats in GameStats.objects.filter(user_id__in=humans).select_related("user")
    }
    shown = {}
    for _group, body in sent.call_args.args[0]:
        for _index, _user, texts in body["seats"]:
            state = json.loads(texts[0])
            shown.update(
                (seat["name"], seat["level"]) for seat in state["table"]["seats"] if not seat["is_bot"]
            )
    assert shown == expected and len(shown) == 2


def test_every_table_gets_its_own_result_with_the_balances_after_its_hand(tier, make_player):
    hands = finished_hands(tier, make_player, 3)
    with mock.patch.object(transport, "send_many") as sent:
        settlement.hand_settle(hand_id=hands[0].pk, batch=10)
    messages = sent.call_args.args[0]
    for hand in hands:
        hand.refresh_from_db()
        table = hand.table
        table.refresh_from_db()
        (body,) = [body for group, body in messages if group == transport.table_group(table.pk)]
        assert body["type"] == "table.frames" and body["seq"] == table.seq
        frames = {index: [json.loads(text) for text in texts] for index, _user, texts in body["seats"]}
        assert set(frames) == {0, 1}
        group_events = {f"seat-{index}": events for index, events in frames.items()}
        group_events["watch"] = [json.loads(text) for text in body["watch"]]
        assert group_events["watch"][0]["you"] == {"seat": None, "balance": None, "trustee": False}
        for group, events in group_events.items():
            state, result = events
            assert state["type"] == "state" and state["seq"] == table.seq and state["hand"] is None
            seed = None if group == "watch" else bytes(hand.seed).hex()  # the seed is the players'
            assert state["last_hand"]["id"] == hand.pk and state["last_hand"]["seed"] == seed
            assert result["type"] == "result" and result["hand"] == hand.pk and result["seq"] == table.seq
            balances = {seat["index"]: seat["balance"] for seat in result["seats"]}
            for index, player in enumerate(hand.players):
                # A wallet's balance is its owner's alone: each seat sees its own, the spectators none.
                own = Account.objects.get(user_id=player["user"]).balance
                assert balances[index] == (own if group == f"seat-{index}" else None)
        seat0 = group_events["seat-0"][0]
        user0 = hand.players[0]["user"]
        assert seat0["you"]["balance"] == Account.objects.get(user_id=user0).balance


def test_a_batch_that_fails_settles_the_hand_alone(tier, make_player):
    hands = finished_hands(tier, make_player, 2)
    real = settlement._settle_locked
    calls = []

    def fail_on_batches(tables, hands, messages):
        calls.append(len(hands))
        if len(hands) > 1:
            raise RuntimeError("a bad hand in the batch")
        return real(tables, hands, messages)

    with mock.patch.object(settlement, "_settle_locked", side_effect=fail_on_batches):
        key = settlement.hand_settle(hand_id=hands[0].pk, batch=10)
    assert calls == [2, 1]
    assert key == f"hand:{hands[0].pk}:settle"
    assert [Hand.objects.get(pk=h.pk).status for h in hands] == ["settled", "finished"]
    assert ledger_check() == []


# --- ledger_post_many -----------------------------------------------------------------------------


def test_ledger_post_many_posts_each_once_and_replays(make_player):
    alice, bob = make_player(coins=500), make_player(coins=500)
    a, b = wallet_for_user(user=alice), wallet_for_user(user=bob)
    postings = [
        Posting(key="t:1", kind="adjustment", legs=[(a, -100), (b, 100)], reference="test"),
        Posting(key="t:2", kind="adjustment", legs=[(b, -550), (a, 550)], reference="test"),
    ]
    first = ledger_post_many(postings=postings)
    assert (wallet_balance(user=alice), wallet_balance(user=bob)) == (950, 50)
    # Running balances follow the order of the postings (b reached 600 before paying 550).
    assert dict(first[1].entries.values_list("account_id", "balance_after")) == {a.pk: 950, b.pk: 50}
    again = ledger_post_many(postings=postings)
    assert [t.pk for t in again] == [t.pk for t in first]
    assert (wallet_balance(user=alice), wallet_balance(user=bob)) == (950, 50)
    with pytest.raises(IdempotencyConflict, match="already used for a different transaction"):
        ledger_post_many(postings=[Posting(key="t:1", kind="adjustment", legs=[(a, -1), (b, 1)])])
    assert ledger_check() == []


def test_ledger_post_many_refuses_an_overdraft_and_posts_nothing(make_player):
    alice, bob = make_player(coins=100), make_player(coins=0)
    a, b = wallet_for_user(user=alice), wallet_for_user(user=bob)
    with pytest.raises(InsufficientFunds, match="cannot pay 150"):
        ledger_post_many(
            postings=[
                Posting(key="o:1", kind="adjustment", legs=[(a, -50), (b, 50)]),
                Posting(key="o:2", kind="adjustment", legs=[(a, -150), (b, 150)]),
            ]
        )
    assert (wallet_balance(user=alice), wallet_balance(user=bob)) == (100, 0)
    assert not LedgerTransaction.objects.filter(key__startswith="o:").exists()


def test_a_settlement_racing_a_cancel_ends_each_hand_once(tier, make_player):
    """Two threads on real connections: a worker settling finished hands while staff cancel them.

    Both take the table's lock first, so each hand ends in exactly one of a settlement or a
    refund, never both and never neither, and the escrow returns to zero.
    """
    import threading

    from django.db import connection

    hands = finished_hands(tier, make_player, 3)
    start = threading.Barrier(2 * len(hands))
    errors: list[BaseException] = []

    def run(call) -> None:
        try:
            start.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    calls = []
    for hand in hands:
        calls.append(lambda pk=hand.pk: settlement.hand_settle(hand_id=pk, batch=10))
        calls.append(lambda pk=hand.pk: services.hand_cancel(hand_id=pk, reason="Staff stopped the table."))
    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for hand in hands:
        hand.refresh_from_db()
        ends = sorted(
            LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}")
            .exclude(kind="stake")
            .values_list("kind", flat=True)
        )
        assert (hand.status, ends) in [("settled", ["settlement"]), ("cancelled", ["refund"])]
    assert Account.objects.get(code="escrow").balance == 0
    assert ledger_check() == []
