"""Reads of the table runtime: seat counts for the lobby, a player's seat, hand history."""

from django.db import transaction
from django.db.models import Count

from rooms.tables.broadcast import snapshot
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.play import read
from wallets.selectors import wallet_balance


def table_exists(table_id: int, family: str) -> bool:
    """Whether a table of that id runs games of that family (``seated`` or ``banker``)."""
    return Table.objects.filter(pk=table_id, tier__game__family=family).exists()


def table_seq(table_id: int) -> int:
    """The table's current event ``seq`` (the ``pong`` that tells a client it fell behind)."""
    return Table.objects.filter(pk=table_id).values_list("seq", flat=True).first() or 0


def seated_counts_by_tier() -> dict[int, int]:
    """Return tier id → number of humans seated at that tier's tables."""
    rows = (
        Seat.objects.filter(user__isnull=False, is_bot=False)
        .values("table__tier_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {row["table__tier_id"]: row["n"] for row in rows}


def seat_for_user(*, user) -> Seat | None:
    """Return the seat this user holds anywhere, or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.select_related("table").filter(user=user).first()


def hands_for_user(*, user, limit: int = 30) -> list[Hand]:
    """Return the user's most recent hands that are over, newest first."""
    return list(
        Hand.objects.filter(
            participants=user,
            status__in=[Hand.Status.SETTLED, Hand.Status.CANCELLED],
        )
        .select_related("table__tier__game")
        .order_by("-pk")[:limit]
    )


def table_snapshot(*, table_id: int, user) -> dict:
    """The full ``state`` message for ``user`` at this table (their seat's view, or a spectator's).

    Read under the table's row lock, so its ``seq`` and its hand come from the same commit.
    """
    with transaction.atomic():
        play = read(table_id, lock=True)
        seat = play.seat_of(user.pk)
        if seat is not None:
            return snapshot(play, seat_index=seat.index, user_id=user.pk, balance=play.balances.get(user.pk))
        return snapshot(play, seat_index=None, user_id=user.pk, balance=wallet_balance(user=user))


def coins_in_play(*, user) -> list[dict]:
    """Return the user's open hands with the coins they carried into each (held in escrow)."""
    if user is None or not user.is_authenticated:
        return []
    open_hands = Hand.objects.filter(
        participants=user, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED]
    ).select_related("table__tier__game")
    rows = []
    for hand in open_hands:
        carried = sum(p.get("carried", 0) for p in hand.players if p.get("user") == user.pk)
        if carried:
            rows.append({"hand": hand, "table_id": hand.table_id, "carried": carried})
    return rows
