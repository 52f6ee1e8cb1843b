"""Shared steps for the runtime tests."""

import asyncio
import time

from asgiref.sync import sync_to_async
from django.utils import timezone

from rooms.tables import services
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.conftest import run_clock


async def lease_lapsed(user, timeout: float = 30) -> None:
    """Wait until ``user``'s seat's presence lease has lapsed (nothing renews it any more)."""

    def lapsed() -> bool:
        return Seat.objects.filter(user=user, present_until__lt=timezone.now()).exists()

    deadline = time.monotonic() + timeout
    while not await sync_to_async(lapsed)():
        assert time.monotonic() < deadline, "the seat's presence lease never lapsed"
        await asyncio.sleep(0.05)


def sit_connected(user, tier):
    """Quick-start ``user`` (bots fill the other seat at once) as if their page were open."""
    table = services.table_quick_start(tier_id=tier.pk, user=user)
    services.table_presence(table_id=table.pk, user=user, connected=True)
    return table


def open_hand(table) -> Hand | None:
    return Hand.objects.filter(table=table, status__in=["playing", "finished"]).first()


def my_seat(user) -> Seat:
    return Seat.objects.get(user=user)


def until_my_turn(table, user) -> Hand | None:
    """Let the bots play until it is ``user``'s turn (or the hand is over); return the open hand."""
    from rooms.tables.clock import engine_for

    run_clock()
    hand = open_hand(table)
    if hand is None or hand.status != "playing":
        return None
    assert my_seat(user).index in engine_for(hand.game_slug).actors(hand.state)
    return hand


def deal_and_play_out(table_id: int, rng) -> Hand | None:
    """Deal at the waiting table (every seat ready) and play the hand out at random, in one change.

    The real path (``changing``, ``hand_start``, ``hand_step``): the hand ends
    ``finished`` with its log, and its settlement is queued after the commit
    (a caller that settles later patches ``settlement.settle_hand.delay``).
    Returns None if a wallet refused the stake.
    """
    from rooms.tables import hands
    from rooms.tables.play import changing, hand_step

    with changing(table_id) as play:
        if hands.hand_start(play, hands.lock_wallets(play.users())) is None:
            return None
        engine, hand = play.engine, play.hand
        while engine.outcome(hand.state) is None:
            actors = engine.actors(hand.state)
            if not actors:
                hand_step(play, None, {"type": "deadline"}, auto=True)
                continue
            seat = rng.choice(actors)
            hand_step(play, seat, rng.choice(engine.legal_actions(hand.state, seat)), auto=True)
    return play.hand


def play_until_over(hand_id: int) -> Hand:
    """Run the clock until the hand is settled or cancelled; return it."""
    for _ in range(100):
        run_clock(max_steps=2000)
        hand = Hand.objects.get(pk=hand_id)
        if hand.status in (Hand.Status.SETTLED, Hand.Status.CANCELLED):
            return hand
    raise AssertionError(f"hand {hand_id} never finished")


def seat_group(table_id: int, index: int) -> str:
    return f"table-{table_id}-seat-{index}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


def per_group(messages: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """Spell out ``table.frames`` messages as what each seat group and the watch group would carry.

    The runtime sends one message per change to the table's group, with every
    viewer's frames already serialised; a socket sends only its own. Tests read
    them per viewer, decoded from the very text each socket sends.
    """
    import json

    out = []
    for group, message in messages:
        if message.get("type") != "table.frames":
            continue  # not a table's change (a user's sockets told to check their session)
        table_id = int(group.rsplit(":", 1)[1])
        for index, user_id, frames in message["seats"]:
            events = [json.loads(text) for text in frames]
            out.append(
                (seat_group(table_id, index), {"type": "table.event", "user": user_id, "events": events})
            )
        events = [json.loads(text) for text in message["watch"]]
        out.append(
            (
                watch_group(table_id),
                {"type": "table.event", "user": None, "seat_users": message["seat_users"], "events": events},
            )
        )
    return out


async def fail_socket(comm, user_id: int) -> None:
    """Make the sockets of ``user_id`` fail (a message nobody handles); read ``comm`` until it ends.

    The frames sent before come first, then the failure, which closes the socket (1011).
    """
    from rooms import transport

    transport.hub().deliver(transport.user_group(user_id), {"type": "no.such.message"})
    while True:
        output = await comm.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            assert output.get("code") == 1011
            return


def inject(channel: str, message: dict) -> None:
    """Hand ``message`` to this process's sockets listening on ``channel``, as a change's broadcast is."""
    from rooms import transport

    transport.hub().deliver(channel, message)
