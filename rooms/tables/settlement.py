"""Settling finished hands: one ``hand:<id>:settle`` transaction per hand, many hands per database transaction.

A hand ends ``finished`` and its ``tables.settle_hand`` task settles it. The
task takes the hand's table lock and, without waiting for anyone, the locks
of up to ``batch - 1`` other tables with a finished hand (``SKIP LOCKED``),
then settles all those hands together in one database transaction: the
statements are per batch, not per hand (wallets, stats, hands, seats, tables,
ledger), and the hot house rows (escrow, rake) are locked once, last, just
before the commit. Each hand still settles exactly once: it is checked
``finished`` under its table's and its own row lock, posts its own balanced
transaction with its own idempotency key, and its table gets its own
``result`` broadcast after the commit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections import defaultdict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.db.models.fields.json import KT
from django.utils import timezone

from games.base import apply_rake
from rooms.tables.broadcast import TableContext, away_past_grace, frames_message, table_group
from rooms.tables.fanout import fanout_publish, redis_client
from rooms.tables.models import Hand, Seat, Table
from wallets.models import Account

logger = logging.getLogger(__name__)

# How many finished hands one settlement transaction may take (the task's default; the
# TABLE_SETTLE_BATCH setting overrides it). The first hand of a full batch waits for the
# whole batch: about 1 ms of CPU per hand here (bench/settlement.py), so ~0.1 s for 100.
SETTLE_BATCH = 100


def hand_settle(*, hand_id: int) -> str | None:
    """Settle a finished hand once: one balanced ledger transaction, win counts, the table told.

    Idempotent: under the table and hand locks a hand that is not
    ``finished`` (already settled, cancelled) is left alone. Returns the
    settlement transaction key, or None if there was nothing to do.
    """
    return hand_settle_batch(hand_id=hand_id, batch=1)


def hand_settle_batch(*, hand_id: int, batch: int = SETTLE_BATCH) -> str | None:
    """Settle the hand and, in the same transaction, up to ``batch - 1`` other finished hands.

    The others are hands whose table nobody holds, so draining them never
    waits; if more than a batch is waiting, another task is requested first,
    so idle workers drain the next batch at the same time. If the hand's own
    table is busy (another worker is settling it in its batch), the task still
    drains what it can, then waits for that table and finds the hand settled,
    or settles it alone. Returns the hand's settlement key, or None if there
    was nothing to do for it. If a batch fails for any reason but a database
    hiccup (which the task retries), the hand is settled alone, so one bad
    hand never blocks the others.
    """
    if batch <= 1:
        table_id = _own_table(hand_id)
    else:
        _pending_clear()  # a queued task has started: the next finished hand must queue its own
        waiting = list(_finished_hands().values_list("pk", "table_id")[: batch + 1])
        if len(waiting) > batch and _pending_store() is not None:
            # With a broker only: in-process (eager) tasks each settle their own hand anyway.
            settlement_request(hand_id=waiting[-1][0])
        if not waiting:
            return None
        # The hand's own table, if it is still to settle: the list says so unless it is full
        # (the hand may be further down the backlog), when the hand is read.
        table_id = next((table for pk, table in waiting if pk == hand_id), None)
        if table_id is None and len(waiting) > batch:
            table_id = _own_table(hand_id)
        # Only the hand itself to settle (under a steady load, most tasks): it settles alone
        # below, as a batch of one would, without the batch's skip-locked search for other
        # tables and its tiers' read, which cost this task more CPU than the settlement itself.
        if len(waiting) > 1 or table_id is None:
            try:
                done, key = _settle_in_transaction(table_id=table_id, hand_id=hand_id, batch=batch)
                if done or table_id is None:
                    return key
            except OperationalError:
                raise
            except Exception:
                if table_id is None:
                    raise
                logger.exception("settling a batch with hand %s failed; settling the hand alone", hand_id)
    if table_id is None:
        return None
    return _settle_in_transaction(table_id=table_id, hand_id=hand_id, batch=1)[1]


def _own_table(hand_id: int) -> int | None:
    """The hand's table if the hand is finished and not yet settled, else None (settled and cancelled are final)."""
    row = Hand.objects.filter(pk=hand_id).values_list("table_id", "status").first()
    return row[0] if row is not None and row[1] == Hand.Status.FINISHED else None


