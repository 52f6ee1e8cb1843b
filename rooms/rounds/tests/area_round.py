"""The browser driver the banker games' end-to-end tests share (百人三公, 百人牛牛; static/js/area_hands.js).

The real ASGI app with its timer loop on short phase timings, a tier whose table Bob
banks for one round, and a new player who in Chromium bets 100 and 50 on the first two
areas, is refused 100 on the third past the bank, applies to bank, reloads, watches the
reveal card by card, reads the result and the payout, and banks the next round. What
differs (the game, its areas and hands, Bob's coins, what more a page is asked) each
test passes in; its assertions stay its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from rooms.tables.tests.test_browser import (
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    screenshot_dir,
    sign_up_and_enter,
)

BET_SECONDS = 10

BETTING_WITH_TIME = """() => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > 6000;
}"""
# Record every change of how many cards each of `hands` shows face up.
RECORD_THE_REVEAL = """(hands) => {
  window.revealSeen = [];
  const note = () => {
    const row = hands.map(h => document.querySelectorAll(`[data-hand='${h}'] .pcard:not(.back)`).length).join('');
    if (window.revealSeen[window.revealSeen.length - 1] !== row) window.revealSeen.push(row);
  };
  new MutationObserver(note).observe(document.querySelector('.sg-felt'), { childList: true, subtree: true });
}"""
# Once the round shows its result: each hand's cards (and where a split hand's gap falls), its facts, the outcome.
THE_RESULT_SHOWN = """(hands) => {
  const app = document.querySelector('#table-app');
  if (app.dataset.phase !== 'result') return false;
  const shown = {};
  for (const h of hands) {
    const box = document.querySelector(`[data-hand='${h}']`);
    const facts = box.querySelector('.sg-facts');
    shown[h] = {
      cards: [...box.querySelectorAll('.pcard')].map(e => e.dataset.card),
      split: [...box.querySelectorAll('.pcard')].findIndex(e => e.classList.contains('split')),
      category: facts.dataset.category, multiple: facts.dataset.multiple, text: facts.textContent,
    };
  }
  const outcome = [...document.querySelectorAll('#outcome .sg-line')].map(e => [e.dataset.area, e.classList.contains('won'), Number(e.dataset.multiple)]);
  return { round: Number(app.dataset.round), hands: shown, outcome };
}"""
FITS = (
    "(selector) => [...document.querySelectorAll(selector)]"
    ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
)


def banked_tier(settings, make_player, *, slug: str, code: str, reveal_ms: int, bob_coins: int):
    """Create a tier of `slug` (bank from 500 coins, one round at most, 5% rake) whose table Bob banks first."""
    from rooms.models import Game, RoomTier
    from rooms.rounds import services
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = BET_SECONDS
    settings.ROUNDS_REVEAL_MS = reveal_ms
    settings.ROUNDS_RESULT_SECONDS = 4
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug=slug),
        code=code,
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={"bank_minimum": 500, "bank_rounds": 1},
    )
    bob = make_player(coins=bob_coins, name="bob")
    table = services.round_enter(tier_id=tier.pk, user=bob)
    services.round_bank_apply(table_id=table.pk, user=bob)
    return tier, bob


def bet(page, chip: int, area: str, mine: int) -> None:
    """Pick the chip, tap the area, and wait until the page shows `mine` staked there."""
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f".sg-bet[data-area='{area}']")
    page.wait_for_selector(f".sg-bet[data-area='{area}'] .mine[data-value='{mine}']", timeout=5000)


def play_banked_round(
    base_url: str,
    size: str,
    tier_id: int,
    locale: str,
    *,
    slug: str,
    shots: str,
    hands: list[str],
    timeout_s: int,
    fits: str = "#areas, #chips, .sg-banker, #my-result, .sg-side",
    before_bets: Callable[[object, dict], None] | None = None,
    on_result: Callable[[object, dict], None] | None = None,
) -> dict:
    """Play the round against Bob's bank and the next one as the banker; return what the page showed.

    `hands` are the banker's then the areas' (the first three areas are bet on);
    screenshots are named `{shots}-{size}-…`; `fits` are the boxes that must stay on
    screen; `before_bets` and `on_result` may read more into `seen`.
    """
    from playwright.sync_api import sync_playwright

    first, second, third = hands[1:4]
    width, height = SIZES[size]
    username = f"{slug[:2]}{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, slug, tier_id, "**/rounds/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_function(BETTING_WITH_TIME, timeout=timeout_s * 1000)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["banker_name"] = page.inner_text("#banker-name")
            seen["bank_coins"] = page.get_attribute("#bank-coins", "data-value")
            if before_bets:
                before_bets(page, seen)
            seen["rooms_before"] = page.locator(".sg-bet .room").evaluate_all(
                "els => els.map(e => [Number(e.dataset.value), Number(e.dataset.multiple)])"
            )
            seen["backs"] = page.locator("[data-hand] .pcard.back").count()
            bet(page, 100, first, 100)
            bet(page, 50, second, 50)
            page.wait_for_selector("#bank-room[data-value='50']", timeout=5000)
            page.click("#chips .bc-chip[data-value='100']")
            page.click(f".sg-bet[data-area='{third}']")
            page.wait_for_selector("#hand-message[data-kind=error]", timeout=5000)
            seen["refusal"] = page.inner_text("#hand-message")
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            # 上庄: the player joins the queue behind nobody (Bob banks now).
            page.click("#bank-toggle[data-mode='apply']")
            page.wait_for_selector("#bank-queue li.me", timeout=5000)
            seen["bet_shot"] = str(screenshot_dir() / f"{shots}-{size}-bets.png")
            page.screenshot(path=seen["bet_shot"])
            # A reload mid-round: the stakes, the queue and the bank come back from the server.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(f".sg-bet[data-area='{first}'] .mine[data-value='100']", timeout=5000)
            page.wait_for_selector("#bank-queue li.me", timeout=5000)
            seen["toggle_after_reload"] = page.get_attribute("#bank-toggle", "data-mode")
            page.evaluate(RECORD_THE_REVEAL, hands)
            seen["shown"] = page.wait_for_function(
                THE_RESULT_SHOWN, arg=hands, timeout=timeout_s * 1000
            ).json_value()
            seen["reveal"] = page.evaluate("() => window.revealSeen")
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=20000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            seen["result_shot"] = str(screenshot_dir() / f"{shots}-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["fits"] = page.evaluate(FITS, fits)
            if on_result:
                on_result(page, seen)
            seen["chips_bottom"] = page.evaluate(
                "() => document.querySelector('#chips').getBoundingClientRect().bottom"
            )
            # The next round: Bob's one round is up, the player banks with all their coins.
            page.wait_for_function(
                "() => document.querySelector('#bank-panel').dataset.banker !== '' && "
                "document.querySelector('#bank-toggle').dataset.mode === 'step_down' && "
                "document.querySelector('#table-app').dataset.phase === 'betting'",
                timeout=timeout_s * 1000,
            )
            seen["round2"] = int(page.get_attribute("#table-app", "data-round"))
            seen["my_bank"] = int(page.get_attribute("#bank-coins", "data-value"))
            seen["balance_banking"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["banker_can_bet"] = page.locator(".sg-bet:not([disabled])").count()
            seen["bank_shot"] = str(screenshot_dir() / f"{shots}-{size}-banker.png")
            page.screenshot(path=seen["bank_shot"])
        finally:
            browser.close()
    return seen
