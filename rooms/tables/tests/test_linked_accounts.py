"""分组 (seed 002): accounts that share a sign-up address or a browser are never seated at one table.

One person with several accounts could otherwise quick-start them together and
lose coins on purpose to one of them (chip dumping). The rule is a room-tier
option, on by default; quick start and regrouping both keep to it.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import games
from rooms.tables import seating, services
from rooms.tables.models import Seat, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_tables")]

PASSWORD = "pw-Secret-123"


@pytest.fixture
def tier(db):
    """A five-seat 炸金花 (zhajinhua) room without bots: its tables wait for players, so there is a choice."""
    from rooms.models import Game, RoomTier

    info = games.REGISTRY["zhajinhua"]
    game, _ = Game.objects.get_or_create(
        slug=info.slug,
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "seated",
            "min_seats": info.min_seats,
            "max_seats": info.max_seats,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="linked",
        name="初级场",
        base_stake=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        seats=5,
        bots_enabled=False,
    )


@pytest.fixture
def signed_up(settings):
    """Make a player as the sign-up page does, counted under ``address`` (no per-address limit here)."""
    from platform.accounts.services import user_create

    settings.SIGNUP_PER_ADDRESS = 0
    names = iter(range(1, 10_000))

    def make(address: str | None):
        return user_create(username=f"linked{next(names)}", password=PASSWORD, address=address)

    return make


def table_of(user) -> int | None:
    return Seat.objects.filter(user=user).values_list("table_id", flat=True).first()


def others_waiting(tier, signed_up, tables: int = 3) -> None:
    """Unrelated players waiting at ``tables`` tables of the tier, so quick start has several to choose from."""
    for n in range(tables):
        table = seating._table_create(tier)
        with seating.changing(table.pk) as play:
            seating._sit(play, signed_up(f"198.51.100.{n + 1}"))


def test_two_accounts_signed_up_from_one_address_never_sit_at_one_table(tier, signed_up):
    assert tier.separate_linked  # on by default
    others_waiting(tier, signed_up)
    for attempt in range(30):
        first, second = signed_up("203.0.113.50"), signed_up("203.0.113.50")
        one = services.table_quick_start(tier_id=tier.pk, user=first)
        other = services.table_quick_start(tier_id=tier.pk, user=second)
        assert one != other, attempt
        # Both took a table someone else waits at: the rule chose for them, it did not strand them.
        for user in (first, second):
            services.table_leave(table_id=table_of(user), user=user)


def test_with_the_option_off_they_may(tier, signed_up):
    tier.separate_linked = False
    tier.save(update_fields=["separate_linked"])
    first, second = signed_up("203.0.113.50"), signed_up("203.0.113.50")
    one = services.table_quick_start(tier_id=tier.pk, user=first)
    # The only table waiting for players is the first account's: the second joins it.
    assert services.table_quick_start(tier_id=tier.pk, user=second) == one


def test_an_unlinked_player_from_another_address_joins_the_waiting_table(tier, signed_up):
    first = signed_up("203.0.113.50")
    one = services.table_quick_start(tier_id=tier.pk, user=first)
    for address in ("203.0.113.51", None):  # another address, or an account staff made
        assert services.table_quick_start(tier_id=tier.pk, user=signed_up(address)) == one


def log_in(browser: Client, user) -> None:
    response = browser.post(reverse("accounts:login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def quick_start_page(browser: Client, tier) -> int:
    response = browser.post(reverse("tables:quick_start", kwargs={"tier_id": tier.pk}))
    assert response.status_code == 302
    return int(response["Location"].rstrip("/").rsplit("/", 1)[1])


def test_two_accounts_that_logged_in_from_one_browser_never_sit_at_one_table(tier, signed_up):
    """One person, one browser, two accounts (made elsewhere): 快速开始 with each, in turn."""
    others_waiting(tier, signed_up)
    for attempt in range(15):
        first, second = signed_up(None), signed_up(None)
        browser = Client()
        log_in(browser, first)
        one = quick_start_page(browser, tier)
        assert browser.post(reverse("accounts:logout")).status_code == 302
        log_in(browser, second)
        other = quick_start_page(browser, tier)
        assert one != other, attempt
        for user in (first, second):
            services.table_leave(table_id=table_of(user), user=user)
    # Accounts that each used a browser of their own sit together.
    lone = seating._table_create(tier)
    tier.tables.exclude(pk=lone.pk).update(status=Table.Status.CLOSED)
    tables = []
    for user in (signed_up(None), signed_up(None)):
        browser = Client()
        log_in(browser, user)
        tables.append(quick_start_page(browser, tier))
    assert tables == [lone.pk, lone.pk]


def test_a_linked_account_that_sat_down_after_the_choice_sends_the_player_to_a_new_table(
    tier, signed_up, monkeypatch
):
    """The choice is read before the chosen table's lock: what the lock shows decides."""
    first, second = signed_up("203.0.113.50"), signed_up("203.0.113.50")
    one = services.table_quick_start(tier_id=tier.pk, user=first)
    # As if the first account sat down between the second's reading of the tables and its lock.
    monkeypatch.setattr(seating, "quick_start_choice", lambda tables, humans: Table.objects.get(pk=one.pk))
    other = services.table_quick_start(tier_id=tier.pk, user=second)
    assert other != one
    assert Seat.objects.filter(table=one, user__isnull=False).count() == 1


@pytest.mark.parametrize("separate", [True, False])
def test_regrouping_never_moves_a_player_to_a_linked_accounts_table(tier, signed_up, monkeypatch, separate):
    """Ready between hands puts the player back in the pool (分组); the pool keeps linked accounts apart."""
    tier.separate_linked = separate
    tier.save(update_fields=["separate_linked"])
    first, second = signed_up("203.0.113.50"), signed_up("203.0.113.50")
    one = services.table_quick_start(tier_id=tier.pk, user=first)
    two = seating._table_create(tier)
    with seating.changing(two.pk) as play:
        seating._sit(play, second)
    # The draw that regroups takes the last table offered: the other table, if it is offered.
    monkeypatch.setattr(seating.secrets, "choice", lambda tables: tables[-1])
    services.table_ready(table_id=two.pk, user=second)
    assert table_of(second) == (two.pk if separate else one.pk)


def test_the_load_benchs_players_still_fill_its_tables(db):
    """bench/load.py makes its players as staff tools do (no sign-up address) and logs each in from
    127.0.0.1 in a browser of its own: none is linked, so its tier (the option on, as by default)
    fills every table."""
    import sys
    from pathlib import Path

    from rooms.models import RoomTier
    from rooms.services import catalogue_sync

    root = Path(__file__).resolve().parents[3]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from bench import load

    catalogue_sync()
    [tier_id], names = load.data_prepare(game="doudizhu", clients=6, seats=3)
    tier = RoomTier.objects.get(pk=tier_id)
    assert tier.separate_linked
    for name in names:
        browser = Client(REMOTE_ADDR="127.0.0.1")
        response = browser.post(reverse("accounts:login"), {"username": name, "password": load.PASSWORD})
        assert response.status_code == 302
        quick_start_page(browser, tier)
    tables = Table.objects.filter(tier=tier)
    assert tables.count() == 2
    assert all(table.seats.filter(user__isnull=False, is_bot=False).count() == 3 for table in tables)
