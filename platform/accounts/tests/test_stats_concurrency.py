"""stats_record_hand from many settlements at once loses no count (real threads, PostgreSQL)."""

import threading
from platform.accounts.models import GameStats, User
from platform.accounts.services import stats_record_hand

import pytest
from django.db import connection, transaction
from django.utils import translation

THREADS = 8
HANDS_PER_THREAD = 5


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_hands_and_increments_count_every_hand():
    user = User.objects.create_user(username="racer", password="x")
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def settle_hands(thread_no: int) -> None:
        try:
            barrier.wait(timeout=30)
            for hand in range(HANDS_PER_THREAD):
                # As a settlement does: inside its own outer transaction.
                with transaction.atomic():
                    stats_record_hand(user=user, game_slug="doudizhu", won=(thread_no + hand) % 2 == 0)
        except BaseException as error:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=settle_hands, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    row = GameStats.objects.get(user=user, game_slug="doudizhu")
    expected_wins = sum((n + h) % 2 == 0 for n in range(THREADS) for h in range(HANDS_PER_THREAD))
    assert (row.hands, row.wins) == (THREADS * HANDS_PER_THREAD, expected_wins)
    assert GameStats.objects.filter(user=user).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_of_one_username_at_once_make_one_player_and_one_grant():
    from platform.accounts.services import user_create

    from django.core.exceptions import ValidationError

    from wallets.models import LedgerTransaction

    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def sign_up() -> None:
        try:
            barrier.wait(timeout=30)
            with translation.override("en"):  # the active language is per thread
                user_create(username="twin", password="pw-twin-1")
            outcomes.append("created")
        except ValidationError as error:
            with translation.override("en"):
                outcomes.append(" ".join(error.messages))
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(outcomes)[0] == "A user with that username already exists."
    assert sorted(outcomes)[1] == "created"
    assert User.objects.filter(username="twin").count() == 1
    assert LedgerTransaction.objects.filter(kind="grant").count() == 1
