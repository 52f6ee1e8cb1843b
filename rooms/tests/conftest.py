"""Fixtures for the rooms tests: a private game registry, tiers and players with exact balances."""

from __future__ import annotations

import itertools
from platform.accounts.services import user_create

import pytest
from django.utils import translation

import games
from games.base import GameInfo
from rooms import services
from rooms.models import Game, RoomTier
from wallets.services import wallet_deposit

FAKE_SEATED = GameInfo(
    slug="fakecards",
    name_zh="测试牌",
    name_en="Test Cards",
    family="seated",
    min_seats=2,
    max_seats=4,
    engine=object(),
)
FAKE_BANKER = GameInfo(
    slug="fakedice",
    name_zh="测试骰",
    name_en="Test Dice",
    family="banker",
    min_seats=1,
    max_seats=8,
    engine=object(),
)

_usernames = (f"player{n}" for n in itertools.count(1))


@pytest.fixture(autouse=True)
def english(settings):
    """Assert the English msgids even once the zh_Hans catalogue (the default language) exists."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def registry(monkeypatch):
    """Replace games.REGISTRY with an empty dict for this test; put games in it as needed."""
    private: dict[str, GameInfo] = {}
    monkeypatch.setattr(games, "REGISTRY", private)
    return private


@pytest.fixture
def game(db, registry) -> Game:
    registry[FAKE_SEATED.slug] = FAKE_SEATED
    services.catalogue_sync()
    return Game.objects.get(slug=FAKE_SEATED.slug)


@pytest.fixture
def make_tier(game):
    counter = itertools.count(1)

    def make(**fields) -> RoomTier:
        n = next(counter)
        values = {"game": game, "code": f"tier{n}", "name": f"测试场{n}", "base_stake": 1}
        values.update(fields)
        tier = RoomTier(**values)
        tier.full_clean()
        tier.save()
        return tier

    return make


@pytest.fixture
def make_player(db, settings):
    """Create a player through the accounts service holding exactly ``coins``."""
    settings.SIGNUP_GRANT_COINS = 0

    def make(coins: int, username: str | None = None):
        username = username or next(_usernames)
        user = user_create(username=username, password="a-long-test-pass", nickname=username.title())
        if coins:
            wallet_deposit(user=user, amount=coins, key=f"test-deposit:{username}", reason="test coins")
        return user

    return make
