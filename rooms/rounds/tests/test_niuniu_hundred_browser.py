"""百人牛牛 end to end in headless Chromium: a player banker's round, bets, the bank limit, a reload, 上庄.

The driver (rooms/rounds/tests/area_round.py) and the page (static/js/area_hands.js) are
百人三公's. Bob banks the first round with 2,000 coins (room for 200 coins of
bets, 10 × each a possible win, 小牛牛). The browser's player bets 100 on 福 and 50 on 禄, is
refused 100 on 寿 past the bank, reloads, applies to bank, watches the reveal card by card
(庄 福 禄 寿 禧) with each hand laid out three and two with its category and multiple, sees the
result and the payout, and banks the next round once Bob's one round is up.
"""

from __future__ import annotations

import pytest

from rooms.rounds.tests.area_round import banked_tier, play_banked_round
from rooms.tables.tests.test_browser import SIZES, live_asgi  # noqa: F401 - live_asgi is a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "niuniu_hundred"
ROUND_TIMEOUT_S = 45
HANDS = ["banker", "fu", "lu", "shou", "xi"]


@pytest.fixture
def niuniu_table(transactional_db, settings, make_player):
    """A 百人牛牛 tier (bank from 500 coins, one round at most, 5% rake) whose table Bob banks first."""
    return banked_tier(
        settings, make_player, slug=SLUG, code="e2e-niuniu-hundred", reveal_ms=120, bob_coins=2000
    )


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    def area_names(page, seen: dict) -> None:
        seen["area_names"] = page.locator(".sg-bet .name").all_inner_texts()

    def cards_fit(page, seen: dict) -> None:
        seen["cards_fit"] = page.evaluate(
            "() => [...document.querySelectorAll('.sg-area')].every(a => "
            "[...a.querySelectorAll('.pcard')].every(c => c.getBoundingClientRect().right <= a.getBoundingClientRect().right + 1))"
        )

    return play_banked_round(
        base_url,
        size,
        tier_id,
        locale,
        slug=SLUG,
        shots="niuniu-hundred",
        hands=HANDS,
        timeout_s=ROUND_TIMEOUT_S,
        fits="#areas, #chips, .sg-banker, #my-result, .sg-side, .sg-area .cards",
        before_bets=area_names,
        on_result=cards_fit,
    )


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_player_bets_against_a_player_banker_then_banks(live_asgi, niuniu_table, settings, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry

    tier, bob = niuniu_table
    seen = play(live_asgi, size, tier.pk, locale)
    print(f"screenshots: {seen['bet_shot']} {seen['result_shot']} {seen['bank_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])

    # Bob banked with his 2,000 coins: room for 200 coins on any area, each paying up to ×10.
    assert rnd.banker_id == bob.pk and rnd.bank == 2000
    assert seen["banker_name"] == "bob" and seen["bank_coins"] == "2000"
    assert seen["rooms_before"] == [[200, 10]] * 4
    names = (
        ["福", "禄", "寿", "禧"] if locale.startswith("zh") else ["Fortune", "Prosperity", "Longevity", "Joy"]
    )
    assert seen["area_names"] == names
    assert seen["backs"] == 25  # every hand dealt face down before the bets (001:89, 001:91)
    assert "50" in seen["refusal"]
    bets = list(Bet.objects.filter(round=rnd, user=user).order_by("pk"))
    assert [(b.area, b.amount, b.held) for b in bets] == [("fu", 100, 1000), ("lu", 50, 500)]
    assert seen["balance_staked"] == settings.SIGNUP_GRANT_FIRST - 1500
    assert seen["toggle_after_reload"] == "leave"

    # The reveal: 庄 福 禄 寿 禧, one card at a time, and what the page showed is what was dealt.
    reveal = [row for row in seen["reveal"] if row != "00000"]
    expected = ["".join(str(min(max(k - 5 * i, 0), 5)) for i in range(5)) for k in range(1, 26)]
    assert len(reveal) >= 5 and reveal == expected[-len(reveal) :], seen["reveal"]
    result = rnd.result
    for hand in HANDS:
        shown, facts = seen["shown"]["hands"][hand], result["hands"][hand]
        # Each hand laid out as 摊牌 shows it: the three that make the niu, a gap, the two.
        assert shown["cards"] == facts["three"] + facts["two"] and shown["split"] == 3
        assert sorted(shown["cards"]) == sorted(result[hand])
        assert (shown["category"], shown["multiple"]) == (facts["category"], str(facts["multiple"]))
        if locale.startswith("zh"):
            assert "Bull" not in shown["text"] and "×" in shown["text"], shown["text"]
    for area, won, multiple in seen["shown"]["outcome"]:
        assert won == result["wins"][area]
        assert multiple == result["hands"][area if won else "banker"]["multiple"]

    # The payout: the page's net is the ledger's (what the payout paid back, less the 1,500 held).
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=user)
    assert seen["net"] == sum(paid.values_list("amount", flat=True)) - 1500
    assert seen["fits"] and seen["cards_fit"], "something overflows the screen"
    if size == "phone":
        assert seen["chips_bottom"] <= SIZES["phone"][1], "the chips are below the first screen"

    # Round two: the player banks with every coin they hold; Bob is stood down after his one round.
    second = Round.objects.get(pk=seen["round2"])
    assert second.banker_id == user.pk and second.bank == seen["my_bank"]
    assert seen["balance_banking"] == 0
    assert seen["banker_can_bet"] == 0
    assert seen["my_bank"] == settings.SIGNUP_GRANT_FIRST + seen["net"]
