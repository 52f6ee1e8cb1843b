"""End to end in real headless Chromium: sign up, quick-start a 斗地主 room, play a whole hand.

The real ASGI application (HTTP and the table socket) is served by uvicorn in a
background thread of this process, with the in-process timer loop and bots
active, so the page talks to exactly what a player's browser would. The test
only clicks what a player can click: it never calls a service or the socket.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
import uuid
from pathlib import Path
from platform.browser_pages import CHROMIUM_ARGS, chromium_executable  # noqa: F401 - the other browser tests import them from here

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PASSWORD = "Table-Test-4821"
HAND_TIMEOUT_S = 180

# What the page says once it has something to do: the result panel, or a turn with live buttons.
WAIT_FOR_SOMETHING_TO_DO = """() => {
  const result = document.querySelector('#result');
  if (result && !result.hidden && !result.querySelector('[data-action=next-hand]').disabled) return 'result';
  const app = document.querySelector('#table-app');
  if (app.dataset.myTurn === 'yes' && document.querySelector('#actions button:not([disabled])')) return 'turn';
  return false;
}"""
# After a click: the table moved on (a new seq) or the server refused (an error next to the hand).
WAIT_FOR_ANSWER = """(seq) => {
  const app = document.querySelector('#table-app');
  if (app.dataset.seq !== seq) return true;
  return document.querySelector('#hand-message').dataset.kind === 'error';
}"""

# The last state after the result has painted: the result's own row and the top bar show one balance.
RESULT_PAINTED = """() => {
  const row = document.querySelector('#result tbody tr.me');
  const bar = document.querySelector('#my-balance');
  if (!row || !bar || row.querySelector('td.delta')?.dataset.delta === undefined) return false;
  return row.querySelector('td.balance').innerText.replace(/[^0-9-]/g, '') === String(bar.dataset.value);
}"""
# One layout and paint after a change of the viewport.
NEXT_PAINT = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def screenshot_dir() -> Path:
    path = Path(os.environ.get("BROWSER_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "table-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class LiveAsgiServer:
    """uvicorn serving platform.asgi:application on 127.0.0.1 in a daemon thread."""

    def __init__(self) -> None:
        from platform.asgi import application

        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(application, lifespan="off", log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the ASGI test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()


@pytest.fixture
def live_asgi(transactional_db, settings):
    """Serve the real app with its timer loop and quick bots; stop it before the database is flushed."""
    settings.TABLE_TIMERS = "all"
    settings.TABLE_AUTO_DELAY = 0.05
    settings.TABLE_TIMER_INTERVAL = 0.05
    settings.TABLE_BOT_WAIT = 0
    # A page's reload or reconnect is never an absence, however long a loaded machine takes over it:
    # 托管 must not take a turn the test is about to play (the grace is tested in test_timers.py).
    settings.TABLE_DISCONNECT_GRACE = 600
    server = LiveAsgiServer()
    server.start()
    yield server.url
    server.stop()
    # A socket's thread may still be in a call (a bot's move, a settlement): let it finish and end with
    # its connection, so the database flush after the test does not meet it mid-transaction (a deadlock).
    from rooms.sockets import pool_shutdown
    from rooms.tables.store import group_commit_close

    pool_shutdown()
    group_commit_close()


@pytest.fixture
def doudizhu_tier(transactional_db):
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync

    catalogue_sync()
    game = Game.objects.get(slug="doudizhu")
    return RoomTier.objects.create(
        game=game,
        code="e2e-junior",
        name="初级场",
        base_stake=1,
        room_factor=1,
        minimum_rule=RoomTier.MinimumRule.FACTOR,
        minimum_multiplier=96,
        options={"variant": "classic"},
        seats=3,
        bots_enabled=True,
    )


def sign_up_and_enter(page, base_url: str, username: str, game: str, tier_id: int, landing: str) -> None:
    """Sign up as ``username``, open ``game`` from the lobby, press the tier's button and land on ``landing``."""
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base_url}/")
    page.click(f"a.game-link[href$='/games/{game}/']")
    page.click(f"li.tier-card[data-tier='{tier_id}'] form button[type=submit]")
    page.wait_for_url(landing)


