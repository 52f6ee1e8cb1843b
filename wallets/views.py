"""The player's wallet page."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from wallets.selectors import wallet_balance, wallet_entries

ENTRIES_PER_PAGE = 25


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    """Show the balance and every entry with its running balance, newest first."""
    # Coins carried into a hand sit in escrow until it settles; say where they are.
    from rooms.rounds.selectors import coins_bet_in_rounds
    from rooms.selectors import LedgerReference, ledger_reference_labels
    from rooms.tables.selectors import coins_in_play

    in_play = coins_in_play(user=request.user)
    page = Paginator(wallet_entries(user=request.user), ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    entries = list(page.object_list)
    # A reference such as "hand:6" means nothing to a player: say which game's hand it was.
    labels = ledger_reference_labels(references=[entry.transaction.reference for entry in entries])
    for entry in entries:
        reference = entry.transaction.reference
        entry.reference_label = labels.get(reference) or (LedgerReference(reference) if reference else None)
    return render(
        request,
        "wallets/wallet.html",
        {
            "balance": wallet_balance(user=request.user),
            "in_play": in_play,
            # Likewise a house-banked game's bets until the round pays out or refunds them.
            "bet_in_rounds": coins_bet_in_rounds(user=request.user),
            "page_obj": page,
            "entries": entries,
        },
    )
