"""In real Chromium: every table page comes back to the same screen after a reload, at any moment.

For each seated game's page, a player sits at a table and the page is reloaded
while waiting for the hand, on the player's turn, on another seat's turn, and
with the result shown after the settlement; each time the page must show what
it showed before (the same cards, buttons, balance, result panel with its
net/fee/balance, the seed's SHA-256), and the result's 下一局 must work. The
test holds the clock: bots and timeouts act only when it moves a deadline into
the past (``expire``). The banker page (百家乐) is reloaded with a bet on
during the betting window and with the payout shown.

The same run checks, at both sizes, that the seed's SHA-256 is shown short from
the deal on and whole (and selected to copy) on a tap.
"""

from __future__ import annotations

import json

import pytest

from rooms.tables.tests.conftest import expire
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
)
from rooms.tables.tests.test_consumers import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 30000  # a bound on what a page waits for, to fail a hang and nothing else
LONG = 600  # seconds: turns and bots' thinking that never run out by themselves here

# What a seated table page shows, read at one instant (its seq and the seats' connection left out:
# a reload is itself a change of the table).
SCREEN = """() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  const app = q('#table-app');
  const result = q('#result');
  const shown = !result.hidden;
  return {
    phase: app.dataset.phase,
    myTurn: app.dataset.myTurn,
    handNumber: q('#hand-number').textContent,
    actions: all('#actions [data-action]').map((e) => e.dataset.action + ':' + (e.dataset.amount || '') + ':' + e.disabled),
    myCards: all('#my-hand .pcard').map((e) => e.dataset.card || 'back'),
    balance: q('#my-balance').dataset.value,
    trustee: !q('#trustee-banner').hidden,
    resultShown: shown,
    resultTitle: shown ? result.querySelector('.title').textContent : '',
    resultRows: shown ? all('#result tbody tr').map((e) => e.textContent) : [],
    rakeTotal: shown ? result.querySelector('.rake-total').textContent : '',
    nextHandDisabled: result.querySelector('[data-action=next-hand]').disabled,
    seedHash: q('#seed-hash').hidden ? '' : q('#seed-hash').dataset.hash,
    seedShown: q('#seed-hash').hidden ? '' : q('#seed-hash code').textContent,
  };
}"""


def long_tier(slug: str):
    tier = game_tier(slug)
    # 牛牛's three countdowns (grab, bet, show) are its own options.
    seconds = ("turn_seconds", "bid_seconds", "grab_seconds", "bet_seconds", "show_seconds")
    tier.options = {**tier.options, **dict.fromkeys(seconds, LONG)}
    tier.save(update_fields=["options"])
    return tier


def table_seq(table_id: int) -> int:
    from rooms.tables.models import Table

    return Table.objects.get(pk=table_id).seq


def open_page(browser, base_url: str, user, path: str, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": "sessionid", "value": session_cookie(user), "url": base_url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}{path}")
    return page, errors


def settled_screen(page, table_id: int) -> dict:
    """Wait until the page shows the table's current seq, then read its screen."""
    page.wait_for_selector("#connection[data-status=connected]", timeout=WAIT_MS)
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#table-app').dataset.seq) >= seq",
        arg=table_seq(table_id),
        timeout=WAIT_MS,
    )
    return page.evaluate(SCREEN)


def reload_and_compare(page, table_id: int, what: str, shots: list, name: str) -> dict:
    before = settled_screen(page, table_id)
    page.reload()
    after = settled_screen(page, table_id)
    shot = screenshot_dir() / f"reload-{name}-{what}.png"
    page.screenshot(path=str(shot))
    shots.append(str(shot))
    assert after == before, f"{what}: the reloaded page differs:\n{json.dumps(before)}\n{json.dumps(after)}"
    return after


def check_seed_hash(page, hand_hash: str) -> None:
    """Short, then the whole hash on a tap (selected, to copy), short again on a second tap."""
    box = page.locator("#seed-hash")
    assert box.is_visible()
    code = page.inner_text("#seed-hash code")
    assert code == hand_hash[:12] + "…"
    fits = page.evaluate(
        "() => { const b = document.querySelector('#seed-hash').getBoundingClientRect();"
        " return b.left >= 0 && b.right <= window.innerWidth && b.bottom <= document.documentElement.scrollHeight; }"
    )
    assert fits, "the seed hash line overflows the screen"
    page.click("#seed-hash button")
    assert page.inner_text("#seed-hash code") == hand_hash
    assert page.evaluate("() => String(window.getSelection())") == hand_hash
    page.click("#seed-hash button")
    assert page.inner_text("#seed-hash code") == hand_hash[:12] + "…"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("slug", ["doudizhu", "zhajinhua", "texas", "niuniu", "tongbi_niuniu", "suoha"])
