"""The bank limit under concurrent bets from several sockets on PostgreSQL: a player banker can always pay."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db.models import Sum

from rooms.rounds import services
from rooms.rounds.models import Bet, Round
from rooms.rounds.tests.conftest import committing, live_round, run_to, stack_shoe, tick, watch
from rooms.rounds.tests.test_consumers import connected
from rooms.rounds.tests.test_player_banker import COUP, make_tier, sangong  # noqa: F401 - a fixture
from wallets.models import Account, LedgerEntry
from wallets.selectors import wallet_balance

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_rounds", "sangong"),
]

PLAYERS = 4
SOCKETS_PER_PLAYER = 2
BETS_PER_SOCKET = 15
STAKE = 20
BANK = 3000  # covers wins of 5 × 600 staked: 30 bets of 20 out of the 120 sent


def banked_table(bob, players):
    tier = make_tier(bank_minimum=1000)
    table = services.round_enter(tier_id=tier.pk, user=bob)
    with committing():
        services.round_bank_apply(table_id=table.pk, user=bob)
    watch(table, bob)
    tick()
    rnd = live_round(table)
    # Keep the window open however slow the machine is; the clock is not what is tested here.
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline + (rnd.deadline - rnd.opened_at) * 20)
    return table, rnd


async def test_concurrent_bets_from_several_sockets_never_pass_the_bank(make_player):
    bob = await sync_to_async(make_player)(coins=BANK)
    players = [await sync_to_async(make_player)(coins=2000) for _ in range(PLAYERS)]
    table, rnd = await sync_to_async(banked_table)(bob, players)
    assert rnd.bank == BANK
    sockets = [await connected(table.pk, player) for player in players for _ in range(SOCKETS_PER_PLAYER)]
    areas = ("east", "south", "west", "north")
    sent = 0
    for seq in range(1, BETS_PER_SOCKET + 1):
        for i, comm in enumerate(sockets):
            await comm.send_json_to(
                {"type": "bet", "seq": seq, "area": areas[(i + seq) % 4], "amount": STAKE}
            )
            sent += 1

    refusals: list[str] = []

    async def answered() -> int:
        taken = await sync_to_async(Bet.objects.filter(round_id=rnd.pk).count)()
        return taken + len(refusals)

    async def drain(comm) -> None:
        while not await comm.receive_nothing(timeout=0.05):
            message = await comm.receive_json_from()
            if message["type"] == "error":
                refusals.append(message["code"])

    for _ in range(1200):  # a hang, not a timing, fails this
        for comm in sockets:
            await drain(comm)
        if await answered() == sent:
            break
        await asyncio.sleep(0.05)
    assert await answered() == sent
    for comm in sockets:
        await comm.disconnect()

    def check():
        current = Round.objects.get(pk=rnd.pk)
        bets = Bet.objects.filter(round=current)
        most_won = bets.aggregate(s=Sum("most_won"))["s"]
        assert most_won == current.exposure <= BANK  # every win could be paid
        assert bets.count() == BANK // (5 * STAKE)  # and every bet that fitted was taken
        assert set(refusals) == {"over_bank_limit"}
        assert Account.objects.get(code="escrow").balance == BANK + bets.aggregate(s=Sum("held"))["s"]
        stack_shoe(current, COUP)
        current = run_to(current, "result")
        assert current.status == "settled"
        escrow = LedgerEntry.objects.filter(
            transaction__reference=f"round:{current.pk}", account__code="escrow"
        )
        assert escrow.aggregate(s=Sum("amount"))["s"] == 0
        coins = wallet_balance(user=bob) + sum(wallet_balance(user=p) for p in players) + current.rake
        assert coins == BANK + PLAYERS * 2000  # the house took only the rake

    await sync_to_async(check)()