def play_turn(page, shots: dict, name: str) -> None:
    """Take this turn the way a player would: bid when asked, else 提示 then 出牌, or 不出."""
    phase = page.get_attribute("#table-app", "data-phase")
    seq = page.get_attribute("#table-app", "data-seq")
    if phase == "playing":
        if "turn" not in shots:
            shots["turn"] = str(screenshot_dir() / f"table-{name}-turn.png")
            page.screenshot(path=shots["turn"])
        # 提示 is offered only when the seat can play at all; otherwise only 不出 is.
        if page.locator("#actions [data-action=hint]").count():
            page.click("#actions [data-action=hint]")
        if page.locator("#my-hand .pcard.selected").count():
            page.click("#actions [data-action=play]")
            shots["plays"] = shots.get("plays", 0) + 1
        else:
            # Nothing beats the table (the hint says so, or no 出牌 is offered): 不出.
            assert page.locator("#actions [data-action=pass]").count(), page.inner_text("#hand-message")
            page.click("#actions [data-action=pass]")
            shots["passes"] = shots.get("passes", 0) + 1
    else:
        bids = page.locator("#actions [data-action=bid]")
        (bids.last if bids.count() else page.locator("#actions button").first).click()
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def play_one_hand(base_url: str, size: str, tier_id: int) -> dict:
    """Drive Chromium through sign-up, the lobby, quick start and one whole hand; return what the page showed."""
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"e2e{uuid.uuid4().hex[:10]}"
    seen: dict = {"username": username, "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            sign_up_and_enter(page, base_url, username, "doudizhu", tier_id, "**/tables/*/")
            seen["table_url"] = page.url
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["balance_before"] = int(page.get_attribute("#my-balance", "data-value"))

            # A dropped connection: the indicator says so, the page reconnects by itself and resyncs.
            page.evaluate("() => window.tableClient.socket.ws.close()")
            page.wait_for_selector("#connection[data-status=reconnecting]", timeout=30000)
            page.wait_for_selector("#connection[data-status=connected]", timeout=15000)
            seen["reconnected"] = True

            deadline = time.monotonic() + HAND_TIMEOUT_S
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                play_turn(page, seen, size)

            page.wait_for_function(RESULT_PAINTED, timeout=15000)
            seen["result_shot"] = str(screenshot_dir() / f"table-{size}-result.png")
            page.screenshot(path=seen["result_shot"])
            me = page.locator("#result tbody tr.me")
            seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
            seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
            seen["row_balance"] = me.locator("td.balance").inner_text()
            seen["level"] = page.inner_text("#my-level")
            seen["rows"] = page.locator("#result tbody tr").count()
            verify = page.locator('#result [data-testid="verify-link"]')
            seen["verify_href"] = verify.get_attribute("href") if verify.is_visible() else None
            seen["hand_fits"] = page.evaluate(
                "() => { const b = document.querySelector('#my-hand').getBoundingClientRect();"
                " return b.right <= window.innerWidth + 1 && b.left >= -1; }"
            )
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_player_plays_a_whole_hand_against_bots(live_asgi, doudizhu_tier, settings, size):
    from platform.accounts.levels import level_for_wins
    from platform.accounts.models import GameStats, User

    from rooms.tables.hands import carried_amount
    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry
    from wallets.selectors import wallet_balance

    seen = play_one_hand(live_asgi, size, doudizhu_tier.pk)
    print(f"screenshots: {seen.get('turn')} {seen['result_shot']}")

    assert seen["errors"] == [], seen["errors"]
    assert seen["reconnected"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    my_seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    # The player's own clicks, not the timer's 托管, moved their seat.
    own = HandAction.objects.filter(hand=hand, seat=my_seat, auto=False)
    assert own.filter(action__type__in=["bid", "pass"]).exists()
    assert own.filter(action__type="play").exists()
    assert seen.get("plays", 0) >= 1, "the page never played a card through 提示 and 出牌"

    balance = wallet_balance(user=user)
    carried = hand.players[my_seat]["carried"]
    assert seen["balance_before"] == settings.SIGNUP_GRANT_FIRST
    # 携带: the tier's carry, or its minimum when the wallet holds less; the rest stays in the wallet.
    assert (
        carried
        == carried_amount(tier=doudizhu_tier, balance=settings.SIGNUP_GRANT_FIRST)
        < seen["balance_before"]
    )
    assert seen["balance_after"] == balance, "the balance shown differs from the wallet"
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"]
    # The settled amount: what the settlement paid back, less what was carried in.
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["row_balance"].replace(",", "") == str(balance)
    # The result panel links the hand's provably-fair check.
    assert seen["verify_href"] == f"/tables/hands/{hand.pk}/verify/"
    assert seen["rows"] == 3
    wins = GameStats.objects.get(user=user, game_slug="doudizhu").wins
    assert seen["level"] == level_for_wins(wins).name_en  # Chromium asks for English: the page names it so
    assert seen["hand_fits"], "the hand overflows the screen"