# How many batches of finished hands a task looks at to fill its own (others may be locked by
# other workers): enough for this many workers settling at once.
CANDIDATE_BATCHES = 8


def _finished_hands():
    """Finished hands in the order of the open hands' index (``hand_open_status``), which a plain index scan reads.

    Settling rewrites each hand out of ``finished``, leaving a dead index entry
    behind until a vacuum. Read in index order, the scan marks such entries dead as
    it passes them and later scans skip them, and it stops at the query's limit;
    sorted by primary key or deadline instead, PostgreSQL reads every finished hand
    (tens of milliseconds per batch after a few thousand hands, with a bitmap scan
    that revisits every dead entry's heap page). Which finished hands come first
    does not matter: each is settled once, whoever takes it.
    """
    return Hand.objects.filter(status=Hand.Status.FINISHED).order_by("status")


# --- asking for a settlement -------------------------------------------------------------------

# While a settlement task is queued and has not started, the hands that finish meanwhile need
# no task of their own: it drains them when it starts. A Redis key says so (set-if-absent, with
# an expiry so that a lost task delays the next hands by seconds; the tick re-queues any
# finished hand left unsettled after 30 s).
PENDING_SECONDS = 5
_flag_store = None


def _pending_store():
    """Return (Redis client, key) for the pending-task flag, or None when tasks run in-process."""
    global _flag_store
    from platform.celery_app import app

    if app.conf.task_always_eager or not getattr(settings, "REDIS_URL", ""):
        return None
    if _flag_store is None:
        import redis

        _flag_store = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    return _flag_store, f"tables:settle-pending:{connection.settings_dict['NAME']}"


def settlement_request(*, hand_id: int) -> None:
    """Queue the settlement of a finished hand, unless a queued task that has not started will drain it.

    Call after the hand's ``finished`` state is committed (``hand_finish`` does, on commit).
    """
    from rooms.tables.tasks import settle_hand

    store = _pending_store()
    if store is not None:
        client, key = store
        try:
            if not client.set(key, hand_id, nx=True, ex=PENDING_SECONDS):
                return
        except Exception:  # noqa: BLE001 - without the flag, queue a task per hand as before
            logger.warning("settlement flag unavailable; queueing hand %s", hand_id, exc_info=True)
    settle_hand.delay(hand_id)


def _pending_clear() -> None:
    store = _pending_store()
    if store is not None:
        client, key = store
        try:
            client.delete(key)
        except Exception:  # noqa: BLE001 - a stale flag only expires a few seconds later
            logger.warning("settlement flag unavailable", exc_info=True)


def _test_pause() -> None:
    # Test-only hook (the worker-kill tests): hold the locks for a while so the
    # worker can be killed mid-settlement. Unset everywhere else.
    seconds = float(os.environ.get("TABLES_TEST_SETTLE_PAUSE") or 0)
    if seconds > 0:
        time.sleep(seconds)


def _settle_in_transaction(*, table_id: int | None, hand_id: int, batch: int) -> tuple[bool, str | None]:
    """Settle what can be locked; return (whether the hand's own table was locked, the hand's key).

    ``table_id`` None: the hand is not waiting; only drain the others.
    """
    from rooms.tables.core import lock_table

    with transaction.atomic(durable=True):
        if batch == 1:
            tables = {table_id: lock_table(table_id)}
        else:
            # Never wait here: a busy table is someone else's. One open hand per table (a
            # unique constraint), so no table comes twice.
            free = Table.objects.select_for_update(of=("self",), skip_locked=True)
            tables = {table.pk: table for table in free.filter(pk=table_id)} if table_id else {}
            # The first few batches' worth of finished hands in index order (not every one of
            # them, which costs a scan of the whole backlog per batch); the busy ones are skipped.
            candidates = _finished_hands().values("table_id")[: batch * CANDIDATE_BATCHES]
            others = free.filter(pk__in=candidates).exclude(pk=table_id)
            tables.update((table.pk, table) for table in others.order_by("pk")[: batch - len(tables)])
            _attach_tiers(tables.values())
        finished = list(
            Hand.objects.select_for_update(of=("self",))
            .defer("config")  # the engine's options; settling and the snapshots never read them,
            .annotate(dealt_rake_bps=KT("config__rake_bps"))  # but for the rake the hand was dealt under
            .filter(table_id__in=list(tables), status=Hand.Status.FINISHED)
            .order_by("pk")
        )
        keys = {}
        if finished:
            _test_pause()
            keys = _settle_locked(tables={h.table_id: tables[h.table_id] for h in finished}, hands=finished)
    return table_id in tables, keys.get(hand_id)


