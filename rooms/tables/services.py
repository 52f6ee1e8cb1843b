"""Writes of the table runtime during a hand: moves, the clock, 托管 and presence; and the tick.

Each is a *step* (``act_step``, ``timeout_step``, ``trustee_step``,
``presence_step``): what the change does to a table's play, decided once,
here. ``play.move`` runs a step from any thread (``table_act`` and the rest
below); a table socket runs the same step from its event loop
(``play.amove``). A player's move, a bot's, 托管's and a timeout's all go
through ``hand_step``. Seating and the deal are in seating.py, settlement in
settlement.py.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.base import IllegalAction
from rooms.errors import illegal_action_text
from rooms.tables import hands
from rooms.tables.bots import bot_choose_action
from rooms.tables.clock import due_seats, ready_by, seat_is_auto, setting
from rooms.tables.errors import ActionRefused, NoHand, NotSeated, NotYourTurn, TableError
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.play import Play, Step, changing, forget_all, hand_step, move, reschedule
from rooms.tables.seating import table_fill_bots, table_leave, table_quick_start, table_ready
from rooms.tables.settlement import hand_settle, settle_hand

logger = logging.getLogger(__name__)

# The runtime's public services in one place (seating lives in seating.py, settling in settlement.py).
__all__ = [
    "hand_cancel",
    "hand_settle",
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


class Unchanged(Exception):
    """A step that finds nothing to change (a timer no longer due, a socket of no seated player)."""


class CannotContinue(Exception):
    """The engine failed on the server's own move: the hand is cancelled and every stake refunded."""


# --- the steps ------------------------------------------------------------------------------


def act_step(user_id: int, action: dict) -> Step:
    """A player's action: on the seat's turn, or one the engine lets it take out of turn (looking at its cards, say).

    Acting while under 托管 (or marked away) takes back control.
    """

    def step(play: Play) -> None:
        seat = play.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        hand = play.hand
        if hand is None or hand.status != Hand.Status.PLAYING:
            raise NoHand()
        engine = play.engine
        if seat.index not in engine.actors(hand.state) and action not in engine.out_of_turn_actions(
            hand.state, seat.index
        ):
            raise NotYourTurn()
        try:
            hand_step(play, seat.index, action, auto=False)
        except IllegalAction as exc:
            raise ActionRefused(illegal_action_text(exc)) from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ActionRefused(_("That action is not understood.")) from exc
        if seat.trustee or not seat.connected:
            seat.trustee, seat.connected = False, True
            play.seat_changed(seat, "trustee", "connected")

    return step


def timeout_step(hand_id: int, token: int) -> Step:
    """The hand's deadline, if ``token`` is still current: the server plays for every actor it is due to.

    Bots make their own choice, 托管 and away seats the engine's
    ``auto_action``; a player whose own time ran out is put under 托管. With no
    actor, the engine's ``on_deadline`` moves the hand on.
    """

    def step(play: Play) -> None:
        hand, now = play.hand, timezone.now()
        if (
            hand is None
            or hand.pk != hand_id
            or hand.status != Hand.Status.PLAYING
            or hand.deadline_token != token
            or hand.deadline is None
            or hand.deadline > now
        ):
            raise Unchanged()
        try:
            _play_due(play, now)
        except Exception as exc:
            raise CannotContinue() from exc

    return step


def _play_due(play: Play, now) -> None:
    hand, engine = play.hand, play.engine
    due = due_seats(hand, play.seats, now)
    if due is None:
        hand_step(play, None, {"type": "deadline"}, auto=True)
        return
    by_index = {seat.index: seat for seat in play.seats}
    for index in due:
        if index not in engine.actors(hand.state):
            continue
        seat = by_index[index]
        if not seat_is_auto(seat):
            seat.trustee = True  # 托管 until they take control back
            play.seat_changed(seat, "trustee")
        if seat.is_bot:
            action = bot_choose_action(engine, hand.state, index)
        else:
            action = engine.auto_action(hand.state, index)
        hand_step(play, index, action, auto=True)


def _acting(play: Play, seat: Seat) -> bool:
    """Whether ``seat`` may act now, so that its presence or 托管 moves the hand's deadline.

    Another seat coming, going or switching 托管 leaves the actor's clock alone,
    or each reconnect would restart it.
    """
    hand = play.hand
    return (
        hand is not None
        and hand.status == Hand.Status.PLAYING
        and seat.index in play.engine.actors(hand.state)
    )


