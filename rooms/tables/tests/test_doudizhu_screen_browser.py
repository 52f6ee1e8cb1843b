"""斗地主's table screen in Chromium at 1280×800 and 390×844, as a player sees it (issue 26, items 7 and 11).

One whole hand against bots, through the page's own buttons, with the page's
renders recorded as they happen (a MutationObserver installed before the page's
scripts): one 倍数 figure, the one the settlement pays, with its breakdown on a
tap; no 不出 bubble left from the round before a new lead; the last play large in
the middle; the result titled with the player's own win or loss; the sound
switch kept across a reload; names readable while a clock shows, and 底分 shown.
"""

from __future__ import annotations

import time
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - the fixtures are used by name
    CHROMIUM_ARGS,
    HAND_TIMEOUT_S,
    SIZES,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    play_turn,
    screenshot_dir,
    sign_up_and_enter,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The desktop plays in Chinese and the phone in English: the words come from the catalogue in both.
LOCALES = {"desktop": "zh-CN", "phone": "en-US"}
WORDS = {
    "zh-CN": {"won": "你赢了 +{}", "lost": "你输了 −{}", "landlord": "地主胜", "farmers": "农民胜"},
    "en-US": {
        "won": "You won +{}",
        "lost": "You lost −{}",
        "landlord": "The landlord wins",
        "farmers": "The farmers win",
    },
}

# Each render of a new seq, as the player saw it: the play in the centre, the seats showing 不出,
# the seat whose turn it is, and for every seat with a clock whether its name stays readable.
RECORD_RENDERS = """
window.__renders = [];
window.__clockNames = [];
document.addEventListener('DOMContentLoaded', () => {
  const app = document.querySelector('#table-app');
  if (!app) return;
  const seatOf = (el) => Number(el.closest('.dz-seat').dataset.seat);
  new MutationObserver(() => {
    for (const clock of app.querySelectorAll('.seat-info .clock')) {
      const name = clock.closest('.seat-info').querySelector('.name');
      const text = name.firstChild ? name.firstChild.textContent : '';
      window.__clockNames.push({
        seat: seatOf(clock), text,
        readable: [...text.replace('…', '')].length >= 3,
        clipped: name.scrollWidth > name.clientWidth + 1,
        covered: (() => {
          const a = clock.getBoundingClientRect(), b = name.getBoundingClientRect();
          return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        })(),
      });
    }
    const seq = app.dataset.seq;
    const last = window.__renders[window.__renders.length - 1];
    if (!seq || (last && last.seq === seq)) return;
    const centre = app.querySelector('#last-play');
    const turn = app.querySelector('.dz-seat.turn');
    window.__renders.push({
      seq,
      phase: app.dataset.phase,
      lastPlay: centre.hidden ? null : {
        seat: Number(centre.dataset.seat),
        cards: [...centre.querySelectorAll('.pcard')].map((c) => c.dataset.card),
      },
      passes: [...app.querySelectorAll('.dz-seat .said.pass')].map(seatOf),
      turn: turn ? Number(turn.dataset.seat) : null,
    });
  }).observe(app, { subtree: true, childList: true, attributes: true, characterData: true });
});
"""

# Every "×N" figure shown on the table outside the breakdown and the result panel.
MULTIPLE_FIGURES = """() => [...document.querySelectorAll('#table-app *')]
  .filter((e) => !e.closest('#multiple-breakdown, #result') && e.children.length === 0)
  .filter((e) => e.offsetParent !== null && /^×\\d+$/.test(e.textContent.trim()))
  .map((e) => e.textContent.trim())"""

# Where the last play sits and how big its cards are, against the seats' small cards.
CENTRE_PLAY = """() => {
  const box = document.querySelector('#last-play');
  const r = box.getBoundingClientRect();
  const card = box.querySelector('.pcard');
  const view = window.tableClient.model.snapshot.hand.view;
  return {
    centre: (r.left + r.right) / 2 / innerWidth,
    cardWidth: card.offsetWidth,  // its laid-out size: a new play is still scaling in
    cards: [...box.querySelectorAll('.pcard')].map((c) => c.dataset.card).sort(),
    expected: [...view.last_play.cards].sort(),
  };
}"""

