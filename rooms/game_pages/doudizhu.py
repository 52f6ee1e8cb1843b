"""斗地主's table page: templates/tables/table.html with static/js/table.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _

from rooms.game_pages import GamePage

# Placeholders in braces ({points}) are filled in by the client.
LABELS = {
    # Phases.
    "phase_bidding": _("Bidding"),
    "phase_robbing": _("Robbing the landlord"),
    "phase_doubling": _("Doubling"),
    "phase_playing": _("Playing"),
    # Roles and seat badges.
    "landlord": _("Landlord"),
    "farmer": _("Farmer"),
    "cards_left": _("{count} cards left"),
    # Buttons.
    "bid_points": _("{points} pt"),
    "no_bid": _("No bid"),
    "rob": _("Rob the landlord"),
    "no_rob": _("Don't rob"),
    "double": _("Double"),
    "no_double": _("Don't double"),
    "play": _("Play"),
    "pass": _("Pass"),
    # What a seat said, shown beside it.
    "said_bid": _("{points} pt"),
    "said_no_bid": _("No bid"),
    "said_pass": _("Pass"),
    "said_rob": _("Rob"),
    "said_no_rob": _("Don't rob"),
    "said_double": _("Double"),
    "said_no_double": _("Don't double"),
    # The information strip and the centre of the table.
    "multiple": _("Multiple"),
    "bid": _("Bid"),
    "select_cards": _("Select the cards you want to play."),
    "hint_none": _("Nothing beats the last play: pass."),
    "big_joker": _("Big joker"),
    "small_joker": _("Small joker"),
    # Result panel.
    "landlord_wins": _("The landlord wins"),
    "farmers_win": _("The farmers win"),
    "hand_void": _("Nobody bid: the hand is void, no coins moved"),
    "spring": _("Spring"),
    "anti_spring": _("Anti-spring"),
    "you_won": _("You won {amount}"),
    "you_lost": _("You lost {amount}"),
    # The 倍数 breakdown (tap the multiple) and the effects over the felt.
    "multiple_breakdown": _("What makes the multiple"),
    "factor_bomb": _("Bomb"),
    "factor_rocket": _("Rocket"),
    "factor_rob": _("Rob the landlord"),
    "factor_cap": _("Capped at"),
    "factor_doubling_cap": _("Doublings stop at {count}"),
    "factor_landlord_cap": _("The landlord's cap of {value} scales both down"),
    "against_farmer": _("Against {name}"),
    "landlord_total": _("Landlord, against both: ×{multiple}"),
    "stake_times_multiple": _("Base stake {stake} × {multiple} = {amount} (before the rake)"),
    # The sound switch.
    "sound_on": _("Sound on: tap to mute"),
    "sound_off": _("Sound off: tap to turn on"),
}

PAGE = GamePage(template="tables/table.html", labels=LABELS)
