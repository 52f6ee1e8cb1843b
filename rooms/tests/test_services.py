"""catalogue_sync and the entry check players meet at the door."""

import dataclasses

import pytest
from django.contrib.auth.models import AnonymousUser

from rooms import services
from rooms.errors import EntryRefused
from rooms.models import Game, RoomTier
from rooms.tests.conftest import FAKE_BANKER, FAKE_SEATED

pytestmark = pytest.mark.django_db


def test_catalogue_sync_with_an_empty_registry_creates_nothing(registry):
    services.catalogue_sync()
    assert Game.objects.count() == 0


def test_catalogue_sync_creates_a_row_per_registered_game(registry):
    registry[FAKE_SEATED.slug] = FAKE_SEATED
    registry[FAKE_BANKER.slug] = FAKE_BANKER
    services.catalogue_sync()
    services.catalogue_sync()
    rows = {g.slug: g for g in Game.objects.all()}
    assert set(rows) == {"fakecards", "fakedice"}
    cards = rows["fakecards"]
    assert (cards.name_zh, cards.name_en, cards.family, cards.min_seats, cards.max_seats) == (
        "测试牌",
        "Test Cards",
        "seated",
        2,
        4,
    )
    assert rows["fakedice"].family == Game.Family.BANKER
    assert cards.sort_order < rows["fakedice"].sort_order


def test_catalogue_sync_updates_engine_facts_but_keeps_staff_choices(registry):
    registry[FAKE_SEATED.slug] = FAKE_SEATED
    services.catalogue_sync()
    Game.objects.filter(slug="fakecards").update(is_enabled=False, sort_order=99)
    registry[FAKE_SEATED.slug] = dataclasses.replace(FAKE_SEATED, name_en="Renamed Cards", max_seats=6)
    services.catalogue_sync()
    game = Game.objects.get(slug="fakecards")
    assert (game.name_en, game.max_seats) == ("Renamed Cards", 6)
    assert (game.is_enabled, game.sort_order) == (False, 99)


def test_catalogue_sync_leaves_a_game_whose_engine_is_gone(registry):
    registry[FAKE_SEATED.slug] = FAKE_SEATED
    services.catalogue_sync()
    registry.clear()
    services.catalogue_sync()
    assert Game.objects.filter(slug="fakecards").exists()


def test_the_seed_example_480_coins_may_enter_a_factor_5_room(make_tier, make_player):
    tier = make_tier(room_factor=5)
    services.tier_entry_check(tier=tier, user=make_player(480))


def test_one_coin_short_of_480_is_refused_with_both_numbers(make_tier, make_player):
    tier = make_tier(name="中级场", room_factor=5)
    with pytest.raises(
        EntryRefused, match=r"中级场 needs at least 480 coins to enter; your balance is 479\."
    ) as exc:
        services.tier_entry_check(tier=tier, user=make_player(479))
    assert (exc.value.code, exc.value.minimum, exc.value.balance) == ("below_minimum", 480, 479)


def test_base_multiple_and_table_cap_refusals_name_their_minimum(make_tier, make_player):
    player = make_player(1999)
    suoha = make_tier(base_stake=20, minimum_rule="base_multiple", minimum_multiplier=100)
    with pytest.raises(EntryRefused, match=r"at least 2,000 coins.*balance is 1,999"):
        services.tier_entry_check(tier=suoha, user=player)
    capped = make_tier(minimum_rule="table_cap", table_cap=1500)
    services.tier_entry_check(tier=capped, user=player)
    capped.table_cap = 2500
    with pytest.raises(EntryRefused, match=r"at least 2,500 coins.*balance is 1,999"):
        services.tier_entry_check(tier=capped, user=player)


def test_a_balance_above_the_maximum_is_refused(make_tier, make_player):
    tier = make_tier(name="新手场", room_factor=1, maximum_coins=5000)
    services.tier_entry_check(tier=tier, user=make_player(5000))
    with pytest.raises(
        EntryRefused, match=r"新手场 is for players with at most 5,000 coins.*balance is 5,001"
    ):
        services.tier_entry_check(tier=tier, user=make_player(5001))


def test_a_closed_tier_is_refused(make_tier, make_player):
    tier = make_tier(name="高级场", is_open=False)
    with pytest.raises(EntryRefused, match="高级场 is closed right now"):
        services.tier_entry_check(tier=tier, user=make_player(100000))


def test_a_disabled_game_is_refused(game, make_tier, make_player):
    tier = make_tier()
    Game.objects.filter(pk=game.pk).update(is_enabled=False)
    tier = RoomTier.objects.select_related("game").get(pk=tier.pk)
    with pytest.raises(EntryRefused, match="Test Cards is not available right now"):
        services.tier_entry_check(tier=tier, user=make_player(100000))


def test_a_game_without_an_installed_engine_is_refused(registry, make_tier, make_player):
    tier = make_tier()
    registry.clear()
    with pytest.raises(EntryRefused, match="Test Cards is not available right now"):
        services.tier_entry_check(tier=tier, user=make_player(100000))


@pytest.mark.parametrize("user", [None, AnonymousUser()])
def test_a_visitor_is_asked_to_log_in(make_tier, user):
    with pytest.raises(EntryRefused, match="Log in to play"):
        services.tier_entry_check(tier=make_tier(), user=user)


def test_tier_ensure_creates_once_and_keeps_staff_edits(game):
    tier, created = services.tier_ensure(game=game, code="novice", name="初级场", base_stake=1)
    assert created
    RoomTier.objects.filter(pk=tier.pk).update(base_stake=3)
    again, created = services.tier_ensure(game=game, code="novice", name="初级场", base_stake=1)
    assert (again.pk, created, again.base_stake) == (tier.pk, False, 3)
