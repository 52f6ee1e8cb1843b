"""保险楚汉德州 end to end in headless Chromium: three streets, a reload, the 咪牌 twice, the payout.

The browser's player bets 50 on 楚 on the first street; the coup is stacked (汉 A♥K♦ against 楚
Q♣J♠, flop 2♣7♦9♥, turn 3♠, river 4♣) so that neither later street is one-sided. After the
first street the hands and the flop turn; the turn street opens its own areas with odds from
those cards; the player bets 20 on 汉 there, reloads, and as the only bettor on 楚 (the side
with the higher odds) turns the turn card; then the river street, the 咪牌 again, the result.
"""

from __future__ import annotations

import re
import threading
import uuid

import pytest

from rooms.rounds.tests.test_chuhan_browser import BETTING_WITH_TIME, THE_RESULT_SHOWN
from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "chuhan_insured"
TIMEOUT_MS = 40_000
COUP = ["Ah", "Qc", "Kd", "Js", "2c", "7d", "9h", "3s", "4c"]
EARLIER = "#earlier-bets:not([hidden]) .ch-earlier-bet[data-area='{area}'] .mine[data-value='{amount}']"
# The first street's betting with time to bet (a later street's window is betting too).
FIRST_STREET_WITH_TIME = (
    f"""() => ({BETTING_WITH_TIME})() && document.querySelector(".ch-bet[data-area='high_pair']") !== null"""
)
STREET_OPEN = """(n) => {
  const app = document.querySelector('#table-app');
  return app.dataset.phase === 'betting' && document.querySelector(`.ch-bet[data-area='chu_${n}']`) !== null;
}"""


@pytest.fixture
def insured_tier(transactional_db, settings):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = 9
    settings.ROUNDS_REVEAL_MS = 150
    settings.ROUNDS_REVEAL_SECONDS = 8
    settings.ROUNDS_RESULT_SECONDS = 4
    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug=SLUG),
        code="e2e-insured",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={"margin_bps": 500},
    )


