"""Fixtures for the round runtime: 百家乐 tiers on the real engine, players, viewers and a clock driver."""

from contextlib import contextmanager

import pytest
from django.utils import timezone

import games
from rooms.tables.tests.conftest import make_player  # noqa: F401 - a fixture shared with the table tests


@pytest.fixture
def fast_rounds(settings):
    """Run the round clock only when a test ticks it; no phase timing overrides unless a test sets them."""
    settings.TABLE_TIMERS = "off"
    settings.ROUNDS_BET_SECONDS = None
    settings.ROUNDS_REVEAL_MS = None
    settings.ROUNDS_RESULT_SECONDS = None
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()  # the tick's once-a-minute re-queue marks must not leak between tests
    yield
    from rooms.sockets import pool_shutdown

    # RoundConsumer's bets run on the sockets' threads: end them and their database connections,
    # or pytest cannot drop the test database at the end ("being accessed by other users").
    pool_shutdown()


def _baccarat_game():
    from rooms.models import Game

    info = games.REGISTRY["baccarat"]
    game, _ = Game.objects.get_or_create(
        slug="baccarat",
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "banker",
            "min_seats": 1,
            "max_seats": 1,
        },
    )
    return game


def make_tier(*, code="classic", variant="commission", rake_bps=0, fixed_minimum=100, **options):
    from rooms.models import RoomTier

    return RoomTier.objects.create(
        game=_baccarat_game(),
        code=code,
        name="经典场" if variant == "commission" else "免佣场",
        name_en="Classic room" if variant == "commission" else "No-commission room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=fixed_minimum,
        rake_bps=rake_bps,
        options={"variant": variant, **options},
    )


@pytest.fixture
def bacc_tier(db):
    """百家乐 经典场: the commission variant, the engine's default limits, no rake."""
    return make_tier()


@pytest.fixture
def super6_tier(db):
    """百家乐 免佣场: the super6 variant (大/小 and Super6 areas)."""
    return make_tier(code="super6", variant="super6")


@contextmanager
def committing():
    """Run the on-commit work (broadcasts, the queued payout) of what the block does.

    In a test wrapped in one transaction (``django_db`` without
    ``transaction=True``) nothing ever commits, so on-commit callbacks are
    captured here and run when the block ends, as a real commit would.
    """
    from django.db import connection
    from django.test import TestCase

    if connection.in_atomic_block:
        with TestCase.captureOnCommitCallbacks(execute=True):
            yield
    else:
        yield


def tick() -> int:
    """One tick of the round clock (as Celery beat or the in-process loop would)."""
    from rooms.rounds.services import rounds_tick

    with committing():
        return rounds_tick()


def advance(table_id: int) -> bool:
    from rooms.rounds.services import round_advance

    with committing():
        return round_advance(table_id=table_id)


def watch(table, user, channel: str | None = None) -> str:
    """Mark ``user`` as watching ``table`` (as an open socket would), so rounds open there."""
    from rooms.rounds.services import round_presence

    channel = channel or f"test-channel-{table.pk}-{user.pk}"
    round_presence(table_id=table.pk, user=user, channel=channel, connected=True)
    return channel


def live_round(table):
    from rooms.rounds.models import Round

    return Round.objects.filter(table=table, phase__in=Round.LIVE_PHASES).select_related("shoe").first()


def open_round(tier, user):
    """Enter ``tier`` as ``user``, watch its table and tick once: the table's first round is betting."""
    from rooms.rounds.services import round_enter

    table = round_enter(tier_id=tier.pk, user=user)
    watch(table, user)
    tick()
    rnd = live_round(table)
    assert rnd is not None and rnd.phase == "betting"
    return table, rnd


def expire(rnd) -> None:
    """Move the round's deadline into the past, as if its time ran out."""
    from rooms.rounds.models import Round

    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))


def run_to(rnd, phase: str, max_steps: int = 50):
    """Expire and tick the round until it reaches ``phase`` (``dealing``, ``result`` or ``over``)."""
    for _ in range(max_steps):
        rnd.refresh_from_db()
        if rnd.phase == phase:
            return rnd
        expire(rnd)
        advance(rnd.table_id)
    raise AssertionError(f"round {rnd.pk} never reached {phase}; it is {rnd.phase}")


def stack_shoe(rnd, cards: list[str]) -> None:
    """Put ``cards`` next in the round's shoe (before it is dealt), so the test knows the coup."""
    from rooms.rounds.models import Shoe

    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    position = shoe.state["position"]
    deck = list(shoe.state["cards"])
    deck[position : position + len(cards)] = cards
    shoe.state = {**shoe.state, "cards": deck}
    shoe.save(update_fields=["state"])


# Coups by their first cards (P, B, P, B, then thirds), for stack_shoe.
PLAYER_NATURAL_9 = ["9s", "7h", "Ks", "Kd"]  # player 9, banker 7: player wins, no pairs
BANKER_NATURAL_9 = ["7s", "9h", "Kc", "Qd"]  # player 7, banker 9: banker wins, no pairs
TIE_8 = ["8s", "8h", "Ks", "Qd"]  # 8 each: tie, 4 cards
# Player 4 draws Kh (stays 4); banker 6 stands on a player third of 0: banker wins with 6, 5 cards.
BANKER_WINS_6 = ["Ks", "6h", "4c", "Qd", "Kh"]
PLAYER_PAIR_8 = ["4s", "2c", "4h", "3d"]  # player 4 4 = natural 8, banker 5: player wins with a pair
