"""Writes of the round runtime: entering a banker table, betting, the round clock, payouts and refunds.

Every service that changes a table runs in one durable transaction that first
locks the table's row (``select_for_update``), so PostgreSQL serialises
everything that happens at one table: bets, the clock, the payout. Locks are
always taken in the order table → round → bets → wallets → house accounts.
The last step of each is ``round_changed``: the event sequence moves on and
the viewers get the new state after commit.

A round: ``betting`` until its deadline → ``dealing`` (the engine deals the
whole coup at once; one step is revealed per ``reveal_ms``) → ``result``
(the payout is queued to Celery on entering it) → ``over``, and the next
round opens at once unless nobody has watched the table for
``ROUNDS_IDLE_SECONDS``. Money: each bet is one ledger transaction into
escrow; the round ends in one payout (``round:<id>:settle``) or one refund
(``round:<id>:refund``) transaction.
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections import defaultdict
from datetime import datetime, timedelta
from platform.accounts.services import stats_record_hand

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, OperationalError, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games.base import IllegalAction, SeededRng, apply_rake
from rooms.entry import entry_refusal
from rooms.errors import illegal_action_text
from rooms.models import Game, RoomTier
from rooms.rounds.banking import bank_apply, bank_leave, bank_open, waiting_for_payout
from rooms.rounds.betting import bet_read, bet_write, live_round_locked
from rooms.rounds.broadcast import area_room, engine_for, round_changed, tier_config, user_stakes
from rooms.rounds.errors import (
    AlreadyBet,
    AreaClosed,
    BadAmount,
    BadArea,
    BankerMayNotBet,
    BelowMinimum,
    BetRefused,
    BettingClosed,
    InsufficientCoins,
    NotABankerTable,
    NothingToCancel,
    NothingToRepeat,
    NotYourReveal,
    OverAreaLimit,
    OverBankLimit,
    OverTableLimit,
)
from rooms.rounds.models import Bet, Round, Shoe, Viewer
from rooms.services import tier_entry_check
from rooms.tables.errors import TableError, TableNotFound
from rooms.tables.models import Table
from wallets.errors import InsufficientFunds
from wallets.models import MAX_AMOUNT, LedgerTransaction
from wallets.services import Posting, house_account, ledger_post, ledger_post_many, wallet_for_user

logger = logging.getLogger(__name__)

BANKER = "banker"

# The most one round's bets may total, whatever the tier's own table limit (none, or a
# huge one), and the most they may win together (the sum of their ``bet_exposure`` most_won).
# A round pays out in ONE ledger transaction whose every leg (the escrow, each winner's credit,
# the bank) must stay within the ledger's limit per leg (MAX_AMOUNT): with both caps every leg
# fits, whatever an area pays (some pay 250:1). Above them a won round could never be paid and
# its stakes would stay in escrow.
ROUND_STAKE_CAP = MAX_AMOUNT // 100
ROUND_WIN_CAP = MAX_AMOUNT // 10


def _setting(name: str, default):
    return getattr(settings, name, default)


def lock_table(table_id: int, *, bump: bool = False) -> Table:
    """Lock the table's row (the one lock that serialises a table), with its tier and game; ``bump``: move ``seq`` on."""
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tier__game").filter(pk=table_id).first()
    )
    if table is None:
        raise TableNotFound()
    if bump:
        Table.objects.filter(pk=table_id).update(seq=F("seq") + 1)
        table.seq += 1
    return table


def _lock_banker_table(table_id: int, *, bump: bool = False) -> Table:
    table = lock_table(table_id, bump=bump)
    if table.tier.game.family != BANKER:
        raise NotABankerTable()
    return table


def _timing(config: dict, key: str, default: float) -> float:
    """A phase's length: the settings override (tests, demos) if set, else the round's config."""
    override = _setting(f"ROUNDS_{key.upper()}", None)
    value = override if override is not None else config.get(key, default)
    return max(float(value), 0.0)


# --- entering -------------------------------------------------------------------


def round_enter(*, tier_id: int, user) -> Table:
    """Check the tier's entry rule for ``user`` and return the tier's open table, creating it.

    Raises ``EntryRefused`` (the rule) or ``NotABankerTable`` (a seated game's tier).
    """
    with transaction.atomic(durable=True):
        # The tier row serialises first entries, so a tier never gets two open tables. FOR NO KEY
        # UPDATE, as quick start does (rooms/tables/seating.py): it serialises entries just as
        # well, and does not block the key-share lock that another transaction's deferred
        # foreign-key check takes on the tier row at COMMIT (a row pointing at the tier), which
        # FOR UPDATE did. Here nothing is awaited while the tier is held, so there is no cycle;
        # the plain FOR UPDATE only made those commits wait.
        tier = (
            RoomTier.objects.select_for_update(of=("self",), no_key=True)
            .select_related("game")
            .get(pk=tier_id)
        )
        if tier.game.family != Game.Family.BANKER:
            raise NotABankerTable()
        tier_entry_check(tier=tier, user=user)
        table = Table.objects.filter(tier=tier).exclude(status=Table.Status.CLOSED).order_by("pk").first()
        if table is None:
            table = Table.objects.create(tier=tier, seat_count=0, status=Table.Status.PLAYING)
        return table