def stack_next_coup(table_id: int) -> None:
    """Put COUP next in the table's shoe, from a thread of its own (Playwright's loop runs in this one)."""
    from django.db import connection

    from rooms.rounds.models import Round
    from rooms.rounds.tests.conftest import stack_shoe

    def stack() -> None:
        try:
            rnd = Round.objects.filter(table_id=table_id, phase="betting", result__isnull=True).first()
            stack_shoe(rnd, COUP)
        finally:
            connection.close()

    worker = threading.Thread(target=stack)
    worker.start()
    worker.join()


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"ci{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, SLUG, tier_id, "**/rounds/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_function(FIRST_STREET_WITH_TIME, timeout=TIMEOUT_MS)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            stack_next_coup(int(page.get_attribute("#table-app", "data-table")))
            seen["first_areas"] = page.locator(".ch-bet").evaluate_all("els => els.map(e => e.dataset.area)")
            page.click("#chips .bc-chip[data-value='50']")
            page.click(".ch-bet[data-area='chu']")
            page.wait_for_selector(".ch-bet[data-area='chu'] .mine[data-value='50']", timeout=30000)
            # The turn street: its own areas, the hands and the flop face up, the turn face down.
            page.wait_for_function(STREET_OPEN, arg=2, timeout=TIMEOUT_MS)
            seen["second_areas"] = page.locator(".ch-bet").evaluate_all(
                "els => els.map(e => [e.dataset.area, e.querySelector('.odds').textContent])"
            )
            # The first street's bet still shows, read-only, at the odds it was placed at.
            page.wait_for_selector(EARLIER.format(area="chu", amount=50), timeout=30000)
            seen["earlier_at_turn"] = page.inner_text("#earlier-bets .ch-earlier-row")
            seen["shown_at_turn"] = page.locator("[data-hand] .pcard:not(.back)").count()
            seen["coup_text"] = page.inner_text("#coup")
            page.click("#chips .bc-chip[data-value='10']")
            page.click(".ch-bet[data-area='han_2']")
            page.click(".ch-bet[data-area='han_2']")
            page.wait_for_selector(".ch-bet[data-area='han_2'] .mine[data-value='20']", timeout=30000)
            seen["turn_shot"] = str(screenshot_dir() / f"insured-{size}-turn.png")
            page.screenshot(path=seen["turn_shot"])
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(".ch-bet[data-area='han_2'] .mine[data-value='20']", timeout=30000)
            page.wait_for_selector(EARLIER.format(area="chu", amount=50), timeout=30000)
            seen["earlier_after_reload"] = page.inner_text("#earlier-bets .ch-earlier-row")
            # 咪牌 of the turn: this player is the only bettor on 楚, the side with the higher odds.
            page.wait_for_selector("#reveal-bar[data-mine=yes][data-waiting=yes]", timeout=TIMEOUT_MS)
            seen["reveal_text"] = page.inner_text("#reveal-text")
            page.click("#reveal-button")
            page.wait_for_function(STREET_OPEN, arg=3, timeout=TIMEOUT_MS)
            seen["shown_at_river"] = page.locator("[data-hand] .pcard:not(.back)").count()
            # On the river street both earlier streets' bets show, each in its row.
            page.wait_for_selector(EARLIER.format(area="han_2", amount=20), timeout=30000)
            seen["earlier_rows"] = page.locator("#earlier-bets .ch-earlier-row").evaluate_all(
                "rows => rows.map(r => [...r.querySelectorAll('.ch-earlier-bet')].map(b => "
                "[b.dataset.area, b.querySelector('.odds').textContent, Number(b.querySelector('.mine').dataset.value)]))"
            )
            seen["earlier_sum"] = page.inner_text("#earlier-bets .ch-earlier-sum")
            seen["earlier_fits"] = page.evaluate(
                "() => { const b = document.querySelector('#earlier-bets').getBoundingClientRect();"
                " return b.width > 0 && b.right <= window.innerWidth + 1 && b.left >= -1; }"
            )
            seen["river_shot"] = str(screenshot_dir() / f"insured-{size}-river.png")
            page.screenshot(path=seen["river_shot"])
            page.wait_for_selector("#reveal-bar[data-mine=yes][data-waiting=yes]", timeout=TIMEOUT_MS)
            page.click("#reveal-button")
            seen["shown"] = page.wait_for_function(THE_RESULT_SHOWN, timeout=TIMEOUT_MS).json_value()
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=20000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            seen["result_text"] = page.inner_text("#my-result")
            seen["result_shot"] = str(screenshot_dir() / f"insured-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, #chips, .ch-hands, #my-result, .sg-side')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            seen["body_text"] = page.inner_text("#table-app")
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_player_bets_three_streets_and_reveals(live_asgi, insured_tier, size, locale):  # noqa: F811
    from platform.accounts.models import User

    import games
    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry

    seen = play(live_asgi, size, insured_tier.pk, locale)
    print(f"screenshots: {seen['turn_shot']} {seen['river_shot']} {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])
    engine = games.REGISTRY[SLUG].engine
    assert seen["first_areas"][:3] == ["chu", "tie", "han"] and len(seen["first_areas"]) == 8
    odds = rnd.result["streets"]["2"]["odds"]
    assert [area for area, _ in seen["second_areas"]] == ["chu_2", "tie_2", "han_2"]
    assert dict(seen["second_areas"])["han_2"] == f"1:{(odds['han'] - 100) / 100:.2f}".rstrip("0").rstrip(".")
    assert seen["shown_at_turn"] == 7 and seen["shown_at_river"] == 8
    first_odds = {a["area"]: a["odds"] for a in rnd.earlier_areas[0]}
    turn_odds = {a["area"]: a["odds"] for a in rnd.earlier_areas[1]}
    assert dict(seen["second_areas"]) == turn_odds
    # Each street's bet stays on the board at its own odds, the turn's after a reload too.
    assert seen["earlier_rows"] == [[["chu", first_odds["chu"], 50]], [["han_2", turn_odds["han_2"], 20]]]
    assert first_odds["chu"] in seen["earlier_at_turn"] and "50" in seen["earlier_at_turn"]
    assert seen["earlier_after_reload"] == seen["earlier_at_turn"]
    assert "70" in seen["earlier_sum"] and seen["earlier_fits"]
    assert rnd.window == 2 and rnd.revealer_id == user.pk
    bets = list(Bet.objects.standing().filter(round=rnd, user=user).order_by("pk"))
    assert [(b.area, b.amount) for b in bets] == [("chu", 50), ("han_2", 10), ("han_2", 10)]
    assert seen["shown"]["winner"] == rnd.result["winner"] == "han"
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=user)
    assert seen["net"] == sum(paid.values_list("amount", flat=True)) - 70
    gross = sum(engine.payout(rnd.config, rnd.result, b.area, b.amount) for b in bets)
    assert seen["net"] == (gross if gross <= 0 else gross - gross * 500 // 10000)
    assert seen["fits"], "something overflows the screen"
    if locale.startswith("zh"):
        assert "第2轮" in seen["coup_text"] and "楚" in seen["reveal_text"]
        assert "楚 · 第1轮" in seen["earlier_at_turn"] and "本局你共下注" in seen["earlier_sum"]
    else:
        assert "Street 2" in seen["coup_text"]
        assert "Chu · Street 1" in seen["earlier_at_turn"] and "Your bets on this coup" in seen["earlier_sum"]
        assert not re.search(r"[\u4e00-\u9fff]", seen["body_text"].replace(user.username, "")), seen[
            "body_text"
        ]
