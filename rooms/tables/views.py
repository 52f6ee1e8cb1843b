"""HTTP edges of the table runtime (the table and history pages live in pages.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rooms.errors import EntryRefused
from rooms.models import RoomTier
from rooms.tables import selectors, services
from rooms.tables.errors import AlreadySeated
from rooms.tables.models import Table


@require_POST
@login_required
def quick_start(request: HttpRequest, tier_id: int) -> HttpResponse:
    """快速开始: seat the player at a table of this tier and go there."""
    tier = get_object_or_404(RoomTier.objects.select_related("game"), pk=tier_id)
    try:
        table = services.table_quick_start(tier_id=tier.pk, user=request.user)
    except EntryRefused as exc:
        messages.error(request, str(exc))
        return redirect("rooms:game", slug=tier.game.slug)
    except AlreadySeated as exc:
        messages.info(request, _already_seated_text(exc, wanted=tier))
        return redirect("tables:table", table_id=exc.table_id)
    except IntegrityError:
        # A double click raced this request; the other one seated the player.
        seat = selectors.seat_for_user(user=request.user)
        if seat is None:
            raise
        return redirect("tables:table", table_id=seat.table_id)
    return redirect("tables:table", table_id=table.pk)


def _already_seated_text(exc: AlreadySeated, *, wanted: RoomTier) -> str:
    """Say where the player still sits when they asked for another room, so the table they land on is no surprise."""
    current = Table.objects.select_related("tier__game").filter(pk=exc.table_id).first()
    if current is None or current.tier_id == wanted.pk:
        return str(exc)
    return _(
        "You are still seated at %(game)s · %(tier)s (table %(id)s); leave that table to play %(wanted)s · %(wanted_tier)s."
    ) % {
        "game": current.tier.game.name,
        "tier": current.tier.display_name,
        "id": current.pk,
        "wanted": wanted.game.name,
        "wanted_tier": wanted.display_name,
    }
