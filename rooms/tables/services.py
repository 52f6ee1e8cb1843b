"""Writes of the table runtime: seating, actions, timeouts, hands starting and ending.

Every public service runs in one durable transaction that first locks the
table's row (``select_for_update``), so PostgreSQL serialises everything that
happens at one table, whichever ASGI process, worker or timer asked. The last
step of each is ``table_changed``: the event sequence moves on and every viewer
gets its own state after commit.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.base import IllegalAction
from rooms.models import RoomTier
from rooms.tables import hands
from rooms.tables.bots import bot_acquire, bot_choose_action
from rooms.tables.broadcast import engine_for, seat_is_auto, table_changed
from rooms.tables.errors import (
    ActionRefused,
    AlreadySeated,
    NoHand,
    NotNow,
    NotSeated,
    NotYourTurn,
    TableError,
)
from rooms.tables.models import Hand, HandAction, Seat, Table

logger = logging.getLogger(__name__)

# Re-exported: the hand's money moves live in hands.py.
hand_cancel = hands.hand_cancel
hand_settle = hands.hand_settle


def _setting(name: str, default):
    return getattr(settings, name, default)


def lock_table(table_id: int) -> Table:
    """Lock and return the table row (the one lock that serialises a table)."""
    from rooms.tables.errors import TableNotFound

    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tier__game").filter(pk=table_id).first()
    )
    if table is None:
        raise TableNotFound()
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.select_for_update(of=("self",)).filter(table=table).order_by("index"))


def _open_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.select_for_update(of=("self",))
        .filter(table=table, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED])
        .first()
    )


# --- seating ------------------------------------------------------------------


def _table_create(tier: RoomTier) -> Table:
    from games import REGISTRY

    count = tier.seats or REGISTRY[tier.game.slug].max_seats
    table = Table.objects.create(tier=tier, seat_count=count)
    Seat.objects.bulk_create([Seat(table=table, index=i) for i in range(count)])
    return table


def _seat_user(table: Table, seat: Seat, user, *, is_bot: bool) -> None:
    seat.user = user
    seat.is_bot = is_bot
    seat.ready = True
    seat.trustee = False
    seat.connected = is_bot
    seat.seated_at = timezone.now()
    seat.save(update_fields=["user", "is_bot", "ready", "trustee", "connected", "seated_at"])


def _free_seat(table: Table, seats: list[Seat]) -> Seat | None:
    """Return an empty seat, or a bot's seat (a bot stands up for a human), or None."""
    empty = [seat for seat in seats if seat.user_id is None]
    if empty:
        return empty[0]
    bots = [seat for seat in seats if seat.is_bot]
    if bots and table.status == Table.Status.WAITING:
        _seat_clear(bots[-1])
        return bots[-1]
    return None


def _seat_clear(seat: Seat) -> None:
    seat.user = None
    seat.is_bot = seat.ready = seat.trustee = seat.connected = False
    seat.seated_at = None
    seat.save(update_fields=["user", "is_bot", "ready", "trustee", "connected", "seated_at"])


def table_quick_start(*, tier_id: int, user) -> Table:
    """Seat ``user`` at a table of the tier that needs players (or a new one) and return it.

    Raises ``EntryRefused`` when the wallet does not meet the tier's rule and
    ``AlreadySeated`` when the user already sits somewhere (one table at a time).
    """
    from rooms.services import tier_entry_check

    with transaction.atomic(durable=True):
        tier = RoomTier.objects.select_related("game").get(pk=tier_id)
        current = Seat.objects.filter(user=user).first()
        if current is not None:
            raise AlreadySeated(current.table_id)
        tier_entry_check(tier=tier, user=user)
        candidates = list(
            Table.objects.select_for_update(of=("self",))
            .filter(tier=tier, status=Table.Status.WAITING)
            .order_by("pk")
        )
        # Prefer tables where humans already wait, so people play people; then any with room.
        with_humans = [t for t in candidates if t.seats.filter(user__isnull=False, is_bot=False).exists()]
        with_room = [t for t in candidates if t.seats.filter(user__isnull=True).exists()]
        pool = [t for t in with_humans if t in with_room] or with_room
        table = secrets.choice(pool) if pool else _table_create(tier)
        seats = _seats(table)
        seat = _free_seat(table, seats)
        if seat is None:  # every waiting table was full of humans: open a new one
            table = _table_create(tier)
            seats = _seats(table)
            seat = seats[0]
        _seat_user(table, seat, user, is_bot=False)
        _after_seating(table)
        table_changed(table)
    return table


def _after_seating(table: Table) -> None:
    """Fill with bots when no wait is configured, then start a hand if every seat is ready."""
    if table.tier.bots_enabled and _setting("TABLE_BOT_WAIT", 3.0) <= 0:
        _fill_bots(table)
    _maybe_start(table)


