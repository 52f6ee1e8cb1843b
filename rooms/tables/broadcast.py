"""What each viewer of a table sees, and how it reaches them after a commit.

Every committed change of a table bumps ``table.seq`` and builds each seat its
own ``state`` (the engine's view for that seat) and the spectators' ``state``,
serialised to JSON text once, into one ``table.frames`` message on the table's
group: every socket of the table receives it and sends only its own seat's
frames (or the spectators'), so each viewer still sees only what its seat may.
The frames are built at the end of the changing transaction (so a frame and
its ``seq`` always agree) and sent in ``transaction.on_commit``: a rolled-back
change is never seen, and no consumer recomputes anything. Settlement sends
its frames the same way (``frames_message``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction

import games
from rooms.tables.fanout import fanout_publish, serving
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.state_cache import play_forget

logger = logging.getLogger(__name__)


def seat_group(table_id: int, index: int) -> str:
    return f"table-{table_id}-seat-{index}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


def engine_for(slug: str):
    return games.REGISTRY[slug].engine


def seat_is_auto(seat: Seat) -> bool:
    """Say whether the server plays for this seat now (bot, 托管, or away)."""
    return seat.is_bot or seat.trustee or not seat.connected


def away_past_grace(seat: Seat, now) -> bool:
    """Whether the seat's player has been away ``TABLE_DISCONNECT_GRACE`` by ``now``.

    Counted from their last socket's close, or from sitting down for a page that never
    connected. Within the grace an away player is a page reloading or reconnecting.
    """
    from datetime import timedelta

    from django.conf import settings

    since = seat.away_since or seat.seated_at
    grace = timedelta(seconds=getattr(settings, "TABLE_DISCONNECT_GRACE", 5.0))
    return since is None or since + grace <= now


@dataclass
class TableContext:
    """Everything a snapshot needs, loaded once per change."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    last_hand: Hand | None
    balances: dict[int, int] = field(default_factory=dict)
    levels: dict[int, str] = field(default_factory=dict)


def load_context(table_id: int) -> TableContext:
    """Load the table, its seats, its open (or last) hand, and the seated users' balances and levels."""
    table = Table.objects.select_related("tier__game").get(pk=table_id)
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    hand = Hand.objects.filter(table=table, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED]).first()
    last_hand = None
    if hand is None:
        last_hand = Hand.objects.filter(table=table).order_by("-number").first()
    return _context(table, seats, hand, last_hand)


def _context(
    table: Table,
    seats: list[Seat],
    hand: Hand | None,
    last_hand: Hand | None,
    counts: tuple[dict[int, int], dict[int, int]] | None = None,
) -> TableContext:
    """Complete a context with the seated users' balances and levels (``counts``: balances and wins
    already read under the lock, else one query)."""
    from platform.accounts.levels import level_for_wins

    if counts is None:
        counts = balances_and_wins(table, [seat.user_id for seat in seats if seat.user_id])
    balances, wins = counts
    levels = {
        seat.user_id: level_for_wins(wins.get(seat.user_id, 0)).name
        for seat in seats
        if seat.user_id and not seat.is_bot
    }
    return TableContext(table, seats, hand, last_hand, balances, levels)


