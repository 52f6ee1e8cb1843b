"""梭哈's table page: templates/tables/suoha.html with static/js/suoha.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_betting": _("Betting"),
    "phase_swap": _("Swap or keep"),
    "pot": _("Pot"),
    "round": _("Round {round}"),
    "round_cap": _("Round cap {amount}"),
    "suo_total": _("All in: {amount}"),
    "state_folded": _("Folded"),
    "bet_in": _("In {amount}"),
    "round_in": _("This round {amount}"),
    "coins_left": _("Left {amount}"),
    "check": _("Check"),
    "call_amount": _("Call {amount}"),
    "raise_to": _("Bet {amount}"),
    "suo": _("All in (梭)"),
    "open": pgettext_lazy("suoha action", "Open"),
    "fold": _("Fold"),
    "swap": _("Swap"),
    "keep": _("Keep"),
    "swap_note": _(
        "Swap: the new card becomes your hole card and the old one goes face up; keep: the new card goes face up."
    ),
    "hole_card": _("Hole card"),
    "new_card": _("New card"),
    "leads": _("Speaks first"),
    "said_check": _("Check"),
    "said_call": _("Call"),
    "said_raise": _("Bet"),
    "said_suo": _("All in"),
    "said_fold": _("Fold"),
    "said_open": pgettext_lazy("suoha action", "Open"),
    "said_swap": _("Swapped"),
    "said_keep": _("Kept"),
    "cat_straight_flush": pgettext_lazy("suoha hand", "Straight flush"),
    "cat_four_of_a_kind": pgettext_lazy("suoha hand", "Four of a kind"),
    "cat_full_house": pgettext_lazy("suoha hand", "Full house"),
    "cat_flush": pgettext_lazy("suoha hand", "Flush"),
    "cat_straight": pgettext_lazy("suoha hand", "Straight"),
    "cat_three_of_a_kind": pgettext_lazy("suoha hand", "Three of a kind"),
    "cat_two_pair": pgettext_lazy("suoha hand", "Two pairs"),
    "cat_pair": pgettext_lazy("suoha hand", "Pair"),
    "cat_high_card": pgettext_lazy("suoha hand", "High card"),
    "you_win": _("You win"),
    "winner_is": _("{names} wins"),
    "ended_fold": _("Everyone else folded"),
    "ended_showdown": _("Showdown"),
    "shown_hands": _("Hands shown"),
}

PAGE = GamePage(template="tables/suoha.html", labels=LABELS)