def _fill_bots(table: Table) -> int:
    seats = _seats(table)
    taken = {seat.user_id for seat in seats if seat.user_id}
    filled = 0
    for seat in seats:
        if seat.user_id is None:
            bot = bot_acquire(tier=table.tier, exclude=taken)
            taken.add(bot.pk)
            _seat_user(table, seat, bot, is_bot=True)
            filled += 1
    return filled


def _maybe_start(table: Table) -> Hand | None:
    if table.status != Table.Status.WAITING:
        return None
    seats = _seats(table)
    if not all(seat.user_id and seat.ready for seat in seats):
        return None
    if not any(not seat.is_bot for seat in seats):
        return None  # never play bots against bots alone
    hand = hands.hand_start(table=table, seats=seats)
    if hand is not None:
        _schedule(table, hand, seats)
    return hand


def table_fill_bots(*, table_id: int) -> int:
    """Seat bots in every empty seat of a waiting table (staff action, or after the wait)."""
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        if table.status != Table.Status.WAITING:
            return 0
        filled = _fill_bots(table)
        _maybe_start(table)
        table_changed(table)
    return filled


def table_ready(*, table_id: int, user) -> Table:
    """Mark the player ready for the next hand, regrouping them within the tier (分组).

    Regrouping: the player goes back to the tier's pool and is seated, in a
    random order drawn with ``secrets``, at one of the tier's waiting tables
    that has another ready human and a free (empty or bot) seat, or stays here.
    Returns the table the player now sits at.
    """
    from rooms.services import tier_entry_check

    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seat = Seat.objects.select_for_update(of=("self",)).filter(table=table, user=user).first()
        if seat is None:
            raise NotSeated()
        if table.status != Table.Status.WAITING:
            raise NotNow()
        tier_entry_check(tier=table.tier, user=user)
        waiting_ids = set(
            Seat.objects.filter(
                table__tier=table.tier, table__status=Table.Status.WAITING, ready=True, is_bot=False,
                user__isnull=False,
            )
            .exclude(table=table)
            .values_list("table_id", flat=True)
        )
        # skip_locked: another player regrouping at the same moment keeps their table; no deadlock.
        others = list(
            Table.objects.select_for_update(of=("self",), skip_locked=True)
            .filter(pk__in=waiting_ids)
            .order_by("pk")
        )
        choices = [table, *[t for t in others if _has_room(t)]]
        target = secrets.choice(choices)
        if target.pk == table.pk:
            seat.ready = True
            seat.seated_at = timezone.now()
            seat.save(update_fields=["ready", "seated_at"])
            _maybe_start(table)
            table_changed(table)
            return table
        _seat_clear(seat)
        _release_bots_if_alone(table)
        table_changed(table)
        target_seats = _seats(target)
        _seat_user(target, _free_seat(target, target_seats), user, is_bot=False)
        _maybe_start(target)
        table_changed(target)
        return target


def _has_room(table: Table) -> bool:
    return table.seats.filter(user__isnull=True).exists() or table.seats.filter(is_bot=True).exists()


def _release_bots_if_alone(table: Table) -> None:
    """With no human left at a waiting table, bots stand up and the table closes."""
    seats = _seats(table)
    if any(seat.user_id and not seat.is_bot for seat in seats):
        return
    for seat in seats:
        if seat.user_id:
            _seat_clear(seat)
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status", "updated_at"])


def table_leave(*, table_id: int, user) -> None:
    """Stand up from the table (between hands only)."""
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seat = Seat.objects.select_for_update(of=("self",)).filter(table=table, user=user).first()
        if seat is None:
            raise NotSeated()
        if table.status == Table.Status.PLAYING:
            raise NotNow()
        _seat_clear(seat)
        _release_bots_if_alone(table)
        table_changed(table)


def table_trustee(*, table_id: int, user, on: bool) -> None:
    """Put the player's seat under 托管 (``on``) or give them back control."""
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seats = _seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated()
        seat.trustee = on
        seat.connected = True
        seat.save(update_fields=["trustee", "connected"])
        hand = _open_hand(table)
        if hand is not None and hand.status == Hand.Status.PLAYING:
            _schedule(table, hand, seats)
        table_changed(table)


def table_presence(*, table_id: int, user, connected: bool) -> bool:
    """Record that the seated player's socket connected or went away; return whether they are seated."""
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seats = _seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None or seat.connected == connected:
            return seat is not None
        seat.connected = connected
        seat.save(update_fields=["connected"])
        hand = _open_hand(table)
        if hand is not None and hand.status == Hand.Status.PLAYING:
            _schedule(table, hand, seats)
        table_changed(table)
    return True


# --- playing --------------------------------------------------------------------


def _record(hand: Hand, seat: int | None, action: dict, *, auto: bool, state: dict) -> None:
    hand.action_count += 1
    HandAction.objects.create(hand=hand, n=hand.action_count, seat=seat, action=action, auto=auto)
    hand.state = state


