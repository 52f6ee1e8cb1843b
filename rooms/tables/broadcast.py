"""What each viewer of a table sees, and how it reaches them after a commit.

Every committed change of a table moves ``table.seq`` on and builds, once,
each seat's ``state`` frame (the engine's view for that seat) and the
spectators' frame, as JSON text, into one ``table.frames`` message on the
table's channel-layer group. Every socket of the table receives it and sends
only its own seat's frames (or the spectators'), so each viewer sees only what
its seat may. The frames are built inside the changing transaction (a frame
and its ``seq`` always agree) and sent after the commit: a rolled-back change
is never seen. docs/protocol.md describes the frames.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from platform.accounts.levels import level_for_wins
from platform.accounts.models import GameStats
from platform.accounts.names import player_names

from rooms.tables.clock import engine_for, ready_by, seat_is_auto, shown_deadline
from rooms.tables.models import Hand, Seat, Table
from rooms.transport import frame_text, table_group

__all__ = ["Scene", "frames_message", "snapshot", "table_group"]
from wallets.models import Account

logger = logging.getLogger(__name__)


@dataclass(eq=False)
class Scene:
    """What the frames of a table show: the table, its seats, the open (or last) hand, and the counts."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    balances: dict[int, int] = field(default_factory=dict)
    wins: dict[int, int] = field(default_factory=dict)
    notices: list[dict] = field(default_factory=list)
    # When no hand is open: the latest hand, over (None: the table has had none; ``UNREAD``: not read yet).
    last_hand: Hand | None | object = None


def balances_and_wins(slug: str, user_ids: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The users' wallet balances and their win counts in the game ``slug``."""
    if not user_ids:
        return {}, {}
    balances = dict(Account.objects.filter(user_id__in=user_ids).values_list("user_id", "balance"))
    wins = dict(GameStats.objects.filter(user_id__in=user_ids, game_slug=slug).values_list("user_id", "wins"))
    return balances, wins


def latest_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table).order_by("-number").first()


def result_notice(hand: Hand, viewer: int | None, balance: int | None) -> dict | None:
    """The result of a settled hand as ``viewer`` sees it: a wallet balance only for their own seat."""
    outcome = hand.outcome or {}
    if hand.status != Hand.Status.SETTLED or "net" not in outcome:
        return None
    details = outcome.get("details") or {}
    deltas, net, winners = outcome["deltas"], outcome["net"], set(outcome["winners"])
    names = [player_names(player["name"], is_bot=bool(player.get("is_bot"))) for player in hand.players]
    return {
        "type": "result",
        "hand": hand.pk,
        "winner": details.get("winner"),
        "multiple": details.get("multiple"),
        "rake": outcome.get("rake", 0),
        "details": details,
        "seats": [
            {
                "index": i,
                "name": names[i][0],
                "name_en": names[i][1],
                "delta": net[i],
                "rake": deltas[i] - net[i],
                "balance": balance if i == viewer else None,
                "won": i in winners,
            }
            for i in range(len(hand.players))
        ],
    }


