# ruff: noqa: F811
"""The Chinese admin reads in Chinese: names not slugs, readable structures not dumps, no English sections.

The issue ("What players and staff hit first", item 12): game slugs ("texas") and raw
JSON/Python dumps for configs and states; Django's change history labelled 流水记录, the
word of ledger entries; the audit log's and django-axes' sections in English.

What is checked is the page's own wording (headings, labels, column heads, filters, buttons,
help texts, the words of a structure shown): the data in it (usernames, memos, references)
is what it is.
"""

import re
from html.parser import HTMLParser
from platform.browser_pages import CHROMIUM_ARGS, chromium_executable, signed_in_page
from platform.tests.test_audit import admin_form_data

import pytest
from django.test import Client
from django.urls import reverse

# The table runtime's fixtures, used here by name (so ruff reads the arguments as redefinitions).
from rooms.tables.tests.conftest import ddz_tier, fast_tables, make_player  # noqa: F401
from rooms.tables.tests.helpers import sit_connected
from rooms.tables.tests.test_admin_replay import play_whole_hand
from wallets.finance_models import ReconciliationRecord

pytestmark = [pytest.mark.zh, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

# Words that are the same in a Chinese page: abbreviations, and the keys Django's help names.
ALLOWED = {"JSON", "Control", "Command", "Mac"}
ENGLISH = re.compile(r"[A-Za-z]{3,}")
# Identifiers shown as they are: hex (seeds, keys) and ledger references ("hand:12").
IDENTIFIERS = re.compile(r"\b[0-9a-f]{16,}\b|\b[a-z_]+:[0-9]+(?::[a-z]+)?\b")


class PageWords(HTMLParser):
    """The wording of an admin page, leaving out the data it shows.

    Data is what a cell, a read-only field's value, a choice or a code (a game's option keys) holds, except the labels of a
    structure shown as a ``dl.readable`` (those are the page's words for the data's keys).
    """

    DATA = {"td", "option", "textarea", "select", "script", "style", "pre", "code"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.words: list[str] = []

    def _in_data(self) -> bool:
        for tag, is_label in reversed(self.stack):
            if is_label:
                return False
            if tag in self.DATA or tag == "readonly":
                return True
        return False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag in {"br", "img", "input", "meta", "link", "hr"}:
            if tag == "input" and attrs.get("type") in {"submit", "button"} and not self._in_data():
                self.words.append(attrs.get("value") or "")
            return
        if tag == "div" and "readonly" in classes:
            self.stack.append(("readonly", False))
            return
        # A <dt> labels what follows, in data too: the keys of a structure shown as a dl.readable.
        self.stack.append((tag, tag == "dt"))
        if not self._in_data():
            self.words.extend(
                attrs[name] for name in ("title", "placeholder", "aria-label") if attrs.get(name)
            )

    def handle_endtag(self, tag):
        for n in range(len(self.stack) - 1, -1, -1):
            if self.stack[n][0] == tag or (tag == "div" and self.stack[n][0] == "readonly"):
                del self.stack[n:]
                return

    def handle_data(self, data):
        if data.strip() and not self._in_data():
            self.words.append(data.strip())


def english_words(html: str, allowed: set[str]) -> set[str]:
    parser = PageWords()
    parser.feed(html)
    found = {word for text in parser.words for word in ENGLISH.findall(IDENTIFIERS.sub("", text))}
    return found - ALLOWED - allowed


def _staff_group():
    """A staff group with a permission of Django's making and one of ours (flushed tests lose the seeded ones)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name="finance-desk")
    group.permissions.set(
        Permission.objects.filter(codename__in=["view_ledgertransaction", "move_money", "view_hand"])
    )
    return group


@pytest.fixture
def chinese_staff(django_user_model):
    boss = django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(boss)
    return client


def test_every_staff_page_reads_in_chinese(chinese_staff, ddz_tier, make_player, django_user_model):
    from platform.staff.otp import BACKUP_DEVICE_NAME, TOTP_DEVICE_NAME, otp_enrol

    from auditlog.models import LogEntry
    from axes.models import AccessAttempt
    from django.contrib.auth.models import Group
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from rooms.tables.models import HandAction
    from wallets.models import LedgerTransaction
    from wallets.reconciliation import reconciliation_run

    alice = make_player(coins=5000)
    hand = play_whole_hand(sit_connected(alice, ddz_tier), alice)
    # A failed login (django-axes), a staff change (the audit log), a nightly check (finance).
    Client().post(reverse("accounts:login"), {"username": alice.username, "password": "wrong"})
    tier_url = reverse("admin:rooms_roomtier_change", args=[ddz_tier.pk])
    data = admin_form_data(chinese_staff.get(tier_url))
    data["base_stake"] = ddz_tier.base_stake + 1
    assert chinese_staff.post(tier_url, data).status_code == 302
    reconciliation_run(trigger="manual")
    otp_enrol(user=django_user_model.objects.get(username="boss"))
    assert AccessAttempt.objects.exists() and LogEntry.objects.exists()
    settlement = LedgerTransaction.objects.get(key=hand.settlement_key)

    pages = {
        "index": reverse("admin:index"),
        "hands": reverse("admin:tables_hand_changelist"),
        "hand": reverse("admin:tables_hand_change", args=[hand.pk]),
        "replay": reverse("admin:tables_hand_replay", args=[hand.pk]),
        "actions": reverse("admin:tables_handaction_changelist"),
        "action": reverse("admin:tables_handaction_change", args=[HandAction.objects.first().pk]),
        "tiers": reverse("admin:rooms_roomtier_changelist"),
        "tier": tier_url,
        "games": reverse("admin:rooms_game_changelist"),
        "stats": reverse("admin:accounts_gamestats_changelist"),
        "group": reverse("admin:auth_group_change", args=[_staff_group().pk]),
        "audit log": reverse("admin:auditlog_logentry_changelist"),
        "audit entry": reverse("admin:auditlog_logentry_change", args=[LogEntry.objects.first().pk]),
        "attempts": reverse("admin:axes_accessattempt_changelist"),
        "failures": reverse("admin:axes_accessfailurelog_changelist"),
        "access logs": reverse("admin:axes_accesslog_changelist"),
        "transaction": reverse("admin:wallets_ledgertransaction_change", args=[settlement.pk]),
        "accounts": reverse("admin:wallets_account_changelist"),
        "reconciliation": reverse(
            "admin:wallets_reconciliationrecord_change", args=[ReconciliationRecord.objects.get().pk]
        ),
        "history": reverse("admin:rooms_roomtier_history", args=[ddz_tier.pk]),
        "authenticators": reverse("admin:otp_totp_totpdevice_changelist"),
        "authenticator": reverse("admin:otp_totp_totpdevice_change", args=[TOTPDevice.objects.get().pk]),
        "new authenticator": reverse("admin:otp_totp_totpdevice_add"),
        "backup codes": reverse("admin:otp_static_staticdevice_change", args=[StaticDevice.objects.get().pk]),
    }
    # Names are data wherever they appear: users', groups', the second-factor devices'; and so
    # are the paths and browsers of the login attempts django-axes lists.
    names = [u.username for u in django_user_model.objects.all()] + list(
        Group.objects.values_list("name", flat=True)
    )
    names += [BACKUP_DEVICE_NAME, TOTP_DEVICE_NAME, reverse("accounts:login"), "<unknown>"]
    allowed = {word for name in names for word in ENGLISH.findall(name)}
    english = {}
    html = {}
    for name, url in pages.items():
        response = chinese_staff.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        html[name] = response.content.decode()
        if found := english_words(html[name], allowed):
            english[name] = sorted(found)
    assert english == {}, repr(english)

    # Django's change history is 历史, not 流水记录 (the ledger's word).
    assert "历史" in html["tier"] and "流水记录" not in html["tier"] + html["history"]
    # Games by name, not slug; a hand's config and outcome as labelled rows, not a JSON line.
    assert "斗地主" in html["hands"] and ">doudizhu<" not in html["hands"]
    assert '<dl class="readable">' in html["hand"] and "<dt>底分</dt><dd>1</dd>" in html["hand"]
    assert "<dt>服务费（基点）</dt><dd>500</dd>" in html["hand"] and '"rake_bps": 500' not in html["hand"]
    assert "{'" not in html["hand"]  # no Python repr of a dict
    assert "出牌" in html["actions"] and '"type"' not in html["actions"]
    # Permissions in Chinese, as Django does not store them.
    assert "可以查看流水" in html["group"] and "Can view" not in html["group"]
    assert "审计日志" in html["index"] and "登录锁定" in html["index"]


# What a staff member reads of an admin page once its scripts ran: headings, captions, column
# heads, labels, section titles, the words of a structure shown, the permission picker's buttons.
READ_ADMIN = """() => [...document.querySelectorAll(
  '#site-name, #content h1, #content h2, caption, th, label, dl.readable dt, .object-tools a,'
  + ' .selector-chooseall, .selector-clearall, .selector-available h2, .selector-chosen h2, #nav-sidebar a')]
  .filter((e) => e.getBoundingClientRect().width > 0 && !e.closest('td'))
  .map((e) => e.innerText.trim()).filter(Boolean)"""


@pytest.mark.browser
def test_staff_pages_read_in_chinese_in_a_browser(
    live_server, client, ddz_tier, make_player, django_user_model
):
    """The same walk in Chromium (1280×800 and 390×844): what the admin's scripts write too."""
    from django.conf import settings as django_settings
    from django.contrib.auth.models import Group
    from playwright.sync_api import sync_playwright

    from rooms.tables.tests.test_browser import screenshot_dir

    alice = make_player(coins=5000)
    hand = play_whole_hand(sit_connected(alice, ddz_tier), alice)
    boss = django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")
    client.force_login(boss)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    pages = {
        "index": reverse("admin:index"),
        "hand": reverse("admin:tables_hand_change", args=[hand.pk]),
        "group": reverse("admin:auth_group_change", args=[_staff_group().pk]),
    }
    names = [u.username for u in django_user_model.objects.all()] + list(
        Group.objects.values_list("name", flat=True)
    )
    allowed = {word for name in names for word in ENGLISH.findall(name)}
    seen, english = {}, {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            for size, (width, height) in {"laptop": (1280, 800), "phone": (390, 844)}.items():
                page = signed_in_page(browser, live_server.url, session, (width, height))
                for name, path in pages.items():
                    page.goto(f"{live_server.url}{path}", timeout=15000)
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(screenshot_dir() / f"admin-{name}-{size}.png"), full_page=True)
                    seen[(name, size)] = texts = page.evaluate(READ_ADMIN)
                    found = (
                        {w for t in texts for w in ENGLISH.findall(IDENTIFIERS.sub("", t))}
                        - ALLOWED
                        - allowed
                    )
                    if found:
                        english[(name, size)] = sorted(found)
                page.context.close()
        finally:
            browser.close()

    assert english == {}, repr(english)
    for size in ("laptop", "phone"):
        assert "棋牌室管理后台" in seen[("index", size)], seen[("index", size)]
        assert "底分" in seen[("hand", size)] and "历史" in seen[("hand", size)], seen[("hand", size)]
        # The permission picker, written by Django's script, in Chinese (djangojs catalogue).
        assert any(text.startswith("选择全部") for text in seen[("group", size)]), seen[("group", size)]
