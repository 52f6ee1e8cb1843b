"""Reads of the rooms app: what the lobby, the game page and the API show."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django.utils.translation import gettext

import games
from rooms.entry import entry_refusal
from rooms.models import Game, RoomTier
from rooms.rounds.models import Round
from rooms.rounds.selectors import viewer_counts_by_tier
from rooms.solo.models import Play
from rooms.tables.models import Hand
from rooms.tables.selectors import seated_counts_by_tier
from wallets.selectors import wallet_balance


@dataclass
class TierRow:
    """One room tier as a player sees it: its rules and whether they may enter."""

    tier: RoomTier
    minimum_coins: int
    rake_percent: Decimal
    seated: int
    seats_per_table: int
    variant: str
    variant_label: str
    can_enter: bool
    refusal: str
    refusal_code: str

    @property
    def login_required(self) -> bool:
        return self.refusal_code == "login_required"


@dataclass
class GameRow:
    """One catalogue game with its tiers, for the signed-in player (or a visitor)."""

    game: Game
    tiers: list[TierRow] = field(default_factory=list)

    @property
    def cheapest_minimum(self) -> int | None:
        minimums = [row.minimum_coins for row in self.tiers if row.tier.is_open]
        return min(minimums) if minimums else None

    @property
    def seated(self) -> int:
        return sum(row.seated for row in self.tiers)


def seated_counts() -> dict[int, int]:
    """Return tier id → humans playing now: seated at a table, or at a banker table's page."""

    return {**seated_counts_by_tier(), **viewer_counts_by_tier()}


def player_balance(*, user) -> int | None:
    """Return the signed-in player's coins, or None for an anonymous visitor."""
    if user is None or not user.is_authenticated:
        return None
    return wallet_balance(user=user)


def game_queryset() -> QuerySet[Game]:
    """Return the enabled games that have an engine installed, with their tiers."""
    return (
        Game.objects.filter(is_enabled=True, slug__in=list(games.REGISTRY))
        .prefetch_related(
            Prefetch("tiers", queryset=RoomTier.objects.order_by("sort_order", "base_stake", "pk"))
        )
        .order_by("sort_order", "slug")
    )


def game_catalogue() -> list[tuple[str, str]]:
    """Return (slug, name in the active language) of every enabled game, in lobby order."""
    return [
        (game.slug, game.name)
        for game in Game.objects.filter(is_enabled=True)
        .order_by("sort_order", "slug")
        .only("slug", "name_zh", "name_en")
    ]


def game_get(*, slug: str) -> Game | None:
    """Return the enabled, installed game ``slug`` with its tiers, or None."""
    return game_queryset().filter(slug=slug).first()


def tier_get(*, tier_id: int) -> RoomTier | None:
    """Return a tier of an enabled, installed game, or None."""
    return (
        RoomTier.objects.select_related("game")
        .filter(pk=tier_id, game__is_enabled=True, game__slug__in=list(games.REGISTRY))
        .first()
    )


def variant_label(*, slug: str, variant: str) -> str:
    """Return how the lobby names a tier's variant: the game's words for it, else the variant's key."""
    info = games.REGISTRY.get(slug)
    label = info.variants.get(variant) if info else None
    return gettext(label) if label else variant


def _tier_row(*, tier: RoomTier, authenticated: bool, balance: int | None, seated: dict[int, int]) -> TierRow:
    refusal = entry_refusal(tier=tier, authenticated=authenticated, balance=balance)
    variant = tier.variant
    return TierRow(
        tier=tier,
        minimum_coins=tier.minimum_coins,
        rake_percent=tier.rake_percent,
        seated=seated.get(tier.pk, 0),
        seats_per_table=tier.seats_per_table,
        variant=variant,
        variant_label=variant_label(slug=tier.game.slug, variant=variant),
        can_enter=refusal is None,
        refusal=str(refusal) if refusal else "",
        refusal_code=refusal.code if refusal else "",
    )


def game_rows(*, games_: Iterable[Game], user) -> list[GameRow]:
    """Return each game with its tiers and the player's entry status (one wallet read)."""
    balance = player_balance(user=user)
    authenticated = balance is not None
    seated = seated_counts()
    return [
        GameRow(
            game=game,
            tiers=[
                _tier_row(tier=tier, authenticated=authenticated, balance=balance, seated=seated)
                for tier in game.tiers.all()
            ],
        )
        for game in games_
    ]


def tier_row(*, tier: RoomTier, user) -> TierRow:
    """Return one tier with the player's entry status."""
    balance = player_balance(user=user)
    return _tier_row(tier=tier, authenticated=balance is not None, balance=balance, seated=seated_counts())


@dataclass(frozen=True)
class LedgerReference:
    """What a ledger reference (``hand:6``) means to a player, and the page that shows it, if any."""

    text: str
    url: str = ""


def ledger_reference_labels(*, references: Iterable[str]) -> dict[str, LedgerReference]:
    """Return reference → words for the references of the games' ledger transactions.

    ``hand:<id>`` names the game, room, table and hand, linked to the hand's verify page
    once the hand is over; ``round:<id>`` names a house-banked game's round; ``play:<id>`` a
    one-player game's play, linked to its verify page; ``staff:<id>``
    (a staff member's deposit or correction) says a staff member, not who. Any
    other reference was typed by staff for the player and is shown as it is.
    """
    ids: dict[str, set[int]] = {"hand": set(), "round": set(), "play": set()}
    labels: dict[str, LedgerReference] = {}
    for reference in set(references):
        prefix, _sep, number = reference.partition(":")
        if prefix in ids and number.isdigit():
            ids[prefix].add(int(number))
        elif prefix == "staff" and number.isdigit():
            labels[reference] = LedgerReference(gettext("By staff"))
        elif reference:
            labels[reference] = LedgerReference(reference)
    finished = {Hand.Status.SETTLED, Hand.Status.CANCELLED}
    for hand in Hand.objects.filter(pk__in=ids["hand"]).select_related("table__tier__game"):
        tier = hand.table.tier
        # The table too: hands are numbered per table, so two tables' first hands are both "hand 1".
        text = gettext("%(game)s · %(tier)s · table %(table)s · hand %(number)s") % {
            "game": tier.game.name,
            "tier": tier.display_name,
            "table": hand.table_id,
            "number": hand.number,
        }
        url = reverse("tables:verify", kwargs={"hand_id": hand.pk}) if hand.status in finished else ""
        labels[f"hand:{hand.pk}"] = LedgerReference(text, url)
    for rnd in Round.objects.filter(pk__in=ids["round"]).select_related("table__tier__game"):
        tier = rnd.table.tier
        text = gettext("%(game)s · %(tier)s · round %(number)s") % {
            "game": tier.game.name,
            "tier": tier.display_name,
            "number": rnd.number,
        }
        labels[f"round:{rnd.pk}"] = LedgerReference(text)
    for play in Play.objects.filter(pk__in=ids["play"]).select_related("tier__game"):
        text = gettext("%(game)s · %(tier)s · %(kind)s %(number)s") % {
            "game": play.tier.game.name,
            "tier": play.tier.display_name,
            "kind": play.get_kind_display(),
            "number": play.nonce,
        }
        labels[f"play:{play.pk}"] = LedgerReference(text, reverse("solo:verify", kwargs={"play_id": play.pk}))
    return labels
