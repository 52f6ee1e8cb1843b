"""End to end in real headless Chromium: sign up, quick-start a 扯旋 room, play whole hands.

At 1280×800 and 390×844, in Chinese and in English: the player sets a 簸簸, bets (大 once,
then 跟 or 休), reloads the page on a betting turn and finds the same screen, splits her
four cards, and reads the result panel, whose figures are the ledger's. The test clicks
only what a player can click.
"""

from __future__ import annotations

import time
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    PASSWORD,
    RESULT_PAINTED,
    SIZES,
    WAIT_FOR_ANSWER,
    WAIT_FOR_SOMETHING_TO_DO,
    chromium_executable,
    live_asgi,
    screenshot_dir,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 180
MAX_HANDS = 8  # hands played until one reaches the split (most do; a fold or a round of 休 ends one early)
LANGUAGES = {"zh": "zh-hans", "en": "en"}
# What a player sees of the table at one instant (its seq and the seats' connection left out).
SCREEN = """() => {
  const all = (s) => [...document.querySelectorAll(s)];
  return {
    phase: document.querySelector('#table-app').dataset.phase,
    myTurn: document.querySelector('#table-app').dataset.myTurn,
    actions: all('#actions [data-action]').map((e) => e.dataset.action + ':' + (e.dataset.amount || '') + ':' + e.textContent),
    myCards: all('#my-hand .pcard').map((e) => e.dataset.card || 'back'),
    seats: all('#seats .cx-seat').map((e) => (e.querySelector('.money')?.textContent || '') + '|'
      + [...e.querySelectorAll('.pcard')].map((c) => c.dataset.card || 'back').join(',')),
    pot: document.querySelector('#pot').dataset.value,
    balance: document.querySelector('#my-balance').dataset.value,
    phaseText: document.querySelector('#phase').textContent,
  };
}"""
# Han characters in any text or label outside the language switch and the card faces (大王's face).
HAN_OUTSIDE_SWITCH = r"""() => {
  const han = /[\u3400-\u9fff\uf900-\ufaff]/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('.language-form, script, style, template, [hidden], .pcard')) continue;
    if (han.test(node.textContent)) found.push(node.textContent.trim());
  }
  return found;
}"""


@pytest.fixture
def cx_tier(transactional_db):
    """The demo's first 扯旋 room, three seats, with bots."""
    import games.chexuan  # noqa: F401 - registers the game
    from rooms import services
    from rooms.demo import demo_tiers_for
    from rooms.models import Game

    services.catalogue_sync()
    game = Game.objects.get(slug="chexuan")
    spec = {**demo_tiers_for(game)[0], "seats": 3}
    tier, _created = services.tier_ensure(game=game, bots_enabled=True, **spec)
    return tier


def click_and_wait(page, selector: str) -> None:
    seq = page.get_attribute("#table-app", "data-seq")
    page.click(selector)
    page.wait_for_function(WAIT_FOR_ANSWER, arg=seq, timeout=15000)
    refused = page.get_attribute("#hand-message", "data-kind") == "error"
    assert not refused, f"the server refused a move the page offered: {page.inner_text('#hand-message')}"


def settled(page, seq_at_least: int) -> dict:
    page.wait_for_selector("#connection[data-status=connected]", timeout=30000)
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#table-app').dataset.seq) >= seq",
        arg=seq_at_least,
        timeout=30000,
    )
    page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=30000)
    return page.evaluate(SCREEN)


