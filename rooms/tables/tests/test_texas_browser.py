"""End to end in real headless Chromium: sign up, quick-start a 必下德州 room, bet, see the showdown and the result.

Same approach as test_browser.py (the 斗地主 table): the real ASGI app served by
uvicorn in a thread, the in-process timer loop and quick bots; the test only
clicks what a player can click.
"""

from __future__ import annotations

import time
import uuid

import pytest

import games
from rooms.tables.tests.test_browser import (
    CHROMIUM_ARGS,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    live_asgi,  # noqa: F401 - the fixture, shared
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 90
# Hole cards drawn face up in the other seats' tiles.
OTHERS_FACE_UP = "() => document.querySelectorAll('#seats .tx-hole .pcard:not(.back)').length"


def texas_tier_with_bots(code: str, seats: int):
    """Yield a 必下德州 tier of ``seats`` seats (base 5, stakes 1/2/4/8), bots filling the seats players leave."""
    from games.texas import GAME
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    added = "texas" not in games.REGISTRY
    if added:
        games.REGISTRY["texas"] = GAME
    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="texas"),
        code=code,
        name="初级场",
        base_stake=5,
        minimum_rule=RoomTier.MinimumRule.BASE_MULTIPLE,
        minimum_multiplier=100,
        seats=seats,
        options={"bet_sizes": [1, 2, 4, 8]},
        bots_enabled=True,
    )
    yield tier
    if added:
        games.REGISTRY.pop("texas", None)


