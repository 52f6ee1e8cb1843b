"""What one bet (``services.round_bet``) reads and writes under its table's lock.

A table's bets run one at a time under its row lock. After the lock, a bet
reads everything it checks and shows (``bet_read``) and writes its row and the
round's totals (``bet_write``); its coins move through the ledger between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from rooms.rounds.broadcast import user_stakes
from rooms.rounds.models import Bet, Round, Shoe
from rooms.tables.models import Table
from wallets.models import Account


@dataclass
class BetRead:
    """What a bet at a locked table checks and shows.

    ``round``: the table's live round, locked, with its shoe (None: none is
    live); ``stakes``: the bettor's stakes on it by area; ``wallet`` and
    ``escrow``: the two accounts of the bet's ledger transaction, read, not
    locked (the ledger locks them), None if not made yet; ``finished_shoe``:
    the newer finished one of the table's last two shoes, whose seed the
    state reveals (``broadcast.public_state``).
    """

    round: Round | None
    stakes: dict[str, int]
    wallet: Account | None
    escrow: Account | None
    finished_shoe: Shoe | None


def live_round_locked(table: Table) -> Round | None:
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("shoe")
        .filter(table=table, phase__in=Round.LIVE_PHASES)
        .first()
    )


def bet_read(table: Table, user) -> BetRead:
    """Lock the locked table's live round (with its shoe) and read the rest of ``BetRead``."""
    rnd = live_round_locked(table)
    wallet = escrow = None
    for account in Account.objects.filter(Q(user_id=user.pk) | Q(code="escrow")):
        if account.user_id == user.pk:
            wallet = account
        elif account.code == "escrow":
            escrow = account
    shoes = list(Shoe.objects.filter(table=table).order_by("-number").defer("state")[:2])
    return BetRead(
        round=rnd,
        stakes=user_stakes(rnd.pk if rnd is not None else None, user.pk),
        wallet=wallet,
        escrow=escrow,
        finished_shoe=next((s for s in shoes if s.finished_at is not None), None),
    )


def bet_write(rnd: Round, user, area: str, amount: int, *, held: int, most_won: int) -> str:
    """Insert the bet with its ledger key ``round:<round>:bet:<bet>`` and save the round's totals; return the key.

    ``rnd``: the locked round with its new ``area_totals``, ``staked`` and ``exposure`` set;
    ``held`` and ``most_won``: the bet's ``bet_exposure``.
    """
    bet = Bet.objects.create(round=rnd, user=user, area=area, amount=amount, held=held, most_won=most_won)
    bet.ledger_key = f"round:{rnd.pk}:bet:{bet.pk}"
    bet.save(update_fields=["ledger_key"])
    rnd.save(update_fields=["area_totals", "staked", "exposure"])
    return bet.ledger_key