def play_turn(page, seen: dict, name: str) -> None:
    """Set the first 簸簸 offered; bet (跟 or 休, 大 when neither, 敲 when nothing else is left); split."""
    phase = page.get_attribute("#table-app", "data-phase")
    actions = page.locator("#actions")
    if phase == "bobo":
        seen["limit"] = int(actions.locator("[data-action=bobo]").first.get_attribute("data-amount"))
        click_and_wait(page, "#actions [data-action=bobo] >> nth=0")
        return
    if phase == "split":
        seen["split_shot"] = str(screenshot_dir() / f"cx-{name}-split.png")
        page.screenshot(path=seen["split_shot"])
        seen["split_labels"] = actions.locator("[data-action=split]").all_inner_texts()
        seen["split_head"] = actions.locator("[data-action=split]").first.get_attribute("data-head").split()
        click_and_wait(page, "#actions [data-action=split] >> nth=0")
        return
    assert phase == "betting", phase
    if "reloaded" not in seen:
        before = page.evaluate(SCREEN)
        seq = int(page.get_attribute("#table-app", "data-seq"))
        page.reload()
        after = settled(page, seq)
        assert after == before, f"the reloaded page differs:\n{before}\n{after}"
        seen["reloaded"] = True
        seen["betting_shot"] = str(screenshot_dir() / f"cx-{name}-betting.png")
        page.screenshot(path=seen["betting_shot"])
        seen["phase_text"] = after["phaseText"]
        seen["my_cards"] = after["myCards"]
    for kind in ("call", "check", "raise", "allin"):
        button = actions.locator(f"[data-action={kind}]")
        if button.count():
            if kind == "raise":
                seen["raised"] = int(button.first.get_attribute("data-amount"))
            click_and_wait(page, f"#actions [data-action={kind}] >> nth=0")
            return
    click_and_wait(page, "#actions [data-action=fold]")


def play_hand(page, name: str) -> dict:
    """Play one hand to its result panel; return what the page showed."""
    page.wait_for_function("() => document.querySelector('#my-balance').dataset.value !== ''")
    seen: dict = {"balance_before": int(page.get_attribute("#my-balance", "data-value"))}
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while True:
        left_ms = (deadline - time.monotonic()) * 1000
        assert left_ms > 0, "the hand did not finish in time"
        what = page.wait_for_function(WAIT_FOR_SOMETHING_TO_DO, timeout=left_ms).json_value()
        if what == "result":
            break
        play_turn(page, seen, name)
    page.wait_for_function(RESULT_PAINTED, timeout=15000)
    seen["result_shot"] = str(screenshot_dir() / f"cx-{name}-result.png")
    page.screenshot(path=seen["result_shot"])
    me = page.locator("#result tbody tr.me")
    seen["delta"] = int(me.locator("td.delta").get_attribute("data-delta"))
    seen["balance_after"] = int(page.get_attribute("#my-balance", "data-value"))
    seen["rows"] = page.locator("#result tbody tr").count()
    seen["title"] = page.inner_text("#result .title")
    seen["hand_number"] = page.inner_text("#hand-number")
    seen["shown_seats"] = sorted(
        int(x) for x in page.eval_on_selector_all("#result .final-row", "els => els.map(e => e.dataset.seat)")
    )
    seen["han"] = page.evaluate(HAN_OUTSIDE_SWITCH)
    seen["fits"] = page.evaluate(
        "() => [...document.querySelectorAll('.cx-seat, #actions, #my-hand, #result .panel')].every(el => {"
        " const b = el.getBoundingClientRect(); return b.left >= -1 && b.right <= window.innerWidth + 1; })"
    )
    # Reloaded with the result shown, the page shows the same result.
    before = page.inner_text("#result tbody")
    page.reload()
    page.wait_for_function(RESULT_PAINTED, timeout=15000)
    seen["result_after_reload"] = page.inner_text("#result tbody") == before
    return seen


