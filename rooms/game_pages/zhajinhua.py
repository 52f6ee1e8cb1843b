"""炸金花's table page: templates/tables/zhajinhua.html with static/js/zhajinhua.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_betting": _("Betting"),
    "pot": _("Pot"),
    "ante": _("Ante"),
    "round": _("Round {round}"),
    "round_cap": _("Cap {rounds} rounds"),
    "dealer": _("Dealer"),
    "state_blind": _("Blind"),
    "state_seen": _("Seen"),
    "state_folded": _("Folded"),
    "state_lost": _("Out"),
    "bet_in": _("In {amount}"),
    "coins_left": _("Left {amount}"),
    "look": _("Look"),
    "call_amount": _("Call {amount}"),
    "raise_amount": _("Raise {amount}"),
    "compare_amount": _("Compare {amount}"),
    "fold": _("Fold"),
    "choose_target": _("Compare with whom?"),
    "cancel": _("Cancel"),
    "cards_face_down": _("Your cards are face down. You may look at them at any time."),
    "cards_hidden_out": _("Your cards stay hidden until the hand ends."),
    "said_look": _("Looked"),
    "said_call": _("Call {amount}"),
    "said_raise": _("Raise {amount}"),
    "said_fold": _("Fold"),
    "said_cannot_cover": _("Could not cover"),
    "said_compare_won": _("Compared: won"),
    "said_compare_lost": _("Compared: lost"),
    "compare_note": _("{seat} compared with {target}: {winner} won"),
    "cat_leopard": pgettext_lazy("zhajinhua hand", "Leopard"),
    "cat_straight_flush": pgettext_lazy("zhajinhua hand", "Straight flush"),
    "cat_flush": pgettext_lazy("zhajinhua hand", "Flush"),
    "cat_straight": pgettext_lazy("zhajinhua hand", "Straight"),
    "cat_pair": pgettext_lazy("zhajinhua hand", "Pair"),
    "cat_high": pgettext_lazy("zhajinhua hand", "High card"),
    "you_win": _("You win"),
    "winner_is": _("{names} wins"),
    "winners_split": _("{names} split the pot"),
    "ended_fold": _("Everyone else folded"),
    "ended_compare": _("Decided by a comparison"),
    "ended_showdown": _("Showdown"),
    "shown_hands": _("Hands shown"),
}

PAGE = GamePage(template="tables/zhajinhua.html", labels=LABELS)
