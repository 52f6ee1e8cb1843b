"""The site in English, in real headless Chromium at both sizes: no Chinese except the language switch.

A new player signs up, plays a 炸金花 (Golden Flower) hand under 托管 against
bots, and reads the lobby, the game's rooms, the table, the profile, the
wallet and the game record: room tiers, player levels and bots are named in
English, and the only Han characters on those pages are the switch's own
"简体中文" (the other language, named in itself). The switch takes one click
each way. Game names are shown in English too (docs/architecture.md, "Language"),
the table's top-bar figures keep to one line, and a 斗地主 hand's jokers read
"B★" / "S★" (Big / Small joker), not 大王 / 小王.
"""

from __future__ import annotations

import os
import re
import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    PASSWORD,
    SIZES,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
    screenshot_dir,
    sign_up_and_enter,
)
from rooms.tables.tests.test_zhajinhua_runtime import zjh_game  # noqa: F401 - a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every piece of text (and every title, label or placeholder) outside the language switch with a
# Han character in it.
HAN_OUTSIDE_SWITCH = r"""() => {
  const han = /[\u3400-\u9fff\uf900-\ufaff]/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('.language-form, script, style, template')) continue;
    if (el.closest('[hidden]')) continue;
    if (han.test(node.textContent)) found.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (el.closest('.language-form')) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value && han.test(value)) found.push(`${el.tagName.toLowerCase()}[${name}]=${value}`);
    }
  }
  if (han.test(document.title)) found.push(`title: ${document.title}`);
  return found;
}"""


# The table's top-bar figures: where each shown one starts, and whether the level's name is cut short.
STATS_ROW = """() => {
  const shown = [...document.querySelectorAll('.dz-stats > *')].filter((e) => e.getClientRects().length);
  const level = document.querySelector('#my-level');
  return {tops: shown.map((e) => e.offsetTop), text: shown.map((e) => e.innerText.replace(/\\s+/g, ' ')),
    levelCut: level.scrollWidth > level.clientWidth};
}"""


@pytest.fixture
def demo_zjh_tier(transactional_db, zjh_game):  # noqa: F811
    """The demo's first 炸金花 room (both names, as load_demo makes it), with bots."""
    from rooms import services
    from rooms.demo import demo_tiers_for
    from rooms.models import Game

    services.catalogue_sync()
    game = Game.objects.get(slug="zhajinhua")
    tier, _created = services.tier_ensure(game=game, bots_enabled=True, **demo_tiers_for(game)[0])
    assert tier.name == "初级场" and tier.name_en == "Novice room"
    return tier


def no_chinese(page, where: str) -> None:
    found = page.evaluate(HAN_OUTSIDE_SWITCH)
    assert found == [], f"{where} shows Chinese in English: {found}"
    switch = page.locator("[data-testid=language-switch]")
    assert switch.count() == 1 and switch.inner_text() == "简体中文", where


