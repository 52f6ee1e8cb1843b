"""bench/load.py's rule for when a ``state`` answers a bot's act, on the states the runtime really sends.

A load client keeps one act in flight and measures act → broadcast up to the
first later ``state`` that shows its act applied. Taking another seat's move
for that answer made the client act twice on one turn (必下德州's countdown:
hundreds of refused acts and a bogus latency in a ten-second run).
"""

import random
import sys
import time
from pathlib import Path

import pytest

import games
from rooms.tables.play import read
from rooms.tables import broadcast, services
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.conftest import time_passes
from rooms.tables.tests.helpers import open_hand

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import act_answered, turn_mark  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def seated_table(make_player, slug: str, seats: int, options: dict):
    """Seat ``seats`` connected humans (bots off) at one table of a new tier; return it and them by seat."""
    from rooms.models import Game, RoomTier

    info = games.REGISTRY[slug]
    game, _ = Game.objects.get_or_create(
        slug=slug,
        defaults={
            "name_zh": info.name_zh,
            "name_en": info.name_en,
            "family": "seated",
            "min_seats": info.min_seats,
            "max_seats": info.max_seats,
        },
    )
    tier = RoomTier.objects.create(
        game=game,
        code=f"load-{slug}",
        name="初级场",
        base_stake=1,
        room_factor=1,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=500,
        seats=seats,
        options=options,
        bots_enabled=False,
    )
    for user in [make_player(coins=5000) for _ in range(seats)]:
        table = services.table_quick_start(tier_id=tier.pk, user=user)
        services.table_presence(table_id=table.pk, user=user, connected=True)
    assert open_hand(table) is not None
    return table, {seat.index: seat.user for seat in Seat.objects.filter(table=table)}


def state_of(table, seat: int) -> dict:
    """The full ``state`` the seat's socket gets now (the same builder as every broadcast)."""
    return broadcast.snapshot(read(table.pk), seat_index=seat, balance=None)


def take_turn(table, users, seat: int) -> None:
    """Play the seat's 提示 (the server's hint), as a bot may."""
    hint = state_of(table, seat)["hand"]["hint"]
    services.table_act(table_id=table.pk, user=users[seat], action=hint)


def test_texas_another_seat_betting_in_the_countdown_does_not_answer_my_act(make_player):
    """必下德州's one countdown: I act, another seat's bet lands first; only my own bet's state answers."""
    table, users = seated_table(make_player, "texas", 3, {})
    before = state_of(table, 0)
    assert before["hand"]["actors"] == [0, 1, 2]  # every seat acts at once
    mark = turn_mark(before)  # my act goes out on this state

    take_turn(table, users, 1)
    between = state_of(table, 0)
    assert between["seq"] > before["seq"]
    assert between["hand"]["actors"] == [0, 2]
    assert not act_answered(between, mark, 0), "another seat's bet was taken for my answer"

    take_turn(table, users, 0)
    after = state_of(table, 0)
    assert 0 not in after["hand"]["actors"]
    assert act_answered(after, mark, 0)


def test_texas_the_last_seat_finishing_the_hand_answers_its_act(make_player):
    table, users = seated_table(make_player, "texas", 2, {})
    mark = turn_mark(state_of(table, 1))
    take_turn(table, users, 0)
    assert not act_answered(state_of(table, 1), mark, 1)
    take_turn(table, users, 1)
    after = state_of(table, 1)
    assert after["hand"] is None or after["hand"]["status"] == "finished"
    assert act_answered(after, mark, 1)


def shift_turn(table, seconds: float) -> None:
    """Move the lone actor's turn ``seconds`` earlier, as if they had thought that long."""
    time_passes(open_hand(table), seconds)


def test_zhajinhua_look_keeps_the_turn_and_answers_the_act(make_player):
    """炸金花's 看牌 (look): the same seat acts next, on a fresh turn clock; another seat's coming and going does not answer."""
    table, users = seated_table(make_player, "zhajinhua", 3, {})
    actor = state_of(table, 0)["hand"]["actors"][0]
    other = next(i for i in users if i != actor)
    shift_turn(table, 2)
    before = state_of(table, actor)
    mark = turn_mark(before)

    services.table_presence(table_id=table.pk, user=users[other], connected=False)
    away = state_of(table, actor)
    assert away["seq"] > before["seq"]
    assert not act_answered(away, mark, actor), "another seat going away was taken for my answer"

    services.table_act(table_id=table.pk, user=users[actor], action={"type": "look"})
    after = state_of(table, actor)
    assert after["hand"]["actors"] == [actor]  # looking keeps the turn
    assert act_answered(after, mark, actor)


def test_doudizhu_a_bid_hands_the_turn_on_and_answers_the_act(make_player):
    table, users = seated_table(make_player, "doudizhu", 3, {"variant": "classic"})
    actor = state_of(table, 0)["hand"]["actors"][0]
    other = next(i for i in users if i != actor)
    before = state_of(table, actor)
    mark = turn_mark(before)

    services.table_presence(table_id=table.pk, user=users[other], connected=False)
    away = state_of(table, actor)
    assert away["seq"] > before["seq"]
    assert not act_answered(away, mark, actor)

    services.table_act(table_id=table.pk, user=users[actor], action={"type": "bid", "points": 1})
    after = state_of(table, actor)
    assert actor not in after["hand"]["actors"]
    assert act_answered(after, mark, actor)


def test_doudizhu_bidding_three_then_leading_answers_the_bid(make_player):
    """叫3分 ends the bidding and the bidder, now landlord, leads at once: still the actor, on a new turn clock."""
    table, users = seated_table(make_player, "doudizhu", 3, {"variant": "classic"})
    actor = state_of(table, 0)["hand"]["actors"][0]
    shift_turn(table, 2)
    mark = turn_mark(state_of(table, actor))

    services.table_act(table_id=table.pk, user=users[actor], action={"type": "bid", "points": 3})
    after = state_of(table, actor)
    assert after["hand"]["view"]["phase"] == "playing"
    assert after["hand"]["actors"] == [actor]
    assert act_answered(after, mark, actor)


class _Wire:
    """A socket that records when each message left."""

    def __init__(self) -> None:
        self.sent: list[float] = []

    async def send(self, text: str) -> None:
        self.sent.append(time.monotonic())


def _refused_by_the_socket(sent: list[float]) -> int:
    """How many of these messages the table socket's token bucket would refuse (as ``_take_token``)."""
    from rooms.sockets import RATE_PER_SECOND

    tokens, last, refused = float(RATE_PER_SECOND), sent[0], 0
    for at in sent:
        tokens = min(float(RATE_PER_SECOND), tokens + (at - last) * RATE_PER_SECOND)
        last = at
        if tokens < 1:
            refused += 1
        else:
            tokens -= 1
    return refused


async def test_a_bot_never_sends_faster_than_the_socket_takes():
    """A refused message gets no ``ref``: a bot that acted faster than 20 a second waited for good.

    On a quiet host a 斗地主 hand's seats act ~40 times a second each; the table stopped
    after its first hand with two ``rate_limited`` errors (6 clients: 0 actions measured).
    """
    from bench.load import Bot, Stats

    bot = Bot(name="b", game="doudizhu", browser=None, table_id=1, stats=Stats(), rng=random.Random(1))
    bot.ws = wire = _Wire()
    for _ in range(40):
        await bot.send({"type": "ping"})
    assert len(wire.sent) == 40
    assert _refused_by_the_socket(wire.sent) == 0
