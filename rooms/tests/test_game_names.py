"""A page names each game once, in the page's language: 斗地主 on a Chinese page, Fight the Landlord on an English one."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.zh]

CHINESE, ENGLISH = "斗地主", "Fight the Landlord"


@pytest.fixture
def seated_player(django_user_model):
    """A player seated at a 斗地主 table of the real catalogue; returns (client, table)."""
    from rooms.models import Game, RoomTier
    from rooms.services import catalogue_sync
    from rooms.tables.services import table_quick_start
    from wallets.services import wallet_deposit

    catalogue_sync()
    tier = RoomTier.objects.create(
        game=Game.objects.get(slug="doudizhu"),
        code="names-junior",
        name="初级场",
        base_stake=1,
        room_factor=1,
        options={"variant": "classic"},
        seats=3,
    )
    player = django_user_model.objects.create_user(username="mei", password="x")
    wallet_deposit(user=player, amount=1000, key="names:mei", reason="test")
    table = table_quick_start(tier_id=tier.pk, user=player)
    client = Client()
    client.force_login(player)
    return client, table


@pytest.mark.parametrize(
    ("language", "shown", "hidden"), [("zh-hans", CHINESE, ENGLISH), ("en", ENGLISH, CHINESE)]
)
def test_every_page_names_the_game_in_its_own_language(seated_player, language, shown, hidden):
    client, table = seated_player
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    pages = [
        reverse("rooms:lobby"),
        reverse("rooms:game", args=["doudizhu"]),
        reverse("tables:table", args=[table.pk]),
        reverse("accounts:profile"),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert shown in html, url
        assert hidden not in html, url
