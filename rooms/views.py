"""Lobby pages: the game catalogue and one game's room tiers. Both are open to visitors."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rooms import selectors


def lobby(request: HttpRequest) -> HttpResponse:
    """Show every playable game as a card, with the player's balance."""
    rows = selectors.game_rows(games_=selectors.game_queryset(), user=request.user)
    balance = selectors.player_balance(user=request.user)
    return render(request, "rooms/lobby.html", {"game_rows": rows, "balance": balance})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Show one game's room tiers with quick-start buttons, disabled where entry is refused."""
    game = selectors.game_get(slug=slug)
    if game is None:
        raise Http404("No such game")
    (row,) = selectors.game_rows(games_=[game], user=request.user)
    balance = selectors.player_balance(user=request.user)
    return render(request, "rooms/game.html", {"row": row, "game": game, "balance": balance})
