"""The players' profiles list this app's catalogue: the GAME_CATALOGUE setting names its reader to accounts."""

from platform.accounts import selectors as account_selectors
from platform.accounts.models import GameStats

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.module_loading import import_string

from rooms.models import Game
from rooms.selectors import game_catalogue

pytestmark = pytest.mark.django_db


def test_the_profile_lists_enabled_catalogue_games_in_lobby_order_in_the_active_language(make_player):
    assert import_string(settings.GAME_CATALOGUE) is game_catalogue
    Game.objects.create(slug="b", name_zh="乙", name_en="Bee", family="seated", min_seats=2, max_seats=2)
    Game.objects.create(
        slug="a", name_zh="甲", name_en="Ay", family="seated", min_seats=2, max_seats=2, sort_order=5
    )
    Game.objects.create(
        slug="off", name_zh="停", name_en="Off", family="seated", min_seats=2, max_seats=2, is_enabled=False
    )
    player = make_player(coins=0)
    GameStats.objects.create(user=player, game_slug="a", hands=3, wins=2)

    with translation.override("en"):
        levels = account_selectors.user_game_levels(user=player)

    assert [(row.game_slug, row.game_name, row.wins) for row in levels] == [("b", "Bee", 0), ("a", "Ay", 2)]
    with translation.override("zh-hans"):
        assert [name for _slug, name in game_catalogue()] == ["乙", "甲"]