# The player's seat box: name shown, whether the name is cut by the CSS, and 底分 on screen.
SEAT_NAMES = """() => [...document.querySelectorAll('.dz-seat .seat-info .name')].map((n) => ({
  text: n.firstChild ? n.firstChild.textContent : '',
  clipped: n.scrollWidth > n.clientWidth + 1,
}))"""
BASE_STAKE_SHOWN = """() => {
  const e = document.querySelector('#base-stake');
  const r = e.getBoundingClientRect();
  return e.offsetParent !== null && r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0
    && getComputedStyle(e.closest('.stake')).visibility !== 'hidden' && e.textContent.trim() !== '';
}"""


def between(lead: int, turn: int) -> set[int]:
    """The seats that acted after ``lead``'s play and before ``turn`` (three seats, in turn order)."""
    seats, seat = set(), (lead + 1) % 3
    while seat != turn:
        seats.add(seat)
        seat = (seat + 1) % 3
    return seats


def check_the_multiple(page, seen: dict) -> None:
    """One ×N figure, the top bar's, and its breakdown opens on a tap and closes on a second."""
    figures = page.evaluate(MULTIPLE_FIGURES)
    value = page.get_attribute("#multiple", "data-value")
    if not value:
        return
    assert figures == [f"×{value}"], figures
    page.click("#multiple")
    page.wait_for_selector("#multiple-breakdown:not([hidden])")
    if "breakdowns" not in seen:
        page.screenshot(path=str(screenshot_dir() / f"ddz-screen-{seen['size']}-breakdown.png"))
    assert page.locator("#multiple-breakdown li[data-factor=bid]").first.is_visible()
    equals = page.locator("#multiple-breakdown .equals").all_inner_texts()
    total = page.locator("#multiple-breakdown .total")
    shown = total.inner_text() if total.count() else equals[0]
    assert shown.endswith(f"×{value}"), (shown, value)
    seen.setdefault("breakdowns", []).append(page.inner_text("#multiple-breakdown"))
    page.click("#multiple")
    page.wait_for_selector("#multiple-breakdown", state="hidden")


SELECTED = (
    "() => [...document.querySelectorAll('#my-hand .pcard.selected')].map((c) => c.dataset.card).sort()"
)
HINTS = """() => (window.tableClient.model.snapshot.hand.view.hints || [])
  .map((hint) => (hint.cards || []).slice().sort())"""


def check_the_hint_cycles(page, seen: dict) -> None:
    """Each press of 提示 selects the server's next suggestion, cheapest first, then round again."""
    if not page.locator("#actions [data-action=hint]").count():
        return
    hints = page.evaluate(HINTS)
    if len(hints) < 2 or not hints[0]:
        return
    pressed = []
    for _ in range(len(hints) + 1 if len(hints) < 4 else 2):
        page.click("#actions [data-action=hint]")
        pressed.append(page.evaluate(SELECTED))
    assert pressed == (hints + hints[:1])[: len(pressed)], (pressed, hints)
    seen["hint_cycles"] = seen.get("hint_cycles", 0) + 1