def play_hands(base_url: str, size: str, language: str, tier_id: int) -> tuple[str, list[dict], list[str]]:
    """Sign up and play hands until one reaches the split (at most MAX_HANDS)."""
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"cx{uuid.uuid4().hex[:10]}"
    name = f"{size}-{language}"
    hands: list[dict] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": LANGUAGES[language], "url": base_url}]
            )
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base_url}/accounts/signup/")
            page.fill("#id_username", username)
            page.fill("#id_password1", PASSWORD)
            page.fill("#id_password2", PASSWORD)
            page.click("form.form button[type=submit]")
            page.wait_for_url(f"{base_url}/")
            page.click("a.game-link[href$='/games/chexuan/']")
            page.click(f"li.tier-card[data-tier='{tier_id}'] form button[type=submit]")
            page.wait_for_url("**/tables/*/")
            page.wait_for_selector("#connection[data-status=connected]")
            assert page.get_attribute("html", "lang") == LANGUAGES[language]
            while True:
                hands.append(play_hand(page, name))
                if "split_head" in hands[-1] or len(hands) == MAX_HANDS:
                    break
                page.click("#result [data-action=next-hand]")  # 下一局: ready, and the bots are
                page.wait_for_function(
                    "(number) => document.querySelector('#hand-number').textContent !== number"
                    " && document.querySelector('#result').hidden",
                    arg=hands[-1]["hand_number"],
                    timeout=30000,
                )
        finally:
            browser.close()
    return username, hands, errors


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_player_plays_a_whole_chexuan_hand_against_bots(live_asgi, cx_tier, size, language):  # noqa: F811
    from platform.accounts.models import User

    from rooms.tables.models import Hand

    username, hands, errors = play_hands(live_asgi, size, language, cx_tier.pk)
    print(
        "screenshots:",
        *[h.get(k) for h in hands for k in ("betting_shot", "split_shot", "result_shot") if h.get(k)],
    )

    assert errors == [], errors
    user = User.objects.get(username=username)
    played = list(Hand.objects.filter(participants=user).order_by("pk"))
    assert len(played) == len(hands)
    assert any("split_head" in seen for seen in hands), f"no hand of {MAX_HANDS} reached the split"
    for hand, seen in zip(played, hands, strict=True):
        check_hand(hand, seen, user, language)


def check_hand(hand, seen: dict, user, language: str) -> None:
    """What the page showed of one hand is what the server recorded and the ledger paid."""
    from games.chexuan import GAME
    from rooms.tables.models import Hand, HandAction
    from wallets.models import LedgerEntry

    assert hand.status == Hand.Status.SETTLED
    seat = next(i for i, p in enumerate(hand.players) if p["user"] == user.pk)
    state = hand.state
    own = HandAction.objects.filter(hand=hand, seat=seat, auto=False)
    # The 簸簸 she clicked, and the bets she clicked, are what the server recorded.
    assert own.filter(action={"type": "bobo", "amount": seen["limit"]}).exists()
    assert state["bobo"][seat] == seen["limit"]
    if seen.get("raised"):
        assert own.filter(action={"type": "raise", "amount": seen["raised"]}).exists()
    if seen.get("reloaded"):
        assert seen["phase_text"] == ("Betting" if language == "en" else "下注")
        assert (
            len(seen["my_cards"]) >= 2 and seen["my_cards"] == state["_hands"][seat][: len(seen["my_cards"])]
        )
    if "split_head" in seen:
        assert state["splits"][seat][0] == seen["split_head"]
        assert len(seen["split_labels"]) == 3
        # The split buttons name the pairs in the page's language ("Head … · Tail …" / "头：… · 尾：…").
        assert all(label.startswith("Head" if language == "en" else "头") for label in seen["split_labels"])
    # The result panel's figures are the ledger's.
    carried = hand.players[seat]["carried"]
    assert seen["balance_after"] - seen["balance_before"] == seen["delta"]
    paid = LedgerEntry.objects.filter(transaction__key=hand.settlement_key, account__user=user)
    assert sum(paid.values_list("amount", flat=True)) - carried == seen["delta"]
    assert seen["rows"] == len(hand.players) == 3
    outcome = GAME.engine.outcome(state)
    assert seen["delta"] <= outcome.deltas[seat]  # the fee comes off a win, never off a loss
    # The hands shown are exactly those the showdown opened.
    expected = state["result"]["shown"] if state["result"]["ended_by"] == "showdown" else []
    assert seen["shown_seats"] == sorted(expected)
    if state["result"]["ended_by"] == "void":
        assert seen["title"] == ("No result" if language == "en" else "平局，无输赢")
    if language == "en":
        assert seen["han"] == [], f"Chinese on the English page: {seen['han']}"
    assert seen["fits"], "a seat, the buttons, the cards or the result overflow the screen"
    assert seen["result_after_reload"]
