"""百人三公 end to end in headless Chromium: a player banker's round, bets, the bank limit, a reload, 上庄.

The driver is rooms/rounds/tests/area_round.py's: the real ASGI app with its
timer loop on short phase timings. Bob banks the first round with
1,000 coins (room for 200 coins of bets, 5 × each a possible win). The
browser's player bets 100 on 东 and 50 on 南, is refused 100 on 西 past the
bank, reloads, applies to bank, watches the reveal card by card (庄 东 南 西 北)
with each hand's category and multiple, sees the result and the payout, and
banks the next round once Bob's one round is up.
"""

from __future__ import annotations

import pytest

from rooms.rounds.tests.area_round import banked_tier, play_banked_round
from rooms.tables.tests.test_browser import SIZES, live_asgi  # noqa: F401 - live_asgi is a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "sangong_hundred"
ROUND_TIMEOUT_S = 40
HANDS = ["banker", "east", "south", "west", "north"]


@pytest.fixture
def sangong_table(transactional_db, settings, make_player):
    """A 百人三公 tier (bank from 500 coins, one round at most, 5% rake) whose table Bob banks first."""
    return banked_tier(settings, make_player, slug=SLUG, code="e2e-sangong", reveal_ms=150, bob_coins=1000)


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    return play_banked_round(
        base_url, size, tier_id, locale, slug=SLUG, shots="sangong", hands=HANDS, timeout_s=ROUND_TIMEOUT_S
    )


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_player_bets_against_a_player_banker_then_banks(live_asgi, sangong_table, settings, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry

    tier, bob = sangong_table
    seen = play(live_asgi, size, tier.pk, locale)
    print(f"screenshots: {seen['bet_shot']} {seen['result_shot']} {seen['bank_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])

    # Bob banked with his 1,000 coins: room for 200 coins on any area, each paying up to ×5.
    assert rnd.banker_id == bob.pk and rnd.bank == 1000
    assert seen["banker_name"] == "bob" and seen["bank_coins"] == "1000"
    assert seen["rooms_before"] == [[200, 5]] * 4
    assert seen["backs"] == 15  # every hand dealt face down before the bets (001:125)
    # A bet past the bank was refused, saying how much more the area takes; nothing staked there.
    assert "50" in seen["refusal"]
    bets = list(Bet.objects.filter(round=rnd, user=user).order_by("pk"))
    assert [(b.area, b.amount, b.held) for b in bets] == [("east", 100, 500), ("south", 50, 250)]
    assert seen["balance_staked"] == settings.SIGNUP_GRANT_FIRST - 750
    assert seen["toggle_after_reload"] == "leave"

    # The reveal: 庄 东 南 西 北, one card at a time, and what the page showed is what was dealt.
    reveal = [row for row in seen["reveal"] if row != "00000"]
    expected = ["".join(str(min(max(k - 3 * i, 0), 3)) for i in range(5)) for k in range(1, 16)]
    # Recorded from just after the reload: the whole reveal, or its end if the dealing had begun.
    assert len(reveal) >= 5 and reveal == expected[-len(reveal) :], seen["reveal"]
    result = rnd.result
    for hand in HANDS:
        shown = seen["shown"]["hands"][hand]
        assert shown["cards"] == result[hand]
        assert (shown["category"], shown["multiple"]) == (
            str(result["hands"][hand]["category"]),
            str(result["hands"][hand]["multiple"]),
        )
        assert shown["text"]
        if locale.startswith("zh"):
            assert "points" not in shown["text"] and "×" in shown["text"], shown["text"]
    for area, won, multiple in seen["shown"]["outcome"]:
        assert won == result["wins"][area]
        assert multiple == result["hands"][area if won else "banker"]["multiple"]

    # The payout: the page's net is the ledger's (what the payout paid back, less the 750 held).
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=user)
    assert seen["net"] == sum(paid.values_list("amount", flat=True)) - 750
    assert seen["fits"], "something overflows the screen"
    if size == "phone":
        assert seen["chips_bottom"] <= SIZES["phone"][1], "the chips are below the first screen"

    # Round two: the player banks with every coin they hold; Bob is stood down after his one round.
    second = Round.objects.get(pk=seen["round2"])
    assert second.banker_id == user.pk and second.bank == seen["my_bank"]
    assert seen["balance_banking"] == 0
    assert seen["banker_can_bet"] == 0  # the banker's page offers no area to bet on
    assert seen["my_bank"] == settings.SIGNUP_GRANT_FIRST + seen["net"]
