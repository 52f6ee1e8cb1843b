"""Fixtures for the solo runtime: the registered line game's room, on the real engine, and players."""

import pytest

import games
from rooms.tables.tests.conftest import make_player  # noqa: F401 - a fixture shared with the table tests

SLUG = "duocaiduofu"


@pytest.fixture
def solo_tier(db):
    from rooms.models import Game
    from rooms.services import catalogue_sync, tier_ensure

    catalogue_sync()
    game = Game.objects.get(slug=SLUG)
    spec = dict(games.REGISTRY[SLUG].demo_tiers[0])
    tier, _ = tier_ensure(game=game, **spec)
    return tier
