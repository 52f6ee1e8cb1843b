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
