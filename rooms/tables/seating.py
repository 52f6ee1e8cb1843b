"""Seating: quick start, bots filling seats, ready and regrouping (分组), leaving.

A user holds at most one seat (a partial unique constraint). Quick start
prefers a waiting table of the tier where humans already wait; bots (when
the tier allows them) fill the rest, at once or after ``TABLE_BOT_WAIT``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from rooms.errors import EntryRefused
from rooms.models import Game, RoomTier
from rooms.tables import hands
from rooms.tables.bots import bot_acquire
from rooms.tables.broadcast import table_changed
from rooms.tables.core import lock_seats, lock_table, setting
from rooms.tables.errors import AlreadySeated, NotNow, NotSeated
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.ready_reads import latest_hand, own_seat_lock, regroup_candidates, seat_ready_save

if TYPE_CHECKING:
    from rooms.tables.deal_statements import StakeReads

# What sitting down or standing up writes: a new occupant starts with no sockets recorded.
SEATING_FIELDS = ["user", "is_bot", "ready", "trustee", "connected", "seated_at", "away_since", "sockets"]


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
    seat.away_since = None
    seat.sockets = []
    seat.save(update_fields=SEATING_FIELDS)


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
    seat.seated_at = seat.away_since = None
    seat.sockets = []
    seat.save(update_fields=SEATING_FIELDS)


def table_quick_start(*, tier_id: int, user) -> Table:
    """Seat ``user`` at a table of the tier that needs players (or a new one) and return it.

    Raises ``EntryRefused`` when the wallet does not meet the tier's rule and
    ``AlreadySeated`` when the user already sits somewhere (one table at a time).
    """
    from platform.staff.audit import audit_staff_only

    from rooms.services import tier_entry_check

    # A player's join, never a staff change: no audit read per saved seat (the trail is the same).
    with transaction.atomic(durable=True), audit_staff_only():
        # The tier's row lock serialises quick starts of one tier, so two players arriving
        # together join one table instead of each opening a new one. NO KEY UPDATE: a full
        # FOR UPDATE also blocks the key-share lock that every row referencing the tier
        # takes, so a table service holding its table (which this waits for below) and
        # inserting such a row deadlocked with it (seen once sockets ran in parallel).
        tier = (
            RoomTier.objects.select_for_update(of=("self",), no_key=True)
            .select_related("game")
            .get(pk=tier_id)
        )
        if tier.game.family == Game.Family.BANKER:
            # A house-banked game (百家乐) has no seats or hands: its rounds run in rooms.rounds.
            raise EntryRefused(
                _("%(game)s has no seats; enter its betting table instead.") % {"game": tier.game.name},
                code="banker_game",
            )
        current = Seat.objects.filter(user=user).first()
        if current is not None:
            raise AlreadySeated(current.table_id)
        tier_entry_check(tier=tier, user=user)
        candidates = list(
            Table.objects.select_for_update(of=("self",))
            .select_related("tier__game")
            .filter(tier=tier, status=Table.Status.WAITING)
            .order_by("pk")
        )
        # Fill the table nearest to starting: the most humans already waiting (people play
        # people, and a table starts as soon as it can), then the oldest.
        humans = dict(
            Seat.objects.filter(table__in=candidates, user__isnull=False, is_bot=False)
            .values("table_id")
            .annotate(n=Count("id"))
            .values_list("table_id", "n")
        )
        with_room = set(
            Seat.objects.filter(table__in=candidates, user__isnull=True).values_list("table_id", flat=True)
        )
        pool = sorted(
            (t for t in candidates if t.pk in with_room), key=lambda t: (-humans.get(t.pk, 0), t.pk)
        )
        table = pool[0] if pool else _table_create(tier)
        seats = lock_seats(table)
        seat = _free_seat(table, seats)
        if seat is None:  # every waiting table was full of humans: open a new one
            table = _table_create(tier)
            seats = lock_seats(table)
            seat = seats[0]
        _seat_user(table, seat, user, is_bot=False)
        _changed_between_hands(table, *_after_seating(table, seats), bumped=False)
    return table


def _after_seating(
    table: Table, seats: list[Seat]
) -> tuple[list[Seat], Hand | None, tuple[dict, dict] | None]:
    """Fill with bots when no wait is configured, then start a hand if every seat is ready (``_start_if_ready``).

    ``seats``: the table's locked, current seats.
    """
    if table.tier.bots_enabled and setting("TABLE_BOT_WAIT", 3.0) <= 0:
        _fill_bots(table, seats)
    return _start_if_ready(table, seats)


def _fill_bots(table: Table, seats: list[Seat]) -> int:
    """Seat a bot in each empty one of the table's locked ``seats`` (updated in place)."""
    taken = {seat.user_id for seat in seats if seat.user_id}
    filled = 0
    for seat in seats:
        if seat.user_id is None:
            bot = bot_acquire(tier=table.tier, exclude=taken)
            taken.add(bot.pk)
            _seat_user(table, seat, bot, is_bot=True)
            filled += 1
    return filled


