"""Settling finished hands: one balanced ``hand:<id>:settle`` ledger transaction per hand, exactly once.

A hand ends ``finished``, and its ``tables.settle_hand`` task settles it. The
task locks the hand's table and, without waiting for anyone (``SKIP LOCKED``),
up to ``batch - 1`` other tables with a finished hand, then settles all of them
in one database transaction: the house rows every settlement touches (escrow,
rake) are locked once per batch, last, just before the commit. Each hand is
still checked ``finished`` under its table's lock, posts its own transaction
with its own idempotency key, and its table gets its own frames after the
commit. A retry, a redelivery or a second worker changes nothing.
"""

from __future__ import annotations

import logging
import os
import time
from collections import defaultdict
from platform.accounts.services import stats_record_hands
from platform.accounts.tasks import grant_progress_task
from platform.staff.audit import audit_staff_only

from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from games.base import apply_rake
from rooms import transport
from rooms.tables import broadcast, carry
from rooms.tables.clock import away_past_grace
from rooms.tables.models import Hand, Seat, Table
from wallets.models import Account, LedgerTransaction
from wallets.services import Posting, house_account, ledger_post_many, wallet_for_user

logger = logging.getLogger(__name__)

# How many finished hands one settlement transaction may take (TABLE_SETTLE_BATCH overrides it).
SETTLE_BATCH = 100
SEAT_RESET_FIELDS = ["user", "ready", "trustee", "seated_at", "away_since", "is_bot", "connected"]


