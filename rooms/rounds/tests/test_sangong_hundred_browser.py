"""百人三公 end to end in headless Chromium: a player banker's round, bets, the bank limit, a reload, 上庄.

Same harness as rooms/rounds/tests/test_browser.py (百家乐): the real ASGI app
with its timer loop on short phase timings. Bob banks the first round with
1,000 coins (room for 200 coins of bets, 5 × each a possible win). The
browser's player bets 100 on 东 and 50 on 南, is refused 100 on 西 past the
bank, reloads, applies to bank, watches the reveal card by card (庄 东 南 西 北)
with each hand's category and multiple, sees the result and the payout, and
banks the next round once Bob's one round is up.
"""

from __future__ import annotations

import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "sangong_hundred"
BET_SECONDS = 10
ROUND_TIMEOUT_S = 40
HANDS = ["banker", "east", "south", "west", "north"]

BETTING_WITH_TIME = """() => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > 6000;
}"""
# Record every change of how many cards each hand shows face up (banker, east, south, west, north).
RECORD_THE_REVEAL = """() => {
  window.revealSeen = [];
  const hands = ['banker', 'east', 'south', 'west', 'north'];
  const note = () => {
    const row = hands.map(h => document.querySelectorAll(`[data-hand='${h}'] .pcard:not(.back)`).length).join('');
    if (window.revealSeen[window.revealSeen.length - 1] !== row) window.revealSeen.push(row);
  };
  new MutationObserver(note).observe(document.querySelector('.sg-felt'), { childList: true, subtree: true });
}"""
THE_RESULT_SHOWN = """() => {
  const app = document.querySelector('#table-app');
  if (app.dataset.phase !== 'result') return false;
  const hands = {};
  for (const h of ['banker', 'east', 'south', 'west', 'north']) {
    const box = document.querySelector(`[data-hand='${h}']`);
    const facts = box.querySelector('.sg-facts');
    hands[h] = {
      cards: [...box.querySelectorAll('.pcard')].map(e => e.dataset.card),
      category: facts.dataset.category, multiple: facts.dataset.multiple, text: facts.textContent,
    };
  }
  const outcome = [...document.querySelectorAll('#outcome .sg-line')].map(e => [e.dataset.area, e.classList.contains('won'), Number(e.dataset.multiple)]);
  return { round: Number(app.dataset.round), hands, outcome };
}"""


@pytest.fixture
def sangong_table(transactional_db, settings, make_player):
    """A 百人三公 tier (bank from 500 coins, one round at most, 5% rake) whose table Bob banks first."""
    from rooms.models import Game, RoomTier
    from rooms.rounds import services
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = BET_SECONDS
    settings.ROUNDS_REVEAL_MS = 150
    settings.ROUNDS_RESULT_SECONDS = 4
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug=SLUG),
        code="e2e-sangong",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={"bank_minimum": 500, "bank_rounds": 1},
    )
    bob = make_player(coins=1000, name="bob")
    table = services.round_enter(tier_id=tier.pk, user=bob)
    services.round_bank_apply(table_id=table.pk, user=bob)
    return tier, bob


def bet(page, chip: int, area: str, mine: int) -> None:
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f".sg-bet[data-area='{area}']")
    page.wait_for_selector(f".sg-bet[data-area='{area}'] .mine[data-value='{mine}']", timeout=5000)


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"sg{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, SLUG, tier_id, "**/rounds/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_function(BETTING_WITH_TIME, timeout=ROUND_TIMEOUT_S * 1000)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["banker_name"] = page.inner_text("#banker-name")
            seen["bank_coins"] = page.get_attribute("#bank-coins", "data-value")
            seen["rooms_before"] = page.locator(".sg-bet .room").evaluate_all(
                "els => els.map(e => [Number(e.dataset.value), Number(e.dataset.multiple)])"
            )
            seen["backs"] = page.locator("[data-hand] .pcard.back").count()
            bet(page, 100, "east", 100)
            bet(page, 50, "south", 50)
            page.wait_for_selector("#bank-room[data-value='50']", timeout=5000)
            page.click("#chips .bc-chip[data-value='100']")
            page.click(".sg-bet[data-area='west']")
            page.wait_for_selector("#hand-message[data-kind=error]", timeout=5000)
            seen["refusal"] = page.inner_text("#hand-message")
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            # 上庄: the player joins the queue behind nobody (Bob banks now).
            page.click("#bank-toggle[data-mode='apply']")
            page.wait_for_selector("#bank-queue li.me", timeout=5000)
            seen["bet_shot"] = str(screenshot_dir() / f"sangong-{size}-bets.png")
            page.screenshot(path=seen["bet_shot"])
            # A reload mid-round: the stakes, the queue and the bank come back from the server.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(".sg-bet[data-area='east'] .mine[data-value='100']", timeout=5000)
            page.wait_for_selector("#bank-queue li.me", timeout=5000)
            seen["toggle_after_reload"] = page.get_attribute("#bank-toggle", "data-mode")
            page.evaluate(RECORD_THE_REVEAL)
            seen["shown"] = page.wait_for_function(
                THE_RESULT_SHOWN, timeout=ROUND_TIMEOUT_S * 1000
            ).json_value()
            seen["reveal"] = page.evaluate("() => window.revealSeen")
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=20000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            seen["result_shot"] = str(screenshot_dir() / f"sangong-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, #chips, .sg-banker, #my-result, .sg-side')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            seen["chips_bottom"] = page.evaluate(
                "() => document.querySelector('#chips').getBoundingClientRect().bottom"
            )
            # The next round: Bob's one round is up, the player banks with all their coins.
            page.wait_for_function(
                "() => document.querySelector('#bank-panel').dataset.banker !== '' && "
                "document.querySelector('#bank-toggle').dataset.mode === 'step_down' && "
                "document.querySelector('#table-app').dataset.phase === 'betting'",
                timeout=ROUND_TIMEOUT_S * 1000,
            )
            seen["round2"] = int(page.get_attribute("#table-app", "data-round"))
            seen["my_bank"] = int(page.get_attribute("#bank-coins", "data-value"))
            seen["balance_banking"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["banker_can_bet"] = page.locator(".sg-bet:not([disabled])").count()
            seen["bank_shot"] = str(screenshot_dir() / f"sangong-{size}-banker.png")
            page.screenshot(path=seen["bank_shot"])
        finally:
            browser.close()
    return seen


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