def _start_with(table: Table, seats: list[Seat]) -> tuple[Hand | None, tuple[dict, dict] | None]:
    """Deal a hand at the waiting ``table`` if every one of its locked ``seats`` is ready (and not only bots).

    Returns the hand dealt, if any, and then the seated users' balances (after
    the stake) and wins, as ``broadcast.balances_and_wins`` would read them.
    """
    if not all(seat.user_id and seat.ready for seat in seats):
        return None, None
    if not any(not seat.is_bot for seat in seats):
        return None, None  # never play bots against bots alone
    reads = _unready_below_minimum(table, seats)
    if reads is None:
        return None, None
    hand = hands.hand_start(table=table, seats=seats, reads=reads, schedule=True)
    if hand is None:
        return None, None
    balances = {user_id: wallet.balance for user_id, wallet in reads.wallets.items()}
    return hand, (balances, reads.wins)


def _unready_below_minimum(table: Table, seats: list[Seat]) -> StakeReads | None:
    """Mark not ready every human whose wallet fell below the tier's minimum; return None if any did,
    else what the stake needs: every seated user's wallet (locked, current), their wins and the
    escrow account.

    The minimum is checked at quick start and at ``ready``, but coins can leave
    the wallet while the seat waits for the others (a 百家乐 bet from another
    tab): without this a player could sit down with the minimum and carry
    almost nothing into the hand, risking nothing against the others. The
    wallets are locked (in primary-key order, as the ledger locks them) so no
    bet can take coins between this check and the stake. Pressing ready again
    tells the player the rule (``entry_refused``).
    """
    from rooms.tables.deal_statements import stake_lock

    reads = stake_lock(table, [seat.user_id for seat in seats])
    minimum = table.tier.minimum_coins
    refused = [
        seat
        for seat in seats
        if not seat.is_bot
        and (reads.wallets[seat.user_id].balance if seat.user_id in reads.wallets else 0) < minimum
    ]
    for seat in refused:
        seat.ready = False
        seat.save(update_fields=["ready"])
    return None if refused else reads


def table_fill_bots(*, table_id: int) -> int:
    """Seat bots in every empty seat of a waiting table (staff action, or after the wait)."""
    from platform.staff.audit import audit_staff_only

    # In a staff member's admin request the seats' changes are still audited (audit_staff_only).
    with transaction.atomic(durable=True), audit_staff_only():
        table = lock_table(table_id)
        if table.status != Table.Status.WAITING:
            return 0
        seats = lock_seats(table)
        filled = _fill_bots(table, seats)
        _changed_between_hands(table, *_start_if_ready(table, seats), bumped=False)
    return filled


