"""What one 百家乐 (baccarat) bet costs the database, and that its cheaper broadcast shows the same state.

A table's bets run one at a time under its row lock (and one at a time in
its lane of the ASGI process), so the work of one bet bounds the bets a table
takes per second (bench/README.md, ``bench/load.py --game baccarat``). This
pins the statements of ``round_bet`` so that a change which adds one is a
conscious decision (update the number and say why).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms import transport
from rooms.rounds import broadcast, selectors, services
from rooms.rounds.tests.conftest import open_round
from rooms.transport import table_group
from wallets.services import house_account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_rounds")]

# Lock the table (with tier and game), move its event seq on; lock the live round with its
# shoe; read the wallet and escrow accounts (their balance also serves the entry rule on a
# first bet), the table's last two shoes (the broadcast reveals the finished one's seed) and
# the bettor's stakes on the round by area (限红, first bet, the bettor's part of the
# broadcast); insert the bet, give it its ledger key, save the round's totals; the ledger: the
# transaction, the locks in the global order, the balances with the entries. The broadcast
# reads nothing: the wallet's balance is the one the ledger wrote under its lock. Every
# statement is the ORM's, the same on PostgreSQL and SQLite.
STATEMENTS_PER_BET = 12
# BEGIN and COMMIT: the ledger posts without a savepoint of its own (a refusal ends the bet's
# whole transaction anyway).
TRANSACTION_CONTROL_PER_BET = 2
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


@pytest.mark.postgres
def test_one_bet_costs_a_fixed_number_of_statements(bacc_tier, make_player):
    alice, bob = make_player(10_000), make_player(10_000)
    table, _rnd = open_round(bacc_tier, alice)
    house_account(code="escrow")  # made once ever, by the first bet of all (two statements more)
    counts, control = [], []
    # First bets and later ones, on one area and on another, by two players.
    for user, area in [
        (alice, "player"),
        (alice, "player"),
        (bob, "banker"),
        (alice, "tie"),
        (bob, "banker"),
    ]:
        with CaptureQueriesContext(connection) as queries:
            services.round_bet(table_id=table.pk, user=user, area=area, amount=10)
        sql = [q["sql"] for q in queries.captured_queries]
        counts.append(len([q for q in sql if not q.startswith(TRANSACTION_CONTROL)]))
        control.append(len([q for q in sql if q.startswith(TRANSACTION_CONTROL)]))
    assert set(counts) == {STATEMENTS_PER_BET}, counts
    assert set(control) == {TRANSACTION_CONTROL_PER_BET}, control


def test_the_broadcast_of_a_bet_is_the_state_a_resync_reads(bacc_tier, make_player, monkeypatch):
    alice, bob = make_player(10_000), make_player(10_000)
    table, _rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=bob, area="banker", amount=30)
    sent: list = []
    monkeypatch.setattr(transport, "send_many", lambda messages: sent.extend(messages))
    services.round_bet(table_id=table.pk, user=alice, area="player", amount=20)
    services.round_bet(table_id=table.pk, user=alice, area="player", amount=10)

    (group, change) = sent[-1]
    assert group == table_group(table.pk) and change["type"] == "round.change"
    assert set(change["parts"]) == {str(alice.pk)} and change["payouts"] == {}  # the bettor's part only
    shown = broadcast.merge(change["state"], change["parts"][str(alice.pk)])
    fresh = selectors.round_snapshot(table_id=table.pk, user=alice)
    assert shown == fresh
    assert shown["you"] == {"balance": 9_970, "stakes": {"player": 30}, "staked": 30}
    totals = {a["area"]: (a["total"], a["mine"]) for a in shown["round"]["areas"]}
    assert totals["player"] == (30, 30) and totals["banker"] == (30, 0)


def test_a_bets_broadcast_reveals_the_last_finished_shoe_as_a_resync_does(
    bacc_tier, make_player, monkeypatch
):
    """The bet reads the table's last finished shoe with its round: the seed shown is the resync's."""
    from django.utils import timezone

    from rooms.rounds.models import Shoe

    alice = make_player(10_000)
    table, rnd = open_round(bacc_tier, alice)
    # The shoe in play is the table's second; its first was finished, and its seed is revealed.
    Shoe.objects.filter(pk=rnd.shoe_id).update(number=2)
    first = Shoe.objects.create(
        table=table, number=1, seed=bytes(range(32)), state={}, finished_at=timezone.now()
    )
    sent: list = []
    monkeypatch.setattr(transport, "send_many", lambda messages: sent.extend(messages))
    services.round_bet(table_id=table.pk, user=alice, area="banker", amount=10)

    (_group, change) = sent[-1]
    shown = broadcast.merge(change["state"], change["parts"][str(alice.pk)])
    assert shown == selectors.round_snapshot(table_id=table.pk, user=alice)
    assert (
        shown["last_shoe"]["number"] == first.number and shown["last_shoe"]["seed"] == bytes(range(32)).hex()
    )
    assert shown["round"]["shoe"] == 2
    assert shown["you"] == {"balance": 9_990, "stakes": {"banker": 10}, "staked": 10}
