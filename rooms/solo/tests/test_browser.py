"""多财多福 in Chromium on a laptop and a phone, in Chinese and English: a spin, a double-up,
an automatic run, a seed rotation and a reload, as a player does them."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import tempfile
from pathlib import Path
from platform.browser_pages import CHROMIUM_ARGS, chromium_executable, signed_in_page

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from rooms.solo.models import Play
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("BROWSER_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "solo-screenshots")
RUNS = (("laptop", (1280, 800), "zh-hans"), ("phone", (390, 844), "en"))
# What sticks out of the screen: the page must not scroll sideways (a wide table scrolls in its own box).
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => !e.parentElement.closest('.solo-scroll'))
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
  .map((e) => `${e.tagName.toLowerCase()}.${e.className}`).slice(0, 5)
  .concat(document.documentElement.scrollWidth > innerWidth ? ['document'] : [])"""


def _text(page, selector: str) -> str:
    return page.locator(selector).text_content().strip()


def _play_once(page, live_server, tier, language: str) -> dict:
    url = f"{live_server.url}{reverse('solo:play', args=[tier.pk])}"
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url, timeout=15000)
    page.wait_for_load_state("load")
    assert errors == [], errors
    assert ("多财多福" if language == "zh-hans" else "Fortune Lines") in page.title()
    seen = {"wide": page.evaluate(WIDE)}
    # Spins until one wins: the double-up opens with the win to double.
    for _ in range(80):
        before = int(_text(page, "#nonce"))
        page.click("[data-testid=spin]")
        page.wait_for_function(f"document.querySelector('#nonce').textContent !== '{before}'", timeout=10000)
        if page.locator("[data-testid=gamble]").is_visible():
            break
    assert page.locator("[data-testid=gamble]").is_visible()
    seen["win_message"] = _text(page, "[data-testid=message]")
    # Reloaded during the double-up: it is still offered, with its countdown.
    offer = _text(page, "#gamble-offer")
    page.reload()
    page.wait_for_selector("[data-testid=gamble]", state="visible", timeout=10000)
    seen["offer_kept"] = _text(page, "#gamble-offer") == offer and any(
        c.isdigit() for c in _text(page, "#gamble-clock")
    )
    # One double-up on the girl at ×1: win or lose, the message names the card turned.
    nonce = int(_text(page, "#nonce"))
    page.click("[data-testid=pick-girl]")
    page.wait_for_function(f"document.querySelector('#nonce').textContent === '{nonce + 1}'", timeout=10000)
    seen["gamble_message"] = _text(page, "[data-testid=message]")
    if page.locator("[data-testid=gamble]").is_visible():
        page.click("[data-testid=collect]")
        page.wait_for_selector("[data-testid=gamble]", state="hidden", timeout=10000)
    # 自动: three spins, no threshold, no floor.
    page.click("#auto-panel summary")
    page.fill("#auto input[name=count]", "3")
    nonce = int(_text(page, "#nonce"))
    page.click("[data-testid=auto-start]")
    page.wait_for_function(
        f"document.querySelector('#nonce').textContent === '{nonce + 3}' && !document.querySelector('#auto-start').hidden",
        timeout=20000,
    )
    seen["auto_nonces"] = (nonce, int(_text(page, "#nonce")))
    # A floor above the balance: 自动 stops before its first spin.
    page.fill("#auto input[name=floor]", str(10**9))
    page.click("[data-testid=auto-start]")
    page.wait_for_function(
        "!document.querySelector('#auto-start').hidden && document.querySelector('[data-testid=auto-status]').textContent.length > 0"
    )
    page.wait_for_timeout(300)
    seen["floor_nonce"] = int(_text(page, "#nonce")) - seen["auto_nonces"][1]
    page.fill("#auto input[name=floor]", "0")
    # The seed pair: its hash shown, then the seed revealed on rotation.
    page.click("#fair-panel summary")
    shown = _text(page, "[data-testid=seed-hash]")
    page.fill("#rotate input[name=client_seed]", f"seed-{language}")
    page.click("[data-testid=rotate]")
    page.wait_for_function(
        "document.querySelector('[data-testid=revealed]').textContent.length > 0", timeout=10000
    )
    revealed = re.search(r"[0-9a-f]{64}", _text(page, "[data-testid=revealed]")).group(0)
    seen["hash_ok"] = hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == shown
    seen["new_hash"] = _text(page, "[data-testid=seed-hash]")
    seen["new_nonce"] = _text(page, "#nonce")
    seen["balance"] = _text(page, "[data-testid=balance]")
    # Reloaded: the same balance and the new seed pair.
    page.reload()
    page.wait_for_selector("[data-testid=seed-hash]", state="attached")
    seen["reloaded"] = (_text(page, "[data-testid=balance]"), page.locator("#seed-hash").text_content())
    seen["wide_after"] = page.evaluate(WIDE)
    # 战绩: the records list the plays, each with a verify link that now recomputes it.
    page.screenshot(path=str(SHOTS / f"solo-{language}-{page.viewport_size['width']}.png"), full_page=True)
    page.goto(f"{live_server.url}{reverse('solo:records')}")
    seen["records"] = page.locator("[data-testid=solo-records] tbody tr").count()
    seen["wide_records"] = page.evaluate(WIDE)
    page.locator("[data-testid=solo-records] tbody tr").last.get_by_role("link").click()
    seen["verdict"] = _text(page, "[data-testid=verdict]")
    page.wait_for_function("document.querySelector('[data-testid=browser-hmac]').textContent.length === 64")
    seen["browser_hash_ok"] = _text(page, "[data-testid=browser-hash-ok]")
    seen["browser_hmac"] = _text(page, "[data-testid=browser-hmac]")
    seen["revealed_seed"] = revealed
    seen["wide_verify"] = page.evaluate(WIDE)
    page.screenshot(
        path=str(SHOTS / f"solo-verify-{language}-{page.viewport_size['width']}.png"), full_page=True
    )
    return seen


