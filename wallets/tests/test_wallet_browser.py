"""The wallet page in Chromium, on a laptop and on a phone: one line per hand, the balance during a hand."""

import os
import tempfile
from pathlib import Path
from platform.browser_pages import CHROMIUM_ARGS, chromium_executable, signed_in_page

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from wallets import sources
from wallets.services import house_account, ledger_post, wallet_for_user, wallet_grant, wallet_withdraw
from wallets.sources import CoinsAtTable, LedgerSource, ReferenceLabel

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"laptop": (1280, 800), "phone": (390, 844)}
# What a player reads, cell by cell: every history line, and the balance block.
READ_PAGE = """() => ({
  balance: document.querySelector('.wallet-balance-amount').innerText,
  split: [...document.querySelectorAll('.wallet-split div')].map((d) => d.innerText.replace(/\\s+/g, ' ')),
  atTable: [...document.querySelectorAll('.wallet-in-play')].map((p) => p.innerText.replace(/\\s+/g, ' ')),
  lines: [...document.querySelectorAll('.wallet-entry')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())),
  tooWide: [...document.querySelectorAll('body *')]
    .filter((e) => !e.closest('thead'))
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`).slice(0, 5),
  scrollWidth: document.documentElement.scrollWidth,
})"""


class Tables(LedgerSource):
    """The rooms' answers for two hands (wallets imports no rooms; the rooms register the real source)."""

    def reference_labels(self, references):
        names = {"hand:41": "斗地主 · 初级场 · 3号桌 · 第12局", "hand:42": "斗地主 · 初级场 · 3号桌 · 第13局"}
        return {
            ref: ReferenceLabel(names[ref], f"/hands/{ref[5:]}/verify/") for ref in references if ref in names
        }

    def coins_at_table(self, *, user):
        return [
            CoinsAtTable(
                CoinsAtTable.Kind.HAND,
                9_989,
                "斗地主 初级场",
                "/tables/3/",
                "斗地主 · 初级场 · 3号桌 · 第13局",
            )
        ]


def test_the_wallet_reads_one_line_per_hand_and_the_balance_during_a_hand(
    live_server, client, make_player, monkeypatch
):
    from playwright.sync_api import sync_playwright

    monkeypatch.setattr(sources, "sources", lambda: [Tables()])
    alice = make_player(username="alice")
    wallet, escrow = wallet_for_user(user=alice), house_account(code="escrow")
    wallet_grant(user=alice, amount=10_000, key="g", reason="sign-up")
    wallet_withdraw(user=alice, amount=5, key="w", reason="cash out")
    # Hand 12 (hand:41): carried 9,995, lost 6 (the example); hand 13 (hand:42): dealt, not over.
    for key, kind, legs in (
        ("s41", "stake", [(wallet, -9_995), (escrow, 9_995)]),
        ("e41", "settlement", [(escrow, -9_995), (wallet, 9_989), (house_account(code="rake"), 6)]),
        ("s42", "stake", [(wallet, -9_989), (escrow, 9_989)]),
    ):
        ledger_post(
            key=key, kind=kind, legs=legs, reference=f"hand:{key[1:]}", game_slug="doudizhu", tier_id=1
        )
    client.force_login(alice)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    shots = Path(
        os.environ.get("BROWSER_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "wallet-screenshots"
    )
    shots.mkdir(parents=True, exist_ok=True)
    seen = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            for name, (width, height) in VIEWPORTS.items():
                page = signed_in_page(browser, live_server.url, session, (width, height))
                page.goto(f"{live_server.url}{reverse('wallets:wallet')}", timeout=15000)
                page.screenshot(path=str(shots / f"wallet-{name}.png"), full_page=True)
                seen[name] = page.evaluate(READ_PAGE)
                page.context.close()
        finally:
            browser.close()

    for name, (width, _height) in VIEWPORTS.items():
        read = seen[name]
        # During hand 13 the balance is what the player has, not 0: available + at the table.
        assert read["balance"] == "9,989", (name, read)
        assert read["split"] == ["可用 0", "牌桌上 9,989"], (name, read)
        assert "9,989金币正在" in read["atTable"][0] and "第13局" in read["atTable"][0], (name, read)
        # History: hand 12 is one line, its net and its game; no 入局押金 line, no balance of 0.
        assert len(read["lines"]) == 3, (name, read["lines"])
        assert read["lines"][0][1:] == ["牌局输赢", "斗地主 · 初级场 · 3号桌 · 第12局", "-6", "9,989"], (
            name,
            read,
        )
        assert [line[1] for line in read["lines"][1:]] == ["提现", "赠送"], (name, read["lines"])
        assert not any("入局押金" in cell for line in read["lines"] for cell in line), (name, read["lines"])
        assert read["tooWide"] == [] and read["scrollWidth"] <= width, (name, read)