@pytest.mark.parametrize("size", list(SIZES))
def test_english_pages_show_no_chinese_and_the_switch_takes_one_click(live_asgi, demo_zjh_tier, size):  # noqa: F811
    from playwright.sync_api import sync_playwright

    width, height = SIZES[size]
    username = f"eng{uuid.uuid4().hex[:10]}"
    base = live_asgi
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            # A browser that asks for Chinese first: the site starts in Chinese, its default.
            context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}/accounts/signup/")
            assert page.get_attribute("html", "lang") == "zh-hans"
            switch = page.locator("[data-testid=language-switch]")
            assert switch.count() == 1 and switch.inner_text() == "English"
            assert page.locator(".language-form select").count() == 0  # no second step
            switch.click()  # one click
            page.wait_for_selector("html[lang=en]")
            assert page.url.endswith("/accounts/signup/")  # the same page, now in English

            page.fill("#id_username", username)
            page.fill("#id_password1", PASSWORD)
            page.fill("#id_password2", PASSWORD)
            page.click("form.form button[type=submit]")
            page.wait_for_url(f"{base}/")
            no_chinese(page, "the lobby")

            page.click("a.game-link[href$='/games/zhajinhua/']")
            page.wait_for_url("**/games/zhajinhua/")
            card = page.locator(f"li.tier-card[data-tier='{demo_zjh_tier.pk}']")
            assert "Novice room" in card.inner_text() and "Base stake" in card.inner_text()
            no_chinese(page, "the game's rooms")

            card.locator("form button[type=submit]").click()
            page.wait_for_url("**/tables/*/")
            # Bots sit down and a hand is dealt: their names, the tier and the player's level show.
            page.wait_for_function(
                "() => [...document.querySelectorAll('.zj-seat .name')].filter(n => /^Bot \\d+/.test(n.textContent)).length >= 1"
                " && document.querySelector('#table-app').dataset.phase === 'betting'",
                timeout=30000,
            )
            assert page.inner_text("#tier-name") == "Novice room"
            assert page.inner_text("#my-level") == "Indentured labourer"
            no_chinese(page, "the table")
            # The top bar's figures (ante, stake, balance, level) keep to one line, the level shown whole.
            stats = page.evaluate(STATS_ROW)
            assert len(set(stats["tops"])) == 1, stats
            assert not stats["levelCut"], stats
            page.screenshot(path=str(screenshot_dir() / f"english-{size}-table.png"))

            # 托管 plays the hand out; the result panel names the bots in English too.
            page.click("#trustee")
            page.wait_for_function(
                "() => { const r = document.querySelector('#result');"
                " return r && !r.hidden && !r.querySelector('[data-action=next-hand]').disabled; }",
                timeout=120000,
            )
            assert "Bot " in page.inner_text("#result tbody")
            no_chinese(page, "the table's result")

            for path, where in (
                ("/accounts/profile/", "the profile"),
                ("/wallet/", "the wallet"),
                ("/tables/history/", "the game record"),
            ):
                page.goto(f"{base}{path}")
                no_chinese(page, where)
            page.goto(f"{base}/wallet/")
            assert "Golden Flower · Novice room" in page.inner_text("main")
            page.goto(f"{base}/accounts/profile/")
            assert "Indentured labourer" in page.inner_text("main")
            page.screenshot(path=str(screenshot_dir() / f"english-{size}-profile.png"))

            # And back: one click to Chinese, where the same data reads in Chinese.
            page.click("[data-testid=language-switch]")
            page.wait_for_selector("html[lang=zh-hans]")
            assert page.url.endswith("/accounts/profile/")
            assert "包身工" in page.inner_text("main")
            assert page.inner_text("[data-testid=language-switch]") == "English"
            assert errors == [], errors
        finally:
            browser.close()


def seed_dealing_both_jokers_to_the_first_seat() -> bytes:
    """A 斗地主 deal's seed that gives seat 0 (a player's seat at a new table) 大王 and 小王."""
    import hashlib

    import games
    from games.base import SeatSpec, SeededRng

    info = games.REGISTRY["doudizhu"]
    config = {
        **info.default_options,
        "variant": "classic",
        "base_stake": 1,
        "room_factor": 1,
        "first_seat": 0,
    }
    specs = [SeatSpec(player_id=seat, coins=1000) for seat in range(3)]
    for n in range(10_000):
        seed = hashlib.sha256(f"english-jokers-{n}".encode()).digest()
        if {"DJ", "XJ"} <= set(info.engine.new_hand(config, specs, SeededRng(seed, "hand"))["hands"][0]):
            return seed
    raise AssertionError("no seed in 10,000 deals both jokers to one seat")


