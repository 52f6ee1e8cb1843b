"""End to end in real headless Chromium: a 二八杠 hand against bots, at both sizes, in English and Chinese.

The player signs up, opens the game from the lobby, quick-starts a room, passes on the
bank, bets, reloads the page mid-hand and again on the result. The page must show the
die before any tile is turned over, draw the tiles as tiles (筒 dots, a blank 白板),
and show the result panel with what the ledger paid. The driver is tile_hand.py's.
"""

from __future__ import annotations

import pytest

from rooms.tables.tests.test_browser import (
    live_asgi,  # noqa: F401 - the fixture, shared
    screenshot_dir,
)
from rooms.tables.tests.tile_hand import (
    assert_settled_hand,
    play_tile_hand,
    settled_hand,
    tile_tier_with_bots,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Watch the page from its first script on (kept across reloads): the moments the die was shown, and the tiles face up then.
WATCH_DIE = """
setInterval(() => {
  const app = document.querySelector('#table-app');
  const die = document.querySelector('#die');
  if (!app || !die || !die.dataset.value) return;
  const seen = JSON.parse(sessionStorage.getItem('__dieSeen') || '[]');
  seen.push({phase: app.dataset.phase, die: die.dataset.value,
    faceUp: document.querySelectorAll('.mtile:not(.back)').length,
    backs: document.querySelectorAll('.eb-felt .mtile.back, #my-hand .mtile.back').length});
  sessionStorage.setItem('__dieSeen', JSON.stringify(seen));
}, 40);
"""
SCREEN = """() => ({
  phase: document.querySelector('#table-app').dataset.phase,
  mine: document.querySelector('#my-choice').textContent,
  seats: [...document.querySelectorAll('#seats .said')].map((e) => e.textContent),
  resultShown: !document.querySelector('#result').hidden,
  title: document.querySelector('#result-title').textContent,
  rows: [...document.querySelectorAll('#result tbody tr')].map((e) => e.textContent),
  balance: document.querySelector('#my-balance').dataset.value,
})"""


def erbagang_tier_with_bots(code: str):
    """Yield a 4-seat 二八杠 tier (底注 10), bots filling the seats."""
    yield from tile_tier_with_bots("erbagang", code, minimum_multiplier=20, options={"dice_seconds": 2})


@pytest.fixture
def erbagang_tier(transactional_db):
    yield from erbagang_tier_with_bots("e2e-erbagang")


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    """Sign up, quick-start, pass on the bank, bet the most, reload mid-hand and on the result."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    def picture_the_die(page, seen: dict) -> None:
        if page.get_attribute("#table-app", "data-phase") == "finished":
            return
        try:  # a picture of the die on the table, for a person to look at
            page.wait_for_selector("#table-app[data-phase=dice] #die svg", timeout=3000)
            page.screenshot(path=str(screenshot_dir() / f"erbagang-{size}-dice.png"))
        except PlaywrightTimeoutError:
            pass

    def die_seen(page, seen: dict) -> None:
        seen["die_seen"] = page.evaluate("() => JSON.parse(sessionStorage.getItem('__dieSeen') || '[]')")

    return play_tile_hand(
        base_url,
        size,
        tier_id,
        locale,
        slug="erbagang",
        watch=WATCH_DIE,
        screen=SCREEN,
        # Pass on the bank (a bot bids, so the player bets); then the largest bet.
        choice="#actions [data-action=grab][data-multiple='0'], #actions [data-action=bet]",
        after_answer=picture_the_die,
        on_result=die_seen,
    )


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_erbagang_hand_against_bots(
    live_asgi,  # noqa: F811 - the fixture
    erbagang_tier,
    settings,
    size,
    locale,
):
    from rooms.tables.models import HandAction

    settings.TABLE_AUTO_DELAY = (
        3  # the bots think a while: the reload after the player's move sees the same table
    )
    seen = play_one_hand(live_asgi, size, erbagang_tier.pk, locale)
    print(f"screenshots: {seen['result_shot']}")
    user, hand, seat = settled_hand(seen)
    details = hand.outcome["details"]

    # The bid buttons: no bid, then multiples up to what the carried coins cover.
    assert len(seen["grab_buttons"]) >= 2
    mine = list(HandAction.objects.filter(hand=hand, seat=seat).order_by("pk"))
    assert mine[0].action == {"type": "grab", "multiple": 0} and not mine[0].auto
    if details["banker"] != seat:  # a bot bid, so the player bet by clicking the largest bet
        kind, amount = seen["clicked"][1].split(":")
        assert mine[1].action == {"type": "bet", "amount": int(amount)} and not mine[1].auto
    # The die was on the screen, with every tile still face down, before the tiles were opened.
    before_tiles = [s for s in seen["die_seen"] if s["phase"] == "dice"]
    assert before_tiles, "the die was never shown before the deal"
    assert all(s["faceUp"] == 0 and s["backs"] == 8 and s["die"] == str(details["die"]) for s in before_tiles)
    assert_settled_hand(seen, user, hand, seat, locale)
