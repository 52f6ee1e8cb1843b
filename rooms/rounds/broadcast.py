"""What viewers of a banker table see, and how it reaches them after a commit.

A change is ONE ``round.change`` message: the public ``state`` (the same for
every viewer, ``you`` left null), the small per-user part (``you`` and
``mine``) of each player the change concerns (a bettor after a bet, every
bettor after a payout) and their ``payout`` notices, keyed by user id. On
channels_redis it is published once to the table's pub/sub channel and each
ASGI process puts it in the inbox of each of its sockets of the table
(``rooms.tables.fanout.TableFanout``, as a seated table's frames); on any
other layer it goes to the table's group. Each socket takes only its own
user's part and payout, keeps the newest part it got and merges it into each
public state, so it sends the full ``state`` of docs/protocol.md, and never
another player's part.

The stored result is never sent beyond the revealed steps: ``cards`` and
``totals`` come from ``result["steps"][:revealed]``, and ``result`` itself
only once the round shows its result.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import re
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F, Sum

import games
from rooms.rounds.models import Bet, Round, Shoe
from rooms.tables.broadcast import frame_text, table_group
from rooms.tables.fanout import fanout_publish, serving_loop
from rooms.tables.models import Table

logger = logging.getLogger(__name__)


def engine_for(slug: str):
    return games.REGISTRY[slug].engine


def tier_config(tier) -> dict:
    """Return the game's default options with the tier's own on top."""
    info = games.REGISTRY[tier.game.slug]
    options = tier.options if isinstance(tier.options, dict) else {}
    return {**info.default_options, **options}


def live_round(table_id: int) -> Round | None:
    return Round.objects.filter(table_id=table_id, phase__in=Round.LIVE_PHASES).select_related("shoe").first()


def _ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def revealed_view(engine, result: dict | None, revealed: int) -> tuple[dict, dict]:
    """Return ``(cards, totals)`` over the first ``revealed`` reveal steps only (what viewers may see).

    The engine's ``revealed(result, n)`` says what n steps show; an engine
    without it gets the cards grouped by side and each side's total once every
    step is out (a partial total needs the game's own arithmetic).
    """
    if not result:
        return {}, {}
    hook = getattr(engine, "revealed", None)
    if callable(hook):
        shown = hook(result, revealed)
        return shown["cards"], shown["totals"]
    steps = result.get("steps") or []
    cards: dict[str, list[str]] = {}
    for step in steps:
        cards.setdefault(step["side"], [])
    for step in steps[:revealed]:
        cards[step["side"]].append(step["card"])
    done = revealed >= len(steps)
    return cards, {side: result.get(f"{side}_total") for side in cards} if done else {}


def _round_payload(rnd: Round, engine) -> dict:
    cards, card_totals = revealed_view(engine, rnd.result, rnd.revealed)
    totals = rnd.area_totals or {}
    result = None
    if rnd.phase == Round.Phase.RESULT and rnd.result:
        result = {k: v for k, v in rnd.result.items() if k != "steps"}
    return {
        "id": rnd.pk,
        "number": rnd.number,
        "shoe": rnd.shoe.number,
        "coup": rnd.coup,
        "phase": rnd.phase,
        "deadline": _ms(rnd.deadline),
        "areas": [
            {
                "area": a["area"],
                "odds": a["odds"],
                "open": a["open"],
                "total": totals.get(a["area"], 0),
                "mine": 0,
            }
            for a in rnd.areas
        ],
        "cards": cards,
        "totals": card_totals,
        "result": result,
        "shoe_seed_sha256": hashlib.sha256(bytes(rnd.shoe.seed)).hexdigest(),
    }


_UNREAD = object()


def public_state(
    table: Table, rnd: Round | None | object = _UNREAD, finished_shoe: Shoe | None | object = _UNREAD
) -> dict:
    """Return the ``state`` every viewer of ``table`` shares (``you`` and ``mine`` still empty).

    ``rnd``: the table's live round (with its shoe) as the caller holds it, saved, so it is not read again.
    ``finished_shoe``: the newer finished shoe of the table's last two (its seed is revealed), as the
    caller read it under the table's lock, or None; taken only with a live round before its result
    (whose roads come from the round), when no shoe needs reading at all.
    """
    tier = table.tier
    slug = tier.game.slug
    engine = engine_for(slug)
    if rnd is _UNREAD:
        rnd = live_round(table.pk)
    config = rnd.config if rnd is not None else tier_config(tier)
    if rnd is not None and rnd.phase != Round.Phase.RESULT and finished_shoe is not _UNREAD:
        roads, finished = rnd.roads, finished_shoe
    else:
        shoes = Shoe.objects.filter(table=table).order_by("-number")
        if rnd is not None and rnd.phase != Round.Phase.RESULT:
            shoes = shoes.defer("state")  # the roads come from the round: no shoe's cards are decoded
        shoes = list(shoes[:2])
        current = shoes[0] if shoes else None
        if rnd is not None and rnd.phase != Round.Phase.RESULT:
            roads = rnd.roads  # the coup being dealt is not on the road until its result shows
        elif current is not None:
            roads = engine.roads(current.state)
        else:
            roads = {}
        finished = next((s for s in shoes if s.finished_at is not None), None)
    last_shoe = None
    if finished is not None:
        seed = bytes(finished.seed)
        last_shoe = {
            "number": finished.number,
            "seed_sha256": hashlib.sha256(seed).hexdigest(),
            "seed": seed.hex(),  # revealed once the shoe is finished: anyone can re-shuffle it
        }
    return {
        "type": "state",
        "seq": table.seq,
        "table": {
            "id": table.pk,
            "game": slug,
            "game_name": tier.game.name_zh,
            "tier": {
                "id": tier.pk,
                "name": tier.name,
                "variant": config.get("variant"),
                "chips": config.get("chips", []),
                "min_bet": config.get("min_bet"),
                "area_limits": config.get("area_limits", {}),
                "table_limit": config.get("table_limit"),
            },
        },
        "round": _round_payload(rnd, engine) if rnd is not None else None,
        "roads": roads,
        "last_shoe": last_shoe,
        "you": None,
    }


def user_stakes(round_id: int | None, user_id: int) -> dict[str, int]:
    if round_id is None:
        return {}
    rows = (
        Bet.objects.filter(round_id=round_id, user_id=user_id)
        .values("area")
        .annotate(total=Sum("amount"))
        .order_by("area")
    )
    return {row["area"]: int(row["total"]) for row in rows}


def user_part(
    *, seq: int, round_id: int | None, user_id: int, balance: int | None, stakes: dict[str, int] | None = None
) -> dict:
    """Return one player's own part of the state: their stakes this round (read unless given) and their balance."""
    if stakes is None:
        stakes = user_stakes(round_id, user_id)
    return {
        "seq": seq,
        "round": round_id,
        "you": {"balance": balance, "stakes": stakes, "staked": sum(stakes.values())},
    }


def _viewer_you(public: dict, part: dict | None) -> dict:
    rnd = public.get("round")
    if part is None or rnd is None or part["round"] != rnd["id"]:
        return {"balance": part["you"]["balance"] if part else None, "stakes": {}, "staked": 0}
    return part["you"]


def merge(public: dict, part: dict | None) -> dict:
    """Fill a public state with one viewer's part (an older round's part keeps only the balance)."""
    rnd = public.get("round")
    you = _viewer_you(public, part)
    state = {**public, "you": you}
    if rnd is not None:
        stakes = you["stakes"]
        state["round"] = {**rnd, "areas": [{**a, "mine": stakes.get(a["area"], 0)} for a in rnd["areas"]]}
    return state


# Stand-ins for a viewer's own values in a public state's text (``_pieces``): no value of a
# state serialises to them (a string's NUL comes out escaped), and the pieces are checked.
_MINE, _YOU = "\x00mine\x00", "\x00you\x00"
_MINE_TEXT, _YOU_TEXT = frame_text(_MINE), frame_text(_YOU)
_SPLIT = re.compile(f"({re.escape(_MINE_TEXT)}|{re.escape(_YOU_TEXT)})")
TEXTS_KEPT = 64  # public states whose pieces are kept (a second of changes at a busy table)
_texts: collections.OrderedDict[int, tuple[dict, list[str] | None]] = collections.OrderedDict()


def _pieces(public: dict) -> list[str] | None:
    """The text of ``merge(public, part)`` cut where a viewer's values go: text, slot, text, slot, ..., text.

    The slots are the areas' ``mine`` in order, then ``you``. None when the
    text does not cut as expected (a value that happens to serialise to a
    stand-in): such a state is serialised whole for each viewer.
    """
    rnd = public.get("round")
    shaped = {**public, "you": _YOU}
    areas = 0
    if rnd is not None:
        shaped["round"] = {**rnd, "areas": [{**a, "mine": _MINE} for a in rnd["areas"]]}
        areas = len(rnd["areas"])
    pieces = _SPLIT.split(frame_text(shaped))
    slots = pieces[1::2]
    if slots != [_MINE_TEXT] * areas + [_YOU_TEXT]:
        return None
    return pieces


def viewer_text(public: dict, part: dict | None) -> str:
    """``frame_text(merge(public, part))``, spliced from the public state's text, serialised once per change.

    On the event loop only (the round sockets): the pieces of the last
    ``TEXTS_KEPT`` public states are kept by identity, so the sockets of a
    process that got one change's state share its pieces, and each only writes
    its own values (its stakes by area, its ``you``) into them: serialising the
    whole state for each socket was a third of the event loop's time under load.
    """
    kept = _texts.get(id(public))
    if kept is None or kept[0] is not public:
        kept = _texts[id(public)] = (public, _pieces(public))  # holds ``public``: its id stays its own
        if len(_texts) > TEXTS_KEPT:
            _texts.popitem(last=False)
    pieces = kept[1]
    if pieces is None:
        return frame_text(merge(public, part))
    you = _viewer_you(public, part)
    rnd = public.get("round")
    out = [pieces[0]]
    if rnd is not None:
        stakes = you["stakes"]
        for n, area in enumerate(rnd["areas"]):
            mine = stakes.get(area["area"], 0)
            out.append(str(mine) if type(mine) is int else frame_text(mine))
            out.append(pieces[2 * n + 2])
    out.append(frame_text(you))
    out.append(pieces[-1])
    return "".join(out)


def balances_of(user_ids) -> dict[int, int]:
    from wallets.models import Account

    return dict(Account.objects.filter(user_id__in=list(user_ids)).values_list("user_id", "balance"))


def round_changed(
    table: Table,
    *,
    users=(),
    payouts: list[dict] | None = None,
    bumped: bool = False,
    rnd: Round | None | object = _UNREAD,
    stakes: dict[int, dict[str, int]] | None = None,
    balances: dict[int, int] | None = None,
    finished_shoe: Shoe | None | object = _UNREAD,
) -> int:
    """Bump the table's event sequence and send the change (``change_message``) to its viewers after commit.

    Call once, last, in a service that changed the table (under its row lock).
    ``users``' parts go with the public state; ``payouts`` (one ``payout``
    message per bettor, with ``"user"``) carry the same ``seq`` and follow the
    state on their bettors' sockets. What the caller already holds is not read
    again: ``bumped``, the seq was moved on with the table's lock
    (``lock_table(bump=True)``); ``rnd``, the live round, saved; ``stakes``,
    a user's stakes on it by area; ``balances``, the balance of every user
    concerned as the ledger left it (under its lock); ``finished_shoe``, as
    ``public_state`` takes it.
    """
    if not bumped:
        Table.objects.filter(pk=table.pk).update(seq=F("seq") + 1)
        table.refresh_from_db(fields=["seq"])
    public = public_state(table, rnd, finished_shoe)
    seq = table.seq
    round_id = public["round"]["id"] if public["round"] else None
    users = set(users) | {p["user"] for p in payouts or []}
    if balances is None or not users <= set(balances):
        balances = balances_of(users)
    stakes = stakes or {}
    parts = {
        user_id: user_part(
            seq=seq,
            round_id=round_id,
            user_id=user_id,
            balance=balances.get(user_id, 0),
            stakes=stakes.get(user_id) if round_id is not None else None,
        )
        for user_id in sorted(users)
    }
    notices = {}
    for payout in payouts or []:
        message = {k: v for k, v in payout.items() if k != "user"}
        message.update(type="payout", seq=seq, balance=balances.get(payout["user"], 0))
        notices[payout["user"]] = message
    messages = [(table_group(table.pk), change_message(public, parts=parts, payouts=notices))]
    transaction.on_commit(lambda: send_messages(messages))
    return seq


def change_message(public: dict, *, parts: dict[int, dict], payouts: dict[int, dict] | None = None) -> dict:
    """The one message of a change for every round socket of the table: ``round.change``.

    ``parts`` and ``payouts`` are keyed by user id, as text (the message
    crosses Redis as msgpack, whose maps take text keys); a socket reads only
    its own user's entries.
    """
    return {
        "type": "round.change",
        "seq": public["seq"],
        "state": public,
        "parts": {str(user_id): part for user_id, part in parts.items()},
        "payouts": {str(user_id): payout for user_id, payout in (payouts or {}).items()},
    }


def send_messages(messages: list[tuple[str, dict]]) -> None:
    """Send prepared group messages in order; a failing channel layer loses a broadcast, never a change.

    On channels_redis a ``round.change`` is published once (``fanout_publish``:
    from a round socket's call, a bet, the thread hands it to its own event
    loop's fan-out, which delivers it to this process's sockets at once and
    publishes it for the others, and goes on; from the clock, the payout worker
    or a view, one synchronous PUBLISH). On any other layer, a thread running a
    round socket's call (``fanout.serving``) hands the sends to that socket's
    event loop (``_LoopSender``) and goes on: the table's next bet does not
    wait for them. One loop sends its changes one after another in the order
    they were handed over, which for one table is the order of its commits
    (its calls run one at a time). Anywhere else they are sent here and
    awaited.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    messages = fanout_publish(layer, messages)
    if not messages:
        return
    loop = serving_loop()
    if loop is not None and _LoopSender.of(loop).hand(layer, messages):
        return
    async_to_sync(_send_all)(layer, messages)


class _LoopSender:
    """Sends the changes handed over from threads on one event loop, one change after another, in order."""

    _senders: dict[int, _LoopSender] = {}
    _lock = threading.Lock()

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> _LoopSender:
        sender = cls._senders.get(id(loop))
        if sender is None or sender.loop is not loop:
            with cls._lock:
                sender = cls._senders.get(id(loop))
                if sender is None or sender.loop is not loop:
                    sender = cls._senders[id(loop)] = cls(loop)
        return sender

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiting: collections.deque = collections.deque()  # touched on the loop only
        self.task: asyncio.Task | None = None

    def hand(self, layer, messages: list[tuple[str, dict]]) -> bool:
        """Queue one change's messages (from any thread); False if the loop has closed."""
        try:
            self.loop.call_soon_threadsafe(self._add, layer, messages)
        except RuntimeError:  # the loop closed meanwhile
            return False
        return True

    def _add(self, layer, messages: list[tuple[str, dict]]) -> None:
        self.waiting.append((layer, messages))
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._drain(), name="round-broadcast")

    async def _drain(self) -> None:
        while self.waiting:
            layer, messages = self.waiting.popleft()
            await _send_all(layer, messages)


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # noqa: BLE001 - a client resyncs on the next seq gap
            logger.exception("broadcast to %s failed", group)