def test_a_seated_table_page_comes_back_the_same_after_a_reload_in_every_phase(
    live_asgi,  # noqa: F811 - the fixture
    make_player,
    settings,
    monkeypatch,
    slug,
    size,
):
    import hashlib

    from playwright.sync_api import sync_playwright

    from rooms.tables import services
    from rooms.tables.models import Hand

    # The test reads and moves the table between the page's steps (Playwright's loop runs in this thread).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.TABLE_AUTO_DELAY = LONG  # bots think until the test moves their deadline
    settings.TABLE_BOT_WAIT = LONG  # bots sit down when the test calls them
    settings.TABLE_DISCONNECT_GRACE = LONG  # a reload is never an absence
    tier = long_tier(slug)
    user = make_player(coins=20000)
    table = services.table_quick_start(tier_id=tier.pk, user=user)
    name = f"{slug}-{size}"
    shots: list[str] = []
    seen: set[str] = set()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page, errors = open_page(browser, live_asgi, user, f"/tables/{table.pk}/", size)
            waiting = reload_and_compare(page, table.pk, "waiting", shots, name)
            assert waiting["phase"] == "waiting" and waiting["seedHash"] == ""

            services.table_fill_bots(table_id=table.pk)
            hand = Hand.objects.get(table=table)
            seed_hash = hashlib.sha256(bytes(hand.seed)).hexdigest()
            seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
            while True:
                hand.refresh_from_db()
                if hand.status != Hand.Status.PLAYING:
                    break
                from games import REGISTRY

                mine = seat in REGISTRY[slug].engine.actors(hand.state)
                phase = "my-turn" if mine else "their-turn"
                if phase not in seen:
                    seen.add(phase)
                    screen = reload_and_compare(page, table.pk, phase, shots, name)
                    assert screen["seedHash"] == seed_hash
                    assert screen["myTurn"] == ("yes" if mine else "no")
                    if mine:
                        assert any(not a.endswith(":true") for a in screen["actions"]), screen
                        check_seed_hash(page, seed_hash)
                seq = table_seq(table.pk)
                expire(hand)  # the actor's time runs out: the clock plays for them
                page.wait_for_function(
                    "(seq) => Number(document.querySelector('#table-app').dataset.seq) > seq",
                    arg=seq,
                    timeout=WAIT_MS,
                )
            # 必下德州 bets in one countdown for every seat at once: the player is never out of it alone;
            # in 牛牛 only a banker waits alone (while the others bet), in 通比牛牛 nobody does.
            if slug in ("texas", "tongbi_niuniu"):
                assert seen == {"my-turn"}, seen
            elif slug == "niuniu":
                assert "my-turn" in seen, seen
            else:
                assert seen == {"my-turn", "their-turn"}, seen

            page.wait_for_selector(
                "#result:not([hidden]) [data-action=next-hand]:not([disabled])", timeout=WAIT_MS
            )
            hand.refresh_from_db()
            assert hand.status == Hand.Status.SETTLED
            labels = json.loads(page.inner_text("#table-labels"))
            result = reload_and_compare(page, table.pk, "result", shots, name)
            assert result["resultShown"] and not result["nextHandDisabled"]
            assert result["rakeTotal"] != labels["settling"]
            me = page.locator("#result tbody tr.me")
            assert me.locator("td.rake").inner_text() != "–"
            assert me.locator("td.balance").inner_text().replace(",", "") == result["balance"]
            assert result["seedHash"] == seed_hash  # the last hand's, to note for the verify page

            page.click("#result [data-action=next-hand]")  # 下一局: ready, and the bots are: a new hand
            page.wait_for_function(
                "(number) => document.querySelector('#hand-number').textContent"
                " && document.querySelector('#hand-number').textContent !== number"
                " && document.querySelector('#result').hidden",
                arg=result["handNumber"],
                timeout=WAIT_MS,
            )
            assert Hand.objects.filter(table=table).count() == 2
            assert errors == [], errors
        finally:
            browser.close()
    print("screenshots:", *shots)


def test_the_banker_page_comes_back_the_same_after_a_reload(live_asgi, make_player, settings, monkeypatch):  # noqa: F811
    from playwright.sync_api import sync_playwright

    from rooms.rounds import services as round_services

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.ROUNDS_BET_SECONDS = 8
    settings.ROUNDS_REVEAL_MS = 150
    settings.ROUNDS_RESULT_SECONDS = LONG  # the result stays until the test is done
    tier = game_tier("baccarat")
    user = make_player(coins=20000)
    table = round_services.round_enter(tier_id=tier.pk, user=user)
    mine = """() => ({
      stakes: [...document.querySelectorAll('.bc-area')].map((e) => e.dataset.area + ':' + e.querySelector('.mine').dataset.value),
      myResult: document.querySelector('#my-result').hidden ? '' : document.querySelector('#my-result').textContent,
      net: document.querySelector('#my-result').dataset.net,
      balance: document.querySelector('#my-balance').dataset.value,
      phase: document.querySelector('#table-app').dataset.phase,
      round: document.querySelector('#table-app').dataset.round,
    })"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page, errors = open_page(browser, live_asgi, user, f"/rounds/{table.pk}/", "desktop")
            page.wait_for_selector("#table-app[data-phase=betting]", timeout=WAIT_MS)
            page.click(".bc-area[data-area=banker]")
            page.wait_for_function(
                "() => document.querySelector('#my-balance').dataset.value !== ''"
                " && Number(document.querySelector('.bc-area[data-area=banker] .mine').dataset.value) > 0",
                timeout=WAIT_MS,
            )
            before = page.evaluate(mine)
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]", timeout=WAIT_MS)
            page.wait_for_function(
                "(r) => document.querySelector('#table-app').dataset.round === r", arg=before["round"]
            )
            page.wait_for_function(
                "() => Number(document.querySelector('.bc-area[data-area=banker] .mine').dataset.value) > 0",
                timeout=WAIT_MS,
            )
            # The payout reached the page; then a reload shows the same result line.
            page.wait_for_function(
                "() => document.querySelector('#my-result').dataset.net !== ''", timeout=WAIT_MS
            )
            paid = page.evaluate(mine)
            assert paid["phase"] == "result"
            page.reload()
            page.wait_for_selector("#connection[data-status=connected]", timeout=WAIT_MS)
            page.wait_for_function(
                "() => document.querySelector('#my-result').dataset.net !== ''", timeout=WAIT_MS
            )
            again = page.evaluate(mine)
            page.screenshot(path=str(screenshot_dir() / "reload-baccarat-result.png"))
            assert again == paid
            assert errors == [], errors
        finally:
            browser.close()
