"""百家乐 in Chromium at 1280×800 and 390×844: 撤销, 重复投, the payout per area, the derived roads and 问路.

The table's shoe already holds ten coups whose roads are worked out by hand
(games/tests/test_baccarat_roads.py: big road columns 2 3 1 1 4 2), so the
page must draw 大眼仔路, 小路 and 曱甴路 and the 问路 marks from its first
state. The player then bets, cancels, bets again, sees the payout as one line
per area, sees it cleared when the next round opens and repeats the bets.
Every wait is on something the page shows. The betting window is long, so
the player has time for every click however slow the machine; once the bets
are placed the test closes it (as its deadline passing would) rather than
waiting the window out.
"""

from __future__ import annotations

import uuid

import pytest

from rooms.rounds.tests.test_browser import (  # noqa: F401 - fixtures
    CHROMIUM_ARGS,
    SIZES,
    baccarat_tier,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BET_SECONDS = 60
TIMEOUT_MS = 60_000
# The shoe's history: B B | P P P | B | P | B B B B | P P (10 coups, no ties).
HISTORY = "BBPPPBPBBBBPP"
# Player 9 against banker 7, and the reverse: no pairs, no third cards.
COUPS = {"P": (["9s", "Ks"], ["7h", "Kd"]), "B": (["7s", "Kc"], ["9h", "Qd"])}

# Betting open with at least ``ms`` left on the clock.
BETTING_WITH = """(ms) => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > ms;
}"""
ROADS_DRAWN = """() => ({
  bigEye: [...document.querySelectorAll('#big-eye-boy .mark')].map(e => e.dataset.colour),
  small: [...document.querySelectorAll('#small-road .mark')].map(e => e.dataset.colour),
  cockroach: [...document.querySelectorAll('#cockroach-pig .mark')].map(e => e.dataset.colour),
  ask: Object.fromEntries(['banker', 'player'].map(w => [w,
    [...document.querySelectorAll(`#ask-${w} .mark`)].map(e => e.dataset.colour)])),
})"""


def preload_shoe(tier) -> None:
    """Open the tier's table on a shoe that has dealt HISTORY already (as if the table had played it)."""
    import secrets

    import games
    from games.base import SeededRng
    from rooms.rounds.broadcast import tier_config
    from rooms.rounds.models import Shoe
    from rooms.tables.models import Table

    engine = games.REGISTRY["baccarat"].engine
    table = Table.objects.create(tier=tier, seat_count=0, status=Table.Status.PLAYING)
    seed = secrets.token_bytes(32)
    state = engine.new_shoe(tier_config(tier), SeededRng(seed, "shoe"))
    history = []
    for number, letter in enumerate(HISTORY, start=1):
        player, banker = COUPS[letter]
        summary = {**engine_coup(player, banker), "coup": number}
        history.append(summary)
    position = 4 * len(history)
    cards = list(state["cards"])
    cards[position : position + 4] = ["7s", "9h", "Kc", "Qd"]  # the first round: banker 9 against player 7
    state.update(cards=cards, history=history, coups=len(history), position=position)
    Shoe.objects.create(table=table, number=1, seed=seed, state=state)


def engine_coup(player, banker) -> dict:
    from games.baccarat.rules import Coup

    return Coup(player=list(player), banker=list(banker)).to_dict()


def close_betting(round_id: int) -> None:
    """Bring the round's deadline to now: the clock deals it at its next tick, as when time runs out.

    Called between Playwright's calls, where Django opens a connection of its own: closed here.
    """
    from django.db import connection
    from django.utils import timezone

    from rooms.rounds.models import Round

    try:
        assert Round.objects.filter(pk=round_id, phase="betting").update(deadline=timezone.now()) == 1
    finally:
        connection.close()


def bet(page, chip: int, area: str, mine: int) -> None:
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f"#areas .bc-area[data-area='{area}']")
    page.wait_for_selector(f"#areas .bc-area[data-area='{area}'] .mine[data-value='{mine}']", timeout=10_000)


def mine(page, area: str) -> int:
    return int(page.get_attribute(f"#areas .bc-area[data-area='{area}'] .mine", "data-value"))


