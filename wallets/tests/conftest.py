import pytest
from django.utils import translation

from wallets.tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _english():
    """Assert the English msgids: the default language is Chinese once its catalogue exists."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply: the suite creates many players on a busy machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_player(db):
    return UserFactory


@pytest.fixture
def player(make_player):
    return make_player()
