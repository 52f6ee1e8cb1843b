"""The account pages as a player uses them: sign up, log in and out, password, profile."""

from platform.accounts.models import GameStats, User
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_player_pays_the_grant_logs_in_and_goes_to_the_lobby(browser, settings):
    settings.SIGNUP_GRANT_COINS, settings.SIGNUP_GRANT_PARTS = 3000, 0  # all of it at sign-up
    page = browser.get(reverse("accounts:signup"))
    assert page.status_code == 200
    assert "New players get 3,000 coins to start." in page.content.decode()

    response = browser.post(
        reverse("accounts:signup"),
        {
            "username": "newbie",
            "nickname": "牌神",
            "password1": "tiles-and-cards-9",
            "password2": "tiles-and-cards-9",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("rooms:lobby")
    user = User.objects.get(username="newbie")
    assert user.nickname == "牌神"
    assert int(browser.session[SESSION_KEY]) == user.pk
    assert wallet_balance(user=user) == 3000
    lobby = browser.get(response["Location"])
    assert "Welcome, 牌神!" in lobby.content.decode()


def test_sign_up_with_mismatched_passwords_creates_nothing(browser):
    response = browser.post(
        reverse("accounts:signup"),
        {"username": "oops", "password1": "tiles-and-cards-9", "password2": "tiles-and-cards-8"},
    )
    assert response.status_code == 200
    assert "The two password fields didn" in response.content.decode()
    assert not User.objects.filter(username="oops").exists()


def test_sign_up_refuses_a_bad_nickname_with_the_reason(browser):
    response = browser.post(
        reverse("accounts:signup"),
        {
            "username": "nick",
            "nickname": "a<b>",
            "password1": "tiles-and-cards-9",
            "password2": "tiles-and-cards-9",
        },
    )
    assert response.status_code == 200
    assert "is not allowed" in response.content.decode()
    assert not User.objects.filter(username="nick").exists()


@pytest.mark.parametrize("username", ["bot_0001", "Bot_x", "BOT_zz", "ｂot_x"])
def test_sign_up_refuses_a_bots_username(browser, username):
    """bot_ names the house's bots: a player so named would be seated and funded as one."""
    response = browser.post(
        reverse("accounts:signup"),
        {"username": username, "password1": "tiles-and-cards-9", "password2": "tiles-and-cards-9"},
    )
    assert response.status_code == 200
    assert "Usernames starting with bot_ are reserved for the house" in response.content.decode()
    assert not User.objects.filter(username__iexact=username.replace("ｂ", "b")).exists()
    assert SESSION_KEY not in browser.session


def test_log_in_with_the_right_password_goes_to_the_lobby(browser, player):
    page = browser.get(reverse("accounts:login"))
    assert page.status_code == 200

    response = browser.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("rooms:lobby")
    assert int(browser.session[SESSION_KEY]) == player.pk


def test_log_in_with_a_wrong_password_says_so(browser, player):
    response = browser.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert SESSION_KEY not in browser.session


def test_log_out_needs_a_post_and_ends_the_session(player_browser):
    assert player_browser.get(reverse("accounts:logout")).status_code == 405

    response = player_browser.post(reverse("accounts:logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("rooms:lobby")
    assert SESSION_KEY not in player_browser.session


def test_password_change_keeps_the_session_and_the_new_password_works(player_browser, player):
    response = player_browser.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "brand-new-pass-77",
            "new_password2": "brand-new-pass-77",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    assert "Your password has been changed." in response.content.decode()
    player.refresh_from_db()
    assert player.check_password("brand-new-pass-77")
    assert player_browser.get(reverse("accounts:profile")).status_code == 200


def test_password_change_with_a_wrong_old_password_changes_nothing(player_browser, player):
    response = player_browser.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": "brand-new-pass-77", "new_password2": "brand-new-pass-77"},
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_profile_needs_a_log_in(browser):
    response = browser.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_profile_shows_level_wins_and_wins_to_next_per_game(player_browser, player, catalogue):
    catalogue.extend([("doudizhu", "Dou Dizhu"), ("zhajinhua", "Zha Jin Hua")])
    GameStats.objects.create(user=player, game_slug="doudizhu", hands=400, wins=150)
    GameStats.objects.create(user=player, game_slug="retired_game", hands=95000, wins=90000)

    page = player_browser.get(reverse("accounts:profile")).content.decode()

    assert "alice" in page and "Alice" in page
    rows = {
        slug: page.split(f'data-game="{slug}"')[1].split("</tr>")[0]
        for slug in ("doudizhu", "zhajinhua", "retired_game")
    }
    # An English page names the levels in English only (短工 Day labourer, 长工 Farmhand …).
    assert "Dou Dizhu" in rows["doudizhu"] and "Day labourer" in rows["doudizhu"]
    assert "150" in rows["doudizhu"] and "50 more wins to Farmhand" in rows["doudizhu"]
    assert "Zha Jin Hua" in rows["zhajinhua"] and "Indentured labourer" in rows["zhajinhua"]
    assert "100 more wins to Day labourer" in rows["zhajinhua"]
    assert "Emperor" in rows["retired_game"] and "Top level" in rows["retired_game"]
    assert "短工" not in page and "包身工" not in page


def test_profile_changes_the_nickname(player_browser, player):
    response = player_browser.post(reverse("accounts:profile"), {"nickname": "牌王"}, follow=True)
    assert "Your nickname is now 牌王." in response.content.decode()
    player.refresh_from_db()
    assert player.nickname == "牌王"


def test_profile_refuses_a_bad_nickname_with_the_reason(player_browser, player):
    response = player_browser.post(reverse("accounts:profile"), {"nickname": "z"})
    assert response.status_code == 200
    assert "A nickname has 2 to 16 characters; this one has 1." in response.content.decode()
    player.refresh_from_db()
    assert player.nickname == "Alice"
