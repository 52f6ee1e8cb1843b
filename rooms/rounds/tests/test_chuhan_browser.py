"""楚汉德州 end to end in headless Chromium: bets, a reload, the 咪牌 by the top bettor, the result and payout.

Same harness as rooms/rounds/tests/test_browser.py (百家乐): the real ASGI app with its timer
loop on short phase timings. The browser's player bets 50 on 楚 and 10 on 高牌/一对, reloads
mid-round, watches the five community cards turn, is offered the reveal as 楚's top bettor
(nobody else bet), turns the hands, and sees the result and the payout the ledger paid. The rules
panel lists every area's odds, chance and house edge.
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

SLUG = "chuhan"
ROUND_TIMEOUT_S = 40

BETTING_WITH_TIME = """() => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > 6000;
}"""
THE_RESULT_SHOWN = """() => {
  const app = document.querySelector('#table-app');
  if (app.dataset.phase !== 'result') return false;
  const cards = {};
  for (const h of ['han', 'board', 'chu']) cards[h] = [...document.querySelectorAll(`[data-hand='${h}'] .pcard:not(.back)`)].map(e => e.dataset.card);
  const categories = {};
  for (const h of ['han', 'chu']) categories[h] = document.querySelector(`[data-hand='${h}'] .sg-facts`).dataset.category;
  const won = [...document.querySelectorAll('.ch-bet[data-outcome=won]')].map(e => e.dataset.area).sort();
  return { round: Number(app.dataset.round), cards, categories, won, winner: document.querySelector('#outcome').dataset.winner, text: document.querySelector('#outcome').textContent };
}"""


@pytest.fixture
def chuhan_tier(transactional_db, settings):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = 10
    settings.ROUNDS_REVEAL_MS = 150
    settings.ROUNDS_REVEAL_SECONDS = 8
    settings.ROUNDS_RESULT_SECONDS = 4
    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug=SLUG),
        code="e2e-chuhan",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={},
    )


def bet(page, chip: int, area: str, mine: int) -> None:
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f".ch-bet[data-area='{area}']")
    page.wait_for_selector(f".ch-bet[data-area='{area}'] .mine[data-value='{mine}']", timeout=30000)


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"ch{uuid.uuid4().hex[:10]}"
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
            seen["backs"] = page.locator("[data-hand] .pcard.back").count()
            seen["odds"] = page.locator(".ch-bet .odds").all_inner_texts()
            page.click("#rules-panel summary")
            seen["rules"] = page.locator("#rules-panel tbody tr").evaluate_all(
                "rows => rows.map(r => [r.dataset.area, ...[...r.cells].map(c => c.textContent.trim())])"
            )
            seen["rules_shot"] = str(screenshot_dir() / f"chuhan-{size}-rules.png")
            page.screenshot(path=seen["rules_shot"])
            page.click("#rules-panel summary")
            bet(page, 50, "chu", 50)
            bet(page, 10, "high_pair", 10)
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["bet_shot"] = str(screenshot_dir() / f"chuhan-{size}-bets.png")
            page.screenshot(path=seen["bet_shot"])
            # A reload mid-round: the stakes come back from the server.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(".ch-bet[data-area='chu'] .mine[data-value='50']", timeout=30000)
            # 咪牌: the board is out, the hands wait for this player, the only (so top) bettor on 楚.
            page.wait_for_selector(
                "#reveal-bar[data-mine=yes][data-waiting=yes]", timeout=ROUND_TIMEOUT_S * 1000
            )
            seen["board_at_pause"] = page.locator("[data-hand='board'] .pcard:not(.back)").count()
            seen["hands_at_pause"] = page.locator(
                "[data-hand='han'] .pcard:not(.back), [data-hand='chu'] .pcard:not(.back)"
            ).count()
            # A reload during the 咪牌: the page comes back to the same pause, button and all.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector("#reveal-bar[data-mine=yes][data-waiting=yes]", timeout=30000)
            seen["reveal_text"] = page.inner_text("#reveal-text")
            seen["phase_text"] = page.inner_text("#phase")
            seen["reveal_shot"] = str(screenshot_dir() / f"chuhan-{size}-reveal.png")
            page.screenshot(path=seen["reveal_shot"])
            page.click("#reveal-button")
            page.wait_for_selector("#reveal-bar[data-waiting='']", timeout=30000)
            seen["shown"] = page.wait_for_function(
                THE_RESULT_SHOWN, timeout=ROUND_TIMEOUT_S * 1000
            ).json_value()
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=20000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            seen["result_shot"] = str(screenshot_dir() / f"chuhan-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, #chips, .ch-hands, #my-result, .sg-side')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            seen["chips_bottom"] = page.evaluate(
                "() => document.querySelector('#chips').getBoundingClientRect().bottom"
            )
            seen["body_text"] = page.inner_text("#table-app")
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_player_bets_reveals_and_is_paid(live_asgi, chuhan_tier, settings, size, locale):  # noqa: F811
    import re
    from platform.accounts.models import User

    from games.chuhan import rules
    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry

    seen = play(live_asgi, size, chuhan_tier.pk, locale)
    print(f"screenshots: {seen['rules_shot']} {seen['bet_shot']} {seen['reveal_shot']} {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])
    assert seen["backs"] == 9  # every card face down while players bet
    assert seen["odds"] == [rules.odds_text(area) for area in rules.AREAS]
    # The rules panel: every area, its odds, its chance and its house edge as published.
    assert [row[0] for row in seen["rules"]] == list(rules.AREAS)
    for area, name, odds, chance, edge in seen["rules"]:
        assert name and odds == rules.odds_text(area)
        assert chance == f"{rules.win_probability(area) * 100:.3f} %"
        assert edge == f"{rules.house_edge(area) * 100:.2f} %"
    bets = list(Bet.objects.filter(round=rnd, user=user).order_by("pk"))
    assert [(b.area, b.amount) for b in bets] == [("chu", 50), ("high_pair", 10)]
    assert seen["balance_staked"] == settings.SIGNUP_GRANT_FIRST - 60
    # The reveal waited after the board for this player, then they turned the hands.
    assert (seen["board_at_pause"], seen["hands_at_pause"]) == (5, 0)
    assert rnd.revealer_id == user.pk and rnd.revealer_area == "chu"
    shown, result = seen["shown"], rnd.result
    assert shown["cards"] == {"han": result["han"], "board": result["board"], "chu": result["chu"]}
    assert shown["categories"] == {side: result["hands"][side]["category"] for side in ("han", "chu")}
    assert shown["won"] == sorted(result["wins"]) and shown["winner"] == result["winner"]
    # The payout: the page's net is the ledger's (what the payout paid back, less the 60 staked).
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=user)
    assert seen["net"] == sum(paid.values_list("amount", flat=True)) - 60
    assert seen["fits"], "something overflows the screen"
    if locale.startswith("zh"):
        assert "咪牌" in seen["phase_text"] and "楚" in seen["reveal_text"]
        assert seen["chips_bottom"] <= SIZES["phone"][1] * 1.6
    else:
        assert seen["phase_text"] == "Reveal" and "Chu" in seen["reveal_text"]
        assert not re.search(r"[\u4e00-\u9fff]", seen["body_text"].replace(user.username, "")), seen[
            "body_text"
        ]
