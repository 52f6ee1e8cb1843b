"""必下德州's table page: templates/tables/texas.html with static/js/texas.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_betting": _("Betting countdown"),
    "dealer": _("Dealer"),
    "dealer_short": _("D"),
    "small_blind": _("Small blind"),
    "small_blind_short": _("SB"),
    "big_blind": _("Big blind"),
    "big_blind_short": _("BB"),
    "stake_amount": _("Stake {amount}"),
    "coins_left": _("Left {amount}"),
    "state_out": _("Out"),
    "state_folded": _("Folded"),
    "state_all_in": _("All-in"),
    "said_check": _("Checked"),
    "said_raise": _("Raised to {amount}"),
    "said_bet": _("Bet {amount}"),
    "check": _("Check"),
    "fold": _("Fold"),
    "raise_to": _("Raise to {amount}"),
    "costs": _("Costs {amount} more"),
    "bet_amount": _("Bet {amount}"),
    "all_in_amount": _("All-in {amount}"),
    "your_turn_bet": _("Your turn: choose your bet before the countdown ends."),
    "decided_wait": _("Your bet is in. Waiting for the others."),
    "countdown_note": _("Everyone bets at once."),
    "waiting_players_short": _("Waiting"),
    "main_pot": _("Main pot"),
    "side_pot": _("Side pot {n}"),
    "pot_won_by": _("won by {names}"),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("You break even"),
    "winner_is": _("{names} wins"),
    "winners_are": _("{names} win"),
    "cat_straight_flush": pgettext_lazy("texas hand", "Straight flush"),
    "cat_four_of_a_kind": pgettext_lazy("texas hand", "Four of a kind"),
    "cat_full_house": pgettext_lazy("texas hand", "Full house"),
    "cat_flush": pgettext_lazy("texas hand", "Flush"),
    "cat_straight": pgettext_lazy("texas hand", "Straight"),
    "cat_three_of_a_kind": pgettext_lazy("texas hand", "Three of a kind"),
    "cat_two_pair": pgettext_lazy("texas hand", "Two pair"),
    "cat_pair": pgettext_lazy("texas hand", "Pair"),
    "cat_high_card": pgettext_lazy("texas hand", "High card"),
}

PAGE = GamePage(template="tables/texas.html", labels=LABELS)