@shared_task(
    name="tables.settle_hand",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def settle_hand(hand_id: int, batch: int | None = None) -> str | None:
    """Settle a finished hand, and other finished hands in the same transaction."""
    if batch is None:
        batch = getattr(settings, "TABLE_SETTLE_BATCH", SETTLE_BATCH)
    with audit_staff_only():  # a task is no staff change: auditlog need not read each seat saved
        return hand_settle(hand_id=hand_id, batch=batch)


def hand_settle(*, hand_id: int, batch: int = 1) -> str | None:
    """Settle the hand once (and up to ``batch - 1`` other finished hands); return its transaction key.

    Idempotent: a hand that is not ``finished`` under its table's lock (already
    settled, cancelled) is left alone and None is returned for it.
    """
    table_id = Hand.objects.filter(pk=hand_id, status=Hand.Status.FINISHED).values_list("table_id", flat=True)
    table_id = table_id.first()
    if table_id is None:
        return None
    if batch > 1:
        try:
            return _settle(table_id, hand_id, batch)
        except OperationalError:
            raise  # a database hiccup: the task retries
        except Exception:
            # One bad hand must not block the others: settle this one alone.
            logger.exception("settling a batch with hand %s failed; settling the hand alone", hand_id)
    return _settle(table_id, hand_id, 1)


def _settle(table_id: int, hand_id: int, batch: int) -> str | None:
    messages: list[tuple[str, dict]] = []
    with transaction.atomic(durable=True):
        tables = _lock_tables(table_id, batch)
        hands = list(
            Hand.objects.select_for_update(of=("self",))
            .filter(table_id__in=list(tables), status=Hand.Status.FINISHED)
            .order_by("pk")
        )
        if not hands:
            return None
        _test_pause()
        keys = _settle_locked(tables, hands, messages)
        transaction.on_commit(lambda: transport.send_many(messages))
    return keys.get(hand_id)


def _lock_tables(table_id: int, batch: int) -> dict[int, Table]:
    """Lock the hand's table (waiting for it) and up to ``batch - 1`` free tables with a finished hand."""
    locked = Table.objects.select_for_update(of=("self",)).select_related("tier__game")
    tables = {table.pk: table for table in locked.filter(pk=table_id)}
    if batch > 1:
        waiting = Hand.objects.filter(status=Hand.Status.FINISHED).exclude(table_id=table_id)
        others = (
            Table.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("tier__game")
            .filter(pk__in=waiting.values("table_id")[: batch * 4])
            .order_by("pk")[: batch - 1]
        )
        tables.update((table.pk, table) for table in others)
    return tables


def _test_pause() -> None:
    # Test-only hook (the worker-kill tests): hold the locks so the worker can be killed
    # mid-settlement. Unset everywhere else.
    seconds = float(os.environ.get("TABLES_TEST_SETTLE_PAUSE") or 0)
    if seconds > 0:
        time.sleep(seconds)


def _settle_locked(tables: dict[int, Table], hands: list[Hand], messages: list) -> dict[int, str]:
    """Settle the locked finished ``hands``; queue each table's frames in ``messages``."""
    users = {p["user"] for hand in hands for p in hand.players}
    wallets = _lock_wallets(users)
    escrow, rake_account = house_account(code="escrow"), house_account(code="rake")
    balance = {user_id: account.balance for user_id, account in wallets.items()}
    now = timezone.now()
    postings, keys = [], {}
    stats: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for hand in hands:
        table = tables[hand.table_id]
        outcome = hand.outcome
        details = outcome.get("details") or {}
        deltas, winners = list(outcome["deltas"]), set(outcome["winners"])
        # The rake the hand was dealt under (editing the tier changes only later hands).
        net, rake = apply_rake(deltas, int(hand.config.get("rake_bps", table.tier.rake_bps)))
        total = sum(p["carried"] for p in hand.players)
        legs = [(escrow, -total)] if total else []
        for player, amount in zip(hand.players, net, strict=True):
            if player["carried"] + amount:
                legs.append((wallets[player["user"]], player["carried"] + amount))
                balance[player["user"]] += player["carried"] + amount
        if rake:
            legs.append((rake_account, rake))
        pot = carry.pot_move(hand, details, deltas)  # a pot carried in or out (a tie rolled on)
        if pot:
            legs.append((carry.pot_account(table.pk), pot))
        carried_on = carry.carry_of(details)
        table.carry = {**carried_on, "hand": hand.pk} if carried_on else None
        key = f"hand:{hand.pk}:settle"
        if legs:
            postings.append(
                Posting(
                    key=key,
                    kind=LedgerTransaction.Kind.SETTLEMENT,
                    legs=legs,
                    reference=f"hand:{hand.pk}",
                    memo=f"table {table.pk} hand {hand.number}: settlement, rake {rake}",
                    game_slug=hand.game_slug,
                    tier_id=table.tier_id,
                )
            )
        for index, player in enumerate(hand.players):
            if not player["is_bot"]:
                counts = stats[hand.game_slug][player["user"]]
                counts[0] += 1
                counts[1] += index in winners
        hand.status = Hand.Status.SETTLED
        hand.settlement_key = key if legs else ""
        hand.settled_at = now
        hand.outcome = {**outcome, "net": net, "rake": rake}
        hand.save(update_fields=["status", "settlement_key", "settled_at", "outcome"])
        keys[hand.pk] = key
        next_first = details.get("next_first_seat")
        table.next_first_seat = next_first if isinstance(next_first, int) else None
    for slug, counts in stats.items():
        stats_record_hands(game_slug=slug, results={user: tuple(c) for user, c in counts.items()})
    humans = sorted({user for counts in stats.values() for user in counts})
    if humans:  # a sign-up grant paid in parts pays the parts these hands earned (after the commit)
        transaction.on_commit(lambda: grant_progress_task.delay(humans))
    releases: list[Posting] = []
    seats = reset_after_hands(list(tables.values()), releases=releases)
    ledger_post_many(
        postings=postings + releases
    )  # last: the hot house rows stay locked only until the commit
    for posting in releases:
        balance.update(
            (account.user_id, account.balance) for account, _amount in posting.legs if account.user_id
        )
    for hand in hands:
        table = tables[hand.table_id]
        scene = broadcast.Scene(table, seats[table.pk], None, notices=[{"type": "result"}], last_hand=hand)
        slug = table.tier.game.slug
        scene.balances = {s.user_id: balance[s.user_id] for s in scene.seats if s.user_id in balance}
        scene.wins = broadcast.balances_and_wins(slug, [s.user_id for s in scene.seats if s.user_id])[1]
        messages.append((broadcast.table_group(table.pk), broadcast.frames_message(scene)))
    return keys


def _lock_wallets(user_ids: set[int]) -> dict[int, Account]:
    """Lock the players' wallets in primary-key order (the ledger's order); create missing ones."""
    rows = Account.objects.select_for_update(of=("self",)).filter(user_id__in=user_ids).order_by("pk")
    wallets = {account.user_id: account for account in rows}
    missing = user_ids - set(wallets)
    if missing:
        user_model = Seat._meta.get_field("user").related_model
        for user in user_model.objects.filter(pk__in=missing):
            wallets[user.pk] = wallet_for_user(user=user)
    return wallets


def reset_after_hands(
    tables: list[Table], *, bump: bool = True, releases: list[Posting] | None = None
) -> dict[int, list[Seat]]:
    """Between hands, at each locked table: bots stay ready, humans press ready again, players whose
    page is gone stand up; a table left without humans closes. Returns each table's seats, users
    loaded; ``bump`` moves each table's ``seq`` on (a caller inside a change already did).

    A carried pot's chain closes up or ends (``carry.after_seating``): a pot shared out is
    appended to ``releases`` for the caller to post, or posted here when it is None."""
    seats: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    rows = Seat.objects.filter(table__in=list(seats)).select_related("user").order_by("table_id", "index")
    for seat in rows:
        seats[seat.table_id].append(seat)
    now = timezone.now()
    for table in tables:
        humans = False
        for seat in seats[table.pk]:
            if seat.user_id is None:
                continue
            if seat.is_bot:
                seat.ready, seat.trustee = True, False
            elif not seat.connected and away_past_grace(seat, now):
                # Away past the grace: stands up. Within it (a page reloading as the hand
                # ends) the seat is kept; the tick stands them up after TABLE_AWAY_LEAVE.
                seat.user, seat.ready, seat.trustee, seat.seated_at, seat.away_since = (
                    None,
                    False,
                    False,
                    None,
                    None,
                )
            else:
                seat.ready, seat.trustee = False, False
                humans = True
        release = carry.after_seating(table, seats[table.pk], closing=not humans)
        if release is not None and releases is not None:
            releases.append(release)
        elif release is not None:
            ledger_post_many(postings=[release])
        if not humans:  # only bots (or nobody) left: the table closes and the bots go home
            for seat in seats[table.pk]:
                seat.user, seat.is_bot, seat.ready, seat.connected, seat.away_since = (
                    None,
                    False,
                    False,
                    False,
                    None,
                )
        for seat in seats[table.pk]:
            seat.save(update_fields=SEAT_RESET_FIELDS)
        table.status = Table.Status.WAITING if humans else Table.Status.CLOSED
        Table.objects.filter(pk=table.pk).update(
            status=table.status,
            next_first_seat=table.next_first_seat,
            carry=table.carry,
            updated_at=now,
            seq=F("seq") + int(bump),
        )
        table.seq += int(bump)
    return seats
