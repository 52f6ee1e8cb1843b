"""Finance pages in Chromium, laptop and phone: the statement's columns say what they hold, the chart its axes."""

import os
import tempfile
from pathlib import Path
from platform.browser_pages import CHROMIUM_ARGS, chromium_executable, signed_in_page

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.urls import reverse

from wallets.finance_access import FINANCE_GROUP
from wallets.tests.factories import UserFactory
from wallets.tests.finance_books import build_books

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"laptop": (1280, 800), "phone": (390, 844)}
# What a finance officer reads: the filter's labels, the table's heads and cells, the chart's words.
READ_PAGE = """() => ({
  labels: [...document.querySelectorAll('.finance-filter label')].map((l) => l.childNodes[0].textContent.trim()),
  heads: [...document.querySelectorAll('.finance-table thead th')].map((th) => th.innerText.trim()),
  rows: [...document.querySelectorAll('.finance-table tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())),
  // Cells of words (the kind, the game) that broke over more than one line: a word a line is unreadable.
  broken: [...document.querySelectorAll('.finance-statement td:nth-child(2), .finance-statement td:nth-child(4)')]
    .filter((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
    })
    .map((td) => td.innerText.trim()),
  chart: [...document.querySelectorAll('.finance-chart svg text')]
    .filter((t) => t.getBoundingClientRect().width > 0)
    .map((t) => [t.textContent.trim(), Math.round(parseFloat(getComputedStyle(t).fontSize)
      * t.getScreenCTM().a * 10) / 10]),
  tooWide: [...document.querySelectorAll('body *')]
    .filter((e) => !e.closest('thead') && !e.closest('.table-scroll') && !e.closest('.finance-chart__scroll'))
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className}`).slice(0, 5),
})"""


def test_the_statement_and_the_rake_chart_read_in_words(live_server, client, monkeypatch, settings):
    from playwright.sync_api import sync_playwright

    settings.TIME_ZONE = "Asia/Shanghai"
    books = build_books(UserFactory, monkeypatch)
    officer = UserFactory(username="finance-officer", is_staff=True)
    # The group migrations seed; a flushed database (an earlier transactional test) has lost it.
    officer.groups.add(Group.objects.get_or_create(name=FINANCE_GROUP)[0])
    client.force_login(officer)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    pages = {
        "statement": reverse("finance:statement") + "?player=alice&start=2026-03-01&end=2026-03-02",
        "rake": reverse("finance:rake") + "?start=2026-03-01&end=2026-03-03",
    }
    shots = Path(
        os.environ.get("BROWSER_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "finance-screenshots"
    )
    shots.mkdir(parents=True, exist_ok=True)
    seen = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            for size, (width, height) in VIEWPORTS.items():
                page = signed_in_page(browser, live_server.url, session, (width, height))
                for name, path in pages.items():
                    page.goto(f"{live_server.url}{path}", timeout=15000)
                    page.screenshot(path=str(shots / f"finance-{name}-{size}.png"), full_page=True)
                    seen[(name, size)] = page.evaluate(READ_PAGE)
                page.context.close()
        finally:
            browser.close()

    h1, h2, h3 = (hand.pk for hand in books.hands)
    for size in VIEWPORTS:
        statement = seen[("statement", size)]
        # 起始日期 is the date filter's word, not the heading of the references.
        assert statement["labels"][:2] == ["起始日期", "截止日期"], statement
        assert statement["heads"][:4] == ["时间", "类型", "关联单号", "游戏"], statement
        assert "起始日期" not in statement["heads"]
        # Alice's hands of those days, one line each, with the hand's net and its game.
        assert [row[1:] for row in statement["rows"]] == [
            ["充值", f"staff:{books.staff.pk}", "—", "+500", "1,500"],
            ["牌局输赢", f"hand:{h1}", "斗地主 · 初级场", "+190", "1,690"],
            ["牌局输赢", f"hand:{h2}", "斗地主 · 中级场", "-100", "1,590"],
            ["牌局输赢", f"hand:{h3}", "斗地主 · 初级场", "+133", "1,723"],
        ], statement["rows"]
        assert statement["broken"] == [] and statement["tooWide"] == [], statement

        chart = seen[("rake", size)]
        words = [text for text, _px in chart["chart"]]
        # The axes say what they measure: the coin scale (its highest day, 12 on 2 March; and 0), the days.
        assert words[0] == "抽水（金币）" and "12" in words and "0" in words, words
        assert "2026-03-01" in words and "2026-03-03" in words and "日期" in words, words
        # Big enough to read on a phone: the chart scrolls sideways rather than shrink its labels.
        assert min(px for _text, px in chart["chart"]) >= 10, chart["chart"]
        assert chart["tooWide"] == [], chart
