"""开心摇摇乐 end to end in headless Chromium: the rules panel, bets, 撤销, a reload, the cups, the payout, 重复投.

Same harness as rooms/rounds/tests/test_browser.py (百家乐): the real ASGI app
with its timer loop on short phase timings. The browser's player reads the
rules panel's odds, bets 100 on 红, 50 on 平 and 10 on 红豹子, cancels them
(撤销: the balance comes back), bets 100 on 红 and 10 on 平, reloads (the stakes
come back from the server), ticks 重复投, is asked to open red's cup as 红's top
bettor (开骰盅, 001:398), reloads during that wait (the button comes back), opens
it, watches blue's cup (nobody on 蓝) open by itself, sees the result and the
payout, reloads again (both come back), and finds the next round's bets placed
for them by 重复投.
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
from rooms.tables.tests.test_english_browser import HAN_OUTSIDE_SWITCH

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "yaoyaole"
BET_SECONDS = 12
ROUND_TIMEOUT_S = 40

BETTING_WITH_TIME = """() => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > 8000;
}"""
# Record every change of how many dice each cup shows face up (red, then blue).
RECORD_THE_REVEAL = """() => {
  window.revealSeen = [];
  const note = () => {
    const row = ['red', 'blue'].map(s => document.querySelectorAll(`.yy-cup[data-side='${s}'] .die:not(.covered)`).length).join('');
    if (window.revealSeen[window.revealSeen.length - 1] !== row) window.revealSeen.push(row);
  };
  new MutationObserver(note).observe(document.querySelector('.yy-cups'), { childList: true, subtree: true });
}"""
THE_RESULT_SHOWN = """() => {
  const app = document.querySelector('#table-app');
  if (app.dataset.phase !== 'result') return false;
  const cups = {};
  for (const side of ['red', 'blue']) {
    const cup = document.querySelector(`.yy-cup[data-side='${side}']`);
    cups[side] = {
      dice: [...cup.querySelectorAll('.die')].map(e => Number(e.dataset.value)),
      points: cup.querySelector('.yy-points').dataset.value,
      combo: cup.querySelector('.yy-combo').dataset.combo,
    };
  }
  const areas = Object.fromEntries([...document.querySelectorAll('#areas .bc-area')].map(e => [e.dataset.area, e.dataset.outcome]));
  return { round: Number(app.dataset.round), cups, areas, winner: document.querySelector('#outcome').dataset.winner,
           outcome: document.querySelector('#outcome').textContent };
}"""


@pytest.fixture
def dice_tier(transactional_db, settings):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = BET_SECONDS
    settings.ROUNDS_REVEAL_MS = 200
    settings.ROUNDS_REVEAL_SECONDS = 20  # the opener's wait: time for a reload
    settings.ROUNDS_RESULT_SECONDS = 8
    catalogue_sync()
    return RoomTier.objects.create(
        game=Game.objects.get(slug=SLUG),
        code="e2e-dice",
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=0,
        options={},
    )


def bet(page, chip: int, area: str, mine: int) -> None:
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f"#areas .bc-area[data-area='{area}']")
    page.wait_for_selector(f".bc-area[data-area='{area}'] .mine[data-value='{mine}']", timeout=30000)


def play(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"yy{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, SLUG, tier_id, "**/rounds/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["odds"] = page.locator("#odds-table tbody tr").evaluate_all(
                "rows => rows.map(r => [r.dataset.area, r.querySelector('.pays').textContent,"
                " r.querySelector('.win').textContent, r.querySelector('.edge').textContent])"
            )
            seen["rules_text"] = page.inner_text("#rules")
            page.wait_for_function(BETTING_WITH_TIME, timeout=ROUND_TIMEOUT_S * 1000)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["covered"] = page.locator(".yy-cup .die.covered").count()
            bet(page, 100, "red", 100)
            bet(page, 50, "tie", 50)
            bet(page, 10, "red_triple", 10)
            # 撤销: every bet of the round comes back.
            page.click("#cancel-bets")
            page.wait_for_selector(
                ".bc-area[data-area='red'] .mine[data-value='0']", state="attached", timeout=30000
            )
            page.wait_for_selector(f"#my-balance[data-value='{seen['balance_before']}']", timeout=30000)
            seen["after_cancel"] = page.locator("#areas .bc-area .mine").evaluate_all(
                "els => els.map(e => Number(e.dataset.value))"
            )
            bet(page, 100, "red", 100)
            bet(page, 10, "tie", 10)
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["bet_shot"] = str(screenshot_dir() / f"yaoyaole-{size}-bets.png")
            page.screenshot(path=seen["bet_shot"], full_page=True)
            # A reload mid-round: the stakes come back from the server.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(".bc-area[data-area='red'] .mine[data-value='100']", timeout=30000)
            page.wait_for_selector(".bc-area[data-area='tie'] .mine[data-value='10']", timeout=30000)
            page.check("#auto-repeat")  # 重复投 from the next round on
            # 开骰盅: the betting closes and red's cup waits for this player, 红's only (so top) bettor.
            red_opener = ".yy-cup[data-side='red'] .yy-opener"
            page.wait_for_selector(
                f"{red_opener}[data-mine=yes][data-waiting=yes]", timeout=ROUND_TIMEOUT_S * 1000
            )
            seen["dice_at_pause"] = page.locator(".yy-cup .die:not(.covered)").count()
            seen["blue_opener_shown"] = page.is_visible(".yy-cup[data-side='blue'] .yy-opener")
            # A reload during the wait: the page comes back to it, button, name and countdown.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(f"{red_opener}[data-mine=yes][data-waiting=yes]", timeout=30000)
            seen["opener_text"] = page.inner_text(f"{red_opener} .yy-opener-text")
            seen["opener_clock"] = page.locator(f"{red_opener} .clock[data-deadline]").count()
            seen["open_button"] = page.inner_text(f"{red_opener} .yy-open")
            seen["phase_text"] = page.inner_text("#phase")
            seen["open_shot"] = str(screenshot_dir() / f"yaoyaole-{size}-open.png")
            page.screenshot(path=seen["open_shot"], full_page=True)
            page.evaluate(RECORD_THE_REVEAL)
            page.click(f"{red_opener} .yy-open")
            page.wait_for_selector(f"{red_opener}[data-waiting='']", timeout=30000)
            seen["shown"] = page.wait_for_function(
                THE_RESULT_SHOWN, timeout=ROUND_TIMEOUT_S * 1000
            ).json_value()
            seen["reveal"] = page.evaluate("() => window.revealSeen")
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=20000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            # A reload while the result shows: the dice, the outcome and the payout come back.
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]")
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}'][data-net='{seen['net']}']", timeout=30000
            )
            seen["after_reload"] = page.evaluate(THE_RESULT_SHOWN)
            seen["opened_by"] = page.inner_text(f"{red_opener} .yy-opener-text")
            seen["han"] = page.evaluate(HAN_OUTSIDE_SWITCH)
            seen["result_shot"] = str(screenshot_dir() / f"yaoyaole-{size}-result.png")
            page.screenshot(path=seen["result_shot"], full_page=True)
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, #chips, .yy-cups, #my-result, .yy-side, .bc-bet-actions')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            seen["odds_fit"] = page.evaluate(
                "() => { const t = document.querySelector('#odds-table'); const box = document.querySelector('#rules');"
                " return t.getBoundingClientRect().right <= box.getBoundingClientRect().right + 1; }"
            )
            seen["areas_bottom"] = page.evaluate(
                "() => document.querySelector('#areas').getBoundingClientRect().bottom"
            )
            # The next round: 重复投 stakes the last round's bets as soon as it opens.
            page.wait_for_function(
                f"() => document.querySelector('#table-app').dataset.phase === 'betting' && "
                f"Number(document.querySelector('#table-app').dataset.round) !== {seen['round']}",
                timeout=ROUND_TIMEOUT_S * 1000,
            )
            seen["round2"] = int(page.get_attribute("#table-app", "data-round"))
            page.wait_for_selector(".bc-area[data-area='red'] .mine[data-value='100']", timeout=30000)
            page.wait_for_selector(".bc-area[data-area='tie'] .mine[data-value='10']", timeout=30000)
            seen["auto_checked"] = page.is_checked("#auto-repeat")
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_player_bets_cancels_reloads_sees_the_dice_and_repeats(
    live_asgi,  # noqa: F811 - the fixture imported above
    dice_tier,
    settings,
    size,
    locale,
):
    from platform.accounts.models import User

    from games.yaoyaole import rules
    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry, LedgerTransaction

    seen = play(live_asgi, size, dice_tier.pk, locale)
    print(f"screenshots: {seen['bet_shot']} {seen['open_shot']} {seen['result_shot']}")
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])

    # The rules panel: every area with the exact figures the rules compute.
    table = rules.odds_table()
    assert [row[0] for row in seen["odds"]] == list(rules.AREAS)
    for area, pays, win, edge in seen["odds"]:
        assert pays == rules.ODDS_TEXT[area]
        assert win == f"{float(table[area].win) * 100:.4f}%"
        assert edge == f"{float(table[area].house_edge) * 100:.4f}%"
    assert ("1赔2.3" if locale.startswith("zh") else "1:2.3") in seen["rules_text"]

    # Both cups covered before the bets; 撤销 returned everything through the ledger.
    assert seen["covered"] == 6
    assert seen["after_cancel"] == [0] * 9
    cancel = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.CANCEL, reference=f"round:{rnd.pk}")
    assert sum(e.amount for e in cancel.entries.all() if e.account.user_id == user.pk) == 160
    bets = list(Bet.objects.standing().filter(round=rnd, user=user).order_by("pk"))
    assert [(b.area, b.amount) for b in bets] == [("red", 100), ("tie", 10)]
    assert seen["balance_staked"] == seen["balance_before"] - 110

    # 开骰盅: red's cup waited, closed, for this player; reloaded, the page still offered them
    # the button with a countdown; their click opened the whole cup, then blue's opened by itself.
    assert seen["dice_at_pause"] == 0
    assert not seen["blue_opener_shown"]  # nobody bet on 蓝: no opener
    assert rnd.revealer_id == user.pk and rnd.revealer_area == "red"
    assert rnd.revealers[0]["user"] == user.pk and rnd.revealers[1]["user"] is None
    assert seen["opener_clock"] == 1
    zh = locale.startswith("zh")
    assert ("红" if zh else "Red") in seen["opener_text"]
    assert seen["open_button"] == ("开盅" if zh else "Open")
    assert seen["phase_text"] == ("开骰盅" if zh else "Opening the cups")
    assert user.stored_name in seen["opened_by"]
    assert [row for row in seen["reveal"] if row != "00"] == ["30", "33"], seen["reveal"]
    result = rnd.result
    for side in ("red", "blue"):
        shown = seen["shown"]["cups"][side]
        assert shown["dice"] == result[side]
        assert shown["points"] == str(result["sides"][side]["points"])
        assert shown["combo"] == (result["sides"][side]["combo"] or "")
    assert seen["shown"]["winner"] == result["winner"]
    assert seen["shown"]["areas"] == result["areas"]
    assert seen["after_reload"] == seen["shown"]
    if locale.startswith("en"):
        assert seen["han"] == [], seen["han"]  # an English page shows no Chinese but the switch

    # The payout: the page's net is the ledger's, and the rules' net of each bet.
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user=user)
    assert seen["net"] == sum(paid.values_list("amount", flat=True)) - 110
    red, blue = result["red"], result["blue"]
    assert seen["net"] == rules.net("red", 100, red, blue) + rules.net("tie", 10, red, blue)
    assert seen["fits"], "something overflows the screen"
    assert seen["odds_fit"], "the odds table overflows the rules panel"
    assert seen["areas_bottom"] > 0

    # 重复投: the next round holds the same bets, placed by the page, each through the ledger.
    second = Round.objects.get(pk=seen["round2"])
    again = list(Bet.objects.standing().filter(round=second, user=user).order_by("pk"))
    assert sorted((b.area, b.amount) for b in again) == [("red", 100), ("tie", 10)]
    assert all(b.ledger_key for b in again)
    assert seen["auto_checked"]
