"""The player banker of a banker table: the queue, who banks each round, the banker's escrow.

Any game of the banker family gets it when its room tier sets ``bank_minimum``
(the coins a player needs to bank; 0 or missing: only the house banks) and
``bank_rounds`` (the most rounds in a row). Players apply (``BankerSeat``
queued); when a round opens, the banker of the last round goes on unless they
asked to step down, have banked ``bank_rounds`` rounds, or hold less than
``bank_minimum``; otherwise the first queued player who holds the minimum
banks. A player banker's whole wallet (up to the round's stake cap) goes into
escrow for the round (``round:<id>:bank``), and the round takes bets only
while every bet's most_won together fits in it (``services.bank_check``).
Everything here runs under the table's lock, inside the caller's transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from rooms.rounds.errors import BankError
from rooms.rounds.models import BankerSeat, Round
from rooms.tables.models import Table
from wallets.models import Account, LedgerTransaction
from wallets.services import house_account, ledger_post, wallet_for_user


def bank_rules(config: dict) -> tuple[int, int]:
    """Return the table's ``(bank_minimum, bank_rounds)``; a minimum of 0: only the house banks."""
    minimum = int(config.get("bank_minimum") or 0)
    rounds = int(config.get("bank_rounds") or 0)
    return (minimum, rounds) if minimum > 0 and rounds > 0 else (0, 0)


def _balance(user_id: int, *, lock: bool = False) -> int:
    accounts = Account.objects.filter(user_id=user_id)
    account = (accounts.select_for_update(of=("self",)) if lock else accounts).first()
    return account.balance if account is not None else 0


def _end(seat: BankerSeat, reason: str, now: datetime) -> None:
    seat.status = BankerSeat.Status.DONE
    seat.end_reason = reason
    seat.ended_at = now
    seat.save(update_fields=["status", "end_reason", "ended_at"])


def waiting_for_payout(table: Table, config: dict) -> bool:
    """Say whether the table's next round must wait: player banking is on and the last round is not paid.

    Who banks next, and how much they hold, depends on the wallets after the last payout.
    """
    if not bank_rules(config)[0]:
        return False
    return Round.objects.filter(table=table, status=Round.Status.DUE).exists()


def bank_open(table: Table, rnd: Round, config: dict, now: datetime, *, cap: int) -> None:
    """Choose the new round's banker (the house when nobody may) and escrow their coins, up to ``cap``."""
    minimum, most_rounds = bank_rules(config)
    if not minimum:
        return
    seats = list(
        BankerSeat.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(table=table)
        .exclude(status=BankerSeat.Status.DONE)
        .order_by("pk")
    )
    banker = None
    for seat in sorted(seats, key=lambda s: s.status != BankerSeat.Status.BANKING):
        balance = _balance(seat.user_id)
        if seat.status == BankerSeat.Status.BANKING:
            reason = (
                "asked"
                if seat.leaving
                else "rounds"
                if seat.rounds >= most_rounds
                else "short"
                if balance < minimum
                else ""
            )
            if reason:
                _end(seat, reason, now)
                continue
        elif balance < minimum:
            _end(seat, "short", now)
            continue
        banker = seat
        break
    if banker is None:
        return
    held = min(_balance(banker.user_id, lock=True), cap)
    banker.status = BankerSeat.Status.BANKING
    banker.rounds += 1
    banker.save(update_fields=["status", "rounds"])
    rnd.banker = banker.user
    rnd.bank = held
    rnd.bank_key = f"round:{rnd.pk}:bank"
    rnd.save(update_fields=["banker", "bank", "bank_key"])
    ledger_post(
        key=rnd.bank_key,
        kind=LedgerTransaction.Kind.STAKE,
        legs=[(wallet_for_user(user=banker.user), -held), (house_account(code="escrow"), held)],
        reference=f"round:{rnd.pk}",
        memo=f"table {table.pk} round {rnd.number}: the banker's {held} coins",
        game_slug=rnd.game_slug,
        tier_id=table.tier_id,
    )


def bank_apply(table: Table, config: dict, user) -> None:
    """Apply to bank: queue ``user`` to bank the locked table; refused unless player banking is on and they hold the minimum."""
    minimum, _rounds = bank_rules(config)
    if not minimum:
        raise BankError("no_player_bank", _("Only the house banks at this table."))
    if BankerSeat.objects.filter(table=table, user=user).exclude(status=BankerSeat.Status.DONE).exists():
        raise BankError("already_queued", _("You are already banking or waiting to bank here."))
    balance = _balance(user.pk)
    if balance < minimum:
        raise BankError(
            "bank_minimum",
            _("Banking here needs %(minimum)s coins; you have %(balance)s.")
            % {"minimum": minimum, "balance": balance},
        )
    BankerSeat.objects.create(table=table, user=user)


def bank_leave(table: Table, user, now: datetime) -> None:
    """Step down: leave the queue now, or as the banker step down once the current round is over."""
    seat = BankerSeat.objects.filter(table=table, user=user).exclude(status=BankerSeat.Status.DONE).first()
    if seat is None:
        raise BankError("not_queued", _("You are not banking or waiting to bank here."))
    if seat.status == BankerSeat.Status.QUEUED:
        _end(seat, "left", now)
    else:
        seat.leaving = True
        seat.save(update_fields=["leaving"])


def bank_state(table: Table, config: dict) -> dict | None:
    """What every viewer sees of player banking: the rules, the banker and the queue (None: house only)."""
    minimum, most_rounds = bank_rules(config)
    if not minimum:
        return None
    seats = list(
        BankerSeat.objects.filter(table=table)
        .exclude(status=BankerSeat.Status.DONE)
        .select_related("user")
        .order_by("pk")
    )

    def entry(seat: BankerSeat) -> dict:
        return {
            "user": seat.user_id,
            "name": seat.user.stored_name,
            "rounds": seat.rounds,
            "leaving": seat.leaving,
        }

    banking = [entry(s) for s in seats if s.status == BankerSeat.Status.BANKING]
    return {
        "minimum": minimum,
        "rounds": most_rounds,
        "banker": banking[0] if banking else None,
        "queue": [entry(s) for s in seats if s.status == BankerSeat.Status.QUEUED],
    }
