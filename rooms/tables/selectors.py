"""Reads of the table runtime: seat counts for the lobby, a player's seat, hand history."""

from django.db.models import Count

from rooms.tables.models import Hand, Seat


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
    """Return the full ``state`` message for ``user`` at this table (their seat's view, or a spectator's)."""
    from django.db import connection, transaction

    from rooms.tables.broadcast import load_context, snapshot
    from rooms.tables.models import Table

    with transaction.atomic():
        # The seq and the hand must come from the same commit. Read one statement at a time,
        # a change committing between them gave a state labelled with the older seq but
        # showing the newer hand (the hidden-cards test caught a seat shown the 底牌 at the
        # bidding's seq). Every change holds the table row FOR UPDATE until it commits, so
        # a share lock on it waits for a change in progress and keeps the next one out.
        # (SQLite has no row locks: its transactions here start IMMEDIATE, serialised with writers.)
        if connection.vendor == "postgresql":
            qn = connection.ops.quote_name
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT 1 FROM {qn(Table._meta.db_table)} WHERE {qn('id')} = %s FOR SHARE", [table_id]
                )
        ctx = load_context(table_id)
        seat = next((s for s in ctx.seats if s.user_id == user.pk), None)
        if seat is not None:
            return snapshot(ctx, seat_index=seat.index, balance=ctx.balances.get(user.pk))
        from wallets.selectors import wallet_balance

        return snapshot(ctx, seat_index=None, balance=wallet_balance(user=user))


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
