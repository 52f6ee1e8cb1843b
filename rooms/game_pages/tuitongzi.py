"""推筒子's table page: templates/tables/tuitongzi.html with static/js/tuitongzi.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    "phase_wheel": _("Spinning the wheel"),
    "phase_raise": _("Raising"),
    "wheel": _("Wheel"),
    "wheel_says": _("Wheel {value}: dealing starts at {name}"),
    "ante_pool": _("Ante pool"),
    "raise_pool": _("Raise pool"),
    "ante_amount": _("Ante {amount}"),
    "no_raise": _("No raise"),
    "raise_amount": _("Raise {amount}"),
    "raised_said": _("Raised {amount}"),
    "no_raise_said": _("No raise"),
    "coins_left": _("Left {amount}"),
    "your_turn_raise": _("Raise to play for the raise pool, or pass: everyone chooses at once."),
    "decided_wait": _("Waiting for the others."),
    "countdown_note": _("Everyone chooses at once."),
    "pool_won_by": _("{pool} {amount}: won by {names}"),
    "pool_empty": _("{pool}: nobody raised"),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("You break even"),
    "winner_is": _("{names} wins"),
    "winners_are": _("{names} win"),
    "kind_baozi": pgettext_lazy("tuitongzi hand", "Pair"),
    "kind_erbagang": pgettext_lazy("tuitongzi hand", "Two-Eight"),
    "kind_points": pgettext_lazy("tuitongzi hand", "{points} points"),
    "kind_one_point": pgettext_lazy("tuitongzi hand", "1 point"),
    "tile_p": _("{n} of Dots"),
    "tile_white": _("White dragon"),
}

PAGE = GamePage(template="tables/tuitongzi.html", labels=LABELS)
