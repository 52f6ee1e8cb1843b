"""What viewers of a banker table see, and how it reaches them after a commit.

A change is ONE ``round.change`` message on the table's group: the public
``state`` (the same for every viewer, ``you`` left null), the small per-user
part (``you`` and ``mine``) of each player the change concerns (a bettor after
a bet, every bettor after a payout) and their ``payout`` notices, keyed by user
id. Each socket takes only its own user's part and payout, keeps the newest
part it got and merges it into each public state, so it sends the full
``state`` of docs/protocol.md, and never another player's part.

The stored result is never sent beyond the revealed steps: ``cards`` and
``totals`` come from ``result["steps"][:revealed]``, and ``result`` itself
only once the round shows its result.
"""

from __future__ import annotations

import hashlib
import logging

from django.db import transaction
from django.db.models import F, Sum

import games
from rooms import transport
from rooms.rounds.banking import bank_state
from rooms.rounds.models import Bet, Round, Shoe
from rooms.tables.models import Table
from rooms.transport import frame_text, table_group
from wallets.models import Account

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


def area_room(rnd: Round, area: str, exposure: int) -> int | None:
    """The most more coins ``area`` can take before its wins could exceed the player banker's coins (None: the house banks).

    With ``w`` the most one coin on the area can win (``bet_exposure``, linear in the stake) and
    ``exposure`` the most the round's bets can already win: ``⌊(bank − exposure) / w⌋``.
    """
    if rnd.bank is None:
        return None
    per_coin = max(engine_for(rnd.game_slug).bet_exposure(rnd.config, area, 1)[1], 1)
    return max(rnd.bank - exposure, 0) // per_coin


def _bank_payload(rnd: Round) -> dict | None:
    """The round's player banker and the coins that still fit under their bank (None: the house banks)."""
    if rnd.banker_id is None:
        return None
    return {"user": rnd.banker_id, "coins": rnd.bank, "exposure": rnd.exposure}


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
                **(
                    {
                        "room": area_room(rnd, a["area"], rnd.exposure),
                        "multiple": _top(engine, rnd, a["area"]),
                    }
                    if rnd.bank is not None
                    else {}
                ),
            }
            for a in rnd.areas
        ],
        "bank": _bank_payload(rnd),
        "revealer": _revealer_payload(rnd),
        "revealers": list(rnd.revealers or []),
        "window": rnd.window,
        "earlier_windows": [
            {
                "window": number,
                "areas": [
                    {"area": a["area"], "odds": a["odds"], "total": totals.get(a["area"], 0), "mine": 0}
                    for a in areas
                ],
            }
            for number, areas in enumerate(rnd.earlier_areas or [])
        ],
        "cards": cards,
        "totals": card_totals,
        "result": result,
        "shoe_seed_sha256": hashlib.sha256(bytes(rnd.shoe.seed)).hexdigest(),
    }


def _revealer_payload(rnd: Round) -> dict | None:
    """咪牌: who turns the cards (the engine's ``reveal_pause``) and whether the reveal waits for them now."""
    if rnd.revealer_id is None:
        return None
    return {
        "user": rnd.revealer_id,
        "name": rnd.revealer.stored_name,
        "area": rnd.revealer_area,
        "waiting": rnd.phase == Round.Phase.DEALING and rnd.revealer_step == rnd.revealed,
    }


def _top(engine, rnd: Round, area: str) -> int:
    """The most one coin on ``area`` can win: the multiple the player banker's bank is measured in."""
    return engine.bet_exposure(rnd.config, area, 1)[1]


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
            "game_name_en": tier.game.name_en,
            "tier": {
                "id": tier.pk,
                "name": tier.name,
                "name_en": tier.name_en or tier.name,
                "variant": config.get("variant"),
                "chips": config.get("chips", []),
                "min_bet": config.get("min_bet"),
                "area_limits": config.get("area_limits", {}),
                "table_limit": config.get("table_limit"),
            },
        },
        "round": _round_payload(rnd, engine) if rnd is not None else None,
        "bank": bank_state(table, config),
        "roads": roads,
        "last_shoe": last_shoe,
        "you": None,
    }


def user_stakes(round_id: int | None, user_id: int) -> dict[str, int]:
    if round_id is None:
        return {}
    rows = (
        Bet.objects.standing()
        .filter(round_id=round_id, user_id=user_id)
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
    """Fill a public state with one viewer's part (an older round's part keeps only the balance).

    ``mine`` is filled on the open window's areas and on each earlier window's: a later
    window's bets never hide the ones before it, which stand until the payout.
    """
    rnd = public.get("round")
    you = _viewer_you(public, part)
    state = {**public, "you": you}
    if rnd is not None:
        stakes = you["stakes"]

        def mine(areas: list[dict]) -> list[dict]:
            return [{**a, "mine": stakes.get(a["area"], 0)} for a in areas]

        state["round"] = {
            **rnd,
            "areas": mine(rnd["areas"]),
            "earlier_windows": [{**w, "areas": mine(w["areas"])} for w in rnd.get("earlier_windows", [])],
        }
    return state


def viewer_text(public: dict, part: dict | None) -> str:
    """The frame of ``merge(public, part)``: the public state as one viewer sees it."""
    return frame_text(merge(public, part))


def balances_of(user_ids) -> dict[int, int]:

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
    crosses Redis as JSON, whose object keys are text); a socket reads only
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
    """Send prepared group messages in order after a commit (``rooms.transport.send_many``)."""
    transport.send_many(messages)
