import pytest
from django.utils import translation

from wallets.tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _english():
    """Assert the English msgids: the default language is Chinese once its catalogue exists."""
    with translation.override("en"):
        yield


@pytest.fixture
def make_player(db):
    return UserFactory


@pytest.fixture
def player(make_player):
    return make_player()
