"""The Simplified Chinese catalogue: the default language, complete, and faithful to its msgids.

locale/zh_Hans/LC_MESSAGES/django.po is read with a small parser of our own
(no extra dependency); django.mo is what Django actually serves, so the tests
also check that the committed .mo says what the .po says.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

PO_PATH = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO_PATH = PO_PATH.with_suffix(".mo")

# These tests are about the product's default language, so they opt out of the suite's English.
pytestmark = pytest.mark.zh

# %(name)s with any flags/width/precision, and {name} as str.format uses it.
NAMED_PERCENT = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
UNNAMED_PERCENT = re.compile(r"%(?!\()[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
BRACE = re.compile(r"\{(\w+)\}")


@dataclass
class Entry:
    line: int
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    @property
    def translations(self) -> list[str]:
        return [value for key, value in self.fields.items() if key.startswith("msgstr")]


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text[1:-1])


def parse_po(path: Path) -> list[Entry]:
    """Return the entries of a .po file (header included, as the entry with an empty msgid)."""
    entries: list[Entry] = []
    entry: Entry | None = None
    key = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, key = None, None
            continue
        if entry is None:
            entry = Entry(line=number)
            entries.append(entry)
        if line.startswith("#~"):
            entry.obsolete = True
        elif line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry.fields[key] += _unquote(line)
        else:
            key, _, value = line.partition(" ")
            entry.fields[key] = _unquote(value)
    return entries


@pytest.fixture(autouse=True)
def restore_language():
    """Put back the thread's language afterwards: LocaleMiddleware leaves the one it chose active."""
    with translation.override(translation.get_language()):
        yield


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    parsed = [e for e in parse_po(PO_PATH) if not e.obsolete]
    assert len(parsed) > 300, "the catalogue should hold every string of the site"
    return parsed


def messages(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.msgid]


def test_the_header_declares_simplified_chinese_with_one_plural_form(entries):
    header = next(e for e in entries if e.msgid == "")
    text = header.fields["msgstr"]
    assert "Language: zh_Hans\n" in text
    assert "Plural-Forms: nplurals=1; plural=0;\n" in text
    assert "Content-Type: text/plain; charset=UTF-8\n" in text
    assert "fuzzy" not in header.flags


def test_every_msgid_has_a_reviewed_translation(entries):
    untranslated = [e.msgid for e in messages(entries) if not all(t.strip() for t in e.translations)]
    fuzzy = [e.msgid for e in messages(entries) if "fuzzy" in e.flags]
    assert untranslated == []
    assert fuzzy == []


def test_plural_entries_have_exactly_one_form(entries):
    plurals = [e for e in messages(entries) if "msgid_plural" in e.fields]
    assert plurals, "the catalogue has plural strings (rooms, players, minutes)"
    for e in plurals:
        assert list(k for k in e.fields if k.startswith("msgstr")) == ["msgstr[0]"], e.msgid


def test_translations_keep_every_placeholder(entries):
    for e in messages(entries):
        source = e.msgid + " " + e.fields.get("msgid_plural", "")
        for text in e.translations:
            assert set(NAMED_PERCENT.findall(text)) == set(NAMED_PERCENT.findall(source)), e.msgid
            assert set(BRACE.findall(text)) == set(BRACE.findall(source)), e.msgid
            if "python-format" in e.flags:
                assert sorted(UNNAMED_PERCENT.findall(text)) == sorted(UNNAMED_PERCENT.findall(e.msgid)), (
                    e.msgid
                )


def test_the_committed_mo_serves_what_the_po_says(entries):
    assert MO_PATH.exists(), "commit django.mo: a fresh machine may have no gettext tools"
    with translation.override("zh-hans"):
        for e in messages(entries):
            if "msgctxt" in e.fields:
                served = pgettext(e.fields["msgctxt"], e.msgid)
                assert served == e.fields["msgstr"], (e.fields["msgctxt"], e.msgid)
            elif "msgid_plural" in e.fields:
                served = ngettext(e.msgid, e.fields["msgid_plural"], 2)
                assert served == e.fields["msgstr[0]"], e.msgid
            else:
                assert gettext(e.msgid) == e.fields["msgstr"], e.msgid


def test_table_client_labels_use_the_card_room_words():
    from rooms.tables.pages import table_labels

    with translation.override("zh-hans"):
        labels = table_labels("doudizhu")
    assert labels["no_bid"] == "不叫"
    assert labels["rob"] == "抢地主"
    assert labels["no_double"] == "不加倍"
    assert labels["play"] == "出牌"
    assert labels["pass"] == "不出"
    assert labels["hint"] == "提示"
    assert labels["trustee_off"] == "取消托管"
    assert labels["bid_points"].format(points=3) == "3分"
    assert labels["cards_left"].format(count=17) == "剩17张"


def test_each_game_names_its_hands_in_its_own_words():
    from rooms.tables.pages import table_labels

    with translation.override("zh-hans"):
        zhajinhua, texas = table_labels("zhajinhua"), table_labels("texas")
    # The same English word is a different hand in each game: 金花 is 炸金花's flush, 同花 Texas'.
    assert (zhajinhua["cat_flush"], zhajinhua["cat_straight_flush"], zhajinhua["cat_leopard"]) == (
        "金花",
        "顺金",
        "豹子",
    )
    assert (texas["cat_flush"], texas["cat_straight_flush"], texas["cat_full_house"]) == (
        "同花",
        "同花顺",
        "葫芦",
    )
    assert (zhajinhua["fold"], zhajinhua["look"], texas["check"]) == ("弃牌", "看牌", "过牌")


@pytest.mark.django_db
def test_the_lobby_is_chinese_when_the_browser_asks_for_nothing():
    html = Client().get(reverse("rooms:lobby")).content.decode()
    assert '<html lang="zh-hans">' in html
    for text in ("大厅", "棋牌室", "选择一个游戏查看房间。", "登录后开始游戏", "登录", "注册"):
        assert text in html, text
    assert "Pick a game to see its rooms." not in html


@pytest.mark.django_db
def test_a_signed_in_player_sees_the_wallet_and_record_links_in_chinese(django_user_model):
    player = django_user_model.objects.create_user(username="lin", password="x", nickname="小林")
    client = Client()
    client.force_login(player)
    html = client.get(reverse("rooms:lobby")).content.decode()
    for text in ("欢迎你，小林。", "战绩", "钱包", "个人资料", "退出"):
        assert text in html, text


@pytest.mark.django_db
def test_the_lobby_is_english_with_the_language_cookie():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("rooms:lobby")).content.decode()
    assert '<html lang="en">' in html
    assert "Pick a game to see its rooms." in html
    assert "Lobby" in html
    assert "大厅" not in html


@pytest.mark.django_db
def test_the_lobby_is_english_for_an_english_browser():
    html = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get(reverse("rooms:lobby")).content.decode()
    assert '<html lang="en">' in html
    assert "Log in to play" in html
    assert "选择一个游戏查看房间。" not in html
