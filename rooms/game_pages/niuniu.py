"""牛牛's table page: templates/tables/niuniu.html with static/js/niuniu.js, and the words it adds.

通比牛牛's page (rooms/game_pages/tongbi_niuniu.py) is the same page: the view says
whether the hand has a bank.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_grab": _("Bidding for the bank"),
    "phase_bet": _("Choosing bets"),
    "phase_show": _("Show your hand"),
    "base": _("Base"),
    "banker": _("Banker"),
    "banker_short": pgettext_lazy("niuniu banker badge", "B"),
    "no_grab": pgettext_lazy("niuniu", "No bid"),
    "grab_times": _("Bid ×{n}"),
    "said_no_grab": pgettext_lazy("niuniu", "No bid"),
    "said_grab": _("Bid ×{n}"),
    "bet_times": _("Bet ×{n}"),
    "said_bet": _("Bet ×{n}"),
    "hint": _("Hint"),
    "show": _("Show"),
    "show_selected": _("Show these three"),
    "banker_is": _("{name} banks ×{n}"),
    "banker_times": _("Banker ×{n}"),
    "tie_drawn": _("Tied bids of {names}: the draw chose {name}"),
    "best_is": _("Best hand: {name}"),
    "your_turn_grab": _("Bid for the bank before the countdown ends."),
    "your_turn_bet": _("Choose your bet multiple."),
    "your_turn_show": _("Arrange your hand and show it."),
    "banker_waits": _("You bank: the players are choosing their bets."),
    "decided_wait": _("Waiting for the others."),
    "countdown_note": _("Everyone acts at once."),
    "waiting_players_short": _("Waiting"),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("You break even"),
    "winner_is": _("{names} wins"),
    "winners_are": _("{names} win"),
    "multiple": _("×{n}"),
    "cat_five_small": pgettext_lazy("niuniu hand", "Five small bull"),
    "cat_four_bomb": pgettext_lazy("niuniu hand", "Four of a kind"),
    "cat_five_face": pgettext_lazy("niuniu hand", "Five-face bull"),
    "cat_four_face": pgettext_lazy("niuniu hand", "Four-face bull"),
    "cat_niuniu": pgettext_lazy("niuniu hand", "Bull-bull"),
    "cat_niu_9": pgettext_lazy("niuniu hand", "Bull 9"),
    "cat_niu_8": pgettext_lazy("niuniu hand", "Bull 8"),
    "cat_niu_7": pgettext_lazy("niuniu hand", "Bull 7"),
    "cat_niu_6": pgettext_lazy("niuniu hand", "Bull 6"),
    "cat_niu_5": pgettext_lazy("niuniu hand", "Bull 5"),
    "cat_niu_4": pgettext_lazy("niuniu hand", "Bull 4"),
    "cat_niu_3": pgettext_lazy("niuniu hand", "Bull 3"),
    "cat_niu_2": pgettext_lazy("niuniu hand", "Bull 2"),
    "cat_niu_1": pgettext_lazy("niuniu hand", "Bull 1"),
    "cat_no_niu": pgettext_lazy("niuniu hand", "No bull"),
}

PAGE = GamePage(template="tables/niuniu.html", labels=LABELS)
