"""Reads of the round runtime: one viewer's whole state, the tier's open table."""

from __future__ import annotations

from django.db.models import Count, Sum
from django.utils import timezone

from rooms.rounds.broadcast import merge, public_state, user_part
from rooms.rounds.models import Bet, Round, Viewer
from rooms.rounds.services import per_area, viewers_fresh_since
from rooms.tables.models import Table
from wallets.models import LedgerEntry
from wallets.selectors import wallet_balance


def round_snapshot(*, table_id: int, user) -> dict:
    """Return the full ``state`` message for ``user`` at this banker table (connect, resync)."""
    table = Table.objects.select_related("tier__game").get(pk=table_id)
    public = public_state(table)
    round_id = public["round"]["id"] if public["round"] else None
    part = user_part(seq=public["seq"], round_id=round_id, user_id=user.pk, balance=wallet_balance(user=user))
    state = merge(public, part)
    # A page opened or reloaded after the round was paid shows the same result line as one that
    # saw the ``payout`` notice.
    payout = user_payout(round_id=round_id, user_id=user.pk)
    if payout is not None:
        state["you"] = {**state["you"], "payout": payout}
    return state


def user_payout(*, round_id: int | None, user_id: int) -> dict | None:
    """The ``payout`` notice the user got for the round (None: no bet in it, or not paid yet)."""
    rnd = Round.objects.filter(pk=round_id).first() if round_id is not None else None
    if rnd is None or rnd.status not in (Round.Status.SETTLED, Round.Status.REFUNDED):
        return None
    if rnd.banker_id == user_id:
        return _banker_payout(rnd)
    bets = list(
        rnd.bets.standing().filter(user_id=user_id).order_by("pk").values_list("area", "amount", "net")
    )
    if not bets:
        return None
    if rnd.status == Round.Status.REFUNDED:
        rows = per_area((area, amount, 0) for area, amount, _net in bets)
        return {"type": "payout", "round": rnd.pk, "net": 0, "refunded": True, "bets": rows}
    # What the payout paid into the wallet, less the stakes: the net after the fee, as the notice had it.
    paid = LedgerEntry.objects.filter(transaction__key=rnd.settle_key, account__user_id=user_id).aggregate(
        total=Sum("amount")
    )["total"]
    net = int(paid or 0) - sum(amount for _area, amount, _net in bets)
    rows = per_area((area, amount, bet_net or 0) for area, amount, bet_net in bets)
    return {"type": "payout", "round": rnd.pk, "net": net, "bets": rows}


def open_table_for_tier(*, tier_id: int) -> Table | None:
    """Return the tier's open banker table, if any (entering creates it)."""
    return Table.objects.filter(tier_id=tier_id).exclude(status=Table.Status.CLOSED).order_by("pk").first()


def viewer_counts_by_tier() -> dict[int, int]:
    """Return tier id → players with a banker table of that tier open now (one per user, stale sockets aside)."""
    rows = (
        Viewer.objects.filter(left_at__isnull=True, seen_at__gte=viewers_fresh_since(timezone.now()))
        .values("table__tier_id")
        .annotate(n=Count("user_id", distinct=True))
        .order_by()
    )
    return {row["table__tier_id"]: row["n"] for row in rows}


def coins_bet_in_rounds(*, user) -> list[dict]:
    """Return the user's banker tables with bets not yet paid out or refunded (the coins sit in escrow)."""
    if user is None or not user.is_authenticated:
        return []
    rows = (
        Bet.objects.standing()
        .filter(user=user, round__status__in=[Round.Status.OPEN, Round.Status.DUE])
        .values("round__table_id")
        .annotate(staked=Sum("held"))
        .order_by("round__table_id")
    )
    tables = Table.objects.select_related("tier__game").in_bulk([row["round__table_id"] for row in rows])
    return [
        {"table": tables[row["round__table_id"]], "table_id": row["round__table_id"], "staked": row["staked"]}
        for row in rows
    ]


def _banker_payout(rnd: Round) -> dict:
    """The ``payout`` notice of a round's player banker: what the payout returned, less the coins they put in."""
    if rnd.status == Round.Status.REFUNDED:
        return {"type": "payout", "round": rnd.pk, "net": 0, "refunded": True, "bets": [], "banker": True}
    paid = LedgerEntry.objects.filter(
        transaction__key=rnd.settle_key, account__user_id=rnd.banker_id
    ).aggregate(total=Sum("amount"))["total"]
    return {
        "type": "payout",
        "round": rnd.pk,
        "net": int(paid or 0) - (rnd.bank or 0),
        "bets": [],
        "banker": True,
    }