def round_presence(*, table_id: int, user, channel: str, connected: bool) -> None:
    """Record that a socket started or stopped watching the table (a table nobody watches goes idle).

    A socket's arrival also deletes the table's rows of sockets gone for an
    hour: closed then, or never closed (their ASGI process was killed, or the
    database did not answer the close) and not seen since, which stopped
    counting after ``ROUNDS_VIEWER_STALE_SECONDS``. Without the second kind a
    row per such socket stayed for good.
    """
    now = timezone.now()
    if connected:
        Viewer.objects.update_or_create(
            channel=channel, defaults={"table_id": table_id, "user": user, "left_at": None, "seen_at": now}
        )
        hour_ago = now - timedelta(hours=1)
        Viewer.objects.filter(table_id=table_id).filter(
            Q(left_at__lt=hour_ago) | Q(left_at__isnull=True, seen_at__lt=hour_ago)
        ).delete()
    else:
        Viewer.objects.filter(channel=channel).update(left_at=now)


def round_presence_seen(*, channel: str) -> None:
    """Note that an open socket is still there (it just received a broadcast)."""
    Viewer.objects.filter(channel=channel, left_at__isnull=True).update(seen_at=timezone.now())


def viewers_fresh_since(now: datetime) -> datetime:
    """An open viewer not seen since this moment is stale (its process died without closing it)."""
    return now - timedelta(seconds=_setting("ROUNDS_VIEWER_STALE_SECONDS", 120.0))


def _watching(now: datetime) -> Q:
    """Viewers that keep a table going: open and seen lately, or gone less than ROUNDS_IDLE_SECONDS ago."""
    since = now - timedelta(seconds=_setting("ROUNDS_IDLE_SECONDS", 30.0))
    fresh = viewers_fresh_since(now)
    return Q(left_at__isnull=True, seen_at__gte=fresh) | Q(left_at__gte=since)


def _watched(table_id: int, now: datetime) -> bool:
    return Viewer.objects.filter(table_id=table_id).filter(_watching(now)).exists()


# --- betting --------------------------------------------------------------------


def _check_betting(rnd: Round | None) -> None:
    """Refuse unless the locked live round takes bets: phase ``betting`` and its deadline not passed."""
    if (
        rnd is None
        or rnd.phase != Round.Phase.BETTING
        or rnd.deadline is None
        or rnd.deadline <= timezone.now()
    ):
        raise BettingClosed()


def _check_bet(
    rnd: Round, area: str, amount: int, *, mine: int, staked: int, exposure: int
) -> tuple[int, int]:
    """Refuse a bet of ``amount`` on ``area`` the round does not take; return its ``(held, most_won)``.

    ``mine``: the bettor's stake there, ``staked``: the round's, ``exposure``:
    the most the round's bets can win so far. In order: the area exists and
    is open, the engine takes the bet, the minimum bet, the player's limit on
    the area (限红), the round's table limit (限额), and under a player banker
    the bank limit (``bank_check``). Reads nothing.
    """
    offered = {a["area"]: a for a in rnd.areas}
    if area not in offered:
        raise BadArea()
    if not offered[area]["open"]:
        raise AreaClosed()
    config = rnd.config
    try:
        engine_for(rnd.game_slug).validate_bet(config, rnd.shoe.state, area, amount)
    except IllegalAction as exc:
        raise BetRefused(illegal_action_text(exc), code=getattr(exc, "code", None)) from exc
    minimum = int(config.get("min_bet") or 1)
    if amount < minimum:
        raise BelowMinimum(_("The smallest bet at this table is %(minimum)s coins.") % {"minimum": minimum})
    limit = (config.get("area_limits") or {}).get(area)
    if limit is not None and mine + amount > limit:
        raise OverAreaLimit(
            _(
                "Your bets on one area may total at most %(limit)s coins a round; you already have %(mine)s on it."
            )
            % {"limit": limit, "mine": mine}
        )
    table_limit = config.get("table_limit")
    table_limit = ROUND_STAKE_CAP if table_limit is None else min(table_limit, ROUND_STAKE_CAP)
    if staked + amount > table_limit:
        raise OverTableLimit(
            _("All bets on this round may total at most %(limit)s coins; %(left)s more can be taken.")
            % {"limit": table_limit, "left": max(table_limit - staked, 0)}
        )
    held, most_won = engine_for(rnd.game_slug).bet_exposure(config, area, amount)
    if exposure + most_won > ROUND_WIN_CAP:
        raise OverTableLimit(
            _("All bets on this round may total at most %(limit)s coins; %(left)s more can be taken.")
            % {"limit": table_limit, "left": 0}
        )
    bank_check(rnd, area, most_won, exposure)
    return held, most_won


def bank_check(rnd: Round, area: str, most_won: int, exposure: int) -> None:
    """Refuse a bet whose wins the player banker could not pay: every bet's most_won together ≤ the bank."""
    if rnd.bank is not None and exposure + most_won > rnd.bank:
        raise OverBankLimit(
            _(
                "The banker holds %(bank)s coins, enough for the bets already taken and at most "
                "%(room)s more coins on this area."
            )
            % {"bank": rnd.bank, "room": area_room(rnd, area, exposure)}
        )


def _check_entry(table: Table, user, wallet) -> None:
    """The tier's entry rule on a player's first bet of a round, on the balance just read.

    As ``tier_entry_check`` reads it: unlocked; the ledger refuses an overdraft anyway.
    """
    refusal = entry_refusal(
        tier=table.tier,
        authenticated=bool(user.is_authenticated),
        balance=wallet.balance if wallet is not None else 0,
    )
    if refusal is not None:
        raise refusal


