"""Provably fair: check a finished hand from its published hash, its revealed seed and its action log.

``hand_verification`` is the one check; the "verify this hand" page and
``manage.py hand_verify`` both show what it finds. It re-deals the hand from
the seed exactly as the runtime dealt it (``replay.hand_replay``), says
whether replaying the logged actions reproduces the stored result, and lists
every deal the seed made, in order (a hand thrown in and dealt again has
several), as the game's presentation gives them (``Presentation.deals``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from platform.accounts.names import player_name

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

import games
from rooms.tables.cards import card_faces
from rooms.tables.models import Hand
from rooms.tables.replay import HandNotReplayable, HandReplay, hand_replay

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass
class DealtSeat:
    """One seat's cards as the seed deals them."""

    index: int
    name: str
    is_bot: bool
    cards: list[str]


@dataclass
class DealShown:
    """One deal the seed made: every seat's cards, the cards dealt to nobody, and why it was dealt again."""

    seats: list[DealtSeat]
    shared: list[tuple[str, list[str]]]  # (label, cards), the label translated
    note: str = ""  # translated; "" for the deal that was played


@dataclass
class HandVerification:
    """What a player checks about a finished hand, and the verdict of each check."""

    hand: Hand
    seed_hex: str
    published_sha256: str
    seed_sha256: str
    deals: list[DealShown] = field(default_factory=list)  # in order, the one played last
    replay: HandReplay | None = None

    @property
    def hash_matches(self) -> bool:
        return self.seed_sha256 == self.published_sha256

    @property
    def replay_matches(self) -> bool:
        return self.replay is not None and self.replay.matches

    @property
    def problems(self) -> list[str]:
        return list(self.replay.problems) if self.replay is not None else []

    @property
    def ok(self) -> bool:
        return self.hash_matches and self.replay_matches


def seed_hash(seed: bytes) -> str:
    """Return the SHA-256 (hex) of a 32-byte server seed, as published while its hand is played."""
    return hashlib.sha256(seed).hexdigest()


def seed_matches_hash(*, seed_hex: str, sha256_hex: str) -> bool | None:
    """Say whether ``seed_hex`` hashes to ``sha256_hex``; None if either is not well-formed hex."""
    seed_hex, sha256_hex = seed_hex.strip().lower(), sha256_hex.strip().lower()
    if not _HEX64.match(sha256_hex):
        return None
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return None
    if not seed:
        return None
    return seed_hash(seed) == sha256_hex


def hand_verification(*, hand: Hand) -> HandVerification:
    """Re-deal ``hand`` from its revealed seed and replay its log; raise HandNotReplayable if it is not over."""
    replay = hand_replay(hand=hand)  # refuses a hand still in play: its seed is not revealed yet
    seed = bytes(hand.seed)
    result = HandVerification(
        hand=hand,
        seed_hex=seed.hex(),
        # The hash the hand's state messages carried from its first one on.
        published_sha256=seed_hash(bytes(hand.seed)),
        # Recomputed from the revealed seed's bytes, as a player would.
        seed_sha256=seed_hash(bytes.fromhex(seed.hex())),
        replay=replay,
    )
    presentation = games.REGISTRY[hand.game_slug].presentation
    if presentation is None:
        return result
    players = list(hand.players)
    # The state the seed and the log lead to (as far as the replay got): every deal it made.
    for deal in presentation.deals(replay.reached):
        seats = [
            DealtSeat(
                index=index,
                name=player_name(player.get("name") or "", is_bot=bool(player.get("is_bot"))),
                is_bot=bool(player.get("is_bot")),
                cards=list(deal.hands[index]) if index < len(deal.hands) else [],
            )
            for index, player in enumerate(players)
        ]
        shared = [(_(group.label), list(group.cards)) for group in deal.shared if group.cards]
        result.deals.append(DealShown(seats=seats, shared=shared, note=_(deal.note) if deal.note else ""))
    return result


def may_verify(*, user, hand: Hand) -> bool:
    """A finished hand's verification is for the players who sat in it and for staff."""
    if not user.is_authenticated:
        return False
    return user.is_staff or hand.participants.filter(pk=user.pk).exists()


@login_required
def hand_verify_page(request: HttpRequest, hand_id: int) -> HttpResponse:
    """验证: the published hash, the revealed seed, the deal it makes and the replay's verdict."""
    hand = get_object_or_404(
        Hand.objects.select_related("table__tier__game"),
        pk=hand_id,
        status__in=[Hand.Status.SETTLED, Hand.Status.CANCELLED],
    )
    if not may_verify(user=request.user, hand=hand):
        raise Http404(_("No such hand."))
    try:
        check = hand_verification(hand=hand)
    except HandNotReplayable as exc:
        raise Http404(str(exc)) from exc
    my_seat = next((i for i, p in enumerate(hand.players) if p.get("user") == request.user.pk), None)
    # The quick check: a seed and a hash pasted by the player (by default this hand's).
    pasted_seed = request.GET.get("seed", "")
    pasted_hash = request.GET.get("sha256", "")
    quick = None
    if pasted_seed or pasted_hash:
        quick = seed_matches_hash(seed_hex=pasted_seed or check.seed_hex, sha256_hex=pasted_hash)
    tiles = getattr(games.REGISTRY[hand.game_slug].presentation, "pieces", "cards") == "tiles"
    context = {
        "check": check,
        "hand": hand,
        "tier": hand.table.tier,
        "my_seat": my_seat,
        "deals": [
            {
                "number": number,
                "note": deal.note,
                "seats": [
                    {
                        "seat": seat,
                        "faces": card_faces(seat.cards, tiles=tiles),
                        "is_me": seat.index == my_seat,
                    }
                    for seat in deal.seats
                ],
                "shared": [(label, card_faces(cards, tiles=tiles)) for label, cards in deal.shared],
            }
            for number, deal in enumerate(check.deals, start=1)
        ],
        "pasted_seed": pasted_seed,
        "pasted_hash": pasted_hash,
        "quick": quick,
        "quick_asked": bool(pasted_seed or pasted_hash),
    }
    return render(request, "tables/verify.html", context)
