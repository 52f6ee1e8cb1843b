"""A hand's money: stakes into escrow at the start, refunds on cancel, one settlement at the end.

Coins carried into a hand (携带) leave the wallet for the house's escrow
account in one ``stake`` transaction (key ``hand:<id>:stake``), so a player in a
hand cannot withdraw them. The hand then ends in exactly one of: a
``settlement`` (key ``hand:<id>:settle``) that empties the escrow into every
seat's wallet (carried ± result after rake) and the rake account, or a
``refund`` (key ``hand:<id>:refund``) that gives every seat back what it carried.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games.base import Outcome, SeatSpec, SeededRng
from rooms.tables.broadcast import table_changed
from rooms.tables.models import Hand, Seat, Table

# Settling lives in settlement.py; the services reach it through this module too.
from rooms.tables.settlement import (  # noqa: F401
    SETTLE_BATCH,
    hand_settle,
    hand_settle_batch,
    reset_tables_after_hands,
    settlement_request,
)
from wallets.models import MAX_AMOUNT

logger = logging.getLogger(__name__)


# The most one seat carries into a hand, whatever the tier allows: the stake moves every
# seat's coins into escrow in one leg, which the ledger takes up to MAX_AMOUNT, and no game
# seats more than 10. Past it a rich wallet's stake was refused at every deal, so no hand
# ever started at a table where that player sat.
CARRY_CAP = MAX_AMOUNT // 10


def carried_amount(*, tier, balance: int) -> int:
    """Return the coins a seat carries into a hand: the whole balance, capped by the tier's maximum."""
    if tier.maximum_coins:
        balance = min(balance, tier.maximum_coins)
    return min(balance, CARRY_CAP)


def hand_start(*, table: Table, seats: list[Seat], wallets: dict | None = None) -> Hand | None:
    """Deal a new hand at the locked ``table`` and move every seat's carried coins into escrow.

    Returns None (and changes nothing but the humans' ``ready``) if a wallet
    refuses the stake. ``wallets``: wallets by user id the caller has already
    read (locked, so current); the others are read here, in one statement, and
    a missing one is created (``wallet_for_user``). The ``seats`` given are
    left not ready, as their rows are.
    """
    from wallets.errors import LedgerError
    from wallets.models import Account, LedgerTransaction
    from wallets.services import house_account, ledger_post, wallet_for_user

    tier = table.tier
    info = games.REGISTRY[tier.game.slug]
    number = (table.hands.aggregate(n=Max("number"))["n"] or 0) + 1
    known = dict(wallets or {})
    missing = [seat.user_id for seat in seats if seat.user_id not in known]
    if missing:
        known.update((a.user_id, a) for a in Account.objects.filter(user_id__in=missing))
    players = []
    wallets = []
    for seat in seats:
        wallet = known.get(seat.user_id) or wallet_for_user(user=seat.user)
        wallets.append(wallet)
        players.append(
            {
                "user": seat.user_id,
                "name": seat.user.display_name,
                "is_bot": seat.is_bot,
                "carried": carried_amount(tier=tier, balance=wallet.balance),
            }
        )
    config = {
        **info.default_options,
        **tier.options,
        "base_stake": tier.base_stake,
        "room_factor": tier.room_factor,
        "first_seat": table.next_first_seat,
        # The rake this hand is dealt under: settlement takes it from here, so editing the
        # tier changes only the hands dealt after the edit.
        "rake_bps": tier.rake_bps,
    }
    seed = secrets.token_bytes(32)
    state = info.engine.new_hand(
        config, [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in players], SeededRng(seed, "hand")
    )
    try:
        with transaction.atomic():
            hand = Hand.objects.create(
                table=table,
                number=number,
                game_slug=info.slug,
                seed=seed,
                config=config,
                players=players,
                state=state,
            )
            # A new hand has no participants yet: adding them is what ``set`` would do, without its read.
            hand.participants.add(*[p["user"] for p in players if not p["is_bot"]])
            legs = [
                (wallet, -p["carried"]) for wallet, p in zip(wallets, players, strict=True) if p["carried"]
            ]
            total = sum(p["carried"] for p in players)
            if total:
                hand.stake_key = f"hand:{hand.pk}:stake"
                ledger_post(
                    key=hand.stake_key,
                    kind=LedgerTransaction.Kind.STAKE,
                    legs=[*legs, (house_account(code="escrow"), total)],
                    reference=f"hand:{hand.pk}",
                    memo=f"table {table.pk} hand {number}: coins carried into escrow",
                )
                hand.save(update_fields=["stake_key"])
    except LedgerError:
        logger.warning("table %s: a wallet refused the stake; no hand started", table.pk, exc_info=True)
        Seat.objects.filter(table=table, is_bot=False).update(ready=False)
        for seat in seats:
            if not seat.is_bot:
                seat.ready = False
        return None
    Seat.objects.filter(table=table).update(ready=False)
    for seat in seats:
        seat.ready = False
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    return hand


def hand_finish(*, table: Table, hand: Hand, outcome: Outcome) -> None:
    """Mark the hand finished with its outcome and queue its settlement after commit."""
    hand.status = Hand.Status.FINISHED
    hand.deadline = None
    hand.finished_at = timezone.now()
    hand.outcome = {"deltas": outcome.deltas, "winners": outcome.winners, "details": outcome.details}
    from rooms.tables.core import PLAY_FIELDS, hand_write

    hand_write(hand, (*PLAY_FIELDS, "status", "finished_at", "outcome"))  # with the log's last entries
    hand_id = hand.pk
    transaction.on_commit(lambda: settlement_request(hand_id=hand_id))


def _reset_after_hand(table: Table) -> None:
    """Between hands: bots stay ready, humans must press ready, players who left the page stand up."""
    reset_tables_after_hands([table], bump_seq=False)


def cancel_locked(*, table: Table, hand: Hand, reason: str) -> None:
    """Cancel the locked hand: refund every stake from escrow, tell the table why."""
    from wallets.models import LedgerTransaction
    from wallets.services import house_account, ledger_post, wallet_for_user

    if hand.status not in (Hand.Status.PLAYING, Hand.Status.FINISHED):
        return
    players = hand.players
    total = sum(p["carried"] for p in players)
    if hand.stake_key and total:
        User = Seat._meta.get_field("user").related_model
        users = {u.pk: u for u in User.objects.filter(pk__in=[p["user"] for p in players])}
        legs = [(wallet_for_user(user=users[p["user"]]), p["carried"]) for p in players if p["carried"]]
        ledger_post(
            key=f"hand:{hand.pk}:refund",
            kind=LedgerTransaction.Kind.REFUND,
            legs=[(house_account(code="escrow"), -total), *legs],
            reference=f"hand:{hand.pk}",
            memo=f"hand {hand.pk} cancelled: {reason}"[:200],
        )
    hand.status = Hand.Status.CANCELLED
    hand.cancel_reason = reason[:200]
    hand.deadline = None
    hand.finished_at = hand.finished_at or timezone.now()
    hand.save(update_fields=["status", "cancel_reason", "deadline", "finished_at"])
    _reset_after_hand(table)
    message = _("%(reason)s Every stake was refunded.") % {"reason": reason}
    table_changed(table, notices=[{"type": "cancelled", "hand": hand.pk, "reason": message}])


def hand_cancel(*, hand_id: int, reason: str) -> bool:
    """Cancel a hand the runtime cannot continue; return False if it was already over."""
    from rooms.tables.services import lock_table

    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=hand_id)
        if hand.status not in (Hand.Status.PLAYING, Hand.Status.FINISHED):
            return False
        cancel_locked(table=table, hand=hand, reason=reason)
    return True