def round_bet(*, table_id: int, user, area: object, amount: object) -> int:
    """Place one bet on the table's round in its betting window; return the new event sequence.

    Checks, in order: betting open and its deadline not passed, the area
    exists and is open, the engine takes the bet, the minimum bet, the
    player's limit on the area (限红) and the round's table limit (限额), and
    on the player's first bet of a round the tier's entry rule (a wallet that
    fell below the tier's minimum plays no new round, as a seated player may
    not press ready); then moves the coins from the wallet to escrow in one
    ledger transaction (refused if the wallet is short). Any refusal changes
    nothing: it raises out of the one transaction, which rolls back the lot
    (the event seq bumped with the table lock included).

    The statements are counted (``rooms/rounds/tests/test_queries.py``): the
    table is locked with its seq bumped in one statement; the live round is
    locked with its shoe, and the bettor's stakes on it by area (the 限红
    check, the first-bet test, the broadcast's own part), the wallet and
    escrow accounts (the wallet's balance also serves the entry rule) and the
    table's last finished shoe (the broadcast) are read with it in one more
    (``betting.bet_read``); the bet is inserted with its ledger key and the
    round's totals saved in one (``betting.bet_write``); the ledger posts
    through ``ledger_post_many`` without a savepoint of its own, and leaves
    the wallet with its balance after the bet for the broadcast.
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        raise BadAmount()
    if not isinstance(area, str):
        raise BadArea()
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        read = bet_read(table, user)
        rnd = read.round
        _check_betting(rnd)
        stakes = read.stakes  # the table lock keeps them from changing meanwhile
        if rnd.banker_id == user.pk:
            raise BankerMayNotBet()
        held, most_won = _check_bet(
            rnd, area, amount, mine=stakes.get(area, 0), staked=rnd.staked, exposure=rnd.exposure
        )
        wallet, escrow = read.wallet, read.escrow
        if not stakes:
            _check_entry(table, user, wallet)
        if wallet is None or escrow is None:
            wallet = wallet or wallet_for_user(user=user)
            escrow = escrow or house_account(code="escrow")
        # The round's new totals go in with the bet (the ledger's refusal below rolls both back).
        rnd.area_totals = {**rnd.area_totals, area: rnd.area_totals.get(area, 0) + amount}
        rnd.staked += amount
        rnd.exposure += most_won
        bet_key = bet_write(rnd, user, area, amount, held=held, most_won=most_won)
        try:
            ledger_post_many(
                postings=[
                    Posting(
                        key=bet_key,
                        kind=LedgerTransaction.Kind.BET,
                        legs=[(wallet, -held), (escrow, held)],
                        reference=f"round:{rnd.pk}",
                        memo=f"table {table.pk} round {rnd.number}: {amount} on {area}",
                        game_slug=rnd.game_slug,
                        tier_id=table.tier_id,
                    )
                ],
                savepoint=False,  # a refusal raises out of this bet's one transaction, rolling it all back
            )
        except InsufficientFunds as exc:
            raise InsufficientCoins(
                _("You have %(balance)s coins; that bet needs %(amount)s.")
                % {"balance": exc.balance, "amount": held}
            ) from exc
        stakes[area] = stakes.get(area, 0) + amount
        return round_changed(
            table,
            users=[user.pk],
            bumped=True,
            rnd=rnd,
            stakes={user.pk: stakes},
            balances={user.pk: wallet.balance},  # the ledger's, under its lock
            finished_shoe=read.finished_shoe,
        )


def round_cancel(*, table_id: int, user) -> int:
    """撤销: return all the player's bets of the round from escrow while it still takes bets; return the new seq.

    One ledger transaction of kind ``cancel`` (escrow → wallet, the sum of
    the bets, reference ``round:<id>``) under the idempotency key
    ``round:<round>:cancel:<player>:<last bet>``, which names exactly the bets
    it returns: posted twice, it moves the coins once. The bets stay as rows
    marked with that key (``Bet.cancel_key``) and leave the round's totals.
    Refused, with nothing changed, after the betting window (``BettingClosed``)
    or with no bets to return (``NothingToCancel``: a retry of a cancel that
    went through).
    """
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        rnd = live_round_locked(table)
        _check_betting(rnd)
        bets = list(
            Bet.objects.standing()
            .select_for_update(of=("self",))
            .filter(round=rnd, user_id=user.pk, area__in=[a["area"] for a in rnd.areas])
            .order_by("pk")
        )
        if not bets:
            raise NothingToCancel()
        total = sum(bet.amount for bet in bets)
        held = sum(bet.held for bet in bets)
        key = f"round:{rnd.pk}:cancel:{user.pk}:{bets[-1].pk}"
        wallet = wallet_for_user(user=user)
        ledger_post_many(
            postings=[
                Posting(
                    key=key,
                    kind=LedgerTransaction.Kind.CANCEL,
                    legs=[(house_account(code="escrow"), -held), (wallet, held)],
                    reference=f"round:{rnd.pk}",
                    memo=f"table {table.pk} round {rnd.number}: {len(bets)} bet(s) of {total} cancelled",
                    game_slug=rnd.game_slug,
                    tier_id=table.tier_id,
                )
            ],
            savepoint=False,
        )
        Bet.objects.filter(pk__in=[bet.pk for bet in bets]).update(cancel_key=key)
        totals = dict(rnd.area_totals)
        for bet in bets:
            totals[bet.area] = totals.get(bet.area, 0) - bet.amount
        rnd.area_totals = {area: amount for area, amount in totals.items() if amount}
        rnd.staked -= total
        rnd.exposure -= sum(bet.most_won for bet in bets)
        rnd.save(update_fields=["area_totals", "staked", "exposure"])
        return round_changed(
            table,
            users=[user.pk],
            bumped=True,
            rnd=rnd,
            stakes={user.pk: {}} if rnd.window == 0 else None,  # a later window keeps the earlier bets
            balances={user.pk: wallet.balance},
        )


def previous_stakes(table: Table, user, rnd: Round) -> dict[str, int]:
    """The player's stakes by area on their last round at ``table`` before ``rnd`` with bets not cancelled ({} if none)."""
    last = (
        Bet.objects.standing()
        .filter(round__table_id=table.pk, user_id=user.pk, round__number__lt=rnd.number)
        .order_by("-round__number")
        .values_list("round_id", flat=True)
        .first()
    )
    return user_stakes(last, user.pk) if last is not None else {}