def _attach_tiers(tables) -> None:
    """Give the tables their tier (with its game) from one query per batch, not one copy per table."""
    from rooms.models import RoomTier

    tables = list(tables)
    tiers = RoomTier.objects.select_related("game").in_bulk({table.tier_id for table in tables})
    for table in tables:
        table.tier = tiers[table.tier_id]


def _settle_locked(*, tables: dict[int, Table], hands: list[Hand]) -> dict[int, str]:
    """Settle the locked finished ``hands`` at their locked ``tables``; return each hand's key."""
    from platform.accounts.services import stats_record_hands

    from wallets.models import LedgerTransaction
    from wallets.services import Posting, ledger_post_many

    # Wallets first (the ledger's lock order); the house rows are locked by the posting, last.
    wallets = _lock_wallets({p["user"] for hand in hands for p in hand.players})
    escrow, rake_account = _house_accounts()
    balance = {account.pk: account.balance for account in wallets.values()}
    now = timezone.now()
    postings: list[Posting] = []
    keys: dict[int, str] = {}
    results: dict[int, dict] = {}
    stats: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for hand in hands:
        table = tables[hand.table_id]
        deltas = list(hand.outcome["deltas"])
        winners = set(hand.outcome["winners"])
        details = hand.outcome.get("details") or {}
        dealt_rake = getattr(hand, "dealt_rake_bps", None)  # None: dealt before hands recorded it
        net, rake = apply_rake(deltas, table.tier.rake_bps if dealt_rake is None else int(dealt_rake))
        total = sum(p["carried"] for p in hand.players)
        legs = [(escrow, -total)] if total else []
        for player, amount in zip(hand.players, net, strict=True):
            if player["carried"] + amount:
                legs.append((wallets[player["user"]], player["carried"] + amount))
        if rake:
            legs.append((rake_account, rake))
        key = f"hand:{hand.pk}:settle"
        if legs:
            postings.append(
                Posting(
                    key=key,
                    kind=LedgerTransaction.Kind.SETTLEMENT,
                    legs=legs,
                    reference=f"hand:{hand.pk}",
                    memo=f"table {table.pk} hand {hand.number}: settlement, rake {rake}",
                )
            )
            for account, amount in legs:
                if account.pk in balance:
                    balance[account.pk] += amount
        for index, player in enumerate(hand.players):
            if not player["is_bot"]:
                counts = stats[hand.game_slug][player["user"]]
                counts[0] += 1
                counts[1] += index in winners
        hand.status = Hand.Status.SETTLED
        hand.settlement_key = key if legs else ""
        hand.settled_at = now
        hand.outcome = {**hand.outcome, "net": net, "rake": rake}
        keys[hand.pk] = key
        next_first = details.get("next_first_seat")
        table.next_first_seat = next_first if isinstance(next_first, int) else None
        results[hand.pk] = {
            "type": "result",
            "hand": hand.pk,
            "winner": details.get("winner"),
            "multiple": details.get("multiple"),
            "rake": rake,
            "details": details,
            "seats": [
                {
                    "index": i,
                    "name": p["name"],
                    "delta": net[i],
                    "rake": deltas[i] - net[i],
                    "balance": balance[wallets[p["user"]].pk],
                    "won": i in winners,
                }
                for i, p in enumerate(hand.players)
            ],
        }
    wins: dict[tuple[int, str], int] = {}  # the counted players' wins after these hands, for their levels
    for game_slug, counts_by_user in stats.items():
        counted = stats_record_hands(
            game_slug=game_slug, results={u: tuple(c) for u, c in counts_by_user.items()}
        )
        wins.update(((user_id, game_slug), won) for user_id, won in (counted or {}).items())
    _save_hands(hands)
    seats = reset_tables_after_hands(list(tables.values()), bump_seq=True)
    balances = balance_by_user(wallets, balance)
    # Last: the hot escrow and rake rows stay locked only from here to the commit.
    ledger_post_many(postings=postings)
    transaction.on_commit(lambda: _broadcast_results(tables, hands, seats, results, balances, wins))
    return keys


