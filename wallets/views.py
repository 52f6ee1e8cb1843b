"""The player's wallet page."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wallets import sources
from wallets.selectors import wallet_lines_page, wallet_totals

LINES_PER_PAGE = 25


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    """Show the total (available + at the table) and one line per hand, round or other movement."""
    totals = wallet_totals(user=request.user)
    page, lines = wallet_lines_page(
        user=request.user, page=request.GET.get("page"), per_page=LINES_PER_PAGE, totals=totals
    )
    return render(
        request,
        "wallets/wallet.html",
        {
            "totals": totals,
            # Where the coins at the table are (the rooms say: wallets.sources).
            "at_tables": sources.coins_at_table(user=request.user),
            "page_obj": page,
            "lines": lines,
        },
    )
