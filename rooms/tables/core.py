"""The runtime's shared steps: the table lock, the open hand, the action log, the next deadline.

Every service locks the table row first (``lock_table``); everything else
here runs under that lock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

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
    """Lock and return the table's seats in index order, with their users (the snapshot shows their names)."""
    return list(
        Seat.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(table=table)
        .order_by("index")
    )


def open_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED])
        .first()
    )


def record_action(hand: Hand, seat: int | None, action: dict, *, auto: bool, state: dict) -> None:
    hand.action_count += 1
    HandAction.objects.create(hand=hand, n=hand.action_count, seat=seat, action=action, auto=auto)
    countdown = hand.state.get(COUNTDOWN_KEY)
    if countdown is not None and COUNTDOWN_KEY not in state:
        state = {**state, COUNTDOWN_KEY: countdown}  # the runtime's, whatever the engine copied
    hand.state = state


# The runtime's record of a simultaneous countdown (several seats acting at once),
# kept in the hand's state under a private key (never in a view): the phase, the
# seats still to act and the round's deadline in epoch milliseconds.
COUNTDOWN_KEY = "_countdown"


def countdown_deadline(state: dict) -> datetime | None:
    """Return the deadline of the simultaneous countdown in progress, or None."""
    countdown = state.get(COUNTDOWN_KEY)
    if not countdown:
        return None
    return datetime.fromtimestamp(countdown["deadline"] / 1000, tz=timezone.get_current_timezone())


def countdown_over(state: dict, now: datetime) -> bool:
    """Say whether a simultaneous countdown is in progress and its time is up."""
    deadline = countdown_deadline(state)
    return deadline is not None and deadline <= now


def _countdown_update(hand: Hand, actors: list[int], seconds: int | None, now: datetime) -> datetime | None:
    """Keep the round's deadline while the same simultaneous phase goes on; return it (None: no countdown).

    A countdown starts when several seats may act at once. While the phase is
    the same and its actors only shrink (someone acted, a bot or the clock
    played for a seat), the deadline stays where it was, so one seat acting
    never gives the others more (or less) time.
    """
    state = hand.state
    previous = state.get(COUNTDOWN_KEY)
    phase = state.get("phase")
    if previous and actors and previous.get("phase") == phase and set(actors) <= set(previous["actors"]):
        deadline_ms = previous["deadline"]
    elif len(actors) > 1 and seconds is not None:
        deadline_ms = int((now + timedelta(seconds=seconds)).timestamp() * 1000)
    else:
        if previous is not None:
            hand.state = {k: v for k, v in state.items() if k != COUNTDOWN_KEY}
        return None
    hand.state = {**state, COUNTDOWN_KEY: {"phase": phase, "actors": sorted(actors), "deadline": deadline_ms}}
    return countdown_deadline(hand.state)


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
    seconds = engine.deadline_seconds(hand.state)
    round_deadline = _countdown_update(hand, actors, seconds, now)
    by_index = {seat.index: seat for seat in seats}
    auto = [by_index[i] for i in actors if i in by_index and seat_is_auto(by_index[i])]
    if auto:
        away = all(not s.is_bot and not s.trustee for s in auto)
        delay = setting("TABLE_DISCONNECT_GRACE", 5.0) if away else setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
        if round_deadline is not None:
            hand.deadline = min(hand.deadline, round_deadline)
    elif round_deadline is not None:
        hand.deadline = round_deadline
    else:
        hand.deadline = now + timedelta(seconds=seconds or 0) if (seconds is not None or not actors) else None
    hand.save(update_fields=["state", "deadline", "deadline_token", "action_count"])
    from rooms.tables.timers import timer_enqueue

    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))