def balances_and_wins(table: Table, user_ids: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The users' wallet balances and their win counts in the table's game, in one query."""
    from platform.accounts.models import GameStats

    from wallets.models import Account

    balances: dict[int, int] = {}
    wins: dict[int, int] = {}
    if not user_ids:
        return balances, wins
    slug = table.tier.game.slug
    if connection.vendor != "postgresql":
        balances.update(Account.objects.filter(user_id__in=user_ids).values_list("user_id", "balance"))
        wins.update(
            GameStats.objects.filter(user_id__in=user_ids, game_slug=slug).values_list("user_id", "wins")
        )
        return balances, wins
    # One statement for both (written out: the ORM's two subqueries cost more CPU to
    # compile than the database spends on them). A user has one account, and one
    # stats row per game.
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 0, {qn('user_id')}, {qn('balance')} FROM {qn(Account._meta.db_table)} "
            f"WHERE {qn('user_id')} = ANY(%s) "
            f"UNION ALL SELECT 1, {qn('user_id')}, {qn('wins')} FROM {qn(GameStats._meta.db_table)} "
            f"WHERE {qn('user_id')} = ANY(%s) AND {qn('game_slug')} = %s",
            [user_ids, user_ids, slug],
        )
        for kind, user_id, value in cursor.fetchall():
            (wins if kind else balances)[user_id] = value
    return balances, wins


def _seat_public(ctx: TableContext, seat: Seat) -> dict:
    carried = None
    if ctx.hand is not None and seat.index < len(ctx.hand.players):
        carried = ctx.hand.players[seat.index]["carried"]
    return {
        "index": seat.index,
        "name": seat.user.display_name if seat.user_id else None,
        "is_bot": seat.is_bot,
        "ready": seat.ready,
        "trustee": seat.trustee,
        "connected": seat.connected or seat.is_bot,
        "level": ctx.levels.get(seat.user_id),
        "carried": carried,
    }


def _hint(engine, hand: Hand, seat_index: int | None, actors: list[int]) -> dict | None:
    """提示: the engine's suggested action for this viewer on their turn, else None."""
    if seat_index is None or seat_index not in actors or not hasattr(engine, "hint"):
        return None
    try:
        return engine.hint(hand.state, seat_index)
    except Exception:  # noqa: BLE001 - a hint is a convenience; it must never stop a broadcast
        import logging

        logging.getLogger(__name__).warning("hint failed for hand %s", hand.pk, exc_info=True)
        return None


def _deadline_ms(hand: Hand) -> int | None:
    """The actors' deadline: a simultaneous countdown's own, not a bot's quicker turn within it."""
    from rooms.tables.core import countdown_deadline

    deadline = (
        countdown_deadline(hand.state) if hand.status == Hand.Status.PLAYING else None
    ) or hand.deadline
    return int(deadline.timestamp() * 1000) if deadline else None


def snapshot(ctx: TableContext, *, seat_index: int | None, balance: int | None) -> dict:
    """Return the full ``state`` message for one viewer (a seat index, or None for a spectator)."""
    return _viewer_state(ctx, _Change(ctx), seat_index, balance)


class _Change:
    """What every viewer's ``state`` of one change shares, computed once (``snapshot``, ``frames_message``)."""

    def __init__(self, ctx: TableContext) -> None:
        table = ctx.table
        tier = table.tier
        self.engine = engine = engine_for(tier.game.slug)
        self.table = {
            "id": table.pk,
            "status": table.status,
            "tier": {
                "id": tier.pk,
                "game": tier.game.slug,
                "game_name": tier.game.name_zh,
                "name": tier.name,
                "base_stake": tier.base_stake,
                "rake_bps": tier.rake_bps,
            },
            "seats": [_seat_public(ctx, s) for s in ctx.seats],
        }
        # The hand's keys before and after the viewer's own ``view`` and ``hint``.
        self.views: dict | None = None  # by viewer, when built together (``views_for``)
        self.actors: list[int] = []
        self.hand_head: dict | None = None
        self.seed_sha256: str | None = None
        if ctx.hand is not None:
            hand = ctx.hand
            self.actors = actors = engine.actors(hand.state) if hand.status == Hand.Status.PLAYING else []
            by_index = {seat.index: seat for seat in ctx.seats}
            self.hand_head = {
                "id": hand.pk,
                "number": hand.number,
                "status": hand.status,
                "deadline": _deadline_ms(hand),
                "actors": actors,
                "auto": [i for i in actors if i in by_index and seat_is_auto(by_index[i])],
            }
            # Provably fair: the seed's hash is published while the hand is played.
            self.seed_sha256 = hashlib.sha256(bytes(hand.seed)).hexdigest()
        self.last_head: dict | None = None
        if ctx.last_hand is not None:
            last = ctx.last_hand
            self.last_head = {"id": last.pk, "number": last.number, "status": last.status}
            self.last_engine = engine_for(last.game_slug)
            self.last_seed_sha256 = hashlib.sha256(bytes(last.seed)).hexdigest()
            self.last_seed = bytes(last.seed).hex()

    def view(self, ctx: TableContext, seat_index: int | None) -> dict:
        views = self.views
        if views is not None and seat_index in views:
            return views[seat_index]
        return self.engine.view(ctx.hand.state, seat_index)

    def views_for(self, ctx: TableContext, seat_indexes: list[int | None]) -> None:
        """Build the views of all these viewers at once, if the engine can (``views``: a public part shared)."""
        many = getattr(self.engine, "views", None)
        if many is not None and ctx.hand is not None:
            self.views = dict(zip(seat_indexes, many(ctx.hand.state, seat_indexes), strict=True))

    def hint(self, ctx: TableContext, seat_index: int | None) -> dict | None:
        return _hint(self.engine, ctx.hand, seat_index, self.actors)

    def last_hand(self, ctx: TableContext, seat_index: int | None) -> dict | None:
        if self.last_head is None:
            return None
        last = ctx.last_hand
        played = _played_in(ctx, last, seat_index)
        # A seat's final view shows that seat's own cards: only to the player who held them. A
        # later occupant of the seat (someone who sat down after the hand) gets what anyone
        # gets, or they would see the previous player's hand (炸金花: a folded one).
        view = self.last_engine.view(last.state, seat_index if played else None) if last.state else None
        # The seed itself is revealed once the hand is over, to the players who sat in it (as
        # the verify page and the history are theirs): re-dealt, it shows every hand, folded
        # 炸金花 hands too, which the rules show nobody.
        seed = self.last_seed if played else None
        return {**self.last_head, "view": view, "seed_sha256": self.last_seed_sha256, "seed": seed}


def _played_in(ctx: TableContext, hand: Hand, seat_index: int | None) -> bool:
    """Whether the viewer at ``seat_index`` is the player who sat there in ``hand``."""
    if seat_index is None or not 0 <= seat_index < len(hand.players):
        return False
    seat = next((s for s in ctx.seats if s.index == seat_index), None)
    return (
        seat is not None and seat.user_id is not None and hand.players[seat_index].get("user") == seat.user_id
    )


def _you(ctx: TableContext, seat_index: int | None, balance: int | None) -> dict:
    seat = next((s for s in ctx.seats if s.index == seat_index), None)
    return {"seat": seat_index, "balance": balance, "trustee": bool(seat and seat.trustee)}


def _viewer_state(ctx: TableContext, change: _Change, seat_index: int | None, balance: int | None) -> dict:
    hand_payload = None
    if change.hand_head is not None:
        hand_payload = {
            **change.hand_head,
            "actors": list(change.actors),
            "auto": list(change.hand_head["auto"]),
            "view": change.view(ctx, seat_index),
            "hint": change.hint(ctx, seat_index),
            "seed_sha256": change.seed_sha256,
        }
    return {
        "type": "state",
        "seq": ctx.table.seq,
        "table": change.table,
        "hand": hand_payload,
        "last_hand": change.last_hand(ctx, seat_index),
        "you": _you(ctx, seat_index, balance),
    }


class _ChangeText:
    """``frame_text(snapshot(...))`` for each viewer of one change, the shared parts serialised once.

    JSON text is built from the texts of its parts, so the frame is the same
    string, character for character (rooms/tables/tests/test_queries.py).
    """

    def __init__(self, ctx: TableContext, change: _Change) -> None:
        self.ctx = ctx
        self.change = change
        self.head = (
            f'{{"type":"state","seq":{frame_text(ctx.table.seq)},"table":{frame_text(change.table)},"hand":'
        )
        self.hand_head = None
        if change.hand_head is not None:
            self.hand_head = frame_text(change.hand_head)[:-1] + ',"view":'
            self.hand_tail = f',"seed_sha256":{frame_text(change.seed_sha256)}}}'

    def state(self, seat_index: int | None, balance: int | None) -> str:
        ctx, change = self.ctx, self.change
        if self.hand_head is None:
            hand = "null"
        else:
            view = frame_text(change.view(ctx, seat_index))
            hint = frame_text(change.hint(ctx, seat_index))
            hand = f'{self.hand_head}{view},"hint":{hint}{self.hand_tail}'
        last = frame_text(change.last_hand(ctx, seat_index))
        you = frame_text(_you(ctx, seat_index, balance))
        return f'{self.head}{hand},"last_hand":{last},"you":{you}}}'


def table_changed(
    table: Table,
    *,
    notices: list[dict] | None = None,
    locked: tuple[list[Seat], Hand | None] | None = None,
    bumped: bool = False,
    counts: tuple[dict[int, int], dict[int, int]] | None = None,
    last_hand: Hand | None = None,
) -> int:
    """Bump the table's event sequence and broadcast every viewer's state after commit.

    Call once, last, in a service that changed ``table`` (under its row lock).
    ``notices`` (``result``, ``cancelled``) follow the ``state`` and carry the same ``seq``.
    ``locked``: the caller's locked seats (users loaded) and open hand, saved and
    current, so the snapshot is built from them instead of reading them again.
    ``bumped``: the caller locked the table with ``lock_table(..., bump=True)``,
    so ``table.seq`` is already this change's. ``counts``: the seated users'
    balances and wins, read under the lock with the seats (``lock_play``), when
    nothing changed them since. ``last_hand``: with ``locked`` and no open
    hand, the table's latest hand (over), as ``load_context`` reads it.
    """
    play_forget(table.pk)  # whatever this process kept of the table's play is now behind
    if not bumped:
        table.seq = _seq_bump(table.pk)
    if locked is not None:
        seats, hand = locked
        if hand is not None and hand.__dict__.get("_unsaved_actions"):  # core.UNSAVED_ACTIONS
            # A move recorded and never written would be missing from the log a replay checks.
            raise RuntimeError(f"hand {hand.pk}: actions recorded but not written")
        ctx = _context(table, seats, hand, None if hand is not None else last_hand, counts)
    else:
        ctx = load_context(table.pk)
    message = frames_message(ctx, notices or [])
    group = table_group(table.pk)
    transaction.on_commit(lambda: send_messages([(group, message)]))
    return ctx.table.seq


def change_message(
    table: Table, seats: list[Seat], hand: Hand | None, counts: tuple[dict[int, int], dict[int, int]]
) -> dict:
    """The ``table.frames`` message of a change whose seats, hand and counts the caller holds, current
    (``table.seq`` already the change's): what ``table_changed`` sends with ``locked`` and ``counts``."""
    return frames_message(_context(table, seats, hand, None, counts), [])


def table_group(table_id: int) -> str:
    """The group every socket of the table listens on, whatever its seat."""
    return f"table-{table_id}"


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
# Keys such as seat numbers become strings, as json writes them. Only when a dict has one: with the
# option orjson writes every payload at about half the speed (a 16-move batch: 76 against 42 us).
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def frame_text(payload) -> str:
    """A frame as the socket sends it (compact JSON, UTF-8 kept), or the JSON text of one of its values.

    The text of ``json.dumps(payload, ensure_ascii=False, separators=(",", ":"))``
    (but a non-finite number, which JSON cannot carry, is null), written by orjson: five to six times faster on frames and hand states,
    which made JSON encoding the largest single cost of a move
    (``test_frame_text_writes_what_the_standard_library_writes`` pins that the
    text is the same). What orjson refuses (an integer past 64 bits) the
    standard library writes; what neither can write raises ``TypeError``.
    """
    try:
        return orjson.dumps(payload).decode()
    except TypeError:  # a key that is no string (or what orjson cannot write at all)
        pass
    try:
        return orjson.dumps(payload, option=_ORJSON_OPTIONS).decode()
    except TypeError:
        return _ENCODER.encode(payload)


def frames_message(ctx: TableContext, notices: list[dict]) -> dict:
    """One channel-layer message carrying every viewer's frames of this change, serialised once.

    A ``table.frames`` message goes to the table's one group instead of one
    message per seat group: one group send per change. Each socket sends only
    the frames of the seat it holds (``seats``: index, user id, frames) or the
    spectators' (``watch``), so what each viewer receives is what its own seat
    group carried before. ``seat_users`` lets a socket see that its seat changed.
    """
    seq = ctx.table.seq
    extra = [frame_text({**notice, "seq": seq}) for notice in notices]
    change = _Change(ctx)
    change.views_for(ctx, [*(seat.index for seat in ctx.seats), None])
    texts = _ChangeText(ctx, change)
    seats = []
    for seat in ctx.seats:
        state = texts.state(seat.index, ctx.balances.get(seat.user_id))
        seats.append([seat.index, seat.user_id, [state, *extra]])
    watch = texts.state(None, None)
    return {
        "type": "table.frames",
        "seq": seq,
        "seats": seats,
        "watch": [watch, *extra],
        "seat_users": [seat.user_id for seat in ctx.seats if seat.user_id],
    }


def _seq_bump(table_id: int) -> int:
    """Move the table's event sequence on by one and return it (one statement)."""
    from rooms.tables import statements

    qn = connection.ops.quote_name
    sql = (
        f"UPDATE {qn(Table._meta.db_table)} SET {qn('seq')} = {qn('seq')} + 1 "
        f"WHERE {qn('id')} = %s RETURNING {qn('seq')}"
    )
    return statements.run(sql, [table_id], statements.fetch_one)[0]


def send_messages(messages: list[tuple[str, dict]]) -> None:
    """Send prepared group messages; a failing channel layer loses a broadcast, never a change.

    A table's ``table.frames`` are published once to the ASGI processes that
    show the table (``fanout_publish``); anything else goes to its group, the
    groups of one change together, in one hop to the event loop.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    messages = fanout_publish(layer, messages)  # a table's frames: one PUBLISH (rooms/tables/fanout.py)
    if not messages:
        return
    try:
        async_to_sync(_group_send_all)(layer, messages)
    except Exception:  # noqa: BLE001 - a client resyncs on the next seq gap
        logger.exception("broadcast of %d messages failed", len(messages))


async def send_messages_here(messages: list[tuple[str, dict]]) -> None:
    """``send_messages`` from an event loop that serves table sockets (a kept move made on it).

    The frames go to this loop's own fan-out as a table thread's do
    (``serving``): to its sockets at once, and to Redis for the others.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    with serving(asyncio.get_running_loop()):
        messages = fanout_publish(layer, messages)
    if messages:
        await _group_send_all(layer, messages)


async def _group_send_all(layer, messages: list[tuple[str, dict]]) -> None:
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages), return_exceptions=True
    )
    for (group, _message), result in zip(messages, results, strict=True):
        if isinstance(result, Exception):  # a client resyncs on the next seq gap
            logger.error("broadcast to %s failed", group, exc_info=result)
