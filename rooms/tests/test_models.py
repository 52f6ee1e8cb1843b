"""The minimum-coin rules and the validation staff meet in the admin."""

import dataclasses
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

import games
from rooms.models import Game, RoomTier
from rooms.tests.conftest import FAKE_SEATED

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("factor", "minimum"), [(1, 96), (5, 480), (10, 960), (200, 19200)])
def test_factor_rule_is_room_factor_times_96(make_tier, factor, minimum):
    # Seed 002: 房间系数为5时 ... 不可低于 5*96=480.
    tier = make_tier(room_factor=factor)
    assert tier.minimum_rule == RoomTier.MinimumRule.FACTOR
    assert tier.minimum_coins == minimum


def test_base_multiple_rule_is_100_times_the_base(make_tier):
    # Seed 002 梭哈: 进入房间游戏币最低标准 通常为100倍底分.
    tier = make_tier(base_stake=20, minimum_rule="base_multiple", minimum_multiplier=100)
    assert tier.minimum_coins == 2000


def test_table_cap_rule_is_the_cap(make_tier):
    # Seed 002 扎金花: 进入房间游戏币最低标准 通常为房间的上限.
    tier = make_tier(base_stake=5, minimum_rule="table_cap", table_cap=500)
    assert tier.minimum_coins == 500


def test_fixed_rule_is_the_amount(make_tier):
    tier = make_tier(minimum_rule="fixed", fixed_minimum=1234)
    assert tier.minimum_coins == 1234


def test_rake_is_stored_in_basis_points_and_shown_in_percent(make_tier):
    assert make_tier().rake_bps == 500
    assert make_tier().rake_percent == Decimal("5.00")
    assert make_tier(rake_bps=250).rake_percent == Decimal("2.50")


def test_seats_default_to_the_games_largest_table(make_tier):
    assert make_tier().seats_per_table == 4
    assert make_tier(seats=2).seats_per_table == 2


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"minimum_rule": "table_cap"}, "table_cap", "table-cap rule needs a table cap"),
        ({"minimum_rule": "fixed"}, "fixed_minimum", "fixed-amount rule needs a fixed minimum"),
        ({"room_factor": 0}, "room_factor", "room factor must be at least 1"),
        ({"minimum_rule": "base_multiple", "minimum_multiplier": 0}, "minimum_multiplier", "at least 1"),
        (
            {"room_factor": 5, "maximum_coins": 400},
            "maximum_coins",
            r"maximum \(400\) is below the minimum.*\(480\)",
        ),
        ({"rake_bps": 10001}, "rake_bps", "cannot exceed 10000"),
        ({"seats": 5}, "seats", "seats 2 to 4 players"),
        ({"options": ["classic"]}, "options", "must be a JSON object"),
    ],
)
def test_clean_refuses_meaningless_tiers(game, fields, field, message):
    tier = RoomTier(game=game, code="bad", name="坏场", base_stake=1, **fields)
    with pytest.raises(ValidationError, match=message) as excinfo:
        tier.full_clean()
    assert field in excinfo.value.message_dict


def test_clean_refuses_an_unknown_doudizhu_variant(db):
    doudizhu = Game.objects.create(
        slug="doudizhu",
        name_zh="斗地主",
        name_en="Fight the Landlord",
        family="seated",
        min_seats=3,
        max_seats=3,
    )
    tier = RoomTier(game=doudizhu, code="x", name="初级场", base_stake=1, options={"variant": "tournament"})
    with pytest.raises(
        ValidationError, match="no variant 'tournament'; choose one of: classic, yifa, jiabei"
    ):
        tier.full_clean()
    tier.options = {"variant": "yifa"}
    tier.full_clean()


def test_clean_refuses_an_option_the_engine_does_not_know(registry, game):
    registry["fakecards"] = dataclasses.replace(FAKE_SEATED, default_options={"turn_seconds": 20, "cap": 30})
    tier = RoomTier(game=game, code="typo", name="初级场", base_stake=1, options={"turn_secs": 10})
    with pytest.raises(
        ValidationError, match="Test Cards has no option turn_secs; it knows: cap, turn_seconds."
    ):
        tier.full_clean()
    tier.options = {"turn_seconds": 10}
    tier.full_clean()


def test_clean_refuses_an_option_value_the_engine_refuses(db):
    """A 斗地主 tier with a bad all-pass rule or redeal limit would fail every deal: refuse it on save."""
    from rooms.services import game_facts

    doudizhu, _ = Game.objects.get_or_create(slug="doudizhu", defaults=game_facts(games.REGISTRY["doudizhu"]))
    tier = RoomTier(game=doudizhu, code="x", name="初级场", base_stake=1, options={"all_pass": "landlord"})
    with pytest.raises(
        ValidationError, match="cannot use these options: unknown 斗地主 all_pass rule 'landlord'"
    ):
        tier.full_clean()
    tier.options = {"redeal_limit": -1}
    with pytest.raises(ValidationError, match="redeal_limit must be a whole number"):
        tier.full_clean()
    tier.options = {"variant": "jiabei", "all_pass": "first_bidder", "redeal_limit": 2}
    tier.full_clean()


def test_database_refuses_a_table_cap_rule_without_a_cap(game):
    with pytest.raises(IntegrityError):
        RoomTier.objects.create(game=game, code="nocap", name="无顶", base_stake=1, minimum_rule="table_cap")
