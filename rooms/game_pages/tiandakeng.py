"""填大坑's table page: templates/tables/tiandakeng.html with static/js/tiandakeng.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_betting": _("Betting"),
    "pot": _("Pot"),
    "round": _("Round {round}"),
    "lanpot_level": _("Carried pot {pot} · stakes ×{times}"),
    "allin_total": pgettext_lazy("tiandakeng", "All in: {amount}"),
    "state_folded": _("Folded"),
    "bet_in": _("In {amount}"),
    "round_in": _("This round {amount}"),
    "coins_left": _("Left {amount}"),
    "check": pgettext_lazy("tiandakeng", "Check"),
    "call_amount": _("Call {amount}"),
    "raise_to": pgettext_lazy("tiandakeng", "Raise to {amount}"),
    "allin": pgettext_lazy("tiandakeng", "All in"),
    "fold": pgettext_lazy("tiandakeng", "Fold"),
    "leads": _("Speaks first"),
    "said_check": pgettext_lazy("tiandakeng", "Check"),
    "said_call": pgettext_lazy("tiandakeng", "Call"),
    "said_raise": pgettext_lazy("tiandakeng", "Raise"),
    "said_allin": pgettext_lazy("tiandakeng", "All in"),
    "said_fold": pgettext_lazy("tiandakeng", "Fold"),
    "points": _("{points} points"),
    "cat_manguan": pgettext_lazy("tiandakeng hand", "Grand slam"),
    "cat_hulu": pgettext_lazy("tiandakeng hand", "Gourd"),
    "cat_simei": pgettext_lazy("tiandakeng hand", "Four of a kind"),
    "cat_baozi": pgettext_lazy("tiandakeng hand", "Leopard"),
    "xiqian_paid": _("Bonus paid {amount}"),
    "you_win": _("You win"),
    "winner_is": _("{names} wins"),
    "lanpot": _("Tied: the pot goes to the next hand"),
    "ended_fold": _("Everyone else folded"),
    "ended_showdown": _("Showdown"),
    "ended_lanpot": _("Tied: the pot goes to the next hand"),
    "ended_alone": _("The last player takes the carried pot"),
    "shown_hands": _("Hands shown"),
}

PAGE = GamePage(template="tables/tiandakeng.html", labels=LABELS)
