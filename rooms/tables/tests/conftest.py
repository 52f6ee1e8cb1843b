"""Fixtures for the table runtime: a fake 2-seat game, its tier, players, and a clock driver."""

import itertools

import pytest
from django.utils import timezone

import games
from rooms.tables.tests.fake_game import GAME, SLUG

_names = itertools.count(1)


@pytest.fixture
def fast_tables(settings):
    """Run the table clock only when a test ticks it, with no thinking delays (not autouse: the
    browser tests in this folder want the real in-process timers)."""
    settings.TABLE_AUTO_DELAY = 0
    settings.TABLE_BOT_WAIT = 0
    settings.TABLE_DISCONNECT_GRACE = 0
    settings.TABLE_TIMERS = "off"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()  # the tick's once-a-minute re-queue marks must not leak between tests
    from django.utils import translation

    # Chinese is the site's default; these tests read the English msgids.
    with translation.override("en"):
        yield
    from rooms.sockets import pool_shutdown
    from rooms.tables.store import group_commit_close

    pool_shutdown()
    group_commit_close()  # the sockets' threads end with their database connections


@pytest.fixture
def fake_game():
    games.REGISTRY[SLUG] = GAME
    yield GAME
    games.REGISTRY.pop(SLUG, None)


@pytest.fixture
def tier(db, fake_game):
    from rooms.models import Game, RoomTier

    game = Game.objects.create(
        slug=SLUG, name_zh="抢五", name_en="Race to five", family="seated", min_seats=2, max_seats=2
    )
    return RoomTier.objects.create(
        game=game,
        code="low",
        name="初级场",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        seats=2,
        bots_enabled=True,
    )


@pytest.fixture
def make_player(db):
    from platform.accounts.services import user_create

    def make(coins: int | None = None, name: str | None = None):
        from wallets.services import wallet_adjust

        user = user_create(username=name or f"player{next(_names)}", password="pw-Secret-123")
        if coins is not None:
            from wallets.selectors import wallet_balance

            delta = coins - wallet_balance(user=user)
            if delta:
                wallet_adjust(user=user, amount=delta, key=f"test-adjust:{user.pk}", reason="test setup")
        return user

    return make


def run_clock(max_steps: int = 500) -> int:
    """Fire every due deadline until none is due (the tick, as beat or the loop would)."""
    from rooms.tables.services import tables_tick

    steps = 0
    while steps < max_steps and tables_tick():
        steps += 1
    return steps


def expire(hand) -> None:
    """Move the hand's deadline into the past, as if the player's time ran out.

    Time passing is no change of the table (its ``seq`` stays): this process's
    kept play of it is dropped, so the runtime reads the moved deadline.
    """
    from rooms.tables import play
    from rooms.tables.models import Hand

    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    play.forget(hand.table_id)


def time_passes(hand, seconds: float):
    """Move the hand's deadline and its clock ``seconds`` earlier, as if that much time had passed."""
    from rooms.tables import play
    from rooms.tables.models import Hand

    hand = Hand.objects.get(pk=hand.pk)
    clock = {
        key: {**record, "deadline": record["deadline"] - int(seconds * 1000)}
        for key, record in (hand.clock or {}).items()
    }
    deadline = hand.deadline - timezone.timedelta(seconds=seconds) if hand.deadline else None
    Hand.objects.filter(pk=hand.pk).update(clock=clock, deadline=deadline)
    play.forget(hand.table_id)
    hand.refresh_from_db()
    return hand


@pytest.fixture
def ddz_tier(db):
    """A 斗地主 (doudizhu) room with bots, on the real engine."""
    from rooms.models import Game, RoomTier

    info = games.REGISTRY["doudizhu"]
    game, _ = Game.objects.get_or_create(
        slug="doudizhu",
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "seated",
            "min_seats": 3,
            "max_seats": 3,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="ddz-low",
        name="初级场",
        base_stake=1,
        room_factor=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        options={"variant": "classic"},
        bots_enabled=True,
    )


@pytest.fixture
def human_table(ddz_tier, make_player):
    """A 斗地主 table of three connected humans (no bots), its first hand dealt."""
    from rooms.tables import services
    from rooms.tables.models import Hand

    ddz_tier.bots_enabled = False
    ddz_tier.save(update_fields=["bots_enabled"])
    for user in [make_player(coins=5000) for _ in range(3)]:
        table = services.table_quick_start(tier_id=ddz_tier.pk, user=user)
        services.table_presence(table_id=table.pk, user=user, connected=True)
    hand = Hand.objects.filter(table=table, status="playing").first()
    assert hand is not None
    return table