def drive(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"bx{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "baccarat", tier_id, "**/rounds/*/")
            page.wait_for_function(BETTING_WITH, arg=12_000, timeout=TIMEOUT_MS)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["roads"] = page.evaluate(ROADS_DRAWN)
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["buttons_at_start"] = [page.is_disabled("#cancel-bets"), page.is_disabled("#repeat-bets")]
            seen["buttons_bottom"] = page.evaluate(
                "() => document.querySelector('.bc-bet-actions').getBoundingClientRect().bottom"
            )

            # Bet, then 撤销: the stakes come back to the balance shown.
            bet(page, 100, "banker", 100)
            bet(page, 100, "banker", 200)
            bet(page, 10, "player", 10)
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            page.click("#cancel-bets")
            page.wait_for_selector(
                "#areas .bc-area[data-area='banker'] .mine[data-value='0']", state="attached", timeout=10_000
            )
            seen["after_cancel"] = {
                "banker": mine(page, "banker"),
                "player": mine(page, "player"),
                "balance": int(page.get_attribute("#my-balance", "data-value")),
                "cancel_disabled": page.is_disabled("#cancel-bets"),
            }

            # Bet again: two chips on banker, one on player.
            bet(page, 100, "banker", 100)
            bet(page, 100, "banker", 200)
            bet(page, 10, "player", 10)
            close_betting(seen["round"])
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=TIMEOUT_MS
            )
            seen["lines"] = page.locator("#my-result .bet").evaluate_all(
                "els => els.map(e => [e.dataset.area, Number(e.dataset.net), e.textContent])"
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            page.screenshot(path=str(screenshot_dir() / f"baccarat-actions-{size}-result.png"))

            # The next round opens: the last result is gone; 重复投 stakes the same areas and amounts.
            page.wait_for_function(
                f"() => document.querySelector('#table-app').dataset.round !== '{seen['round']}'"
                " && document.querySelector('#table-app').dataset.phase === 'betting'",
                timeout=TIMEOUT_MS,
            )
            seen["next_round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["result_hidden"] = page.is_hidden("#my-result")
            page.wait_for_function(BETTING_WITH, arg=3_000, timeout=TIMEOUT_MS)
            seen["balance_before_repeat"] = int(page.get_attribute("#my-balance", "data-value"))
            page.click("#repeat-bets")
            page.wait_for_selector(
                "#areas .bc-area[data-area='banker'] .mine[data-value='200']", timeout=10_000
            )
            page.wait_for_selector(
                "#areas .bc-area[data-area='player'] .mine[data-value='10']", timeout=10_000
            )
            seen["balance_after_repeat"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["roads_later"] = page.evaluate(ROADS_DRAWN)
            page.screenshot(path=str(screenshot_dir() / f"baccarat-actions-{size}-repeat.png"))
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, .bc-bet-bar, #my-result, .bc-roads, .bc-derived, .bc-ask')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            seen["height"] = height
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_cancel_repeat_payout_per_area_and_derived_roads(
    live_asgi,  # noqa: F811
    baccarat_tier,  # noqa: F811
    settings,
    monkeypatch,
    size,
    locale,
):
    from platform.accounts.models import User

    from rooms.rounds.models import Bet
    from wallets.models import LedgerTransaction
    from wallets.selectors import wallet_balance

    settings.ROUNDS_BET_SECONDS = BET_SECONDS
    monkeypatch.setenv(
        "DJANGO_ALLOW_ASYNC_UNSAFE", "true"
    )  # the test closes betting from Playwright's thread
    preload_shoe(baccarat_tier)
    seen = drive(live_asgi, size, baccarat_tier.pk, locale)
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])

    # The derived roads and 问路 as worked out by hand (games/tests/test_baccarat_roads.py).
    red, blue = "red", "blue"
    expected_roads = {
        "bigEye": [red, blue, blue, blue, red, blue, red, red, blue, red],
        "small": [blue, blue, blue, red, red, blue, blue],
        "cockroach": [blue, red, red, blue, blue, blue],
        "ask": {"banker": [blue, blue, blue], "player": [red, red, red]},
    }
    assert seen["roads"] == expected_roads
    # The first round (a banker win) joined the roads with the mark 问路 showed for banker.
    assert seen["roads_later"]["bigEye"] == [*expected_roads["bigEye"], blue]
    assert seen["roads_later"]["small"] == [*expected_roads["small"], blue]
    assert seen["roads_later"]["cockroach"] == [*expected_roads["cockroach"], blue]

    # Nothing staked yet: 撤销 is off, 重复投 on (the server says if there is nothing to repeat).
    assert seen["buttons_at_start"] == [True, False]
    # 撤销 gave every coin back, through the ledger, and left nothing on the areas.
    assert seen["balance_before"] - seen["balance_staked"] == 210
    assert seen["after_cancel"] == {
        "banker": 0,
        "player": 0,
        "balance": seen["balance_before"],
        "cancel_disabled": True,
    }
    first = list(Bet.objects.filter(round_id=seen["round"], user=user).order_by("pk"))
    assert [(b.area, b.amount, bool(b.cancel_key)) for b in first] == [
        ("banker", 100, True),
        ("banker", 100, True),
        ("player", 10, True),
        ("banker", 100, False),
        ("banker", 100, False),
        ("player", 10, False),
    ]
    assert LedgerTransaction.objects.filter(reference=f"round:{seen['round']}", kind="cancel").count() == 1

    # One line per area with its net, matching the bets' nets.
    nets: dict[str, int] = {}
    for b in first:
        if not b.cancel_key:
            nets[b.area] = nets.get(b.area, 0) + b.net
    assert sorted((area, net) for area, net, _ in seen["lines"]) == sorted(nets.items()), seen["lines"]
    assert seen["net"] == sum(nets.values()) == 190 - 10  # banker 200 less the 5% commission, player −10
    # The next round opened without the last round's result.
    assert seen["result_hidden"]
    # 重复投 staked banker 200 and player 10 in one action.
    again = list(Bet.objects.filter(round_id=seen["next_round"], user=user).order_by("pk"))
    assert [(b.area, b.amount) for b in again] == [("banker", 200), ("player", 10)]
    assert seen["balance_before_repeat"] - seen["balance_after_repeat"] == 210
    assert seen["balance_after_repeat"] == wallet_balance(user=user)
    assert seen["fits"], "something overflows the screen"
    if size == "phone":
        assert seen["buttons_bottom"] <= seen["height"], "撤销 / 重复投 are below the first screen"
