"""The banker table page (百家乐 Baccarat): a shell that static/js/baccarat.js fills from the round socket.

Like the seated tables (rooms/tables/pages.py) the client holds no strings of
its own: every word it shows comes from ROUND_LABELS, translated here and
passed as one JSON script tag.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.tables.models import Table
from rooms.tables.pages import TABLE_LABELS

# The connection badge and the countdown speak as on every table.
_SHARED = (
    "connected",
    "connecting",
    "reconnecting",
    "disconnected",
    "login_again",
    "table_gone",
    "too_many_tables",
    "seconds",
)

# Placeholders in braces ({amount}) are filled in by the client.
ROUND_LABELS = {
    **{key: TABLE_LABELS[key] for key in _SHARED},
    # Phases of a round.
    "phase_idle": _("Waiting for the next round"),
    "phase_betting": _("Place your bets"),
    "phase_dealing": _("Dealing"),
    "phase_result": _("Result"),
    "round_number": _("Round {number}"),
    "shoe_coup": _("Shoe {shoe} · coup {coup}"),
    "next_round_in": _("Next round in"),
    # The betting areas (庄 闲 和 庄对 闲对 大 小 超级6) and the two hands.
    "area_banker": pgettext_lazy("baccarat", "Banker"),
    "area_player": pgettext_lazy("baccarat", "Player"),
    "area_tie": pgettext_lazy("baccarat", "Tie"),
    "area_banker_pair": pgettext_lazy("baccarat", "Banker pair"),
    "area_player_pair": pgettext_lazy("baccarat", "Player pair"),
    "area_big": pgettext_lazy("baccarat", "Big"),
    "area_small": pgettext_lazy("baccarat", "Small"),
    "area_super6": pgettext_lazy("baccarat", "Super 6"),
    "area_total": _("All {amount}"),
    "area_mine": _("You {amount}"),
    "area_limit": _("Max {amount}"),
    "area_closed": _("Closed"),
    # One-letter marks on the roads: 庄 banker, 闲 player, 和 tie.
    "road_banker": pgettext_lazy("baccarat road", "B"),
    "road_player": pgettext_lazy("baccarat road", "P"),
    "road_tie": pgettext_lazy("baccarat road", "T"),
    "road_empty": _("No coups in this shoe yet."),
    # Chips and bets.
    "chip": _("Chip {amount}"),
    "choose_chip": _("Choose a chip, then tap an area to bet."),
    "betting_closed_note": _("Betting is closed: wait for the next round."),
    # The result of a coup and of the viewer's bets.
    "winner_banker": _("Banker wins"),
    "winner_player": _("Player wins"),
    "winner_tie": _("Tie"),
    "totals_line": _("Player {player} · Banker {banker}"),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("Your stakes come back"),
    "refunded": _("The round was called off: your stakes are refunded."),
    "no_bets": _("You did not bet this round."),
    "settling": _("Settling…"),
    "bet_line": _("{area} {amount}: {net}"),
}


@login_required
def round_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """Render the banker table shell; the socket at /ws/rounds/<id>/ brings the round."""
    table = get_object_or_404(
        Table.objects.select_related("tier__game"), pk=table_id, tier__game__family="banker"
    )
    lobby_url = reverse("rooms:lobby")
    ws_path = f"/ws/rounds/{table.pk}/"
    context = {
        "table": table,
        "tier": table.tier,
        "lobby_url": lobby_url,
        "labels": {key: str(value) for key, value in ROUND_LABELS.items()},
        "client_config": {"tableId": table.pk, "wsPath": ws_path, "lobbyUrl": lobby_url},
    }
    return render(request, "rounds/baccarat.html", context)
