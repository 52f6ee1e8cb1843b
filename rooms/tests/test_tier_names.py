"""Room tiers in both languages: the name shown follows the page's language; existing rows got English names."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

import games
from rooms.demo import FAMILY_TIERS
from rooms.models import RoomTier

pytestmark = pytest.mark.django_db


def test_a_tier_is_named_in_the_active_language(make_tier):
    tier = make_tier(name="初级场", name_en="Novice room")
    with translation.override("en"):
        assert tier.display_name == "Novice room"
        assert str(tier).endswith(" Novice room")
    with translation.override("zh-hans"):
        assert tier.display_name == "初级场"
    untranslated = make_tier(name="测试场")  # made by code without one: its Chinese name stands in
    with translation.override("en"):
        assert untranslated.display_name == "测试场"


def test_every_demo_tier_has_both_names():
    specs = [spec for info in games.REGISTRY.values() for spec in info.demo_tiers]
    specs += [spec for family in FAMILY_TIERS.values() for spec in family]
    assert specs
    for spec in specs:
        assert spec["name"] and spec["name_en"] and spec["name_en"].isascii(), spec


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_tiers_their_english_names():
    executor = MigrationExecutor(connection)
    before = [("rooms", "0003_roomtier_separate_linked")]
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        Game, Tier = apps.get_model("rooms", "Game"), apps.get_model("rooms", "RoomTier")
        game = Game.objects.create(
            slug="zhajinhua",
            name_zh="炸金花",
            name_en="Golden Flower",
            family="seated",
            min_seats=2,
            max_seats=5,
        )
        for code, name in (("a", "初级场"), ("b", "经典场"), ("c", "大师场"), ("d", "自定场")):
            Tier.objects.create(game=game, code=code, name=name, base_stake=1)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        names = dict(RoomTier.objects.values_list("name", "name_en"))
        assert names == {
            "初级场": "Novice room",
            "经典场": "Classic room",
            "大师场": "Master room",
            "自定场": "",
        }
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
