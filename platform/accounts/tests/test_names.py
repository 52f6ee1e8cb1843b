"""Names shown to players in the active language: the bots ("Bot 853" in English) and the levels."""

from platform.accounts.levels import level_for_wins
from platform.accounts.names import player_name, player_names

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation


def test_a_bots_name_is_english_on_an_english_page_and_a_players_nickname_is_theirs():
    assert player_names("机器人853", is_bot=True) == ("机器人853", "Bot 853")
    assert player_names("机器人853", is_bot=False) == ("机器人853", "机器人853")  # not a bot: as written
    assert player_names("阿丽", is_bot=False) == ("阿丽", "阿丽")
    assert player_names("Renamed", is_bot=True) == ("Renamed", "Renamed")  # staff renamed the bot
    with translation.override("en"):
        assert player_name("机器人853", is_bot=True) == "Bot 853"
    with translation.override("zh-hans"):
        assert player_name("机器人853", is_bot=True) == "机器人853"


@pytest.mark.django_db
def test_a_bot_users_display_name_follows_the_language():
    bot = get_user_model().objects.create(username="bot_0853", nickname="机器人853")
    with translation.override("en"):
        assert bot.display_name == "Bot 853"
    with translation.override("zh-hans"):
        assert bot.display_name == "机器人853"
    assert bot.stored_name == "机器人853"


def test_levels_are_named_in_the_active_language():
    level = level_for_wins(0)
    with translation.override("en"):
        assert level.display_name == "Indentured labourer"
    with translation.override("zh-hans"):
        assert level.display_name == "包身工"
