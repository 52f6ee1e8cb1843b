"""A hand's money: the stake into escrow at the deal, a refund on cancel (settlement is settlement.py).

Coins carried into a hand (携带) leave the wallet for the house's escrow
account in one ``stake`` transaction (key ``hand:<id>:stake``), so a player in a
hand cannot withdraw them or stake them elsewhere. The hand then ends in
exactly one of: a ``settlement`` that empties the escrow into every seat's
wallet (carried ± result after rake) and the rake account, or a ``refund``
(key ``hand:<id>:refund``) that gives every seat back what it carried.
"""

from __future__ import annotations

import logging
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games.base import SeatSpec, SeededRng
from rooms.tables.carry import engine_carry
from rooms.tables.models import Hand
from rooms.tables.play import MOVE_FIELDS, Play
from rooms.tables.settlement import reset_after_hands
from wallets.errors import LedgerError
from wallets.models import MAX_AMOUNT, Account, LedgerTransaction
from wallets.services import Posting, house_account, ledger_post, ledger_post_many, wallet_for_user

logger = logging.getLogger(__name__)

# The most one seat carries into a hand, whatever the tier allows: the stake moves every
# seat's coins into escrow in one leg, which the ledger takes up to MAX_AMOUNT, and no game
# seats more than 10.
CARRY_CAP = MAX_AMOUNT // 10


def carried_amount(*, tier, balance: int) -> int:
    """Return the coins a seat carries into a hand (携带): the tier's carry, else its minimum.

    Every seat's stack is shown to the table, so it must not tell a wallet's
    balance: a wallet that holds the tier's ``carry_target`` carries exactly
    that, one that holds less carries the minimum to enter (which every human
    at the deal holds), and the rest stays in the wallet. A stack thus says at
    most which of two public amounts the wallet covers. Only a wallet below
    the minimum (a bot's) carries what it holds. Limited liability bounds the
    hand's loss by what is carried.
    """
    target = min(tier.carry_target, CARRY_CAP)
    if balance >= target:
        return target
    minimum = min(tier.minimum_coins, target)
    return minimum if minimum and balance >= minimum else balance


def lock_wallets(user_ids: list[int]) -> dict[int, Account]:
    """Lock the seated users' wallets in primary-key order (the ledger's order), creating missing ones."""
    rows = Account.objects.select_for_update(of=("self",)).filter(user_id__in=user_ids).order_by("pk")
    wallets = {account.user_id: account for account in rows}
    missing = set(user_ids) - set(wallets)
    for user in get_user_model().objects.filter(pk__in=missing):
        wallets[user.pk] = wallet_for_user(user=user)
    return wallets


def hand_start(play: Play, wallets: dict[int, Account], seats: list | None = None) -> Hand | None:
    """Deal a new hand at the play's waiting table and move every seat's carried coins into escrow.

    ``seats``: the seats dealt in (``carry.dealt_seats``: every seat, or a carried pot's
    players, the first seats), by default all of them; a carried pot goes in as the
    config's ``carry``. ``wallets``: every seated user's wallet, locked (``lock_wallets``). Returns
    None, and changes nothing but the humans' ``ready``, if a wallet refuses
    the stake. The hand's first deadline is set as the change is written.
    """
    table, seats = play.table, play.seats if seats is None else seats
    tier = table.tier
    info = games.REGISTRY[tier.game.slug]
    players = [
        {
            "user": seat.user_id,
            "name": seat.user.stored_name,  # a bot's in Chinese; pages show it in their language
            "is_bot": seat.is_bot,
            "carried": carried_amount(tier=tier, balance=wallets[seat.user_id].balance),
        }
        for seat in seats
    ]
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
    carried = engine_carry(table)
    if carried is not None:
        config["carry"] = carried
    seed = secrets.token_bytes(32)
    specs = [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in players]
    state = info.engine.new_hand(config, specs, SeededRng(seed, "hand"))
    last = play.last_hand  # read with the play when no hand is open
    number = (last.number if isinstance(last, Hand) else 0) + 1
    total = sum(p["carried"] for p in players)
    try:
        with transaction.atomic():  # a savepoint: a refused stake rolls the hand back with it
            hand = Hand.objects.create(
                table=table,
                number=number,
                game_slug=info.slug,
                seed=seed,
                config=config,
                players=players,
                state=state,
            )
            Hand.participants.through.objects.bulk_create(
                [Hand.participants.through(hand=hand, user_id=p["user"]) for p in players if not p["is_bot"]]
            )
            if total:
                hand.stake_key = f"hand:{hand.pk}:stake"
                play.hand_fields.add("stake_key")  # written with the change
                ledger_post_many(
                    postings=[
                        Posting(
                            key=hand.stake_key,
                            kind=LedgerTransaction.Kind.STAKE,
                            legs=[
                                *((wallets[p["user"]], -p["carried"]) for p in players if p["carried"]),
                                (house_account(code="escrow"), total),
                            ],
                            reference=f"hand:{hand.pk}",
                            memo=f"table {table.pk} hand {number}: coins carried into escrow",
                            game_slug=info.slug,
                            tier_id=table.tier_id,
                        )
                    ],
                    savepoint=False,  # this block's own savepoint rolls a refusal back
                )
    except LedgerError:
        logger.warning("table %s: a wallet refused the stake; no hand started", table.pk, exc_info=True)
        play.hand_fields.discard("stake_key")
        for seat in seats:
            if not seat.is_bot and seat.ready:
                seat.ready = False
                play.seat_changed(seat, "ready")
        return None
    for seat in seats:
        seat.ready = False
        play.seat_changed(seat, "ready")
    table.status = table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    for p in players:
        play.balances[p["user"]] = wallets[p["user"]].balance  # the ledger left it after the stake
    play.hand = hand
    play.hand_fields.update(MOVE_FIELDS)  # the clock sets its first deadline as the change is written
    return hand


def cancel(play: Play, reason: str) -> None:
    """Cancel the play's open hand: refund every stake from escrow and tell the table why."""
    hand = play.hand
    total = sum(p["carried"] for p in hand.players)
    if hand.stake_key and total:
        wallets = lock_wallets([p["user"] for p in hand.players])
        ledger_post(
            key=f"hand:{hand.pk}:refund",
            kind=LedgerTransaction.Kind.REFUND,
            legs=[
                (house_account(code="escrow"), -total),
                *((wallets[p["user"]], p["carried"]) for p in hand.players if p["carried"]),
            ],
            reference=f"hand:{hand.pk}",
            memo=f"hand {hand.pk} cancelled: {reason}"[:200],
            game_slug=hand.game_slug,
            tier_id=play.table.tier_id,
        )
    hand.status = Hand.Status.CANCELLED
    hand.cancel_reason = reason[:200]
    hand.deadline = None
    hand.finished_at = hand.finished_at or timezone.now()
    hand.save(update_fields=["status", "cancel_reason", "deadline", "finished_at"])
    play.seats = reset_after_hands([play.table], bump=False)[play.table.pk]
    play.hand, play.last_hand, play.hand_fields = None, hand, set()
    message = _("%(reason)s Every stake was refunded.") % {"reason": reason}
    play.notices.append({"type": "cancelled", "hand": hand.pk, "reason": message})
