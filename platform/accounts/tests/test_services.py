"""user_create, user_nickname_change, stats_record_hand and stats_record_hands."""

from platform.accounts.models import GameStats, User
from platform.accounts.services import (
    stats_record_hand,
    stats_record_hands,
    user_create,
    user_nickname_change,
)

import pytest
from django.core.exceptions import ValidationError

from wallets.errors import LedgerError
from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def test_user_create_pays_the_sign_up_grant_through_the_ledger(settings):
    settings.SIGNUP_GRANT_COINS, settings.SIGNUP_GRANT_PARTS = 2500, 0  # all of it at sign-up
    user = user_create(username="bob", password="s3cret-pass", nickname="  Bobby  ", email="Bob@Example.COM")

    assert user.check_password("s3cret-pass")
    assert user.nickname == "Bobby"
    assert user.email == "Bob@example.com"
    assert wallet_balance(user=user) == 2500
    grant = LedgerTransaction.objects.get(key=f"signup-grant:{user.pk}")
    assert grant.kind == LedgerTransaction.Kind.GRANT
    assert sorted(entry.amount for entry in grant.entries.all()) == [-2500, 2500]


def test_user_create_refuses_a_taken_username_and_pays_nothing():
    user_create(username="carol", password="pw-carol-1")
    grants = LedgerTransaction.objects.count()

    with pytest.raises(ValidationError, match="already exists"):
        user_create(username="carol", password="another-pw")

    assert User.objects.filter(username="carol").count() == 1
    assert LedgerTransaction.objects.count() == grants


def test_user_create_is_all_or_nothing_when_the_grant_fails(settings):
    # Above the ledger's largest amount, at sign-up: the grant is refused.
    settings.SIGNUP_GRANT_COINS = settings.SIGNUP_GRANT_FIRST = 10**16

    with pytest.raises(LedgerError):
        user_create(username="dave", password="pw-dave-1")

    assert not User.objects.filter(username="dave").exists()
    assert not LedgerTransaction.objects.exists()


def test_user_create_refuses_a_bad_nickname_before_writing_anything():
    with pytest.raises(ValidationError, match="letters, digits, spaces"):
        user_create(username="erin", password="pw-erin-1", nickname="<script>")
    assert not User.objects.filter(username="erin").exists()


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("斗地主高手", "斗地主高手"),
        ("  Lucky Seven  ", "Lucky Seven"),
        ("a_b-c.d", "a_b-c.d"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_nickname_change_accepts_and_trims(player, raw, stored):
    user_nickname_change(user=player, nickname=raw)
    player.refresh_from_db()
    assert player.nickname == stored
    assert player.display_name == (stored or "alice")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("x", "2 to 16 characters; this one has 1"),
        ("y" * 17, "2 to 16 characters; this one has 17"),
        ("two  spaces", "two spaces in a row"),
        ("bad\u200bzero", "is not allowed"),
        ("tab\there", "is not allowed"),
        ("emoji🂡", "is not allowed"),
        ("-_-", "at least one letter or digit"),
    ],
)
def test_nickname_change_refuses_with_a_reason_and_keeps_the_old_one(player, raw, message):
    with pytest.raises(ValidationError, match=message):
        user_nickname_change(user=player, nickname=raw)
    player.refresh_from_db()
    assert player.nickname == "Alice"


def test_stats_record_hand_creates_the_row_then_counts(player):
    stats_record_hand(user=player, game_slug="doudizhu", won=True)
    stats_record_hand(user=player, game_slug="doudizhu", won=False)
    stats_record_hand(user=player, game_slug="doudizhu", won=True)
    stats_record_hand(user=player, game_slug="zhajinhua", won=False)

    rows = {row.game_slug: (row.hands, row.wins) for row in GameStats.objects.filter(user=player)}
    assert rows == {"doudizhu": (3, 2), "zhajinhua": (1, 0)}


def test_stats_record_hands_adds_a_batch_to_existing_rows_and_creates_missing_ones(player):
    other = user_create(username="dave", password="pw-dave-1")
    idle = user_create(username="erin", password="pw-erin-1")
    stats_record_hand(user=player, game_slug="doudizhu", won=True)

    stats_record_hands(game_slug="doudizhu", results={player.pk: (3, 1), other.pk: (2, 2), idle.pk: (0, 0)})
    stats_record_hands(game_slug="doudizhu", results={other.pk: (1, 0)})

    rows = {row.user_id: (row.hands, row.wins) for row in GameStats.objects.filter(game_slug="doudizhu")}
    assert rows == {player.pk: (4, 2), other.pk: (3, 2)}  # a player with no hand gets no row
    assert not GameStats.objects.filter(game_slug="zhajinhua").exists()