def _schedule(table: Table, hand: Hand, seats: list[Seat]) -> None:
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
        delay = _setting("TABLE_DISCONNECT_GRACE", 5.0) if away else _setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
    else:
        seconds = engine.deadline_seconds(hand.state)
        hand.deadline = now + timedelta(seconds=seconds or 0) if (seconds is not None or not actors) else None
    hand.save(update_fields=["state", "deadline", "deadline_token", "action_count"])
    from rooms.tables.timers import timer_enqueue

    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))


def table_act(*, table_id: int, user, action: dict, client_seq: int | None = None) -> int:
    """Apply one player's action to the table's hand; return the new event sequence number.

    Refusals (``NotSeated``, ``NoHand``, ``NotYourTurn``, ``ActionRefused``)
    change nothing. Acting while under 托管 takes back control.
    """
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seats = _seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated()
        hand = _open_hand(table)
        if hand is None or hand.status != Hand.Status.PLAYING:
            raise NoHand()
        engine = engine_for(hand.game_slug)
        if seat.index not in engine.actors(hand.state):
            raise NotYourTurn()
        try:
            state = engine.apply(hand.state, seat.index, action)
        except IllegalAction as exc:
            raise ActionRefused(str(exc)) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ActionRefused(_("That action is not understood.")) from exc
        if seat.trustee or not seat.connected:
            seat.trustee = False
            seat.connected = True
            seat.save(update_fields=["trustee", "connected"])
        _record(hand, seat.index, action, auto=False, state=state)
        _schedule(table, hand, seats)
        return table_changed(table)


def table_timeout(*, hand_id: int, token: int) -> bool:
    """Fire the hand's deadline if ``token`` is still current; return whether anything happened.

    The server plays for every current actor it is due to play for: bots
    (their own choice), 托管 and away seats (``auto_action``), and a player
    whose own turn ran out, who is put under 托管. With no actor, the engine's
    ``on_deadline`` moves the hand on. A stale or early timer does nothing.
    """
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=hand_id)
        now = timezone.now()
        if (
            hand.status != Hand.Status.PLAYING
            or hand.deadline_token != token
            or hand.deadline is None
            or hand.deadline > now
        ):
            return False
        seats = _seats(table)
        engine = engine_for(hand.game_slug)
        try:
            _play_due(engine, hand, seats)
        except Exception:
            logger.exception("hand %s cannot continue; cancelling it", hand.pk)
            hands.cancel_locked(table=table, hand=hand, reason=_("The game could not continue."))
            return True
        _schedule(table, hand, seats)
        table_changed(table)
    return True


def _play_due(engine, hand: Hand, seats: list[Seat]) -> None:
    actors = engine.actors(hand.state)
    if not actors:
        _record(hand, None, {"type": "deadline"}, auto=True, state=engine.on_deadline(hand.state))
        return
    by_index = {seat.index: seat for seat in seats}
    auto = [i for i in actors if seat_is_auto(by_index[i])]
    due = auto or actors  # nobody auto: the humans' own time ran out
    for index in due:
        if index not in engine.actors(hand.state):
            continue
        seat = by_index[index]
        if not seat_is_auto(seat):
            seat.trustee = True  # 托管 until they click to take control back
            seat.save(update_fields=["trustee"])
        if seat.is_bot:
            action = bot_choose_action(engine, hand.state, index)
        else:
            action = engine.auto_action(hand.state, index)
        _record(hand, index, action, auto=True, state=engine.apply(hand.state, index, action))


def tables_tick() -> int:
    """Fire every overdue deadline, fill waiting tables with bots, re-queue lost settlements.

    Called every second by Celery beat (``tables.tick``) and by the in-process
    timer loop; a killed worker only delays this work, because the next tick
    finds the same overdue rows. Returns how many things it did.
    """
    now = timezone.now()
    done = 0
    due = Hand.objects.filter(status=Hand.Status.PLAYING, deadline__lte=now).values_list("pk", "deadline_token")
    for hand_id, token in list(due.order_by("deadline")[:200]):
        try:
            done += table_timeout(hand_id=hand_id, token=token)
        except TableError:
            continue
    wait = timedelta(seconds=_setting("TABLE_BOT_WAIT", 3.0))
    waiting = (
        Table.objects.filter(
            status=Table.Status.WAITING,
            tier__bots_enabled=True,
            seats__user__isnull=False,
            seats__is_bot=False,
            seats__ready=True,
            seats__seated_at__lte=now - wait,
        )
        .filter(seats__user__isnull=True)
        .values_list("pk", flat=True)
        .distinct()
    )
    for table_id in list(waiting[:100]):
        done += bool(table_fill_bots(table_id=table_id))
    lost = Hand.objects.filter(status=Hand.Status.FINISHED, finished_at__lte=now - timedelta(seconds=30))
    for hand_id in list(lost.values_list("pk", flat=True)[:100]):
        from django.core.cache import cache

        from rooms.tables.tasks import settle_hand

        # At most once a minute per hand, so a worker outage does not pile up copies.
        if cache.add(f"tables:settle-requeued:{hand_id}", 1, timeout=60):
            settle_hand.delay(hand_id)
            done += 1
    return done
