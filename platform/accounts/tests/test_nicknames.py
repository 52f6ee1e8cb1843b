"""Nicknames are unique after NFKC and case folding, and the bots' names are reserved."""

from platform.accounts.models import User
from platform.accounts.services import user_create, user_nickname_change
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TAKEN = "Another player already uses this nickname (or one that reads the same)."
RESERVED = "Nicknames that look like the house's bots (机器人…, bot…) are reserved."


@pytest.fixture
def erin(db):
    return user_create(username="erin", password=PASSWORD, nickname="Erin")


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def _patch(api, nickname: str):
    return api.patch("/api/me/", {"nickname": nickname}, format="json", HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize(
    "nickname",
    [
        "Erin",  # exact
        "erin",
        "ERIN",
        "Ｅrin",  # full-width E (U+FF25)
        "ｅｒｉｎ",  # all full-width
        "ＥＲＩＮ",
    ],
)
def test_patch_me_refuses_another_players_nickname_and_its_look_alikes(api, player, erin, nickname):
    response = _patch(api, nickname)

    assert response.status_code == 400, response.content
    assert response.json() == {"nickname": [TAKEN]}
    player.refresh_from_db()
    assert (player.nickname, player.nickname_key) == ("Alice", "alice")


@pytest.mark.parametrize(
    "nickname",
    [
        "机器人401",
        "机器人 401",
        "机器人_401",
        "机器人４０１",  # full-width digits
        "機器人7",
        "机器人",
        "机器人小王",
        "Bot401",
        "bot_0401",
        "ＢＯＴ４０１",
        "robot 12",
        "Bot",
    ],
)
def test_patch_me_refuses_names_that_look_like_the_bots(api, player, nickname):
    response = _patch(api, nickname)

    assert response.status_code == 400, response.content
    assert response.json() == {"nickname": [RESERVED]}
    player.refresh_from_db()
    assert player.nickname == "Alice"


@pytest.mark.parametrize("nickname", ["Bottle", "Robotnik", "Abbot 3", "机器猫", "小机器人"])
def test_names_merely_containing_bot_words_are_allowed(api, nickname):
    response = _patch(api, nickname)
    assert response.status_code == 200, response.content
    assert response.json()["nickname"] == nickname


def test_a_player_may_recase_their_own_nickname(api, player, erin):
    response = _patch(api, "ALICE")
    assert response.status_code == 200
    player.refresh_from_db()
    assert (player.nickname, player.nickname_key) == ("ALICE", "alice")


def test_a_released_nickname_can_be_taken(api, player, erin):
    user_nickname_change(user=erin, nickname="")
    assert _patch(api, "Ｅrin").status_code == 200
    player.refresh_from_db()
    assert player.nickname_key == "erin"


def test_sign_up_refuses_a_taken_nickname_with_the_reason(browser, erin):
    response = browser.post(
        reverse("accounts:signup"),
        {"username": "mallory", "nickname": "ERIN", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    assert not User.objects.filter(username="mallory").exists()


def test_user_create_refuses_a_taken_nickname(erin):
    with pytest.raises(ValidationError, match=r"'nickname': \['Another player already uses"):
        user_create(username="mallory", password=PASSWORD, nickname="ｅｒｉｎ")
    assert not User.objects.filter(username="mallory").exists()


def test_the_profile_page_refuses_a_taken_nickname(player_browser, player, erin):
    response = player_browser.post(reverse("accounts:profile"), {"nickname": "erin"})
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    player.refresh_from_db()
    assert player.nickname == "Alice"


def test_the_database_refuses_a_second_holder_of_a_folded_key(player):
    # What settles two players saving the same name at once, past the service's check.
    with pytest.raises(IntegrityError, match="nickname_key"), transaction.atomic():
        User.objects.create(username="twin", nickname="ALICE", nickname_key="alice")


def test_staff_cannot_give_a_player_a_taken_nickname_in_admin(client, player, erin):
    client.force_login(User.objects.create_superuser(username="boss", password=PASSWORD))
    joined = player.date_joined
    response = client.post(
        reverse("admin:accounts_user_change", args=[player.pk]),
        {
            "username": "alice",
            "nickname": "ＥＲＩＮ",
            "is_active": "on",
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
            "game_stats-TOTAL_FORMS": "0",
            "game_stats-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    player.refresh_from_db()
    assert player.nickname == "Alice"


def test_staff_renaming_a_player_in_admin_keys_the_new_name(client, player):
    client.force_login(User.objects.create_superuser(username="boss", password=PASSWORD))
    joined = player.date_joined
    response = client.post(
        reverse("admin:accounts_user_change", args=[player.pk]),
        {
            "username": "alice",
            "nickname": "Ａlicia",
            "is_active": "on",
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
            "game_stats-TOTAL_FORMS": "0",
            "game_stats-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    player.refresh_from_db()
    assert (player.nickname, player.nickname_key) == ("Ａlicia", "alicia")
