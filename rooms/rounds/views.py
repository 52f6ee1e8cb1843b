"""HTTP edges of the round runtime (the table page itself lives in pages.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from rooms.errors import EntryRefused
from rooms.models import RoomTier
from rooms.rounds import services
from rooms.rounds.errors import RoundError


@require_POST
@login_required
def enter(request: HttpRequest, tier_id: int) -> HttpResponse:
    """进入: check the tier's entry rule and go to its open banker table."""
    tier = get_object_or_404(RoomTier.objects.select_related("game"), pk=tier_id)
    try:
        table = services.round_enter(tier_id=tier.pk, user=request.user)
    except (EntryRefused, RoundError) as exc:
        messages.error(request, str(exc))
        return redirect("rooms:game", slug=tier.game.slug)
    return redirect("rounds:table", table_id=table.pk)
