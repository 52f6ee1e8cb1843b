"""The sign-up grant: a first part at sign-up, the rest in parts as the player plays hands."""

from platform.accounts.grants import grant_progress
from platform.accounts.models import SignUp
from platform.accounts.services import stats_record_hands, user_create
from platform.accounts.tests.conftest import PASSWORD

import pytest
from django.urls import reverse

from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance
from wallets.services import wallet_grant

pytestmark = pytest.mark.django_db


def play(user, hands: int, game: str = "doudizhu") -> None:
    """Count ``hands`` finished hands for ``user``, as the settlement does."""
    stats_record_hands(game_slug=game, results={user.pk: (hands, 0)})


def test_a_new_player_gets_the_first_part_only(settings):
    assert (settings.SIGNUP_GRANT_COINS, settings.SIGNUP_GRANT_FIRST) == (10000, 2000)
    assert (settings.SIGNUP_GRANT_PARTS, settings.SIGNUP_GRANT_PART_HANDS) == (8, 10)

    user = user_create(username="newbie", password=PASSWORD)

    assert wallet_balance(user=user) == 2000
    assert LedgerTransaction.objects.get(key=f"signup-grant:{user.pk}").kind == "grant"


def test_the_first_part_enters_every_demo_games_lowest_tier(settings):
    from rooms.demo import demo_load
    from rooms.models import RoomTier

    demo_load()
    lowest: dict[str, int] = {}
    for tier in RoomTier.objects.select_related("game"):
        lowest[tier.game.slug] = min(lowest.get(tier.game.slug, 10**9), tier.minimum_coins)
    assert lowest and max(lowest.values()) <= settings.SIGNUP_GRANT_FIRST, lowest


def test_each_ten_hands_played_pay_one_part_until_the_grant_is_whole():
    user = user_create(username="grinder", password=PASSWORD)

    play(user, 9)
    assert grant_progress(user_ids=[user.pk]) == 0
    assert wallet_balance(user=user) == 2000

    play(user, 1)
    assert grant_progress(user_ids=[user.pk]) == 1000
    assert wallet_balance(user=user) == 3000

    play(user, 35, game="texas")  # hands in any game count
    assert grant_progress(user_ids=[user.pk]) == 3000
    assert wallet_balance(user=user) == 6000

    play(user, 1000)
    assert grant_progress(user_ids=[user.pk]) == 4000
    assert wallet_balance(user=user) == 10000
    assert grant_progress(user_ids=[user.pk]) == 0
    assert SignUp.objects.get(user=user).parts_paid == 8
    assert LedgerTransaction.objects.filter(key__startswith=f"signup-grant:{user.pk}").count() == 9


def test_a_repeated_call_pays_nothing_twice():
    user = user_create(username="twice", password=PASSWORD)
    play(user, 20)

    paid = [grant_progress(user_ids=[user.pk, user.pk]) for _ in range(3)]

    assert paid == [2000, 0, 0]
    assert wallet_balance(user=user) == 4000


def test_a_part_already_posted_is_not_paid_again_if_the_count_lagged():
    # A call that posted the part but died before counting it: the part's own key stops a second payment.
    user = user_create(username="lagged", password=PASSWORD)
    play(user, 10)
    wallet_grant(
        user=user, amount=1000, key=f"signup-grant:{user.pk}:part:1", reason="sign-up grant, part 1 of 8"
    )

    assert grant_progress(user_ids=[user.pk]) == 1000  # reported, but the ledger replayed the first posting
    assert wallet_balance(user=user) == 3000


def test_the_rule_at_sign_up_holds_when_the_settings_change(settings):
    settings.SIGNUP_GRANT_COINS, settings.SIGNUP_GRANT_FIRST = 5000, 1000
    settings.SIGNUP_GRANT_PARTS, settings.SIGNUP_GRANT_PART_HANDS = 3, 5
    user = user_create(username="early", password=PASSWORD)
    settings.SIGNUP_GRANT_COINS, settings.SIGNUP_GRANT_PARTS = 100, 0

    play(user, 15)
    grant_progress(user_ids=[user.pk])

    # 4000 in three parts: 1333, 1333 and the last takes the remainder, 1334.
    amounts = LedgerTransaction.objects.filter(key__contains=":part:").order_by("key")
    assert [txn.entries.get(amount__gt=0).amount for txn in amounts] == [1333, 1333, 1334]
    assert wallet_balance(user=user) == 5000


def test_no_parts_pays_the_whole_grant_at_sign_up(settings):
    settings.SIGNUP_GRANT_PARTS = 0
    user = user_create(username="oldstyle", password=PASSWORD)
    assert wallet_balance(user=user) == 10000
    play(user, 100)
    assert grant_progress(user_ids=[user.pk]) == 0


def test_players_without_a_pending_grant_are_skipped(django_user_model):
    bot = django_user_model.objects.create(username="bot_0007", nickname="机器人7")
    older = django_user_model.objects.create(username="veteran")
    play(older, 500)

    assert grant_progress(user_ids=[bot.pk, older.pk, 999_999]) == 0
    assert not LedgerTransaction.objects.exists()


def test_the_sign_up_page_and_the_profile_say_how_the_grant_is_paid(browser):
    page = browser.get(reverse("accounts:signup")).content.decode()
    assert "New players get 2,000 coins to start, and more as they play, up to 10,000 coins" in page

    browser.post(
        reverse("accounts:signup"),
        {"username": "shown", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="203.0.113.1",
    )
    user = SignUp.objects.get(user__username="shown").user
    play(user, 14)
    grant_progress(user_ids=[user.pk])

    profile = browser.get(reverse("accounts:profile")).content.decode()
    assert "Play 6 more hands to receive the next 1,000 coins of your sign-up grant." in profile
    assert "1 of 8 parts received." in profile


def test_the_task_the_settlement_queues_pays_the_parts():
    from platform.accounts.tasks import grant_progress_task

    user = user_create(username="queued", password=PASSWORD)
    play(user, 30)

    grant_progress_task.delay([user.pk])

    assert wallet_balance(user=user) == 5000