def _broadcast_results(
    tables: dict[int, Table],
    hands: list[Hand],
    seats: dict[int, list[Seat]],
    results: dict[int, dict],
    balances: dict[int, int],
    wins: dict[tuple[int, str], int] | None = None,
) -> None:
    """After the commit: build and send the frames of the settled tables somebody listens to.

    Every viewer's frames of a table are built only when a socket is on its
    group (one pipelined Redis round trip for the whole batch): a table whose
    players are all away, or that nobody watches, costs no snapshots. The
    frames come from the rows settled in memory, as the commit left them.
    """
    if get_channel_layer() is None or not hands:
        return
    listened = listened_groups({table_group(pk) for pk in tables})
    if listened is not None:
        hands = [hand for hand in hands if table_group(hand.table_id) in listened]
    if hands:
        send_in_one_hop(_result_messages(tables, hands, seats, results, balances, wins))


def listened_groups(groups: set[str]) -> set[str] | None:
    """Which of ``groups`` somebody listens to, asked once for all; None when the layer cannot tell.

    A seat whose player is away, a bot's seat and a table nobody watches have
    no member; ``group_send`` would spend two Redis round trips per group to
    find that out.
    """
    layer = get_channel_layer()
    try:
        return _groups_with_members(layer, groups)
    except Exception:  # noqa: BLE001 - unsure who listens: send to every group, as group_send would
        logger.warning("could not count group members; sending to every group", exc_info=True)
        return None


def balance_by_user(wallets: dict[int, Account], balance: dict[int, int]) -> dict[int, int]:
    return {user_id: balance[account.pk] for user_id, account in wallets.items()}


def _lock_wallets(user_ids: set[int]) -> dict[int, Account]:
    """Lock the players' wallets in primary-key order (the ledger's global order); create missing ones."""
    from wallets.services import wallet_for_user

    if connection.vendor == "postgresql":
        rows = Account.objects.raw(
            f"SELECT * FROM {connection.ops.quote_name(Account._meta.db_table)} "
            "WHERE user_id = ANY(%s) ORDER BY id FOR UPDATE",
            [sorted(user_ids)],
        )
    else:
        rows = Account.objects.select_for_update(of=("self",)).filter(user_id__in=user_ids).order_by("pk")
    wallets = {account.user_id: account for account in rows}
    missing = user_ids - set(wallets)
    if missing:
        User = Seat._meta.get_field("user").related_model
        for user in User.objects.filter(pk__in=missing):
            wallets[user.pk] = wallet_for_user(user=user)
    return wallets


def _house_accounts() -> tuple[Account, Account]:
    """Return the escrow and rake accounts, unlocked (the posting locks them), creating them if missing."""
    from wallets.services import house_account

    house = {account.code: account for account in Account.objects.filter(code__in=("escrow", "rake"))}
    for code in ("escrow", "rake"):
        if code not in house:
            house[code] = house_account(code=code)
    return house["escrow"], house["rake"]


