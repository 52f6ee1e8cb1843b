"""A house-banked game (百家乐) is never seated by quick start: its rounds run in rooms.rounds."""

import pytest
from django.urls import reverse

import games
from rooms.errors import EntryRefused
from rooms.tables.models import Seat, Table


@pytest.fixture
def baccarat_tier(db):
    from rooms.models import Game, RoomTier

    info = games.REGISTRY["baccarat"]
    game, _ = Game.objects.get_or_create(
        slug="baccarat",
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": info.family,
            "min_seats": info.min_seats,
            "max_seats": info.max_seats,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="bacc-low",
        name="初级场",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=0,
    )


def test_quick_start_refuses_a_banker_game_and_seats_nobody(fast_tables, baccarat_tier, make_player):
    from rooms.tables.services import table_quick_start

    player = make_player(coins=5000)
    with pytest.raises(EntryRefused, match="Baccarat has no seats; enter its betting table instead.") as exc:
        table_quick_start(tier_id=baccarat_tier.pk, user=player)
    assert exc.value.code == "banker_game"
    assert not Table.objects.filter(tier=baccarat_tier).exists()
    assert not Seat.objects.filter(user=player).exists()


def test_the_quick_start_page_sends_the_player_back_with_the_reason(
    fast_tables, baccarat_tier, make_player, client
):
    player = make_player(coins=5000)
    client.force_login(player)
    response = client.post(reverse("tables:quick_start", args=[baccarat_tier.pk]), follow=True)
    assert "has no seats; enter its betting table instead." in response.content.decode()
    assert not Seat.objects.filter(user=player).exists()