def table_ready(*, table_id: int, user) -> Table:
    """Mark the player ready for the next hand, regrouping them within the tier (分组).

    Regrouping: the player goes back to the tier's pool and is seated, in a
    random order drawn with ``secrets``, at one of the tier's waiting tables
    that has another ready human and a free (empty or bot) seat, or stays here.
    Returns the table the player now sits at.
    """
    from platform.staff.audit import audit_staff_only

    from rooms.services import tier_entry_check

    # A player's press, never a staff change: no audit read per saved seat (the trail is the same).
    with transaction.atomic(durable=True), audit_staff_only():
        # Every outcome ends in this table's broadcast, or raises and rolls the bump back.
        table = lock_table(table_id, bump=True)
        seat, balance = own_seat_lock(table, user)
        if seat is None:
            raise NotSeated()
        if table.status != Table.Status.WAITING:
            raise NotNow()
        tier_entry_check(tier=table.tier, user=user, balance=balance)
        choices = [table, *regroup_candidates(table)]
        target = secrets.choice(choices)
        if target.pk == table.pk:
            seat.ready = True
            seat.seated_at = timezone.now()
            seat_ready_save(seat)
            _changed_between_hands(table, *_start_if_ready(table))
            return table
        _seat_clear(seat)
        _changed_between_hands(table, _release_bots_if_alone(table), None)
        target_seats = lock_seats(target)
        _seat_user(target, _free_seat(target, target_seats), user, is_bot=False)
        _changed_between_hands(target, *_start_if_ready(target, target_seats), bumped=False)
        return target


def _start_if_ready(
    table: Table, seats: list[Seat] | None = None
) -> tuple[list[Seat], Hand | None, tuple[dict, dict] | None]:
    """``_maybe_start``, returning the table's locked seats, the hand it dealt, if any, and ``_start_with``'s counts.

    ``seats``: the table's seats, already locked and current (no second locking read).
    """
    if seats is None:
        seats = lock_seats(table)
    if table.status != Table.Status.WAITING:
        return seats, None, None
    return seats, *_start_with(table, seats)


def _changed_between_hands(
    table: Table,
    seats: list[Seat],
    hand: Hand | None,
    counts: tuple[dict, dict] | None = None,
    *,
    bumped: bool = True,
) -> None:
    """``table_changed`` from the locked, current ``seats`` and the hand just dealt (``bumped``: by ``lock_table``).

    Without a new hand the broadcast shows the table's latest hand as
    ``load_context`` does: open (it never is at a table between hands), or
    over and shown as the last one. ``counts``: the deal's balances and wins.
    """
    last_hand = None
    if hand is None:
        latest = latest_hand(table)
        if latest is not None and latest.status in (Hand.Status.PLAYING, Hand.Status.FINISHED):
            hand = latest
        else:
            last_hand = latest
    table_changed(table, locked=(seats, hand), last_hand=last_hand, bumped=bumped, counts=counts)
    if counts is not None and hand is not None:
        from rooms.tables.owner import play_keep_on_commit

        play_keep_on_commit(table, seats, hand, counts)  # the hand's first move is made on it, as later ones


def _release_bots_if_alone(table: Table) -> list[Seat]:
    """With no human left at a waiting table, bots stand up and the table closes. Return its locked seats."""
    seats = lock_seats(table)
    if any(seat.user_id and not seat.is_bot for seat in seats):
        return seats
    for seat in seats:
        if seat.user_id:
            _seat_clear(seat)
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status", "updated_at"])
    return seats


def table_leave(*, table_id: int, user) -> None:
    """Stand up from the table (between hands only)."""
    from platform.staff.audit import audit_staff_only

    # A player's (or the away sweep's) change, never a staff one: no audit read per saved seat.
    with transaction.atomic(durable=True), audit_staff_only():
        # Every outcome ends in this table's broadcast, or raises and rolls the bump back.
        table = lock_table(table_id, bump=True)
        seat, _balance = own_seat_lock(table, user)
        if seat is None:
            raise NotSeated()
        if table.status == Table.Status.PLAYING:
            raise NotNow()
        _seat_clear(seat)
        _changed_between_hands(table, _release_bots_if_alone(table), None)