def _save_hands(hands: list[Hand]) -> None:
    """Write the settled hands' status, key, time and outcome in one statement."""
    fields = ["status", "settlement_key", "settled_at", "outcome"]
    if connection.vendor != "postgresql":
        # Django's CASE-per-row bulk_update is slow to build; a save per row needs none. (On
        # PostgreSQL a single hand goes through the statement below too: Model.save compiled
        # its UPDATE at every settlement.)
        for hand in hands:
            hand.save(update_fields=fields)
        return
    table = connection.ops.quote_name(Hand._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS h SET status = v.status, settlement_key = v.settlement_key, "
            "settled_at = v.settled_at, outcome = v.outcome FROM json_to_recordset(%s::json) "
            "AS v(id bigint, status varchar, settlement_key varchar, settled_at timestamptz, outcome jsonb) "
            "WHERE h.id = v.id",
            [
                _recordset(
                    {
                        "id": hand.pk,
                        "status": hand.status,
                        "settlement_key": hand.settlement_key,
                        "settled_at": hand.settled_at.isoformat(),
                        "outcome": hand.outcome,
                    }
                    for hand in hands
                )
            ],
        )


def _recordset(rows) -> str:
    """Many rows as one JSON parameter (``json_to_recordset``): encoded in C, where the driver would
    quote every element of an array parameter in Python."""
    return json.dumps(list(rows), separators=(",", ":"))


SEAT_FIELDS = ("table", "index", "user", "is_bot", "ready", "trustee", "connected", "seated_at", "away_since")


def reset_tables_after_hands(tables: list[Table], *, bump_seq: bool = True) -> dict[int, list[Seat]]:
    """Between hands, at every locked table: bots stay ready, humans must press ready, players who
    left the page stand up; a table left without humans closes. Return each table's seats, users loaded.

    A few UPDATEs for all the tables together, whatever their number. ``bump_seq``
    moves each table's event sequence on (as ``table_changed`` would) for a
    caller that builds the broadcast itself.
    """
    by_table: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    seats = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("user")
        .only(*SEAT_FIELDS, "user__username", "user__nickname")  # a seat shows its player's name only
        .filter(table__in=[table.pk for table in tables])
        .order_by("table_id", "index")
    )
    for seat in seats:
        by_table[seat.table_id].append(seat)
    bots, present, gone, cleared = [], [], [], []
    now = timezone.now()
    for table in tables:
        table_seats = by_table[table.pk]
        for seat in table_seats:
            if seat.user_id is None:
                continue
            if seat.is_bot:
                seat.ready, seat.trustee = True, False
                bots.append(seat.pk)
            # Away within the grace (a page reloading as the hand ends, every page reconnecting
            # after a Redis restart): keeps the seat; the tick stands them up after TABLE_AWAY_LEAVE.
            elif not seat.connected and away_past_grace(seat, now):
                seat.user, seat.ready, seat.trustee, seat.seated_at, seat.away_since = (
                    None,
                    False,
                    False,
                    None,
                    None,
                )
                gone.append(seat.pk)
            else:  # there, or away for less than the grace (a reload, a reconnect): keeps the seat
                seat.ready, seat.trustee = False, False
                present.append(seat.pk)
        if any(seat.user_id and not seat.is_bot for seat in table_seats):
            table.status = Table.Status.WAITING
        else:
            # Only bots (or nobody) left: the table closes and the bots go home.
            for seat in table_seats:
                seat.user, seat.is_bot, seat.ready, seat.connected, seat.away_since = (
                    None,
                    False,
                    False,
                    False,
                    None,
                )
                cleared.append(seat.pk)
            table.status = Table.Status.CLOSED
        table.updated_at = now
    if connection.vendor == "postgresql":
        changed = {*bots, *present, *gone, *cleared}
        _save_seats([seat for table in tables for seat in by_table[table.pk] if seat.pk in changed])
        _save_tables(tables, now=now, bump_seq=bump_seq)
        return by_table
    rows = Seat.objects.filter
    if bots:
        rows(pk__in=bots).update(ready=True, trustee=False)
    if present:
        rows(pk__in=present).update(ready=False, trustee=False)
    if gone:
        rows(pk__in=gone).update(user=None, ready=False, trustee=False, seated_at=None, away_since=None)
    if cleared:
        rows(pk__in=cleared).update(user=None, is_bot=False, ready=False, connected=False, away_since=None)
    groups: dict[tuple[str, int | None], list[Table]] = defaultdict(list)
    for table in tables:
        groups[(table.status, table.next_first_seat)].append(table)
    for (status, next_first_seat), group in groups.items():
        changes = {"status": status, "next_first_seat": next_first_seat, "updated_at": now}
        if bump_seq:
            changes["seq"] = F("seq") + 1
        Table.objects.filter(pk__in=[t.pk for t in group]).update(**changes)
    if bump_seq:
        seqs = dict(Table.objects.filter(pk__in=[t.pk for t in tables]).values_list("pk", "seq"))
        for table in tables:
            table.seq = seqs[table.pk]
    return by_table


