"""The runtime with the real 牛牛 and 通比牛牛 engines: whole hands by bots and 托管, the ledger, 战绩, verify, replay."""

import pytest
from django.db.models import Sum
from django.urls import reverse

import games
from games.base import apply_rake
from rooms.tables import services
from rooms.tables.models import Hand, HandAction
from rooms.tables.replay import hand_replay
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import my_seat, open_hand, sit_connected
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.verify import hand_verification
from wallets.models import Account, LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def niuniu_games():
    """Make sure both games are in the registry (each registers itself once its page ships)."""
    from games.niuniu import GAME as NIUNIU
    from games.tongbi_niuniu import GAME as TONGBI

    added = [info for info in (NIUNIU, TONGBI) if info.slug not in games.REGISTRY]
    for info in added:
        games.REGISTRY[info.slug] = info
    yield
    for info in added:
        games.REGISTRY.pop(info.slug, None)


def play_out(table, user) -> Hand:
    """Let the bots and 托管 (不抢, the least bet, the best split) play the open hand to settlement."""
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(20):
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
    return hand


@pytest.mark.parametrize("slug", ["niuniu", "tongbi_niuniu"])
def test_bots_and_tuoguan_play_whole_hands_and_every_coin_is_accounted_for(
    niuniu_games, make_player, client, slug
):
    alice = make_player(coins=50000)
    tier = game_tier(slug)
    table = sit_connected(alice, tier)
    settled = []
    for _number in range(3):
        hand = play_out(table, alice)
        assert hand.status == "settled", hand.cancel_reason
        state = hand.state
        seat = my_seat(alice).index
        # 托管 bid nothing, bet the least and showed the best split, as docs/rules/niuniu.md says.
        mine = [a.action for a in HandAction.objects.filter(hand=hand, seat=seat).order_by("n")]
        assert all(a.get("multiple") in (0, state["bet_multiples"][0]) for a in mine if a["type"] != "show")
        assert mine[-1]["type"] == "show"
        tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
        assert sum(tx.entries.values_list("amount", flat=True)) == 0
        assert Account.objects.get(code="escrow").balance == 0
        assert hand.outcome["rake"] == apply_rake(hand.outcome["deltas"], tier.rake_bps)[1]
        for delta, player in zip(hand.outcome["deltas"], hand.players, strict=True):
            assert abs(delta) <= player["carried"]  # 有限责任制
        # Verify and replay re-deal the seed and reach the stored state and outcome.
        assert hand_verification(hand=hand).ok
        replay = hand_replay(hand=hand)
        assert replay.matches and replay.final_state == state
        assert replay.steps[-1].table["phase"] == "finished"
        settled.append(hand)
        services.table_ready(table_id=table.pk, user=alice)
    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0
    assert Account.objects.get(code="rake").balance == sum(h.outcome["rake"] for h in settled)
    # 战绩: the record lists the hands with every seat's shown cards.
    client.force_login(alice)
    html = client.get(reverse("tables:history")).content.decode()
    for card in settled[-1].state["_hands"][0]:
        assert f'data-card="{card}"' in html
