"""Fixtures for the accounts tests: players made through the services, an English-speaking browser."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

PASSWORD = "correct horse 42 battery"


@pytest.fixture(autouse=True)
def _english_and_fast_hashing(settings):
    """Read Django's own messages in English and hash test passwords cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with translation.override("en"):
        yield


@pytest.fixture
def browser() -> Client:
    """A test client that asked for English, so assertions read the English msgids."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def player(db):
    """A signed-up player (wallet and grant included) with a known password."""
    from platform.accounts.services import user_create

    return user_create(username="alice", password=PASSWORD, nickname="Alice")


@pytest.fixture
def player_browser(browser, player) -> Client:
    browser.force_login(player)
    return browser


@pytest.fixture
def catalogue(monkeypatch):
    """The game catalogue the profile lists (kept by the games' app): a list to put (slug, name) in."""
    from platform.accounts import selectors

    games: list[tuple[str, str]] = []
    monkeypatch.setattr(selectors, "_catalogue", lambda: list(games))
    return games
