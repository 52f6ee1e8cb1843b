"""The runtime's shared steps: the table lock, the open hand, the action log, the next deadline.

Every service locks the table row first (``lock_table``); everything else
here runs under that lock.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rooms.tables import hands
from rooms.tables.broadcast import engine_for, seat_is_auto
from rooms.tables.errors import TableNotFound
from rooms.tables.models import Hand, HandAction, Seat, Table


def setting(name: str, default):
    return getattr(settings, name, default)


def lock_table(table_id: int) -> Table:
    """Lock and return the table row (the one lock that serialises a table)."""
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tier__game").filter(pk=table_id).first()
    )
    if table is None:
        raise TableNotFound()
    return table


def lock_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.select_for_update(of=("self",)).filter(table=table).order_by("index"))


def open_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED])
        .first()
    )


def record_action(hand: Hand, seat: int | None, action: dict, *, auto: bool, state: dict) -> None:
    hand.action_count += 1
    HandAction.objects.create(hand=hand, n=hand.action_count, seat=seat, action=action, auto=auto)
    hand.state = state


def schedule_next(table: Table, hand: Hand, seats: list[Seat]) -> None:
    """Save the hand with its next deadline (and a new token), or finish it if the engine says so."""
    engine = engine_for(hand.game_slug)
    now = timezone.now()
    outcome = engine.outcome(hand.state)
    hand.deadline_token += 1
    if outcome is not None:
        hands.hand_finish(table=table, hand=hand, outcome=outcome)
        return
    actors = engine.actors(hand.state)
    by_index = {seat.index: seat for seat in seats}
    auto = [by_index[i] for i in actors if i in by_index and seat_is_auto(by_index[i])]
    if auto:
        away = all(not s.is_bot and not s.trustee for s in auto)
        delay = setting("TABLE_DISCONNECT_GRACE", 5.0) if away else setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
    else:
        seconds = engine.deadline_seconds(hand.state)
        hand.deadline = now + timedelta(seconds=seconds or 0) if (seconds is not None or not actors) else None
    hand.save(update_fields=["state", "deadline", "deadline_token", "action_count"])
    from rooms.tables.timers import timer_enqueue

    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))
