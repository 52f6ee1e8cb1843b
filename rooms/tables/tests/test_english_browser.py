"""The site in English, in real headless Chromium at both sizes: no Chinese except the language switch.

A new player signs up, plays a 炸金花 (Golden Flower) hand under 托管 against
bots, and reads the lobby, the game's rooms, the table, the profile, the
wallet and the game record: room tiers, player levels and bots are named in
English, and the only Han characters on those pages are the switch's own
"简体中文" (the other language, named in itself). The switch takes one click
each way. Game names are shown in English too (docs/architecture.md, "Language").
"""

from __future__ import annotations

import uuid

import pytest

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi is a fixture
    CHROMIUM_ARGS,
    PASSWORD,
    SIZES,
    chromium_executable,
    live_asgi,
    screenshot_dir,
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
