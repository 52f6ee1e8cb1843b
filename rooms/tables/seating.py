"""Seating: quick start, bots filling seats, ready and regrouping (分组), leaving; and the deal.

A user holds at most one seat (a partial unique constraint). Every change here
is a change of a table through ``play.changing``, as a move is. When every seat
is taken and ready (and not by bots alone), the hand is dealt in the same change.

A player is seated only by quick start and by regrouping, and both choose the
table: in a tier that keeps linked accounts apart (``RoomTier.separate_linked``)
neither chooses a table where an account linked to the player sits
(``platform.accounts.selectors.linked_user_ids``: the same sign-up address or a
browser both logged in from), checked again under the table's lock.
"""

from __future__ import annotations

import secrets
from platform.accounts.selectors import linked_user_ids
from platform.staff.audit import audit_staff_only

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from rooms.errors import EntryRefused
from rooms.models import Game, RoomTier
from rooms.services import tier_entry_check
from rooms.tables.bots import bot_acquire
from rooms.tables.broadcast import balances_and_wins
from rooms.tables.carry import after_seating, dealt_seats, is_chain_player
from rooms.tables.clock import setting
from rooms.tables.errors import AlreadySeated, NotNow, NotSeated
from rooms.tables.hands import hand_start, lock_wallets
from rooms.tables.models import Seat, Table
from rooms.tables.play import Play, changing
from wallets.services import ledger_post_many

# What sitting down or standing up writes: a new occupant starts with no sockets recorded.
SEATING_FIELDS = ["user", "is_bot", "ready", "trustee", "connected", "seated_at", "away_since", "sockets"]


def _seat_user(seat: Seat, user, *, is_bot: bool) -> None:
    seat.user = user
    seat.is_bot = is_bot
    seat.ready = True
    seat.trustee = False
    seat.connected = is_bot
    seat.seated_at = timezone.now()
    seat.away_since = None
    seat.sockets = []
    seat.save(update_fields=SEATING_FIELDS)


def _seat_clear(seat: Seat) -> None:
    seat.user = None
    seat.is_bot = seat.ready = seat.trustee = seat.connected = False
    seat.seated_at = seat.away_since = None
    seat.sockets = []
    seat.save(update_fields=SEATING_FIELDS)


def _free_seat(play: Play) -> Seat | None:
    """An empty seat, or a bot's seat at a waiting table (the bot stands up for a human), or None
    (always during a carried pot's chain: newcomers wait for it to end)."""
    if play.table.carry:
        return None
    empty = [seat for seat in play.seats if seat.user_id is None]
    if empty:
        return empty[0]
    bots = [seat for seat in play.seats if seat.is_bot]
    if bots and play.table.status == Table.Status.WAITING:
        _seat_clear(bots[-1])
        return bots[-1]
    return None


def _table_create(tier: RoomTier) -> Table:
    count = tier.seats or games.REGISTRY[tier.game.slug].max_seats
    table = Table.objects.create(tier=tier, seat_count=count)
    Seat.objects.bulk_create([Seat(table=table, index=i) for i in range(count)])
    return table


def _sit(play: Play, user) -> None:
    """Seat ``user`` at the play's table (a free seat is there), then fill with bots and deal if ready."""
    _seat_user(_free_seat(play), user, is_bot=False)
    play.balances, play.wins = _counts(play)
    if play.table.tier.bots_enabled and setting("TABLE_BOT_WAIT", 3.0) <= 0:
        _fill_bots(play)
    _start_if_ready(play)


def _counts(play: Play):

    return balances_and_wins(play.table.tier.game.slug, play.users())


def _linked_to(tier: RoomTier, user) -> set[int]:
    """The accounts ``user`` may not share a table with in ``tier`` (none if the tier allows it)."""
    return linked_user_ids(user_id=user.pk) if tier.separate_linked else set()


def _linked_at(play: Play, linked: set[int]) -> bool:
    return any(seat.user_id in linked for seat in play.seats)


def quick_start_choice(
    tables: list[Table], humans: dict[int, int], *, pick: int | None = None
) -> Table | None:
    """Choose a waiting table at random, weighted to fill tables: one with more humans is likelier.

    Each table holds 1 + 2 × (humans waiting there) tickets and one ticket is
    drawn (``secrets``; ``pick``: that ticket). Never simply the table the last
    arrival joined, so that accounts arriving together are not seated together
    every time (分组, seed 002).
    """
    if not tables:
        return None
    weights = [1 + 2 * humans.get(table.pk, 0) for table in tables]
    if pick is None:
        pick = secrets.randbelow(sum(weights))
    for table, weight in zip(tables, weights, strict=True):
        if pick < weight:
            return table
        pick -= weight
    return tables[-1]


