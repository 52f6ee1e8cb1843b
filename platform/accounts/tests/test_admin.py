"""The staff screens for players and their win counts."""

from platform.accounts.models import GameStats

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_browser(browser):
    admin = get_user_model().objects.create_superuser(username="root", password="x", email="root@example.com")
    browser.force_login(admin)
    return browser


def test_user_list_shows_nickname_and_searches_it(admin_browser, player):
    html = admin_browser.get(reverse("admin:accounts_user_changelist"), {"q": "Alice"}).content.decode()
    assert "alice" in html and "Alice" in html
    assert "root" not in html.split('id="result_list"')[1]


def test_user_page_shows_game_stats_read_only(admin_browser, player):
    GameStats.objects.create(user=player, game_slug="doudizhu", hands=120, wins=101)
    response = admin_browser.get(reverse("admin:accounts_user_change", args=[player.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="nickname"' in html
    assert "doudizhu" in html and "短工" in html
    assert 'name="game_stats-0-wins"' not in html  # not editable


def test_game_stats_admin_lists_filters_and_cannot_edit(admin_browser, player):
    GameStats.objects.create(user=player, game_slug="doudizhu", hands=10, wins=3)
    changelist = admin_browser.get(reverse("admin:accounts_gamestats_changelist"), {"game_slug": "doudizhu"})
    assert changelist.status_code == 200
    assert "包身工" in changelist.content.decode()
    assert admin_browser.get(reverse("admin:accounts_gamestats_add")).status_code == 403


def test_staff_can_add_a_player_with_a_nickname(admin_browser):
    assert admin_browser.get(reverse("admin:accounts_user_add")).status_code == 200
    response = admin_browser.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "helper",
            "nickname": "小助手",
            "usable_password": "true",
            "password1": "staff-made-pass-31",
            "password2": "staff-made-pass-31",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    user = get_user_model().objects.get(username="helper")
    assert user.nickname == "小助手"
    assert user.check_password("staff-made-pass-31")


def _support_member(username="helper"):
    from django.contrib.auth.models import Group

    user = get_user_model().objects.create_user(username=username, password="pw-Secret-123", is_staff=True)
    user.groups.add(Group.objects.get(name="support"))
    return user


def _resubmit(browser, url, **changes):
    """Post the user's change form back as the page rendered it, with ``changes``."""
    page = browser.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        if name in ("password",) or field.disabled:
            continue
        value = form.initial.get(name)
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple) or hasattr(value, "__iter__") and not isinstance(value, str):
            data[name] = [getattr(v, "pk", v) for v in value]
        else:
            data[name] = value
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
    data.update(changes)
    return browser.post(url, data)


def test_a_support_member_cannot_make_themselves_a_superuser(browser):
    # Support may edit players' accounts; the same form let them tick their own superuser box
    # and permissions, and a superuser may move money.
    helper = _support_member()
    browser.force_login(helper)
    url = reverse("admin:accounts_user_change", args=[helper.pk])
    _resubmit(browser, url, is_superuser="on", nickname="helper2")
    helper.refresh_from_db()
    assert not helper.is_superuser
    assert not helper.user_permissions.exists()
    assert list(helper.groups.values_list("name", flat=True)) == ["support"]


def test_a_support_member_cannot_take_over_a_staff_account(browser):
    # Resetting a superuser's password (or disabling them) is not helping a player.
    root = get_user_model().objects.create_superuser(username="root", password="x", email="root@example.com")
    browser.force_login(_support_member())
    response = browser.post(
        reverse("admin:auth_user_password_change", args=[root.pk]),
        {"password1": "Taken-over-123", "password2": "Taken-over-123", "usable_password": "true"},
    )
    assert response.status_code == 403
    root.refresh_from_db()
    assert root.check_password("x")


def test_a_support_member_still_edits_a_players_account(browser, player):
    browser.force_login(_support_member())
    url = reverse("admin:accounts_user_change", args=[player.pk])
    response = _resubmit(browser, url, nickname="新昵称", is_staff="on", is_superuser="on")
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.nickname == "新昵称"
    # ...but cannot make the player (an accomplice, or a second login of their own) staff.
    assert not player.is_staff and not player.is_superuser
