"""Writes of the table runtime: seating, actions, timeouts, hands starting and ending.

Every public service runs in one durable transaction that first locks the
table's row (``select_for_update``), so PostgreSQL serialises everything that
happens at one table, whichever ASGI process, worker or timer asked. The last
step of each is ``table_changed``: the event sequence moves on and every viewer
gets its own state after commit.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.base import IllegalAction
from rooms.tables import hands
from rooms.tables.bots import bot_choose_action
from rooms.tables.broadcast import away_past_grace, engine_for, seat_is_auto, table_changed
from rooms.tables.core import (
    countdown_over,
    hand_table_id,
    hand_write_actions,
    lock_play,
    lock_seats,
    lock_table,
    open_hand,
    record_action,
    schedule_next,
    setting,
)
from rooms.tables.errors import ActionRefused, NoHand, NotSeated, NotYourTurn, TableError
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.owner import play_keep_on_commit, table_act_kept
from rooms.tables.ready_reads import latest_hand
from rooms.tables.seating import table_fill_bots, table_leave, table_quick_start, table_ready

logger = logging.getLogger(__name__)

# The public services of the runtime, in one place: seating lives in seating.py,
# a hand's money in hands.py.
__all__ = [
    "hand_cancel",
    "hand_settle",
    "lock_table",
    "table_act",
    "table_fill_bots",
    "table_leave",
    "table_presence",
    "table_quick_start",
    "table_ready",
    "table_timeout",
    "table_trustee",
    "tables_tick",
]
hand_cancel = hands.hand_cancel
hand_settle = hands.hand_settle


def table_trustee(*, table_id: int, user, on: bool) -> None:
    """Put the player's seat under 托管 (``on``) or give them back control."""
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seats = lock_seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated()
        seat.trustee = on
        seat.connected = True
        seat.save(update_fields=["trustee", "connected"])
        hand = open_hand(table)
        if _acting(hand, seat):
            schedule_next(table, hand, seats)
        table_changed(table, locked=(seats, hand), last_hand=latest_hand(table) if hand is None else None)


def _acting(hand: Hand | None, seat: Seat) -> bool:
    """Whether ``seat`` may act now in ``hand``, so that its presence or 托管 sets the turn's deadline.

    Only the acting seats' state moves the deadline (``schedule_next`` plays for an
    away or 托管 actor after a short delay): another seat coming, going or switching
    托管 leaves the actor's clock alone, or each reconnect would restart it.
    """
    if hand is None or hand.status != Hand.Status.PLAYING:
        return False
    return seat.index in engine_for(hand.game_slug).actors(hand.state)


