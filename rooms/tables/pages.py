"""Placeholder table and history pages (the browser-client engineer replaces this file)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from rooms.tables import selectors
from rooms.tables.models import Table


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("tier__game"), pk=table_id)
    context = {"table": table, "tier": table.tier, "lobby_url": reverse("rooms:lobby")}
    return render(request, "tables/table.html", context)


@login_required
def history_page(request: HttpRequest) -> HttpResponse:
    hands = selectors.hands_for_user(user=request.user)
    return HttpResponse("\n".join(f"{hand.pk} {hand.status}" for hand in hands), content_type="text/plain")
