"""The page of a house-banked table: a shell that the game's client fills from the round socket.

Like the seated tables (rooms/tables/pages.py) the client holds no strings of
its own: every word it shows comes from ROUND_LABELS and the game's own words
(its page in rooms/game_pages/), translated here and passed as one JSON script tag.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

import games
from rooms.game_pages import page_for
from rooms.rounds.broadcast import tier_config
from rooms.rounds.models import Shoe
from rooms.rounds.verify import shoe_verification
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
    # The betting areas: what is on each (the game's page names the areas).
    "area_total": _("All {amount}"),
    "area_mine": _("You {amount}"),
    "area_limit": _("Max {amount}"),
    "area_closed": _("Closed"),
    "road_empty": _("No coups in this shoe yet."),
    # Chips and bets.
    "chip": _("Chip {amount}"),
    "choose_chip": _("Choose a chip, then tap an area to bet."),
    "betting_closed_note": _("Betting is closed: wait for the next round."),
    # The viewer's bets.
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("Your stakes come back"),
    "refunded": _("The round was called off: your stakes are refunded."),
    "no_bets": _("You did not bet this round."),
    "settling": _("Settling…"),
    "bet_line": _("{area} {amount}: {net}"),
}


def round_labels(slug: str) -> dict[str, str]:
    """Return every word of a round's client (with the game's own) translated into the active language."""
    page = page_for(slug)
    extra = page.labels if page else {}
    return {key: str(value) for key, value in {**ROUND_LABELS, **extra}.items()}


def odds_table(tier, labels: dict[str, str]) -> list[dict]:
    """The rules panel's rows: each area's odds, chance and house edge, from the engine's ``odds_table`` (else none).

    Each row is ``{"area", "odds", "probability", "edge"}``, with the area's ``name`` (its
    ``area_<area>`` label), ``percent`` and ``edge_percent`` added as the page prints them.
    """
    engine = games.REGISTRY[tier.game.slug].engine
    hook = getattr(engine, "odds_table", None)
    if not callable(hook):
        return []
    return [
        {
            **row,
            "name": labels.get(f"area_{row['area']}", row["area"]),
            "percent": f"{row['probability'] * 100:.3f}",
            "edge_percent": f"{row['edge'] * 100:.2f}",
        }
        for row in hook(tier_config(tier))
    ]


@login_required
def round_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """Render the banker table shell; the socket at /ws/rounds/<id>/ brings the round."""
    table = get_object_or_404(
        Table.objects.select_related("tier__game"), pk=table_id, tier__game__family="banker"
    )
    page = page_for(table.tier.game.slug)
    if page is None:
        raise Http404("This game has no page.")
    lobby_url = reverse("rooms:lobby")
    labels = round_labels(table.tier.game.slug)
    ws_path = f"/ws/rounds/{table.pk}/"
    context = {
        "table": table,
        "tier": table.tier,
        "lobby_url": lobby_url,
        "labels": labels,
        "odds_table": odds_table(table.tier, labels),
        # userId: the page tells its own entries (the banker, the banker queue) from the others.
        "client_config": {
            "tableId": table.pk,
            "wsPath": ws_path,
            "lobbyUrl": lobby_url,
            "userId": request.user.pk,
        },
    }
    return render(request, page.template, context)


@login_required
def shoe_verify_page(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """验证: the shoe's published hash, its seed once finished, and every coup dealt again from it."""
    shoe = get_object_or_404(
        Shoe.objects.select_related("table__tier__game"),
        table_id=table_id,
        number=number,
        table__tier__game__family="banker",
    )
    check = shoe_verification(shoe=shoe)
    context = {
        "check": check,
        "shoe": shoe,
        "tier": shoe.table.tier,
        "table_url": reverse("rounds:table", args=[table_id]),
    }
    return render(request, "rounds/verify_shoe.html", context)