class _Frames:
    """The frames of one scene, the parts every viewer shares computed once."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        table, hand = scene.table, scene.hand
        tier = table.tier
        self.tier = {
            "id": tier.pk,
            "game": tier.game.slug,
            "game_name": tier.game.name_zh,
            "game_name_en": tier.game.name_en,
            "name": tier.name,
            "name_en": tier.name_en or tier.name,
            "base_stake": tier.base_stake,
            "rake_bps": tier.rake_bps,
        }
        self.levels = {
            s.user_id: level_for_wins(scene.wins.get(s.user_id, 0))
            for s in scene.seats
            if s.user_id and not s.is_bot
        }
        self.public_seats: list[dict] | None = None
        self.views: dict = {}
        self.actors: list[int] = []
        self.shown_actors: list[int] = []  # who everyone is told may act (``Engine.shown_actors``)
        if hand is not None:
            engine = engine_for(hand.game_slug)
            playing = hand.status == Hand.Status.PLAYING
            self.actors = engine.actors(hand.state) if playing else []
            self.shown_actors = sorted(engine.shown_actors(hand.state)) if playing else []
            viewers = [*(s.index for s in scene.seats), None]
            self.views = dict(zip(viewers, engine.views(hand.state, viewers), strict=True))
            deadline = shown_deadline(hand)
            by_index = {s.index: s for s in scene.seats}
            self.hand_head = {
                "id": hand.pk,
                "number": hand.number,
                "status": hand.status,
                "deadline": int(deadline.timestamp() * 1000) if deadline else None,
                "actors": self.shown_actors,
                "auto": [i for i in self.shown_actors if i in by_index and seat_is_auto(by_index[i])],
                # Provably fair: the seed's hash is published from the deal on.
                "seed_sha256": hashlib.sha256(bytes(hand.seed)).hexdigest(),
            }

    def seats(self, viewer: int | None) -> list[dict]:
        rows = self.public_seats
        if rows is None:
            rows = self.public_seats = [self._seat_row(seat) for seat in self.scene.seats]
        hand = self.scene.hand
        if viewer is None or hand is None or viewer >= len(hand.players):
            return rows
        # The coins a seat carried (its whole wallet, often) are its own player's to see alone.
        return [
            {**row, "carried": hand.players[viewer]["carried"]} if row["index"] == viewer else row
            for row in rows
        ]

    def _seat_row(self, seat: Seat) -> dict:
        # Names and levels in both languages: one frame goes to every socket, whatever its language.
        names = player_names(seat.user.stored_name, is_bot=seat.is_bot) if seat.user_id else (None, None)
        level = self.levels.get(seat.user_id)
        return {
            "index": seat.index,
            "name": names[0],
            "name_en": names[1],
            "is_bot": seat.is_bot,
            "ready": seat.ready,
            "ready_by": self._ready_by(seat),
            "trustee": seat.trustee,
            "connected": seat.connected or seat.is_bot,
            "level": level.name if level else None,
            "level_en": level.name_en if level else None,
            "carried": None,
        }

    def _ready_by(self, seat: Seat) -> int | None:
        """When this seat's player stands up if they do not press ready (ms), between hands."""
        scene = self.scene
        if scene.table.status != Table.Status.WAITING:
            return None
        last = scene.last_hand if scene.last_hand is not UNREAD else None
        moment = ready_by(seat, scene.seats, last.finished_at if last is not None else None)
        return int(moment.timestamp() * 1000) if moment else None

    def hand(self, viewer: int | None) -> dict | None:
        hand = self.scene.hand
        if hand is None:
            return None
        hint = None
        if viewer is not None and viewer in self.actors:
            try:
                hint = engine_for(hand.game_slug).hint(hand.state, viewer)
            except Exception:  # noqa: BLE001 - a hint is a convenience; it must never stop a broadcast
                logger.warning("hint failed for hand %s", hand.pk, exc_info=True)
        out_of_turn = []
        if viewer is not None and viewer not in self.actors and hand.status == Hand.Status.PLAYING:
            out_of_turn = engine_for(hand.game_slug).out_of_turn_actions(hand.state, viewer)
        actors = self.shown_actors
        if viewer is not None and (viewer in self.actors) != (viewer in actors):
            # The seat learns whether it acts itself, and nothing more about the others.
            actors = sorted({*actors} ^ {viewer})
        return {
            **self.hand_head,
            "actors": list(actors),
            "view": self.views[viewer],
            "hint": hint,
            "out_of_turn": out_of_turn,
        }

    def played_last(self, viewer: int | None, user_id: int | None) -> bool:
        """Whether the viewer is the player who sat at ``viewer`` in the last hand."""
        last = self.scene.last_hand
        return (
            viewer is not None
            and viewer < len(last.players)
            and user_id is not None
            and last.players[viewer].get("user") == user_id
        )

    def last_hand(self, viewer: int | None, user_id: int | None, balance: int | None) -> dict | None:
        last = self.scene.last_hand
        if self.scene.hand is not None or last is None or last is UNREAD:
            return None
        # The seat's final view and the seed go only to the player who sat there in that hand:
        # a later occupant of the seat gets what anyone gets (the previous player's cards, and
        # the seed that re-deals every hand, folded ones included, stay theirs).
        played = self.played_last(viewer, user_id)
        view = engine_for(last.game_slug).view(last.state, viewer if played else None) if last.state else None
        return {
            "id": last.pk,
            "number": last.number,
            "status": last.status,
            "view": view,
            "seed_sha256": hashlib.sha256(bytes(last.seed)).hexdigest(),
            "seed": bytes(last.seed).hex() if played else None,
            "result": result_notice(last, viewer if played else None, balance),
            "cancel_reason": last.cancel_reason or None,
        }

    def notice(self, notice: dict, viewer: int | None, user_id: int | None, balance: int | None) -> dict:
        """A notice of this change (``result``: the settled last hand, as this viewer sees it)."""
        if notice["type"] == "result":
            played = self.played_last(viewer, user_id)
            notice = result_notice(self.scene.last_hand, viewer if played else None, balance)
        return {**notice, "seq": self.scene.table.seq}

    def state(self, viewer: int | None, user_id: int | None, balance: int | None) -> dict:
        seat = next((s for s in self.scene.seats if s.index == viewer), None)
        table = self.scene.table
        return {
            "type": "state",
            "seq": table.seq,
            "table": {"id": table.pk, "status": table.status, "tier": self.tier, "seats": self.seats(viewer)},
            "hand": self.hand(viewer),
            "last_hand": self.last_hand(viewer, user_id, balance),
            "you": {"seat": viewer, "balance": balance, "trustee": bool(seat and seat.trustee)},
        }


UNREAD = object()


def _with_last_hand(scene: Scene) -> Scene:
    if scene.hand is None and scene.last_hand is UNREAD:
        scene.last_hand = latest_hand(scene.table)
    return scene


def snapshot(
    scene: Scene, *, seat_index: int | None, balance: int | None, user_id: int | None = None
) -> dict:
    """The full ``state`` message for one viewer: a seat's player (``user_id``: by default the one
    seated there), or a spectator (``seat_index`` None)."""
    if user_id is None and seat_index is not None:
        user_id = next((s.user_id for s in scene.seats if s.index == seat_index), None)
    return _Frames(_with_last_hand(scene)).state(seat_index, user_id, balance)


def frames_message(scene: Scene) -> dict:
    """One channel-layer message carrying every viewer's frames of this change, as text.

    Each socket sends only the frames of the seat its user holds (``seats``:
    index, user id, frames) or the spectators' (``watch``); ``seat_users``
    lets a socket see that its user's seat changed. A notice (``result``,
    ``cancelled``) follows the ``state`` with the same ``seq``.
    """
    frames = _Frames(_with_last_hand(scene))
    seats = []
    for seat in scene.seats:
        user, balance = seat.user_id, scene.balances.get(seat.user_id)
        texts = [frame_text(frames.state(seat.index, user, balance))]
        texts += [frame_text(frames.notice(n, seat.index, user, balance)) for n in scene.notices]
        seats.append([seat.index, user, texts])
    watch = [frame_text(frames.state(None, None, None))]
    watch += [frame_text(frames.notice(n, None, None, None)) for n in scene.notices]
    return {
        "type": "table.frames",
        "seq": scene.table.seq,
        "seats": seats,
        "watch": watch,
        "seat_users": [seat.user_id for seat in scene.seats if seat.user_id],
    }
