"""Reads of the round runtime: one viewer's whole state, the tier's open table."""

from __future__ import annotations

from rooms.rounds.broadcast import merge, public_state, user_part
from rooms.tables.models import Table


def round_snapshot(*, table_id: int, user) -> dict:
    """Return the full ``state`` message for ``user`` at this banker table (connect, resync)."""
    from wallets.selectors import wallet_balance

    table = Table.objects.select_related("tier__game").get(pk=table_id)
    public = public_state(table)
    part = user_part(
        seq=public["seq"],
        round_id=public["round"]["id"] if public["round"] else None,
        user_id=user.pk,
        balance=wallet_balance(user=user),
    )
    return merge(public, part)


def open_table_for_tier(*, tier_id: int) -> Table | None:
    """Return the tier's open banker table, if any (entering creates it)."""
    return Table.objects.filter(tier_id=tier_id).exclude(status=Table.Status.CLOSED).order_by("pk").first()