def trustee_step(user_id: int, on: bool) -> Step:
    """Put the player's seat under 托管 (``on``) or give them back control."""

    def step(play: Play) -> None:
        seat = play.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        seat.trustee, seat.connected = on, True
        play.seat_changed(seat, "trustee", "connected")
        if _acting(play, seat):
            reschedule(play)

    return step


def presence_lease() -> timedelta:
    """How long a socket's presence lasts unless it renews it (its process died with it)."""
    return timedelta(seconds=setting("TABLE_PRESENCE_LEASE", 90.0))


def presence_step(user_id: int, connected: bool, channel: str | None) -> Step:
    """A seated player's socket connected or went away (raises ``Unchanged`` for a spectator).

    ``channel`` names the socket: the seat keeps the names of its player's open
    sockets and goes away only when the last one closes (a second tab, or a
    reload whose new socket opened before the old one closed, keeps the player
    there). Without ``channel`` it speaks for all the player's sockets (the
    presence sweep, tools).
    """

    def step(play: Play) -> None:
        seat = play.seat_of(user_id)
        if seat is None:
            raise Unchanged()
        sockets = [] if channel is None else list(seat.sockets or [])
        if connected and channel is not None and channel not in sockets:
            sockets.append(channel)
        elif not connected and channel in sockets:
            sockets.remove(channel)
        now = timezone.now()
        fields = ["sockets", "connected", "away_since"]
        is_there = connected or bool(sockets)  # another socket of the player's is still open
        if connected:
            seat.present_until = now + presence_lease()
            fields.append("present_until")
        if seat.connected != is_there:
            seat.away_since = None if is_there else now
            seat.connected = is_there
            if _acting(play, seat):
                reschedule(play)
        seat.sockets = sockets
        play.seat_changed(seat, *fields)

    return step


# --- the same steps from any thread -----------------------------------------------------------


def table_act(*, table_id: int, user, action: dict) -> int:
    """Apply one player's action to the table's hand; return the new event sequence number.

    Refusals (``NotSeated``, ``NoHand``, ``NotYourTurn``, ``ActionRefused``) change nothing.
    """
    return move(table_id, act_step(user.pk, action)).table.seq


def table_timeout(*, hand_id: int, token: int) -> bool:
    """Fire the hand's deadline if ``token`` is still current; return whether anything happened."""
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    try:
        move(table_id, timeout_step(hand_id, token))
    except Unchanged:
        return False
    except CannotContinue:
        logger.exception("hand %s cannot continue; cancelling it", hand_id)
        hand_cancel(hand_id=hand_id, reason=_("The game could not continue."))
    return True


def table_trustee(*, table_id: int, user, on: bool) -> None:
    move(table_id, trustee_step(user.pk, on))


def table_presence(*, table_id: int, user, connected: bool, channel: str | None = None) -> bool:
    """Record a seated player's socket connecting or going away; return whether they are seated."""
    try:
        move(table_id, presence_step(user.pk, connected, channel))
    except Unchanged:
        return False
    return True


def tables_resume() -> int:
    """The table clock runs again after a time it did not run (its process started, or stalled).

    Nobody's page could reach a server meanwhile, so that time counts as no player's absence:
    each present seat's presence lease starts anew (a page has a lease's time to reconnect, as
    after any process's death), and an away player's absence counts from now. Return the seats.
    """
    now = timezone.now()
    humans = Seat.objects.filter(is_bot=False, user__isnull=False)
    seats = humans.filter(connected=True).update(present_until=now + presence_lease())
    seats += humans.filter(connected=False, away_since__isnull=False).update(away_since=now)
    forget_all()  # the plays this process kept hold the old times
    return seats


def presence_renew(*, table_id: int, user) -> None:
    """A socket of the seated player is still open: renew the seat's presence lease (nothing shown changes)."""
    Seat.objects.filter(table_id=table_id, user=user, connected=True).update(
        present_until=timezone.now() + presence_lease()
    )


def hand_cancel(*, hand_id: int, reason: str) -> bool:
    """Cancel a hand the runtime cannot continue (staff, tools); False if it was already over."""
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    try:
        with changing(table_id) as play:
            if play.hand is None or play.hand.pk != hand_id:
                raise Unchanged()
            hands.cancel(play, reason)
    except Unchanged:
        return False
    return True


# --- the tick -------------------------------------------------------------------------------