@pytest.fixture
def texas_tier(transactional_db):
    yield from texas_tier_with_bots("e2e-texas", 4)


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str = "en-US") -> dict:
    """Drive Chromium through sign-up, the lobby, quick start and one whole hand; return what the page showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"tx{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": [], "clicked": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "texas", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))

            deadline = time.monotonic() + HAND_TIMEOUT_S
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                # My turn in the countdown: two face-up cards of mine, none of anyone else's.
                seen["my_cards"] = page.locator("#my-hand .pcard:not(.back)").count()
                seen["board_cards"] = page.locator("#board .pcard:not(.back)").count()
                seen["others_face_up_before"] = page.evaluate(OTHERS_FACE_UP)
                seen["buttons"] = page.locator("#actions button").all_inner_texts()
                seen["turn_shot"] = str(screenshot_dir() / f"texas-{size}-turn.png")
                page.screenshot(path=seen["turn_shot"])
                seq = page.get_attribute("#table-app", "data-seq")
                # Stake coins: the largest raise or bet offered (fold/check only if nothing else is).
                stakes = page.locator("#actions [data-action=raise], #actions [data-action=bet]")
                choice = stakes.last if stakes.count() else page.locator("#actions button").first
                try:
                    # A state that was already on its way may take the buttons away (the page saw
                    # its turn from an older frame): then look again at what there is to do.
                    clicked = choice.get_attribute("data-action", timeout=2000) + ":"
                    clicked += choice.get_attribute("data-amount", timeout=2000) or ""
                    choice.click(timeout=2000)
                except PlaywrightTimeoutError:
                    continue
                seen["clicked"].append(clicked)
                page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
                assert page.get_attribute("#hand-message", "data-kind") != "error", page.inner_text(
                    "#hand-message"
                )

            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"texas-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["row_balance"] = me.locator("td.balance").inner_text()
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["rows"] = page.locator("#result tbody tr").count()
            seen["pots"] = [
                int(a)
                for a in page.locator("#result .tx-pots li").evaluate_all(
                    "els => els.map(e => e.dataset.amount)"
                )
            ]
            seen["rake_text"] = page.inner_text("#result .rake-total")
            seen["title"] = page.inner_text("#result-title")
            seen["fits"] = page.evaluate(
                "() => [...document.querySelectorAll('#my-hand, #board, #actions, #result .panel')]"
                ".every(e => { const b = e.getBoundingClientRect(); return b.right <= window.innerWidth + 1 && b.left >= -1; })"
            )
        finally:
            browser.close()
    return seen


# The phone plays in Chinese, the product's default (its browser asks for zh-CN).
@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_texas_hand_against_bots(live_asgi, texas_tier, settings, size, locale):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    seen = play_one_hand(live_asgi, size, texas_tier.pk, locale)
    print(f"screenshots: {seen.get('turn_shot')} {seen['result_shot']}")

    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    my_seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)

    # What the page showed at my turn: my two cards, the whole board, nobody else's cards.
    assert seen["my_cards"] == 2 and seen["board_cards"] == 5
    assert seen["others_face_up_before"] == 0
    assert len(seen["buttons"]) >= 2, seen["buttons"]
    # My click, not the timer, made my bet; the page sent what it showed.
    mine = HandAction.objects.get(hand=hand, seat=my_seat)
    assert not mine.auto
    kind, amount = seen["clicked"][0].split(":")
    assert mine.action == {"type": kind, "amount": int(amount)}
    assert hand.state["stakes"][my_seat] == int(amount)

    balance = wallet_balance(user=user)
    carried = hand.players[my_seat]["carried"]
    assert seen["balance_before"] == settings.SIGNUP_GRANT_FIRST == carried
    assert seen["balance_after"] == balance, "the balance shown differs from the wallet"
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"] == hand.outcome["net"][my_seat]
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["row_balance"].replace(",", "") == str(balance)
    assert seen["rows"] == 4
    assert seen["pots"] == [p["amount"] for p in hand.outcome["details"]["pots"]]
    assert str(hand.outcome["rake"]) in seen["rake_text"]
    if locale == "zh-CN":
        assert "抽水" in seen["rake_text"] or "服务费" in seen["rake_text"], seen["rake_text"]
    assert seen["fits"], "something overflows the screen"


# The page's own model (tablekit exposes it for the tests' diagnostics).
MY_TURN_WITH_EVERY_SEAT = """(seats) => {
  const snap = window.tableClient.model.snapshot;
  const hand = snap && snap.hand;
  return !!hand && hand.status === 'playing' && hand.actors.length === seats
    && hand.actors.includes(snap.you.seat) && !!document.querySelector('#actions button:not([disabled])');
}"""
OTHERS_ACTED_BEFORE_ME = """(seats) => {
  const snap = window.tableClient.model.snapshot;
  return snap.hand.actors.length < seats && snap.hand.actors.includes(snap.you.seat);
}"""
MY_BET_ANSWERED = """() => {
  const model = window.tableClient.model;
  const snap = model.snapshot;
  return !model.pending && (!snap.hand || !snap.hand.actors.includes(snap.you.seat));
}"""


def test_another_seats_bet_is_not_the_answer_to_mine(live_asgi, texas_tier, settings):  # noqa: F811
    """In the betting countdown every seat bets at once (docs/rules/texas.md).

    While my bet is on its way, a state that shows only the bots' bets is not its
    answer: my buttons stay disabled, so a second click cannot bet again (it used to
    be refused with "not your turn" once the first landed). The test holds my bet
    between the page and the server until the bots have bet, then lets it through.
    """
    from platform.accounts.models import User

    from playwright.sync_api import sync_playwright

    from rooms.tables.models import Hand, HandAction

    settings.TABLE_AUTO_DELAY = 2.0  # the bots bet two seconds into the countdown
    seats = texas_tier.seats
    held: list = []
    holding = {"on": False}

    def route(ws) -> None:
        server = ws.connect_to_server()

        def from_page(message) -> None:
            if holding["on"] and '"act"' in str(message):
                held.append((server, message))
            else:
                server.send(message)

        ws.on_message(from_page)

    username = f"tx{uuid.uuid4().hex[:10]}"
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.route_web_socket("**/ws/tables/**", route)
            sign_up_and_enter(page, live_asgi, username, "texas", texas_tier.pk, "**/tables/*/")
            page.wait_for_function(MY_TURN_WITH_EVERY_SEAT, arg=seats, timeout=30000)

            holding["on"] = True
            bet = page.locator(
                "#actions [data-action=bet], #actions [data-action=raise], #actions [data-action=check]"
            )
            bet.first.click()
            page.wait_for_function(OTHERS_ACTED_BEFORE_ME, arg=seats, timeout=15000)
            still_disabled = page.locator("#actions button:not([disabled])").count() == 0
            pending = page.evaluate("() => window.tableClient.model.pending")
            assert len(held) == 1, held

            holding["on"] = False
            for server, message in held:
                server.send(message)
            page.wait_for_function(MY_BET_ANSWERED, timeout=15000)
            message_kind = page.get_attribute("#hand-message", "data-kind")
            message = page.inner_text("#hand-message")
        finally:
            browser.close()

    assert errors == [], errors
    assert pending and still_disabled, "the bots' bets re-enabled my buttons while my bet was on its way"
    assert message_kind != "error", message
    user = User.objects.get(username=username)
    hand = Hand.objects.get(participants=user)
    my_seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    mine = HandAction.objects.filter(hand=hand, seat=my_seat)
    assert mine.count() == 1 and not mine.get().auto