def play_and_watch(base_url: str, size: str, tier_id: int) -> dict:
    """Play one hand at ``size`` through the page, checking the screen on each of the player's turns."""
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    seen: dict = {"username": f"ddz{uuid.uuid4().hex[:10]}", "errors": [], "centre": [], "size": size}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale=LOCALES[size])
            page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
            page.add_init_script(RECORD_RENDERS)
            sign_up_and_enter(page, base_url, seen["username"], "doudizhu", tier_id, "**/tables/*/")
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            page.wait_for_selector("#connection[data-status=connected]")
            seen["base_stake_shown"] = page.evaluate(BASE_STAKE_SHOWN)

            # The sound switch: muted, it stays muted after a reload.
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
            page.click("#sound-toggle")
            assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
            page.reload()
            page.wait_for_function("() => document.querySelector('#table-app').dataset.seq")
            seen["muted_after_reload"] = page.get_attribute("#sound-toggle", "aria-pressed")

            deadline = time.monotonic() + HAND_TIMEOUT_S
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assert left_ms > 0, "the hand did not finish in time"
                what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
                if what == "result":
                    break
                if page.get_attribute("#table-app", "data-phase") == "playing":
                    check_the_multiple(page, seen)
                    if page.locator("#last-play:not([hidden])").count():
                        seen["centre"].append(page.evaluate(CENTRE_PLAY))
                    seen.setdefault("names", []).extend(page.evaluate(SEAT_NAMES))
                    check_the_hint_cycles(page, seen)
                play_turn(page, seen, f"screen-{size}")

            page.wait_for_function(
                "() => document.querySelector('#result-title').dataset.delta !== ''"
                " && document.querySelector('#multiple').dataset.value !== ''"
            )
            page.screenshot(path=str(screenshot_dir() / f"ddz-screen-{size}-result.png"))
            seen["title"] = page.inner_text("#result-title")
            seen["sub"] = page.inner_text("#result .sub")
            seen["multiple"] = page.get_attribute("#multiple", "data-value")
            seen["renders"] = page.evaluate("() => window.__renders")
            seen["clock_names"] = page.evaluate("() => window.__clockNames")
            seen["base_stake_shown_after"] = page.evaluate(BASE_STAKE_SHOWN)
        finally:
            browser.close()
    return seen


@pytest.mark.parametrize("size", list(SIZES))
def test_the_doudizhu_screen_as_a_player_sees_it(live_asgi, doudizhu_tier, size):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand

    seen = play_and_watch(live_asgi, size, doudizhu_tier.pk)
    assert seen["errors"] == [], seen["errors"]
    user = User.objects.get(username=seen["username"])
    hand = Hand.objects.get(participants=user)
    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    details, net = hand.outcome["details"], hand.outcome["net"][seat]

    # One 倍数, the one the settlement paid this seat, with a breakdown seen on a tap.
    assert int(seen["multiple"]) == details["multiples"][seat]
    assert seen.get("breakdowns"), "the player never had a turn with a multiple to tap"
    assert f"×{details['multiples'][seat]}" in seen["sub"]

    # The result speaks to the player first ("你赢了 +N" / "你输了 −N"); who won comes below.
    words = WORDS[LOCALES[size]]
    amount = f"{abs(net):,}"
    if net > 0:
        assert seen["title"] == words["won"].format(amount)
    elif net < 0:
        assert seen["title"] == words["lost"].format(amount)
    winner = words[details["winner"]]
    assert winner in seen["sub"] or winner in seen["title"], (seen["title"], seen["sub"])

    # No 不出 left from the round before: right after a new lead only seats that acted since show one.
    renders = [r for r in seen["renders"] if r["phase"] == "playing"]
    leads = 0
    for before, after in zip(renders, renders[1:], strict=False):
        if before["lastPlay"] is None and after["lastPlay"] is not None and after["turn"] is not None:
            leads += 1
            allowed = between(after["lastPlay"]["seat"], after["turn"])
            assert set(after["passes"]) <= allowed, (before, after)
    assert leads >= 1, "no new lead was seen during the hand"

    # 提示 went through the server's list, one press at a time.
    assert seen.get("hint_cycles"), "no turn offered two hints to cycle through"

    # The last play sits large in the middle, and it is the play on the table.
    assert seen["centre"], "the centre never showed a play on the player's turn"
    for centre in seen["centre"]:
        assert 0.3 < centre["centre"] < 0.7, centre
        assert centre["cards"] == centre["expected"]
        assert centre["cardWidth"] >= 40, centre

    # Names stay readable while a clock shows (at least three characters, not cut by the layout).
    assert seen["clock_names"], "no seat ever showed a clock"
    for shown in seen["clock_names"]:
        assert shown["readable"] and not shown["clipped"] and not shown["covered"], shown
    for shown in seen.get("names", []):
        assert len(shown["text"].replace("…", "")) >= 3 and not shown["clipped"], shown
    # 底分 is on the screen, and the sound switch kept its place across the reload.
    assert seen["base_stake_shown"] and seen["base_stake_shown_after"]
    assert seen["muted_after_reload"] == "true"