def round_repeat(*, table_id: int, user) -> int:
    """重复投: stake the player's last round's bets again (same areas, same amounts) in one go; return the new seq.

    Every area is checked as a bet is (``_check_bet``, the entry rule, the
    balance for the whole sum) before anything is staked; any refusal raises
    out of the one transaction and nothing is staked. Refused when the player
    already has bets on this round (``AlreadyBet``: repeating is the first
    action of a round, so a doubled click never stakes twice) or has no
    earlier round (``NothingToRepeat``). Each area is one ``Bet`` with its own
    ``bet`` ledger transaction, as a bet placed by hand.
    """
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        read = bet_read(table, user)
        rnd = read.round
        _check_betting(rnd)
        if rnd.banker_id == user.pk:
            raise BankerMayNotBet()
        if read.stakes:
            raise AlreadyBet()
        before = previous_stakes(table, user, rnd)
        if not before:
            raise NothingToRepeat()
        order = [a["area"] for a in rnd.areas]
        areas = sorted(before, key=lambda area: order.index(area) if area in order else len(order))
        staked, exposure = rnd.staked, rnd.exposure
        exposures = {}
        for area in areas:
            exposures[area] = _check_bet(rnd, area, before[area], mine=0, staked=staked, exposure=exposure)
            staked += before[area]
            exposure += exposures[area][1]
        total = sum(held for held, _most_won in exposures.values())
        wallet = read.wallet or wallet_for_user(user=user)
        _check_entry(table, user, wallet)
        if wallet.balance < total:
            raise InsufficientCoins(
                _("You have %(balance)s coins; your last round's bets need %(amount)s.")
                % {"balance": wallet.balance, "amount": total}
            )
        escrow = read.escrow or house_account(code="escrow")
        bets = [
            Bet.objects.create(
                round=rnd,
                user=user,
                area=area,
                amount=before[area],
                held=exposures[area][0],
                most_won=exposures[area][1],
            )
            for area in areas
        ]
        for bet in bets:
            bet.ledger_key = f"round:{rnd.pk}:bet:{bet.pk}"
        Bet.objects.bulk_update(bets, ["ledger_key"])
        totals = dict(rnd.area_totals)
        for area in areas:
            totals[area] = totals.get(area, 0) + before[area]
        rnd.area_totals = totals
        rnd.staked = staked
        rnd.exposure = exposure
        rnd.save(update_fields=["area_totals", "staked", "exposure"])
        try:
            ledger_post_many(
                postings=[
                    Posting(
                        key=bet.ledger_key,
                        kind=LedgerTransaction.Kind.BET,
                        legs=[(wallet, -bet.held), (escrow, bet.held)],
                        reference=f"round:{rnd.pk}",
                        memo=f"table {table.pk} round {rnd.number}: {bet.amount} on {bet.area} (repeat)",
                        game_slug=rnd.game_slug,
                        tier_id=table.tier_id,
                    )
                    for bet in bets
                ],
                savepoint=False,  # a refusal raises out of the one transaction, rolling it all back
            )
        except InsufficientFunds as exc:
            raise InsufficientCoins(
                _("You have %(balance)s coins; your last round's bets need %(amount)s.")
                % {"balance": exc.balance, "amount": total}
            ) from exc
        return round_changed(
            table,
            users=[user.pk],
            bumped=True,
            rnd=rnd,
            stakes={user.pk: {area: before[area] for area in areas}},
            balances={user.pk: wallet.balance},
            finished_shoe=read.finished_shoe,
        )


def round_reveal(*, table_id: int, user) -> int:
    """咪牌: the round's revealer turns the next card now, instead of waiting out the pause; return the new seq.

    Refused, with nothing changed, unless the round is paused for this player's reveal
    (``NotYourReveal``). It turns the pause's ``turns`` steps; the clock then turns the rest
    one per ``reveal_ms`` as usual.
    """
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        rnd = live_round_locked(table)
        if (
            rnd is None
            or rnd.phase != Round.Phase.DEALING
            or rnd.revealer_id != user.pk
            or rnd.revealer_step != rnd.revealed
        ):
            raise NotYourReveal()
        _reveal_step(rnd, timezone.now(), reveal_pause(rnd))
        return round_changed(table, bumped=True, rnd=rnd)


# --- the player banker -------------------------------------------------------------


def round_bank_apply(*, table_id: int, user) -> int:
    """Apply to bank: join the table's banker queue (``banking.bank_apply`` says when it is refused); return the new seq."""
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        bank_apply(table, tier_config(table.tier), user)
        return round_changed(table, users=[user.pk], bumped=True)