def _save_seats(seats: list[Seat]) -> None:
    """Write the locked seats' new occupancy and flags, as set on them, in one statement."""
    if not seats:
        return
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Seat._meta.db_table)} AS s SET user_id = v.user_id, is_bot = v.is_bot, "
            "ready = v.ready, trustee = v.trustee, connected = v.connected, seated_at = v.seated_at, "
            "away_since = v.away_since FROM json_to_recordset(%s::json) AS v(id bigint, user_id bigint, "
            "is_bot bool, ready bool, trustee bool, connected bool, seated_at timestamptz, away_since timestamptz) "
            "WHERE s.id = v.id",
            [
                _recordset(
                    {
                        "id": seat.pk,
                        "user_id": seat.user_id,
                        "is_bot": seat.is_bot,
                        "ready": seat.ready,
                        "trustee": seat.trustee,
                        "connected": seat.connected,
                        "seated_at": seat.seated_at and seat.seated_at.isoformat(),
                        "away_since": seat.away_since and seat.away_since.isoformat(),
                    }
                    for seat in seats
                )
            ],
        )


def _save_tables(tables: list[Table], *, now, bump_seq: bool) -> None:
    """Write the locked tables' status and next first seat (and move ``seq`` on) in one statement."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Table._meta.db_table)} AS t SET status = v.status, "
            "next_first_seat = v.next_first_seat, updated_at = %s, seq = t.seq + %s "
            "FROM unnest(%s::bigint[], %s::varchar[], %s::int[]) AS v(id, status, next_first_seat) "
            "WHERE t.id = v.id RETURNING t.id, t.seq",
            [
                now,
                1 if bump_seq else 0,
                [table.pk for table in tables],
                [table.status for table in tables],
                [table.next_first_seat for table in tables],
            ],
        )
        seqs = dict(cursor.fetchall())
    for table in tables:
        table.seq = seqs[table.pk]


def _result_messages(
    tables: dict[int, Table],
    hands: list[Hand],
    seats: dict[int, list[Seat]],
    results: dict[int, dict],
    balances: dict[int, int],
    counted: dict[tuple[int, str], int] | None = None,
) -> list[tuple[str, dict]]:
    """Build each table's ``table.frames`` message: every viewer's ``state`` and the ``result``.

    Sent after the commit, like a table's own changes (``table_changed``).
    ``counted`` holds the wins the settlement's own statistics statement returned
    (``{(user id, game): wins}``); only the seated players it does not cover (one
    who sat down during the hand) are read here.
    """
    from platform.accounts.levels import level_for_wins
    from platform.accounts.models import GameStats

    wins = dict(counted or {})
    missing = []
    for hand in hands:
        slug = tables[hand.table_id].tier.game.slug
        for seat in seats[hand.table_id]:
            if seat.user_id and not seat.is_bot and (seat.user_id, slug) not in wins:
                missing.append(seat.user_id)
    if missing:
        wins.update(
            ((user_id, slug), won)
            for user_id, slug, won in GameStats.objects.filter(user_id__in=missing).values_list(
                "user_id", "game_slug", "wins"
            )
        )
    messages: list[tuple[str, dict]] = []
    for hand in hands:
        table = tables[hand.table_id]
        table_seats = seats[table.pk]
        slug = table.tier.game.slug
        levels = {
            s.user_id: level_for_wins(wins.get((s.user_id, slug), 0)).name
            for s in table_seats
            if s.user_id and not s.is_bot
        }
        table_balances = {s.user_id: balances[s.user_id] for s in table_seats if s.user_id in balances}
        ctx = TableContext(table, table_seats, None, hand, table_balances, levels)
        # One message on the table's group, as every other change of the table: each socket
        # sends its own seat's frames, and changes of one table reach a socket in one stream.
        messages.append((table_group(table.pk), frames_message(ctx, [results[hand.pk]])))
    return messages


# Group sends in flight at once: enough to overlap Redis round trips, few enough for the layer's pool.
SEND_WINDOW = 8


def send_in_one_hop(messages: list[tuple[str, dict]]) -> None:
    """Send a batch's group messages from one event loop, a few at a time, in order per window.

    The caller sends only to groups somebody listens to (``listened_groups``).
    A failing channel layer loses a broadcast, never a settlement: clients
    resync on the next sequence gap.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    messages = fanout_publish(layer, messages)  # tables' frames: one pipelined round trip
    if not messages:
        return

    async def send_all() -> None:
        for start in range(0, len(messages), SEND_WINDOW):
            window = messages[start : start + SEND_WINDOW]
            results = await asyncio.gather(
                *(layer.group_send(group, message) for group, message in window), return_exceptions=True
            )
            for (group, _message), result in zip(window, results, strict=True):
                if isinstance(result, Exception):
                    logger.error("broadcast to %s failed", group, exc_info=result)

    try:
        async_to_sync(send_all)()
    except Exception:  # noqa: BLE001 - a client resyncs on the next seq gap
        logger.exception("broadcast of %d messages failed", len(messages))