def table_quick_start(*, tier_id: int, user) -> Table:
    """Seat ``user`` at a table of the tier that needs players (or a new one) and return it.

    Raises ``EntryRefused`` when the wallet does not meet the tier's rule and
    ``AlreadySeated`` when the user already sits somewhere (one table at a time).
    """
    # A player's join, never a staff change: no audit read per saved seat.
    with transaction.atomic(durable=True), audit_staff_only():
        # The tier's row lock serialises quick starts of one tier, so two players arriving
        # together never both open a new table. NO KEY UPDATE: a plain FOR UPDATE also blocks
        # the key-share lock that inserting a row referencing the tier takes.
        tier = RoomTier.objects.select_for_update(of=("self",), no_key=True).select_related("game")
        tier = tier.get(pk=tier_id)
        if tier.game.family == Game.Family.BANKER:
            raise EntryRefused(
                _("%(game)s has no seats; enter its betting table instead.") % {"game": tier.game.name},
                code="banker_game",
            )
        current = Seat.objects.filter(user=user).first()
        if current is not None:
            raise AlreadySeated(current.table_id)
        tier_entry_check(tier=tier, user=user)
        free = Seat.objects.filter(Q(user__isnull=True) | Q(is_bot=True))
        open_tables = Table.objects.filter(
            tier=tier, status=Table.Status.WAITING, pk__in=free.values("table_id"), carry__isnull=True
        )
        linked = _linked_to(tier, user)
        if linked:
            open_tables = open_tables.exclude(pk__in=Seat.objects.filter(user__in=linked).values("table_id"))
        open_tables = list(open_tables.order_by("pk"))
        humans = dict(
            Seat.objects.filter(table__in=open_tables, user__isnull=False, is_bot=False)
            .values("table_id")
            .annotate(n=Count("id"))
            .values_list("table_id", "n")
        )
        table = quick_start_choice(open_tables, humans) or _table_create(tier)
        with changing(table.pk, nested=True) as play:
            waiting = play.table.status == Table.Status.WAITING and not _linked_at(play, linked)
            if waiting and _free_seat(play) is not None:
                _sit(play, user)
                return play.table
        table = _table_create(tier)  # the chosen table filled up (or a linked account sat down) meanwhile
        with changing(table.pk, nested=True) as play:
            _sit(play, user)
            return play.table


def _fill_bots(play: Play) -> int:
    """Seat a bot in each empty seat of the play's waiting table (none during a carried pot's chain)."""
    if play.table.carry:
        return 0
    taken = {seat.user_id for seat in play.seats if seat.user_id}
    filled = 0
    for seat in play.seats:
        if seat.user_id is None:
            bot = bot_acquire(tier=play.table.tier, exclude=taken)
            taken.add(bot.pk)
            _seat_user(seat, bot, is_bot=True)
            filled += 1
    if filled:
        play.balances, play.wins = _counts(play)
    return filled


def table_fill_bots(*, table_id: int) -> int:
    """Seat bots in every empty seat of a waiting table (staff action, or after the wait)."""
    # In a staff member's admin request the seats' changes are still audited.
    with audit_staff_only(), changing(table_id) as play:
        if play.table.status != Table.Status.WAITING:
            return 0
        filled = _fill_bots(play)
        _start_if_ready(play)
    return filled


def _start_if_ready(play: Play) -> None:
    """Deal at the waiting table if every seat is taken and ready (and not by bots alone).

    A human whose wallet fell below the tier's minimum while waiting (coins
    can leave it meanwhile, e.g. a bet from another tab) is marked not ready
    instead: the wallets are locked first, so nothing can take coins between
    this check and the stake. Pressing ready again tells them the rule.
    """
    table, seats = play.table, dealt_seats(play.table, play.seats)
    if (
        table.status != Table.Status.WAITING
        or not seats
        or not all(seat.user_id and seat.ready for seat in seats)
    ):
        return
    if all(seat.is_bot for seat in seats):
        return  # never play bots against bots alone
    # The tier as staff left it (its options, minimum, rake): a kept play may hold it from before an edit.
    table.tier = RoomTier.objects.select_related("game").get(pk=table.tier_id)
    wallets = lock_wallets([seat.user_id for seat in seats])
    short = [
        s
        for s in seats
        if not s.is_bot
        and wallets[s.user_id].balance < table.tier.minimum_coins
        and not is_chain_player(table, s.user_id)  # plays for the carried pot with what is left
    ]
    for seat in short:
        seat.ready = False
        play.seat_changed(seat, "ready")
    if not short:
        hand_start(play, wallets, seats)


