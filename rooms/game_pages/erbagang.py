"""二八杠's table page: templates/tables/erbagang.html with static/js/erbagang.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_grab": _("Bidding for the bank"),
    "phase_bet": _("Betting"),
    "phase_dice": _("Rolling the die"),
    "banker": _("Banker"),
    "banker_short": pgettext_lazy("erbagang badge", "B"),
    "no_bid": pgettext_lazy("erbagang bank", "No bid"),
    "bid": _("Bid ×{multiple}"),
    "bid_said": _("Bid ×{multiple}"),
    "no_bid_said": pgettext_lazy("erbagang bank", "No bid"),
    "bet_amount": _("Bet {amount}"),
    "bet_said": _("Bet {amount}"),
    "pledge": _("Banker ×{multiple} · pays at most {amount}"),
    "die_says": _("Die {value}: {name} is dealt first"),
    "your_turn_bid": _("Bid for the bank: the higher the multiple, the likelier you get it."),
    "your_turn_bet": _("Place your bet against the banker."),
    "decided_wait": _("Waiting for the others."),
    "countdown_note": _("Everyone chooses at once."),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("You break even"),
    "winner_is": _("{names} wins"),
    "winners_are": _("{names} win"),
    "beat_banker": _("Beat the banker"),
    "lost_to_banker": _("Lost to the banker"),
    "sweep_all_lose": _("The banker beat everyone"),
    "sweep_all_win": _("The banker lost to everyone"),
    "kind_tianwang": pgettext_lazy("erbagang hand", "Heavenly King"),
    "kind_pair": pgettext_lazy("erbagang hand", "Pair"),
    "kind_erbagang": pgettext_lazy("erbagang hand", "Two-Eight"),
    "kind_points": pgettext_lazy("erbagang hand", "{points} points"),
    "kind_one_point": pgettext_lazy("erbagang hand", "1 point"),
    "kind_zero": pgettext_lazy("erbagang hand", "Zero"),
    "tile_p": _("{n} of Dots"),
    "tile_white": _("White dragon"),
    "die_label": _("Die: {value}"),
}

PAGE = GamePage(template="tables/erbagang.html", labels=LABELS)