# The faces of the cards in the player's hand: text, names, colour, and whether the corner's label sits in
# the strip the next card leaves in sight.
HAND_FACES = """() => {
  const cards = [...document.querySelectorAll('#my-hand .pcard')];
  return cards.map((card, i) => {
    const corner = card.querySelector('.corner').getBoundingClientRect();
    const next = cards[i + 1] ? cards[i + 1].getBoundingClientRect().left : Infinity;
    return {card: card.dataset.card, text: card.innerText.replace(/\\s+/g, ' ').trim(),
      label: card.getAttribute('aria-label'), title: card.title, red: card.classList.contains('red'),
      cornerInSight: corner.right <= next + 0.5};
  });
}"""
# The faces cards.js draws for the jokers and the flower on the page it is asked on.
DRAWN_FACES = """async () => {
  const src = [...document.scripts].map((s) => s.src).find((s) => /\\/js\\/[^/]+\\.js/.test(s));
  const cards = await import(new URL('cards.js', src).href);
  return ['DJ', 'XJ', 'FL'].map((c) => {
    const el = cards.cardElement(c);
    return {card: c, text: [...el.querySelectorAll('.corner span')].map((s) => s.textContent).join(' '),
      label: el.getAttribute('aria-label')};
  });
}"""


@pytest.fixture
def jokers_to_the_player(doudizhu_tier, monkeypatch):  # noqa: F811
    """The table's first hand deals the player (seat 0) both jokers."""
    from types import SimpleNamespace

    from rooms.tables import hands

    seeds = iter([seed_dealing_both_jokers_to_the_first_seat()])
    monkeypatch.setattr(
        hands, "secrets", SimpleNamespace(token_bytes=lambda n: next(seeds, None) or os.urandom(n))
    )
    return doudizhu_tier


def test_jokers_read_in_english_on_an_english_page(live_asgi, jokers_to_the_player):  # noqa: F811
    from playwright.sync_api import sync_playwright

    width, height = SIZES["phone"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            sign_up_and_enter(
                page,
                live_asgi,
                f"jok{uuid.uuid4().hex[:10]}",
                "doudizhu",
                jokers_to_the_player.pk,
                "**/tables/*/",
            )
            page.wait_for_selector("#my-hand .pcard[data-card=DJ]")
            page.screenshot(path=str(screenshot_dir() / "english-phone-jokers.png"))
            faces = {face["card"]: face for face in page.evaluate(HAND_FACES)}
            han = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
            shown = [
                face for face in faces.values() if han.search(face["text"] + face["label"] + face["title"])
            ]
            assert shown == [], f"cards in Chinese on an English page: {shown}"
            assert (faces["DJ"]["label"], faces["DJ"]["red"]) == ("Big joker", True)
            assert (faces["XJ"]["label"], faces["XJ"]["red"]) == ("Small joker", False)
            assert faces["DJ"]["title"] == "Big joker" and faces["DJ"]["text"].startswith("B")
            assert faces["XJ"]["text"].startswith("S")
            assert faces["DJ"]["cornerInSight"] and faces["XJ"]["cornerInSight"], faces
            drawn = page.evaluate(DRAWN_FACES)
            assert [(f["text"], f["label"]) for f in drawn] == [
                ("B ★", "Big joker"),
                ("S ★", "Small joker"),
                ("F ✿", "Flower"),
            ]
            assert errors == [], errors

            # In Chinese (the switch, in the top bar a desktop shows), the same hand keeps 大王 and 小王, and
            # the flower 花.
            page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
            page.click("[data-testid=language-switch]")
            page.wait_for_selector("html[lang=zh-hans]")
            page.wait_for_selector("#my-hand .pcard[data-card=DJ]")
            faces = {face["card"]: face for face in page.evaluate(HAND_FACES)}
            assert (faces["DJ"]["text"], faces["DJ"]["label"]) == ("大 王 ★", "大王")
            assert (faces["XJ"]["text"], faces["XJ"]["label"]) == ("小 王 ★", "小王")
            drawn = page.evaluate(DRAWN_FACES)
            assert [(f["text"], f["label"]) for f in drawn] == [
                ("大 王", "大王"),
                ("小 王", "小王"),
                ("花 ✿", "花"),
            ]
        finally:
            browser.close()