def tables_tick() -> int:
    """Fire overdue deadlines; then fill waiting tables with bots, stand up long-gone or idle players,
    drop lapsed presence and re-queue lost settlements. Return how many things it did.

    Celery beat calls it every second (``tables.tick``), and the embedded timer
    loop; a killed worker only delays this work, because the next tick finds the
    same overdue rows.
    """
    now = timezone.now()
    done = 0
    for _table_id, hand_id, token in due_hands():
        try:
            done += table_timeout(hand_id=hand_id, token=token)
        except TableError:
            continue
    done += _fill_waiting(now) + _stand_up_gone(now) + _stand_up_unready(now)
    return done + _presence_sweep(now) + _requeue_lost(now)


def due_hands(table_ids: list[int] | None = None) -> list[tuple[int, int, int]]:
    """The playing hands whose deadline has passed, earliest first: (table, hand, deadline token)."""
    due = Hand.objects.filter(status=Hand.Status.PLAYING, deadline__lte=timezone.now())
    if table_ids is not None:
        due = due.filter(table_id__in=table_ids)
    return list(due.order_by("deadline").values_list("table_id", "pk", "deadline_token")[:200])


def _fill_waiting(now) -> int:
    """Bots sit down at waiting tables where a ready human has waited ``TABLE_BOT_WAIT`` seconds."""
    waiting = (
        Table.objects.filter(
            status=Table.Status.WAITING,
            tier__bots_enabled=True,
            seats__is_bot=False,
            seats__user__isnull=False,
            seats__ready=True,
            seats__seated_at__lte=now - timedelta(seconds=setting("TABLE_BOT_WAIT", 3.0)),
        )
        .filter(seats__user__isnull=True)
        .values_list("pk", flat=True)
        .distinct()
    )
    return sum(bool(table_fill_bots(table_id=table_id)) for table_id in list(waiting[:100]))


def _stand_up_gone(now) -> int:
    """Between hands, a player whose page has been gone ``TABLE_AWAY_LEAVE`` seconds stands up."""
    away = Seat.objects.filter(
        table__status=Table.Status.WAITING,
        is_bot=False,
        connected=False,
        away_since__lte=now - timedelta(seconds=setting("TABLE_AWAY_LEAVE", 60.0)),
    ).select_related("user")
    done = 0
    for seat in list(away[:100]):
        try:
            table_leave(table_id=seat.table_id, user=seat.user)
            done += 1
        except TableError:
            continue
    return done


def _stand_up_unready(now) -> int:
    """Between hands, a player who has not pressed ready by ``clock.ready_by`` stands up: one idle
    page does not hold a table, or a carried pot's chain, up for the others."""
    someone_ready = Seat.objects.filter(table=OuterRef("pk"), ready=True, is_bot=False, user__isnull=False)
    someone_not = Seat.objects.filter(table=OuterRef("pk"), ready=False, is_bot=False, user__isnull=False)
    waiting = Table.objects.filter(status=Table.Status.WAITING).filter(
        Exists(someone_ready), Exists(someone_not)
    )
    done = 0
    for table_id in list(waiting.values_list("pk", flat=True)[:100]):
        seats = list(Seat.objects.filter(table_id=table_id).select_related("user"))
        last = (
            Hand.objects.filter(table_id=table_id).order_by("-number").values_list("finished_at", flat=True)
        )
        last_end = last.first()
        for seat in seats:
            due = ready_by(seat, seats, last_end)
            if due is None or due > now:
                continue
            try:
                table_leave(table_id=table_id, user=seat.user)
                done += 1
            except TableError:
                continue
    return done


def _presence_sweep(now) -> int:
    """A seat whose sockets stopped renewing their lease (their process died) goes away."""
    lapsed = Seat.objects.filter(is_bot=False, connected=True, present_until__lt=now).select_related("user")
    done = 0
    for seat in list(lapsed[:100]):
        try:
            table_presence(table_id=seat.table_id, user=seat.user, connected=False)
            done += 1
        except TableError:
            continue
    return done


def _requeue_lost(now) -> int:
    """Queue again the settlement of a hand finished 30 s ago and still not settled (a lost task)."""
    lost = Hand.objects.filter(status=Hand.Status.FINISHED, finished_at__lte=now - timedelta(seconds=30))
    done = 0
    for hand_id in list(lost.values_list("pk", flat=True)[:100]):
        # At most once a minute per hand, so a worker outage does not pile up copies.
        if cache.add(f"tables:settle-requeued:{hand_id}", 1, timeout=60):
            settle_hand.delay(hand_id)
            done += 1
    return done
