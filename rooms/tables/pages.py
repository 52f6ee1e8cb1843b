"""The seated table's page: a shell that the game's client (static/js/) fills from the WebSocket snapshots.

Every word the client shows comes from TABLE_LABELS (the words every table
shares) and the game's own words (its page in rooms/game_pages/), translated
here and passed as one JSON script tag, so the client holds no strings of its
own.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rooms.game_pages import page_for
from rooms.tables.models import Table

# A seated game without a page of its own (a test's made-up game) gets the first table client.
DEFAULT_TEMPLATE = "tables/table.html"

# Placeholders in braces ({seconds}) are filled in by the client.
TABLE_LABELS = {
    # Connection indicator.
    "connected": _("Connected"),
    "connecting": _("Connecting…"),
    "reconnecting": _("Reconnecting in {seconds}s…"),
    "disconnected": _("Disconnected"),
    "login_again": _("Your session has ended. Please log in again."),
    "table_gone": _("This table no longer exists. Back to the lobby"),
    "too_many_tables": _(
        "Too many tables open: close one and this one connects (trying again in {seconds}s)"
    ),
    # Phases every game has; a game's page names its own.
    "phase_waiting": _("Waiting for the next hand"),
    "phase_finished": _("Hand over"),
    # Seat badges.
    "bot": _("Bot"),
    "trustee": _("Trustee"),
    "offline": _("Offline"),
    "ready": _("Ready"),
    "you": _("You"),
    "empty_seat": _("Empty seat"),
    # Buttons.
    "hint": _("Hint"),
    "trustee_on": _("Trustee"),
    "trustee_off": _("Cancel trustee"),
    "ready_button": _("Ready"),
    "next_hand": _("Next hand"),
    "leave": _("Leave table"),
    # The information strip and the centre of the table.
    "base_stake": _("Base stake"),
    "balance": _("Balance"),
    "level": _("Level"),
    "hand_number": _("Hand {number}"),
    "your_turn": _("Your turn"),
    "waiting_for": _("Waiting for {name}"),
    "seconds": _("{seconds}s"),
    "spectating": _("You are watching this table."),
    "hint_unavailable": _("No hint is available here."),
    "waiting_players": _("Waiting for players to be ready."),
    # Result panel.
    "rake_total": _("Rake taken: {rake}"),
    "settling": _("Settling…"),
}


def table_labels(slug: str = "") -> dict[str, str]:
    """Return every client label (with the game's own, if any) translated into the active language."""
    page = page_for(slug)
    extra = page.labels if page else {}
    return {key: str(value) for key, value in {**TABLE_LABELS, **extra}.items()}


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """Render the table shell; the socket at /ws/tables/<id>/ brings the game."""
    # A house-banked table has its own page (rooms/rounds/pages.py) and no seats.
    table = get_object_or_404(
        Table.objects.select_related("tier__game"), pk=table_id, tier__game__family="seated"
    )
    lobby_url = reverse("rooms:lobby")
    context = {
        "table": table,
        "tier": table.tier,
        "lobby_url": lobby_url,
        "ws_path": f"/ws/tables/{table.pk}/",
        "labels": table_labels(table.tier.game.slug),
        "client_config": {
            "tableId": table.pk,
            "wsPath": f"/ws/tables/{table.pk}/",
            "lobbyUrl": lobby_url,
            "historyUrl": reverse("tables:history"),
            # Per-player settings kept in the browser (the sound switch) are filed under this key.
            "playerKey": request.user.pk,
            # The result panel links a settled hand's provably-fair check; the client puts the id in.
            "verifyUrl": reverse("tables:verify", kwargs={"hand_id": 0}).replace("/0/", "/{id}/"),
        },
    }
    page = page_for(table.tier.game.slug)
    return render(request, page.template if page else DEFAULT_TEMPLATE, context)
