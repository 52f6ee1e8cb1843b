"""End to end in real headless Chromium: a 推筒子 hand against bots, at both sizes, in English and Chinese.

The player signs up, opens the game from the lobby, quick-starts a room, raises the most,
reloads the page mid-hand and again on the result. The page must show the wheel before
any tile is dealt, then every hand's first tile face up and the player's own two, draw
the tiles as tiles (筒 dots, a blank 白板), and show the result panel with both pools.
The driver is tile_hand.py's.
"""

from __future__ import annotations

import pytest

from rooms.tables.tests.test_browser import live_asgi  # noqa: F401 - the fixture, shared
from rooms.tables.tests.tile_hand import (
    assert_settled_hand,
    play_tile_hand,
    settled_hand,
    tile_tier_with_bots,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Watch the page from its first script on (kept across reloads): the moments the wheel was shown, and the tiles then.
WATCH_WHEEL = """
setInterval(() => {
  const app = document.querySelector('#table-app');
  const wheel = document.querySelector('#wheel');
  if (!app || !wheel || !wheel.dataset.value) return;
  const seen = JSON.parse(sessionStorage.getItem('__wheelSeen') || '[]');
  seen.push({phase: app.dataset.phase, wheel: wheel.dataset.value,
    chosen: wheel.querySelector('li.chosen')?.dataset.number || '',
    tiles: document.querySelectorAll('.mtile').length});
  sessionStorage.setItem('__wheelSeen', JSON.stringify(seen));
}, 40);
"""
# During the raise countdown: the tiles face up on the others' seats and on mine.
TILES_UP = """() => ({
  others: [...document.querySelectorAll('#seats .tt-tiles')].map((e) => e.querySelectorAll('.mtile:not(.back)').length + '/' + e.querySelectorAll('.mtile').length),
  mine: document.querySelectorAll('#my-hand .mtile:not(.back)').length,
})"""
SCREEN = """() => ({
  phase: document.querySelector('#table-app').dataset.phase,
  mine: document.querySelector('#my-choice').textContent,
  seats: [...document.querySelectorAll('#seats .said')].map((e) => e.textContent),
  tiles: [...document.querySelectorAll('.mtile')].map((e) => e.dataset.tile || 'back'),
  resultShown: !document.querySelector('#result').hidden,
  title: document.querySelector('#result-title').textContent,
  rows: [...document.querySelectorAll('#result tbody tr')].map((e) => e.textContent),
  balance: document.querySelector('#my-balance').dataset.value,
})"""


def tuitongzi_tier_with_bots(code: str):
    """Yield a 4-seat 推筒子 tier (底注 10), bots filling the seats."""
    yield from tile_tier_with_bots("tuitongzi", code, minimum_multiplier=30, options={"wheel_seconds": 2})


@pytest.fixture
def tuitongzi_tier(transactional_db):
    yield from tuitongzi_tier_with_bots("e2e-tuitongzi")


def play_one_hand(base_url: str, size: str, tier_id: int, locale: str) -> dict:
    """Sign up, quick-start, raise the most, reload mid-hand and on the result."""

    def tiles_up(page, seen: dict) -> None:
        seen["tiles_up"] = page.evaluate(TILES_UP)

    def wheel_and_pools(page, seen: dict) -> None:
        seen["wheel_seen"] = page.evaluate("() => JSON.parse(sessionStorage.getItem('__wheelSeen') || '[]')")
        seen["pools"] = page.locator("#result .tt-pools-result li").evaluate_all(
            "els => els.map(e => e.dataset.pool + ':' + e.dataset.amount)"
        )

    return play_tile_hand(
        base_url,
        size,
        tier_id,
        locale,
        slug="tuitongzi",
        watch=WATCH_WHEEL,
        screen=SCREEN,
        choice="#actions [data-action=raise]",
        on_turn=tiles_up,
        on_result=wheel_and_pools,
    )


@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-US"), pytest.param("phone", "zh-CN", marks=pytest.mark.zh)]
)
def test_a_new_player_plays_a_whole_tuitongzi_hand_against_bots(
    live_asgi,  # noqa: F811 - the fixture
    tuitongzi_tier,
    settings,
    size,
    locale,
):
    from rooms.tables.models import HandAction

    settings.TABLE_AUTO_DELAY = (
        3  # the bots think a while: the reload after the player's move sees the same table
    )
    seen = play_one_hand(live_asgi, size, tuitongzi_tier.pk, locale)
    print(f"screenshots: {seen['result_shot']}")
    user, hand, seat = settled_hand(seen)
    details = hand.outcome["details"]

    # The raise buttons: no raise, then raises the coins left cover; the click made the raise.
    assert len(seen["raise_buttons"]) >= 2
    mine = HandAction.objects.get(hand=hand, seat=seat)
    kind, amount = seen["clicked"][0].split(":")
    assert mine.action == {"type": "raise", "amount": int(amount)} and not mine.auto
    # The wheel was on the screen before any tile was dealt; then one tile of each other hand face up.
    before_tiles = [s for s in seen["wheel_seen"] if s["phase"] == "wheel"]
    assert before_tiles, "the wheel was never shown before the deal"
    assert all(s["tiles"] == 0 and s["chosen"] == s["wheel"] == str(details["wheel"]) for s in before_tiles)
    assert seen["tiles_up"] == {"others": ["1/2"] * 3, "mine": 2}, seen["tiles_up"]
    # Both pools listed as the ledger split them.
    assert seen["pools"] == [f"{p['pool']}:{p['amount']}" for p in details["pools"]]
    assert_settled_hand(seen, user, hand, seat, locale)