def round_bank_leave(*, table_id: int, user) -> int:
    """Step down: leave the banker queue, or step down as the banker after the current round; return the new seq."""
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id, bump=True)
        bank_leave(table, user, timezone.now())
        return round_changed(table, users=[user.pk], bumped=True)


# --- the clock ------------------------------------------------------------------


def _open_round(table: Table, now: datetime) -> Round | None:
    """Open the next round's betting window at the locked table, on a fresh shoe if the last is done.

    With player banking on, its banker is chosen and their coins escrowed (``banking.bank_open``);
    until the last round is paid it opens nothing (None), and the tick tries again.
    """
    tier = table.tier
    info = games.REGISTRY[tier.game.slug]
    engine = info.engine
    config = tier_config(tier)
    if waiting_for_payout(table, config):
        return None
    shoe = Shoe.objects.select_for_update(of=("self",)).filter(table=table, finished_at__isnull=True).first()
    if shoe is not None and engine.shoe_finished(shoe.state):
        shoe.finished_at = now
        shoe.save(update_fields=["finished_at"])
        shoe = None
    if shoe is None:
        number = (Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        seed = secrets.token_bytes(32)
        state = engine.new_shoe(config, SeededRng(seed, "shoe"))
        shoe = Shoe.objects.create(table=table, number=number, seed=seed, state=state)
    number = (Round.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
    coup = Round.objects.filter(shoe=shoe, dealt_at__isnull=False).count() + 1
    rnd = Round.objects.create(
        table=table,
        shoe=shoe,
        number=number,
        coup=coup,
        game_slug=info.slug,
        config=config,
        phase=Round.Phase.BETTING,
        deadline=now + timedelta(seconds=_timing(config, "bet_seconds", 15)),
        areas=engine.areas(config, shoe.state),
        roads=engine.roads(shoe.state),
    )
    bank_open(table, rnd, config, now, cap=ROUND_STAKE_CAP)
    return rnd


def _deal(rnd: Round, now: datetime) -> None:
    """Close the betting and deal the whole coup; the steps are revealed one by one after this."""
    engine = engine_for(rnd.game_slug)
    shoe = Shoe.objects.select_for_update(of=("self",)).get(pk=rnd.shoe_id)
    result, new_shoe = engine.deal(rnd.config, shoe.state)
    shoe.state = new_shoe
    shoe.save(update_fields=["state"])
    rnd.shoe = shoe
    rnd.result = result
    rnd.coup = int(result.get("coup") or rnd.coup)
    rnd.phase = Round.Phase.DEALING
    rnd.revealed = 0
    rnd.dealt_at = now
    rnd.deadline = now + timedelta(milliseconds=_timing(rnd.config, "reveal_ms", 900))
    rnd.save(update_fields=["shoe", "result", "coup", "phase", "revealed", "dealt_at", "deadline"])
    _plan_reveals(rnd)


def reveal_pauses(rnd: Round) -> list[dict]:
    """Every 咪牌 pause of the dealt coup (the engine's ``reveal_pause``: one dict or a list)."""
    hook = getattr(engine_for(rnd.game_slug), "reveal_pause", None)
    if not callable(hook) or not rnd.result:
        return []
    pauses = hook(rnd.config, rnd.result) or []
    return [pauses] if isinstance(pauses, dict) else list(pauses)


def reveal_pause(rnd: Round) -> dict | None:
    """The engine's 咪牌 pause at the round's current step, or None: the clock reveals alone."""
    return next((pause for pause in reveal_pauses(rnd) if pause["after"] == rnd.revealed), None)


def _plan_reveals(rnd: Round) -> None:
    """Name every pause's revealer from the bets standing now, as a betting window closes.

    No bet is placed or cancelled until the next window, so each pause reached before it
    finds its revealer here (``Round.revealers``), and every viewer sees who will turn what.
    """
    pauses = reveal_pauses(rnd)
    if not pauses and not rnd.revealers:
        return  # no 咪牌 in this game: nothing to write
    plan = []
    for pause in pauses:
        areas = list(pause["areas"])
        leader = reveal_leader(rnd, areas, pooled=bool(pause.get("pooled")))
        user_id, area = leader if leader is not None else (None, None)
        plan.append({"after": pause["after"], "areas": areas, "user": user_id, "name": None, "area": area})
    names = {pk: user.stored_name for pk, user in _users({e["user"] for e in plan if e["user"]}).items()}
    for entry in plan:
        entry["name"] = names.get(entry["user"])
    rnd.revealers = plan
    rnd.save(update_fields=["revealers"])


def _planned_revealer(rnd: Round, pause: dict) -> tuple[int, str] | None:
    """The revealer named for ``pause`` when the betting closed (planned now for a round dealt without one)."""
    if not rnd.revealers:
        _plan_reveals(rnd)
    entry = next((e for e in rnd.revealers if e["after"] == pause["after"]), None)
    return (entry["user"], entry["area"]) if entry and entry["user"] else None


def next_window(rnd: Round) -> dict | None:
    """The engine's next betting window (``betting_windows``) if it opens at the round's current step."""
    hook = getattr(engine_for(rnd.game_slug), "betting_windows", None)
    if not callable(hook) or not rnd.result:
        return None
    windows = hook(rnd.config, rnd.result)
    if rnd.window < len(windows) and windows[rnd.window]["after"] == rnd.revealed:
        return windows[rnd.window]
    return None


def reveal_leader(rnd: Round, areas: list[str], *, pooled: bool = False) -> tuple[int, str] | None:
    """Who turns the cards (咪牌): ``(user id, area)`` of the top bettor on the most-backed of ``areas``.

    The area with the most coins staked on it; on it, the player with the most; a tie between
    players goes to whoever reached their amount first (their last bet came first), a tie
    between areas to the area whose leader did. ``pooled``: the areas count as one (a side's
    areas of several betting windows), named by the first. None when nobody bet on those
    areas: the cards then open by themselves (001:210).
    """
    totals: dict[tuple[str, int], int] = defaultdict(int)
    last: dict[tuple[str, int], int] = {}
    for pk, area, user_id, amount in (
        Bet.objects.standing()
        .filter(round=rnd, area__in=areas)
        .order_by("pk")
        .values_list("pk", "area", "user_id", "amount")
    ):
        key = (areas[0] if pooled else area, user_id)
        totals[key] += amount
        last[key] = pk
    if not totals:
        return None
    area_totals = defaultdict(int)
    for (area, _user), amount in totals.items():
        area_totals[area] += amount
    area, user_id = max(totals, key=lambda key: (area_totals[key[0]], totals[key], -last[key]))
    return user_id, area


def _reveal_step(rnd: Round, now: datetime, pause: dict | None) -> None:
    """Show the next step, or the next ``turns`` of the ``pause`` at this step (a whole hand or cup)."""
    turns = max(int(pause.get("turns", 1)), 1) if pause is not None else 1
    rnd.revealed = min(rnd.revealed + turns, len(rnd.result["steps"]))  # a step is left: the callers' check
    rnd.deadline = now + timedelta(milliseconds=_timing(rnd.config, "reveal_ms", 900))
    rnd.save(update_fields=["revealed", "deadline"])


def _reveal(rnd: Round, now: datetime) -> None:
    """Show the next card, or once every card is shown, the result (and queue the payout).

    An engine's ``reveal_pause`` stops the clock's reveal after ``after`` steps for up to
    ``seconds``, while the top bettor of its ``areas`` may turn the next card (``round_reveal``);
    when their time is up the clock turns it. A pause's ``turns`` (default 1) is how many steps
    that turn shows at once, with or without a revealer.
    """
    steps = (rnd.result or {}).get("steps") or []
    if rnd.revealed < len(steps):
        window = next_window(rnd)
        if window is not None:
            rnd.phase = Round.Phase.BETTING
            rnd.earlier_areas = [*rnd.earlier_areas, rnd.areas]  # their bets stand, at these odds
            rnd.areas = window["areas"]
            rnd.window += 1
            rnd.deadline = now + timedelta(seconds=_timing(rnd.config, "bet_seconds", 15))
            rnd.save(update_fields=["phase", "earlier_areas", "areas", "window", "deadline"])
            return
        pause = reveal_pause(rnd)
        if pause is not None and rnd.revealer_step != rnd.revealed:
            leader = _planned_revealer(rnd, pause)
            if leader is not None:
                rnd.revealer_id, rnd.revealer_area = leader
                rnd.revealer_step = rnd.revealed
                rnd.deadline = now + timedelta(
                    seconds=_timing(rnd.config, "reveal_seconds", pause["seconds"])
                )
                rnd.save(update_fields=["revealer", "revealer_area", "revealer_step", "deadline"])
                return
        _reveal_step(rnd, now, pause)
        return
    rnd.phase = Round.Phase.RESULT
    rnd.result_at = now
    rnd.deadline = now + timedelta(seconds=_timing(rnd.config, "result_seconds", 5))
    if rnd.staked or rnd.bank:  # a player banker's coins go back through the payout even with no bets
        rnd.status = Round.Status.DUE
        round_id = rnd.pk
        transaction.on_commit(lambda: _queue_settlement(round_id))
    else:
        rnd.status = Round.Status.SETTLED  # nothing staked: nothing to pay
        rnd.paid, rnd.rake, rnd.settled_at = 0, 0, now
    rnd.save(update_fields=["phase", "result_at", "deadline", "status", "paid", "rake", "settled_at"])


def _queue_settlement(round_id: int) -> None:
    try:
        settle_round.delay(round_id)
    except Exception:  # noqa: BLE001 - the tick re-queues a payout that never ran
        logger.warning("could not queue the payout of round %s", round_id, exc_info=True)


def _finish(table: Table, rnd: Round, now: datetime) -> None:
    """End the round's display; finish its shoe if the engine says no coup may follow."""
    rnd.phase = Round.Phase.OVER
    rnd.deadline = None
    rnd.save(update_fields=["phase", "deadline"])
    shoe = rnd.shoe
    if shoe.finished_at is None and engine_for(rnd.game_slug).shoe_finished(shoe.state):
        shoe.finished_at = now
        shoe.save(update_fields=["finished_at"])


def round_advance(*, table_id: int) -> bool:
    """Move the table's round on if its deadline has passed (or open one); return whether anything changed.

    Re-checks everything under the table lock, so a late, early or doubled
    call does nothing wrong. An engine that fails while dealing refunds the
    round's bets.
    """
    with transaction.atomic(durable=True):
        table = _lock_banker_table(table_id)
        now = timezone.now()
        rnd = live_round_locked(table)
        payouts: list[dict] = []
        opened = None
        if rnd is None:
            if table.status == Table.Status.CLOSED or not _watched(table.pk, now):
                return False
            opened = _open_round(table, now)
            if opened is None:
                return False
        elif rnd.deadline is not None and rnd.deadline > now:
            return False
        elif rnd.phase == Round.Phase.BETTING and rnd.result is not None:
            # A later betting window closed (``betting_windows``): the reveal goes on.
            rnd.phase = Round.Phase.DEALING
            rnd.deadline = now + timedelta(milliseconds=_timing(rnd.config, "reveal_ms", 900))
            rnd.save(update_fields=["phase", "deadline"])
            _plan_reveals(rnd)
        elif rnd.phase == Round.Phase.BETTING:
            try:
                with transaction.atomic():
                    _deal(rnd, now)
            except DatabaseError:
                raise
            except Exception:
                logger.exception("round %s could not be dealt; refunding it", rnd.pk)
                _refund_locked(rnd, reason=_("The round could not be dealt."))
                payouts = _refund_notices(rnd)
        elif rnd.phase == Round.Phase.DEALING:
            _reveal(rnd, now)
        else:
            _finish(table, rnd, now)
            if table.status != Table.Status.CLOSED and _watched(table.pk, now):
                opened = _open_round(table, now)
        # A player banker's wallet just went into escrow: their page shows the new balance.
        banker = [opened.banker_id] if opened is not None and opened.banker_id else []
        round_changed(table, users=banker, payouts=payouts)
    return True


def rounds_tick() -> int:
    """Move every due round on, open rounds at watched tables, re-queue lost payouts; return the work done.

    Called at the end of ``rooms.tables.services.tables_tick``, so Celery beat
    and the in-process timer loop both drive it; a killed worker only delays a
    round, because the next tick finds the same overdue rows.
    """
    now = timezone.now()
    done = 0
    due = Round.objects.filter(phase__in=Round.LIVE_PHASES, deadline__lte=now).order_by("deadline")
    tables = list(due.values_list("table_id", flat=True)[:200])
    watched = (
        Viewer.objects.filter(_watching(now))
        .exclude(table__rounds__phase__in=Round.LIVE_PHASES)
        .exclude(table__status=Table.Status.CLOSED)
        .values_list("table_id", flat=True)
        .distinct()
    )
    tables += [t for t in watched[:100] if t not in tables]
    for table_id in tables:
        try:
            done += round_advance(table_id=table_id)
        except TableError:
            continue
    lost = Round.objects.filter(status=Round.Status.DUE, result_at__lte=now - timedelta(seconds=30))
    for round_id in list(lost.values_list("pk", flat=True)[:100]):
        # At most once a minute per round, so a worker outage does not pile up copies.
        if cache.add(f"rounds:settle-requeued:{round_id}", 1, timeout=60):
            _queue_settlement(round_id)
            done += 1
    return done


# --- money ----------------------------------------------------------------------


def _test_pause() -> None:
    # Test-only hook (the worker tests): hold the locks a while so two deliveries overlap.
    seconds = float(os.environ.get("ROUNDS_TEST_SETTLE_PAUSE") or 0)
    if seconds > 0:
        time.sleep(seconds)


def _users(ids) -> dict:
    User = Bet._meta.get_field("user").related_model
    return {u.pk: u for u in User.objects.filter(pk__in=list(ids))}


def round_settle(*, round_id: int) -> str | None:
    """Pay out a round whose result is shown, once: one balanced ledger transaction, stats, the table told.

    The transaction empties the round's escrow (−total staked) into each
    winner's wallet (stake + net − rake), the rake account (tier.rake_bps of
    each player's net profit for the round) and the house bank (the rest,
    either sign). Idempotent: a round not ``due`` is left alone. Returns the
    payout transaction key, or None if there was nothing to do. A result the
    engine cannot pay refunds the round instead.
    """
    table_id = Round.objects.filter(pk=round_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return None
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        rnd = Round.objects.select_for_update(of=("self",)).select_related("shoe").get(pk=round_id)
        if rnd.status != Round.Status.DUE:
            return None
        _test_pause()
        engine = engine_for(rnd.game_slug)
        bets = list(Bet.objects.standing().select_for_update(of=("self",)).filter(round=rnd).order_by("pk"))
        try:
            nets = [engine.payout(rnd.config, rnd.result, bet.area, bet.amount) for bet in bets]
        except (ValueError, KeyError, TypeError, IllegalAction):
            logger.exception("round %s cannot be paid out; refunding it", rnd.pk)
            _refund_locked(rnd, reason=_("The round could not be paid out."))
            round_changed(table, payouts=_refund_notices(rnd))
            return None
        staked: dict[int, int] = defaultdict(int)
        held: dict[int, int] = defaultdict(int)
        gross: dict[int, int] = defaultdict(int)
        for bet, net in zip(bets, nets, strict=True):
            bet.net = net
            staked[bet.user_id] += bet.amount
            held[bet.user_id] += bet.held
            gross[bet.user_id] += net
        if sum(staked.values()) != rnd.staked:
            raise RuntimeError(
                f"round {rnd.pk}: bets sum to {sum(staked.values())}, the round holds {rnd.staked}"
            )
        order = sorted(staked)
        banker = rnd.banker_id
        if banker is not None:
            # A player banker takes what the bettors lose and pays what they win; the escrow holds
            # their coins too, which cover every win (bank_check), so the house bank is not touched.
            order.append(banker)
            held[banker] += rnd.bank or 0
            gross[banker] -= sum(gross.values())
        total = sum(held.values())
        net_after, rake = apply_rake([gross[uid] for uid in order], table.tier.rake_bps)
        users = _users(order)
        credits = {uid: held[uid] + net for uid, net in zip(order, net_after, strict=True)}
        paid = sum(credits.values())
        legs = [(house_account(code="escrow"), -total)]
        legs += [(wallet_for_user(user=users[uid]), credit) for uid, credit in credits.items() if credit]
        if rake:
            legs.append((house_account(code="rake"), rake))
        bank = total - paid - rake
        if bank and banker is not None:
            raise RuntimeError(f"round {rnd.pk}: a player-banked round leaves {bank} for the house bank")
        if bank:
            legs.append((house_account(code="bank"), bank))
        key = f"round:{rnd.pk}:settle"
        ledger_post(
            key=key,
            kind=LedgerTransaction.Kind.PAYOUT,
            legs=legs,
            reference=f"round:{rnd.pk}",
            memo=f"table {table.pk} round {rnd.number}: payout, rake {rake}",
            game_slug=rnd.game_slug,
            tier_id=table.tier_id,
        )
        Bet.objects.bulk_update(bets, ["net"])
        for uid, net in zip(order, net_after, strict=True):
            stats_record_hand(user=users[uid], game_slug=rnd.game_slug, won=net > 0)
        rnd.status = Round.Status.SETTLED
        rnd.settle_key = key
        rnd.paid = paid
        rnd.rake = rake
        rnd.settled_at = timezone.now()
        rnd.save(update_fields=["status", "settle_key", "paid", "rake", "settled_at"])
        net_of = dict(zip(order, net_after, strict=True))
        payouts = [
            {
                "user": uid,
                "round": rnd.pk,
                "net": net_of[uid],
                "bets": per_area((b.area, b.amount, b.net) for b in bets if b.user_id == uid),
                **({"banker": True} if uid == banker else {}),
            }
            for uid in order
        ]
        round_changed(table, payouts=payouts)
    return key


def _refund_locked(rnd: Round, *, reason: str, actor=None) -> bool:
    """Return every bet of the locked round from escrow in one transaction; end the round."""
    if rnd.status not in (Round.Status.OPEN, Round.Status.DUE):
        return False
    stakes: dict[int, int] = defaultdict(int)
    for user_id, held in Bet.objects.standing().filter(round=rnd).values_list("user_id", "held"):
        stakes[user_id] += held
    if rnd.banker_id is not None and rnd.bank:
        stakes[rnd.banker_id] += rnd.bank  # the player banker's escrowed coins go back too
    key = ""
    if stakes:
        users = _users(stakes)
        key = f"round:{rnd.pk}:refund"
        ledger_post(
            key=key,
            kind=LedgerTransaction.Kind.REFUND,
            legs=[
                (house_account(code="escrow"), -sum(stakes.values())),
                *[(wallet_for_user(user=users[uid]), amount) for uid, amount in sorted(stakes.items())],
            ],
            reference=f"round:{rnd.pk}",
            actor=actor,
            memo=f"round {rnd.pk} refunded: {reason}"[:200],
            game_slug=rnd.game_slug,
            tier_id=rnd.table.tier_id,
        )
        Bet.objects.standing().filter(round=rnd).update(net=0)
    rnd.status = Round.Status.REFUNDED
    rnd.refund_key = key
    rnd.refund_reason = reason[:200]
    if rnd.is_live:
        rnd.phase = Round.Phase.OVER
    rnd.deadline = None
    rnd.settled_at = timezone.now()
    rnd.save(update_fields=["status", "refund_key", "refund_reason", "phase", "deadline", "settled_at"])
    return True


def per_area(bets) -> list[dict]:
    """One ``{"area", "amount", "net"}`` per area of ``(area, amount, net)`` bets, summed, in the order first bet.

    A payout lists a player's result area by area (banker 300: −300), not chip by chip.
    """
    rows: dict[str, dict] = {}
    for area, amount, net in bets:
        row = rows.setdefault(area, {"area": area, "amount": 0, "net": 0})
        row["amount"] += amount
        row["net"] += net
    return list(rows.values())


def _refund_notices(rnd: Round) -> list[dict]:
    """One ``payout`` message per bettor of a refunded round: every bet back, net 0."""
    bets: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for user_id, area, amount in rnd.bets.standing().order_by("pk").values_list("user_id", "area", "amount"):
        bets[user_id].append((area, amount, 0))
    if rnd.banker_id is not None:
        bets.setdefault(rnd.banker_id, [])
    return [
        {"user": uid, "round": rnd.pk, "net": 0, "refunded": True, "bets": per_area(rows)}
        for uid, rows in sorted(bets.items())
    ]


def round_refund(*, round_id: int, reason: str, actor=None) -> bool:
    """Return every bet of a round cut short by a fault; False if it was already paid or refunded.

    ``actor``: the staff member who asked, recorded on the refund transaction.
    """
    table_id = Round.objects.filter(pk=round_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic(durable=True):
        table = lock_table(table_id)
        rnd = Round.objects.select_for_update(of=("self",)).select_related("shoe").get(pk=round_id)
        if not _refund_locked(rnd, reason=reason, actor=actor):
            return False
        round_changed(table, payouts=_refund_notices(rnd))
    return True


# --- Celery tasks (rooms.rounds.tasks names them for the worker's autodiscovery) -----------


@shared_task(
    name="rounds.settle_round",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def settle_round(round_id: int) -> str | None:
    """Pay out a round (idempotent: a retry or a second worker changes nothing)."""
    return round_settle(round_id=round_id)


@shared_task(name="rounds.tick", acks_late=True, ignore_result=True, expires=5)
def tick() -> int:
    """Move due rounds on, open rounds at watched tables, re-queue lost payouts."""
    return rounds_tick()