def test_a_player_spins_doubles_runs_automatic_spins_and_rotates_seeds(live_server, make_player, solo_tier):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    results, sessions = {}, {}
    for name, _viewport, _language in RUNS:  # the database before Playwright's event loop starts
        player = make_player(coins=50_000)
        own = Client()  # a client each: a second log-in on one client would end the first session
        own.force_login(player)
        sessions[name] = (player, own.cookies[django_settings.SESSION_COOKIE_NAME].value)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            for name, viewport, language in RUNS:
                player, session = sessions[name]
                page = signed_in_page(browser, live_server.url, session, viewport, language)
                results[name] = (player, _play_once(page, live_server, solo_tier, language))
                page.context.close()
        finally:
            browser.close()
    for name, (player, seen) in results.items():
        zh = name == "laptop"
        assert seen["wide"] == seen["wide_after"] == seen["wide_records"] == seen["wide_verify"] == [], (
            name,
            seen,
        )
        assert ("赢" if zh else "You win") in seen["win_message"], seen
        assert any(
            word in seen["gamble_message"] for word in (("童男", "童女") if zh else ("Boy", "Girl"))
        ), seen
        assert seen["auto_nonces"][1] == seen["auto_nonces"][0] + 3 and seen["floor_nonce"] == 0
        assert seen["offer_kept"], name
        assert seen["hash_ok"] and seen["new_hash"] != "" and seen["new_nonce"] == "0"
        assert seen["balance"] == str(wallet_balance(user=player)) == seen["reloaded"][0]
        assert seen["reloaded"][1] == seen["new_hash"]
        assert seen["records"] == Play.objects.filter(user=player).count() >= 5
        assert ("已验证" if zh else "Verified") in seen["verdict"], seen["verdict"]
        # The browser's own SHA-256 and HMAC agree with the seed: the oldest play is nonce 0, a spin.
        assert seen["browser_hash_ok"] == "✓"
        seed = bytes.fromhex(seen["revealed_seed"])
        oldest = Play.objects.filter(user=player).order_by("pk").first()
        message = f"{oldest.seed_pair.client_seed}:{oldest.nonce}:{oldest.kind}:0".encode()
        assert seen["browser_hmac"] == hmac.new(seed, message, hashlib.sha256).hexdigest()