def _regroup_candidates(table: Table, user) -> list[Table]:
    """Lock the tier's other waiting tables with a ready human, a free seat and no account linked to
    ``user`` (分组).

    ``skip_locked``: a table another change holds is passed over, so two
    players regrouping into each other's tables never wait for each other.
    Only tables that had a free seat are locked (a full table is left to its
    own players' changes); each is locked before its seats are read again, so
    none changes after.
    """
    tier_seats = Seat.objects.filter(table__tier=table.tier_id, table__status=Table.Status.WAITING)
    ready_humans = tier_seats.filter(ready=True, is_bot=False).exclude(table=table.pk)
    free = tier_seats.filter(Q(user__isnull=True) | Q(is_bot=True))  # as read before the lock: again below
    others = list(
        Table.objects.select_for_update(of=("self",), skip_locked=True)
        .filter(pk__in=ready_humans.values("table_id"), status=Table.Status.WAITING, carry__isnull=True)
        .filter(pk__in=free.values("table_id"))
        .order_by("pk")
    )
    if not others:
        return []
    others_seats = Seat.objects.filter(table__in=[t.pk for t in others])
    roomy = set(others_seats.filter(Q(user__isnull=True) | Q(is_bot=True)).values_list("table_id", flat=True))
    linked = _linked_to(table.tier, user) if roomy else set()
    if linked:
        roomy -= set(others_seats.filter(user__in=linked).values_list("table_id", flat=True))
    return [t for t in others if t.pk in roomy]


def table_ready(*, table_id: int, user) -> Table:
    """Mark the player ready for the next hand, regrouping them within the tier (分组).

    Regrouping: the player goes back to the tier's pool and is seated, at
    random (``secrets``), at one of the tier's waiting tables that has another
    ready human and a free (empty or bot) seat, or stays here. Returns the
    table the player now sits at.
    """
    with transaction.atomic(durable=True), audit_staff_only():
        with changing(table_id, nested=True) as play:
            seat = play.seat_of(user.pk)
            if seat is None:
                raise NotSeated()
            if play.table.status != Table.Status.WAITING:
                raise NotNow()
            chain = is_chain_player(play.table, user.pk)  # plays for the carried pot with what is left
            if not chain:
                tier_entry_check(
                    tier=play.table.tier, user=user
                )  # the wallet now, not as the play last saw it
            # A carried pot's player stays for the chain; nobody may join it.
            target = (
                play.table if chain else secrets.choice([play.table, *_regroup_candidates(play.table, user)])
            )
            if target.pk == play.table.pk:
                seat.ready = True
                seat.seated_at = timezone.now()
                play.seat_changed(seat, "ready", "seated_at")  # written with the change
                _start_if_ready(play)
                return play.table
            _seat_clear(seat)
            _release_bots_if_alone(play)
        with changing(target.pk, nested=True) as other:
            _sit(other, user)
            return other.table


def _release_bots_if_alone(play: Play) -> None:
    """With no human left at a waiting table, the bots stand up and the table closes. A carried
    pot's chain closes up its players, or ends (``carry.after_seating``)."""
    closing = not any(seat.user_id and not seat.is_bot for seat in play.seats)
    if play.table.carry:
        release = after_seating(play.table, play.seats, closing=closing)
        if release is not None:
            ledger_post_many(postings=[release])
        play.table.save(update_fields=["carry", "updated_at"])
        play.balances, play.wins = _counts(play)
        if not closing:
            _start_if_ready(play)  # the chain's players still here may all be ready
    if not closing:
        return
    for seat in play.seats:
        if seat.user_id:
            _seat_clear(seat)
    play.table.status = Table.Status.CLOSED
    play.table.save(update_fields=["status", "updated_at"])


def table_leave(*, table_id: int, user) -> None:
    """Stand up from the table (between hands only)."""
    with audit_staff_only(), changing(table_id) as play:
        seat = play.seat_of(user.pk)
        if seat is None:
            raise NotSeated()
        if play.table.status == Table.Status.PLAYING:
            raise NotNow()
        _seat_clear(seat)
        _release_bots_if_alone(play)
