"""Writes of the rooms app: the catalogue, room tiers, and the entry check."""

from __future__ import annotations

from typing import Any

from django.db import transaction

import games
from rooms.entry import entry_refusal
from rooms.models import Game, RoomTier
from wallets.selectors import wallet_balance


@transaction.atomic(durable=True)
def catalogue_sync() -> None:
    """Create or update one catalogue row per engine in ``games.REGISTRY``.

    Names, family and seat counts follow the engine; whether a game is
    enabled and where it sorts stay as staff set them. Rows whose engine is
    gone are left alone: the lobby and the entry check ignore them.
    """
    existing = {game.slug: game for game in Game.objects.select_for_update(of=("self",)).order_by("pk")}
    next_order = max((game.sort_order for game in existing.values()), default=0)
    for info in games.REGISTRY.values():
        facts = game_facts(info)
        game = existing.get(info.slug)
        if game is None:
            next_order += 10
            game = Game(slug=info.slug, sort_order=next_order, **facts)
            game.full_clean()
            game.save()
            continue
        changed = [name for name, value in facts.items() if getattr(game, name) != value]
        if changed:
            for name in changed:
                setattr(game, name, facts[name])
            game.full_clean()
            game.save(update_fields=changed)


def game_facts(info) -> dict[str, Any]:
    """The catalogue fields of a game that follow its engine (``games.REGISTRY`` entry ``info``)."""
    return {
        "name_zh": info.name_zh,
        "name_en": info.name_en,
        "family": info.family,
        "min_seats": info.min_seats,
        "max_seats": info.max_seats,
    }


def tier_ensure(*, game: Game, code: str, name: str, base_stake: int, **fields: Any) -> tuple[RoomTier, bool]:
    """Create the tier ``game``/``code`` unless it exists; return it and whether it was created.

    An existing tier is returned untouched, so staff edits survive a re-run
    of ``load_demo``. New tiers are validated like the admin form does.
    """
    with transaction.atomic():
        tier = RoomTier.objects.filter(game=game, code=code).first()
        if tier is not None:
            return tier, False
        tier = RoomTier(game=game, code=code, name=name, base_stake=base_stake, **fields)
        tier.full_clean()
        tier.save()
        return tier, True


def tier_entry_check(*, tier: RoomTier, user, balance: int | None = None) -> None:
    """Raise ``EntryRefused`` unless ``user`` may sit down in ``tier`` now.

    Refuses a disabled or uninstalled game, a closed tier, an anonymous
    visitor, and a balance below the minimum (inclusive: equal may enter) or
    above the optional maximum; the message names the numbers. ``balance``:
    the user's balance as ``wallet_balance`` returns it, when the caller has
    just read it (else it is read here).
    """
    authenticated = bool(user is not None and user.is_authenticated)
    if not authenticated:
        balance = None
    elif balance is None:
        balance = wallet_balance(user=user)
    refusal = entry_refusal(tier=tier, authenticated=authenticated, balance=balance)
    if refusal is not None:
        raise refusal
