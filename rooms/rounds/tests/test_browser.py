"""End to end in real headless Chromium: sign up, enter a 百家乐 room, bet on two areas, see the round paid.

Same harness as rooms/tables/tests/test_browser.py: the real ASGI app (HTTP
and the round socket) served by uvicorn in a thread, with the in-process
timer loop driving the rounds on short phase timings. The test only clicks
what a player can click; it then checks the page against the database: the
bets, the coup, the ledger and the balance.
"""

from __future__ import annotations

import time
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    PASSWORD,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BET_SECONDS = 10
ROUND_TIMEOUT_S = 40
# Tie takes at most this much per player here, so a bet of the 50 chip on it is refused.
TIE_LIMIT = 20

# Betting is open with at least 6 s left: time enough for the clicks below on a busy machine.
BETTING_WITH_TIME = """() => {
  const app = document.querySelector('#table-app');
  const clock = document.querySelector('#countdown .clock[data-deadline]');
  return app.dataset.phase === 'betting' && clock && Number(clock.dataset.deadline) - Date.now() > 6000;
}"""
# Record every (player cards, banker cards, player total, banker total) the page draws while dealing.
RECORD_THE_DEAL = """() => {
  window.dealSeen = [];
  const note = () => {
    const count = (side) => document.querySelectorAll(`#${side}-cards .pcard`).length;
    const total = (side) => document.querySelector(`#${side}-total`).dataset.value;
    const row = [count('player'), count('banker'), total('player'), total('banker')].join('/');
    if (window.dealSeen[window.dealSeen.length - 1] !== row) window.dealSeen.push(row);
  };
  const observer = new MutationObserver(note);
  for (const id of ['#player-cards', '#banker-cards', '#player-total', '#banker-total']) {
    observer.observe(document.querySelector(id), { childList: true, subtree: true, attributes: true });
  }
}"""


@pytest.fixture
def baccarat_tier(transactional_db, settings):
    """百家乐 经典场 (the commission variant) with no rake and a low tie limit; rounds on short timings."""
    import games
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    settings.ROUNDS_BET_SECONDS = BET_SECONDS
    settings.ROUNDS_REVEAL_MS = 150
    settings.ROUNDS_RESULT_SECONDS = 4
    catalogue_sync()
    limits = {**games.REGISTRY["baccarat"].default_options["area_limits"], "tie": TIE_LIMIT}
    return RoomTier.objects.create(
        game=Game.objects.get(slug="baccarat"),
        code="e2e-baccarat",
        name="经典场",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=0,
        options={"variant": "commission", "area_limits": limits},
    )


# Record every change of the connection badge from the moment betting opens.
RECORD_THE_CONNECTION = """() => {
  window.connectionSeen = [];
  const badge = document.querySelector('#connection');
  new MutationObserver(() => window.connectionSeen.push(badge.dataset.status))
    .observe(badge, { attributes: true, attributeFilter: ['data-status'] });
}"""

# Once the result shows: everything the page says about the coup, read at one instant.
THE_RESULT_SHOWN = """() => {
  const app = document.querySelector('#table-app');
  if (app.dataset.phase !== 'result') return false;
  const cards = (side) => [...document.querySelectorAll(`#${side}-cards .pcard`)].map(e => e.dataset.card);
  const total = (side) => document.querySelector(`#${side}-total`).dataset.value;
  return {
    round: Number(app.dataset.round),
    winner: document.querySelector('#outcome').dataset.winner,
    cards: {player: cards('player'), banker: cards('banker')},
    totals: {player: total('player'), banker: total('banker')},
    beads: [...document.querySelectorAll('#bead-plate .bead')].map(e => e.dataset.winner),
    bigRoad: document.querySelectorAll('#big-road .road-cell').length,
  };
}"""