def _groups_with_members(layer, groups: set[str]) -> set[str] | None:
    """Return which ``groups`` have members, asking Redis once per shard; None if the layer cannot tell.

    What ``group_send`` of channels_redis finds before sending (the members left
    once those older than the group expiry are dropped), counted for many groups in
    one pipeline of read-only commands; ``group_send`` still drops the expired ones
    of the groups it sends to, and an idle group's key expires by itself. Any other
    layer (in memory, in tests) gets every group's message as before.

    Asked on this process's kept synchronous connection (``fanout.redis_client``,
    the one the frames are published on) when the shard is a Redis URL: from a
    worker, the layer's own asyncio client would take a new event loop, a new
    thread and a new Redis connection (connect, HELLO, SELECT) for every
    settlement, since the layer keeps its connections per event loop and
    ``async_to_sync`` makes a loop per call.
    """
    needed = ("_group_key", "connection", "consistent_hash", "group_expiry")
    if not all(hasattr(layer, name) for name in needed):
        return None
    by_shard: dict[int, list[str]] = defaultdict(list)
    for group in sorted(groups):
        by_shard[layer.consistent_hash(group)].append(group)
    oldest = int(time.time()) - layer.group_expiry
    listened: set[str] = set()
    for shard, shard_groups in by_shard.items():
        address = _shard_address(layer, shard)
        if address is None:
            replies = async_to_sync(_count_members)(layer, shard, shard_groups, oldest)
        else:
            replies = _count_in(
                redis_client(address).pipeline(transaction=False), layer, shard_groups, oldest
            )
        listened.update(group for group, members in zip(shard_groups, replies, strict=True) if members)
    return listened


def _shard_address(layer, shard: int) -> str | None:
    """The Redis URL of the layer's shard when it is given by one (not a sentinel or a bare host)."""
    hosts = getattr(layer, "hosts", None) or []
    host = hosts[shard] if shard < len(hosts) else None
    address = host.get("address") if isinstance(host, dict) else None
    return address if isinstance(address, str) else None


def _count_in(pipe, layer, groups: list[str], oldest: int):
    """Queue each group's count of members joined after ``oldest`` on ``pipe``; return what it executes to."""
    for group in groups:
        pipe.zcount(layer._group_key(group), f"({oldest}", "+inf")
    return pipe.execute()  # the replies (sync client) or an awaitable of them (asyncio client)


async def _count_members(layer, shard: int, groups: list[str], oldest: int) -> list[int]:
    return await _count_in(layer.connection(shard).pipeline(transaction=False), layer, groups, oldest)
