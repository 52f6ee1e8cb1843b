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
from typing import TYPE_CHECKING

from django.db import transaction
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

if TYPE_CHECKING:
    from rooms.tables.deal_statements import StakeReads

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


def hand_start(
    *, table: Table, seats: list[Seat], reads: StakeReads | None = None, schedule: bool = False
) -> Hand | None:
    """Deal a new hand at the locked ``table`` and move every seat's carried coins into escrow.

    Returns None (and changes nothing but the humans' ``ready``) if a wallet
    refuses the stake. ``reads``: the seated users' wallets (locked, so
    current), wins and escrow account the caller has already read
    (``deal_statements.stake_lock``); else they are read here, and a missing
    wallet is created (``wallet_for_user``). After the deal the wallets hold
    the balances the stake left. The ``seats`` given are left not ready, as
    their rows are. ``schedule``: also set the hand's first deadline
    (``core.plan_next``) and write it with the hand, as ``core.schedule_next``
    would after it.

    Statements: the hand, its participants, the seats and the table in one
    (``deal_statements.hand_insert``), then the stake through
    ``ledger_post_many`` in the same savepoint (a refusal rolls both back).
    """
    from rooms.tables.deal_statements import hand_insert, stake_lock
    from wallets.errors import LedgerError
    from wallets.models import LedgerTransaction
    from wallets.services import Posting, house_account, ledger_post_many, wallet_for_user

    if reads is None:
        reads = stake_lock(table, [seat.user_id for seat in seats])
    tier = table.tier
    info = games.REGISTRY[tier.game.slug]
    players = []
    wallets = []
    for seat in seats:
        wallet = reads.wallets.get(seat.user_id)
        if wallet is None:
            wallet = reads.wallets[seat.user_id] = wallet_for_user(user=seat.user)
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
    now = timezone.now()
    hand = Hand(
        table=table, number=0, game_slug=info.slug, seed=seed, config=config, players=players, state=state
    )
    hand.started_at = now
    outcome = None
    if schedule:
        from rooms.tables.core import plan_next

        outcome = plan_next(hand, seats, now)
    total = sum(p["carried"] for p in players)
    escrow = reads.escrow if reads.escrow is not None or not total else house_account(code="escrow")
    try:
        with transaction.atomic():
            written = hand_insert(
                hand,
                table=table,
                humans=[p["user"] for p in players if not p["is_bot"]],
                staked=bool(total),
                now=now,
            )
            if total:
                legs = [
                    (wallet, -p["carried"])
                    for wallet, p in zip(wallets, players, strict=True)
                    if p["carried"]
                ]
                # No savepoint of its own: a refusal leaves through this block, which rolls back.
                ledger_post_many(
                    postings=[
                        Posting(
                            key=hand.stake_key,
                            kind=LedgerTransaction.Kind.STAKE,
                            legs=[*legs, (escrow, total)],
                            reference=f"hand:{hand.pk}",
                            memo=f"table {table.pk} hand {hand.number}: coins carried into escrow",
                        )
                    ],
                    savepoint=False,
                )
    except LedgerError:
        logger.warning("table %s: a wallet refused the stake; no hand started", table.pk, exc_info=True)
        Seat.objects.filter(table=table, is_bot=False).update(ready=False)
        for seat in seats:
            if not seat.is_bot:
                seat.ready = False
        return None
    for seat in seats:
        seat.ready = False
    table.status = Table.Status.PLAYING
    table.updated_at = now
    if schedule:
        _scheduled(table, hand, outcome, written)
    return hand


def _scheduled(table: Table, hand: Hand, outcome: Outcome | None, written) -> None:
    """What ``core.schedule_next`` does after its write, for a hand written with its first deadline."""
    from rooms.tables.state_cache import state_keep_on_commit
    from rooms.tables.timers import timer_enqueue, timer_wanted

    if outcome is not None:  # over as dealt: finish it (its own write)
        hand_finish(table=table, hand=hand, outcome=outcome)
        return
    if written.xmin is not None:  # the state this process's next locking read may take as kept
        state_keep_on_commit(
            table_id=table.pk, hand_id=hand.pk, xmin=written.xmin, ctid=written.ctid, state=hand.state
        )
    hand_id, token, deadline = hand.pk, hand.deadline_token, hand.deadline
    if timer_wanted(deadline, hand.started_at):  # a human's turn is left to the beat tick
        transaction.on_commit(lambda: timer_enqueue(hand_id=hand_id, token=token, deadline=deadline))


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