def bet(page, chip: int, area: str, mine: int) -> None:
    """Select ``chip``, click ``area`` and wait until the area shows the player's stake ``mine``."""
    page.click(f"#chips .bc-chip[data-value='{chip}']")
    page.click(f"#areas .bc-area[data-area='{area}']")
    page.wait_for_selector(f"#areas .bc-area[data-area='{area}'] .mine[data-value='{mine}']", timeout=30000)


def play_one_round(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    """Drive Chromium through sign-up, the lobby, 进入 and one round with two bets; return what the page showed."""
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"bc{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "baccarat", tier_id, "**/rounds/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            # A dropped connection: the badge says so, the page reconnects by itself and resyncs.
            page.evaluate("() => window.tableClient.socket.ws.close()")
            page.wait_for_selector("#connection[data-status=reconnecting]", timeout=30000)
            page.wait_for_selector("#connection[data-status=connected]", timeout=15000)
            seen["reconnected"] = True
            page.wait_for_function(BETTING_WITH_TIME, timeout=ROUND_TIMEOUT_S * 1000)
            page.evaluate(RECORD_THE_CONNECTION)
            seen["round"] = int(page.get_attribute("#table-app", "data-round"))
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["areas"] = page.locator("#areas .bc-area").evaluate_all(
                "els => els.map(e => [e.dataset.area, e.querySelector('.odds').textContent])"
            )
            seen["chips"] = [
                int(v)
                for v in page.locator("#chips .bc-chip").evaluate_all("els => els.map(e => e.dataset.value)")
            ]

            # Over the tie's limit: refused with a message, and nothing staked there.
            page.click("#chips .bc-chip[data-value='50']")
            page.click("#areas .bc-area[data-area='tie']")
            page.wait_for_selector("#hand-message[data-kind=error]", timeout=30000)
            seen["refusal"] = page.inner_text("#hand-message")
            seen["tie_mine"] = page.get_attribute("#areas .bc-area[data-area='tie'] .mine", "data-value")

            bet(page, 100, "banker", 100)
            bet(page, 10, "player", 10)
            bet(page, 10, "player", 20)
            seen["balance_staked"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["banker_total"] = page.get_attribute(
                "#areas .bc-area[data-area='banker'] .total", "data-value"
            )
            seen["bet_shot"] = str(screenshot_dir() / f"baccarat-{size}-bets.png")
            page.screenshot(path=seen["bet_shot"])
            page.evaluate(RECORD_THE_DEAL)

            # Betting closes, the cards come one by one, the result shows, the payout arrives.
            page.wait_for_function(
                "() => document.querySelector('#table-app').dataset.phase === 'dealing'",
                timeout=(BET_SECONDS + 5) * 1000,
            )
            seen["shown"] = page.wait_for_function(
                THE_RESULT_SHOWN, timeout=ROUND_TIMEOUT_S * 1000
            ).json_value()
            seen["deal"] = page.evaluate("() => window.dealSeen")
            seen["connection"] = page.evaluate("() => window.connectionSeen")
            page.wait_for_selector(
                f"#my-result[data-round='{seen['round']}']:not([data-net=''])", timeout=ROUND_TIMEOUT_S * 1000
            )
            seen["net"] = int(page.get_attribute("#my-result", "data-net"))
            seen["bet_lines"] = page.locator("#my-result .bet").evaluate_all(
                "els => els.map(e => [e.dataset.area, Number(e.dataset.net)])"
            )
            # The payout's balance reaches the top bar (the state after it carries the same).
            page.wait_for_function(
                "(v) => Number(document.querySelector('#my-balance').dataset.value) === v",
                arg=seen["balance_before"] + seen["net"],
                timeout=15000,
            )
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["result_shot"] = str(screenshot_dir() / f"baccarat-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#areas, #chips, .bc-hands, #my-result, .bc-roads')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
            # On a phone the whole betting surface is on the first screen: no scrolling to bet.
            seen["chips_bottom"] = page.evaluate(
                "() => document.querySelector('#chips').getBoundingClientRect().bottom"
            )
            seen["viewport_height"] = height
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_bets_on_two_areas_and_sees_the_payout(live_asgi, baccarat_tier, settings, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.rounds.models import Bet, Round
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    started = time.monotonic()
    seen = play_one_round(live_asgi, size, baccarat_tier.pk, locale)
    print(f"screenshots: {seen['bet_shot']} {seen['result_shot']} ({time.monotonic() - started:.1f}s)")

    assert seen["errors"] == [], seen["errors"]
    assert seen["reconnected"]
    # The socket held from the open betting to the payout: a quiet countdown drops nobody.
    assert seen["connection"] == [], seen["connection"]
    user = User.objects.get(username=seen["username"])
    rnd = Round.objects.get(pk=seen["round"])
    bets = list(Bet.objects.filter(round=rnd, user=user).order_by("pk"))

    # The page offered the tier's areas with the engine's odds, and its chips.
    assert [a for a, _ in seen["areas"]] == ["player_pair", "tie", "banker_pair", "player", "banker"]
    assert dict(seen["areas"])["banker"] == "1:0.95"
    assert seen["chips"] == [10, 50, 100, 500, 1000]

    # The refused bet said why and staked nothing.
    assert seen["refusal"].strip(), "the refusal came without a message"
    assert seen["tie_mine"] == "0"
    assert [(b.area, b.amount) for b in bets] == [("banker", 100), ("player", 10), ("player", 10)]

    # Staking moved the coins out of the balance shown at once.
    assert seen["balance_before"] == settings.SIGNUP_GRANT_FIRST
    assert seen["balance_before"] - seen["balance_staked"] == 120
    assert seen["banker_total"] == "100"

    # The coup the page showed is the one dealt, card by card with both totals.
    result = rnd.result
    shown = seen["shown"]
    assert shown["round"] == rnd.pk
    assert shown["winner"] == result["winner"]
    assert shown["cards"] == {"player": result["player"], "banker": result["banker"]}
    assert shown["totals"] == {"player": str(result["player_total"]), "banker": str(result["banker_total"])}
    # Revealed one card at a time in dealing order (P, B, P, B, thirds), with the totals so far.
    counts = [tuple(int(n) for n in row.split("/")[:2]) for row in seen["deal"]]
    dealt = [c for c in counts if c != (0, 0)]
    steps = len(result["player"]) + len(result["banker"])
    assert [sum(c) for c in dict.fromkeys(dealt)] == list(range(1, steps + 1)), seen["deal"]
    assert dealt[:4] == [(1, 0), (1, 1), (2, 1), (2, 2)], seen["deal"]
    first = next(row.split("/") for row in seen["deal"] if row.startswith("1/0/"))
    # The player's total so far, none for the banker yet.
    assert first[2] != "" and first[3] == "", seen["deal"]
    assert shown["beads"] and shown["beads"][-1] == result["winner"]
    assert shown["bigRoad"] >= 1

    # The balance changed by exactly the payout: the page's net is the bets' nets and the ledger's.
    nets = {}
    for b in bets:
        nets[b.area] = nets.get(b.area, 0) + b.net
    assert seen["net"] == sum(b.net for b in bets)
    assert {area: sum(n for a, n in seen["bet_lines"] if a == area) for area in nets} == nets
    assert seen["balance_after"] - seen["balance_before"] == seen["net"]
    assert seen["balance_after"] == wallet_balance(user=user)
    paid = LedgerEntry.objects.filter(transaction__key=f"round:{rnd.pk}:settle", account__user=user)
    assert (
        sum(paid.values_list("amount", flat=True)) == 120 + seen["net"]
    )  # stakes back plus the net, no rake

    assert seen["fits"], "something overflows the screen"
    if size == "phone":
        assert seen["chips_bottom"] <= seen["viewport_height"], "the chips are below the first screen"