def table_presence(*, table_id: int, user, connected: bool, channel: str | None = None) -> bool:
    """Record that the seated player's socket connected or went away; return whether they are seated.

    ``channel`` names the socket (its channel-layer name, unique across ASGI
    processes). The seat keeps the names of its player's open sockets, and goes
    away only when the last one closes: a player with two tabs, or whose
    reconnected socket opened before the server noticed the old one close, is
    still there when one of them closes, so 托管 does not play for them and
    they are not stood up after the hand. Without ``channel`` a call speaks for
    all the player's sockets (tests, tools).
    """
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        seats = lock_seats(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            return False
        sockets = list(seat.sockets or [])
        if channel is None:
            sockets = []
        elif connected and channel not in sockets:
            sockets.append(channel)
        elif not connected and channel in sockets:
            sockets.remove(channel)
        fields = ["sockets"] if sockets != seat.sockets else []
        seat.sockets = sockets
        if not connected and sockets:
            connected = True  # another socket of the player's is still open
        if seat.connected == connected:
            if fields:
                seat.save(update_fields=fields)
            return True
        seat.connected = connected
        seat.away_since = None if connected else timezone.now()
        seat.save(update_fields=["connected", "away_since", *fields])
        hand = open_hand(table)
        if _acting(hand, seat):
            schedule_next(table, hand, seats)
        table_changed(table, locked=(seats, hand), last_hand=latest_hand(table) if hand is None else None)
    return True


# --- playing --------------------------------------------------------------------


def table_act(*, table_id: int, user, action: dict, client_seq: int | None = None) -> int:
    """Apply one player's action to the table's hand; return the new event sequence number.

    Refusals (``NotSeated``, ``NoHand``, ``NotYourTurn``, ``ActionRefused``)
    change nothing. Acting while under 托管 takes back control.
    """
    seq = table_act_kept(table_id=table_id, user=user, action=action)  # rooms/tables/owner.py
    if seq is not None:
        return seq
    with transaction.atomic(durable=True):
        # Every path below ends in table_changed or raises (rolling the bump back).
        table = lock_table(table_id, bump=True)
        play = lock_play(table)  # the seats, the open hand, and the balances the broadcast shows
        seats, hand = play.seats, play.hand
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated()
        if hand is None or hand.status != Hand.Status.PLAYING:
            raise NoHand()
        engine = engine_for(hand.game_slug)
        if seat.index not in engine.actors(hand.state):
            raise NotYourTurn()
        try:
            state = engine.apply(hand.state, seat.index, action)
        except IllegalAction as exc:
            raise ActionRefused(illegal_action_text(exc)) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ActionRefused(_("That action is not understood.")) from exc
        if seat.trustee or not seat.connected:
            seat.trustee = False
            seat.connected = True
            seat.save(update_fields=["trustee", "connected"])
        record_action(hand, seat.index, action, auto=False, state=state)
        schedule_next(table, hand, seats)
        seq = table_changed(table, locked=(seats, hand), bumped=True, counts=(play.balances, play.wins))
        play_keep_on_commit(table, seats, hand, (play.balances, play.wins))  # for the next move here
        return seq


def illegal_action_text(exc: IllegalAction) -> str:
    """Translate an engine's refusal into the active language, then fill in its values."""
    template = getattr(exc, "template", None)
    if not template:
        return str(exc)
    try:
        return _(template).format(**exc.params)
    except (KeyError, IndexError, ValueError):
        return str(exc)  # a broken translation must not hide the refusal


def table_timeout(*, hand_id: int, token: int) -> bool:
    """Fire the hand's deadline if ``token`` is still current; return whether anything happened.

    The server plays for every current actor it is due to play for: bots
    (their own choice), 托管 and away seats (``auto_action``), and a player
    whose own turn ran out, who is put under 托管. With no actor, the engine's
    ``on_deadline`` moves the hand on. A stale or early timer does nothing.
    """
    table_id = hand_table_id(hand_id)
    if table_id is None:
        return False
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        # The seats, the open hand and the broadcast's balances in one statement, as table_act
        # does: a bot's or 托管's move is as frequent as a player's.
        play = lock_play(table)
        hand, seats = play.hand, play.seats
        now = timezone.now()
        if (
            hand is None
            or hand.pk != hand_id  # that hand is over (the open one, if any, is a later one)
            or hand.status != Hand.Status.PLAYING
            or hand.deadline_token != token
            or hand.deadline is None
            or hand.deadline > now
        ):
            return False
        engine = engine_for(hand.game_slug)
        try:
            _play_due(engine, hand, seats)
        except Exception:
            logger.exception("hand %s cannot continue; cancelling it", hand.pk)
            hand_write_actions(hand)  # the log keeps the moves made before the failure
            hands.cancel_locked(table=table, hand=hand, reason=_("The game could not continue."))
            return True
        schedule_next(table, hand, seats)
        table_changed(table, locked=(seats, hand), counts=(play.balances, play.wins))
    return True


def _due_hands(now, limit: int) -> list[tuple[int, int]]:
    """The playing hands whose deadline is past, earliest first: (id, deadline token).

    A plain index scan of the open hands' index (``hand_open_status``, by status
    alone so that a move's update can be HOT) reads the playing hands, one per
    table at most; their deadlines are filtered and sorted on the rows. The index
    still gets a new entry whenever a hand's status changes (it finishes, is
    settled), and the old one stays, dead, until a vacuum: a hand or two each,
    not one per move as when the index covered the deadline, but without
    autovacuum (as on the bench host) they pile up all the same. A bitmap scan,
    which PostgreSQL may pick on its cost estimates, visits the heap page of
    every dead entry again on every tick; a plain index scan marks the dead
    entries it passes, so that the next tick skips them. The bitmap scan is
    turned off for this one statement, in its own transaction. Same rows, same
    order.
    """
    due = (
        Hand.objects.filter(status=Hand.Status.PLAYING, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "deadline_token")[:limit]
    )
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return list(due)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        return list(due)


def _grace_over(seat: Seat, now) -> bool:
    """Whether the server may play for this auto seat now (an away player after TABLE_DISCONNECT_GRACE)."""
    return seat.is_bot or seat.trustee or away_past_grace(seat, now)


def _play_due(engine, hand: Hand, seats: list[Seat]) -> None:
    actors = engine.actors(hand.state)
    if not actors:
        record_action(hand, None, {"type": "deadline"}, auto=True, state=engine.on_deadline(hand.state))
        return
    by_index = {seat.index: seat for seat in seats}
    now = timezone.now()
    auto = [i for i in actors if seat_is_auto(by_index[i])]
    if not auto or countdown_over(hand.state, now):
        # Nobody is played for, or the actors' own time ran out (a simultaneous countdown's,
        # or a lone actor's turn that ends before their grace would).
        due = actors
    else:
        # Bots and 托管 now; a player whose page is not there yet (or has gone) only once their
        # grace is over: the bots' quick turn in the same countdown must not play for them.
        due = [i for i in auto if _grace_over(by_index[i], now)]
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
        record_action(hand, index, action, auto=True, state=engine.apply(hand.state, index, action))


def tables_tick() -> int:
    """Fire overdue deadlines, fill waiting tables with bots, stand up long-gone players, re-queue lost settlements.

    Called every second by Celery beat (``tables.tick``) and by the in-process
    timer loop; a killed worker only delays this work, because the next tick
    finds the same overdue rows. Returns how many things it did.
    """
    now = timezone.now()
    done = 0
    for hand_id, token in _due_hands(now, 200):
        try:
            done += table_timeout(hand_id=hand_id, token=token)
        except TableError:
            continue
    wait = timedelta(seconds=setting("TABLE_BOT_WAIT", 3.0))
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
    away = Seat.objects.filter(
        table__status=Table.Status.WAITING,
        is_bot=False,
        connected=False,
        away_since__lte=now - timedelta(seconds=setting("TABLE_AWAY_LEAVE", 60.0)),
    ).select_related("user")
    for seat in list(away[:100]):
        try:
            table_leave(table_id=seat.table_id, user=seat.user)
            done += 1
        except TableError:
            continue
    lost = Hand.objects.filter(status=Hand.Status.FINISHED, finished_at__lte=now - timedelta(seconds=30))
    for hand_id in list(lost.values_list("pk", flat=True)[:100]):
        from django.core.cache import cache

        from rooms.tables.tasks import settle_hand

        # At most once a minute per hand, so a worker outage does not pile up copies.
        if cache.add(f"tables:settle-requeued:{hand_id}", 1, timeout=60):
            settle_hand.delay(hand_id)
            done += 1
    from rooms.rounds.services import rounds_tick
    from rooms.tables.presence import presence_sweep

    return done + presence_sweep() + rounds_tick()
