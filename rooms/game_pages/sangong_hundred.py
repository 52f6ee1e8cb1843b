"""百人三公's table page: templates/rounds/sangong_hundred.html with static/js/sangong_hundred.js, and its words.

The round page itself (rooms/rounds/pages.py) is the same for every banker
game; these are the areas 东南西北, the hands' categories, the player banker's
panel and the result lines of this one.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({n}) are filled in by the client.
LABELS = {
    # The four areas 东南西北 and the banker's hand 庄.
    "area_east": pgettext_lazy("sangong", "East"),
    "area_south": pgettext_lazy("sangong", "South"),
    "area_west": pgettext_lazy("sangong", "West"),
    "area_north": pgettext_lazy("sangong", "North"),
    "hand_banker": pgettext_lazy("sangong", "Banker"),
    # The hands' categories (爆玖 炸弹 三公, or the points) and what they pay.
    "cat_bao_jiu": pgettext_lazy("sangong", "Three 3s (bao jiu)"),
    "cat_bomb": pgettext_lazy("sangong", "Three of a kind"),
    "cat_san_gong": pgettext_lazy("sangong", "Three faces (san gong)"),
    "cat_points": pgettext_lazy("sangong", "{n} points"),
    "multiple": pgettext_lazy("sangong", "×{n}"),
    "area_room": _("Takes {amount} more"),
    "area_won": _("Beats the banker"),
    "area_lost": _("Loses to the banker"),
    # The player banker (上庄/下庄).
    "house_banks": _("The house banks"),
    "banker_line": _("{name} banks · round {rounds} of {most}"),
    "banker_coins": _("Banker's coins {amount}"),
    "bank_room": _("Bets can still take {amount}"),
    "bank_minimum": _("Bank with {amount} coins or more"),
    "bank_apply": _("Apply to bank"),
    "bank_leave": _("Leave the queue"),
    "bank_step_down": _("Step down"),
    "bank_stepping_down": _("Steps down after this round"),
    "queue_empty": _("Nobody is waiting to bank."),
    "you_are_banker": _("You are the banker"),
    "banker_result": _("As banker: {net}"),
    "road_won": pgettext_lazy("sangong road", "W"),
    "road_lost": pgettext_lazy("sangong road", "L"),
}

PAGE = GamePage(template="rounds/sangong_hundred.html", labels=LABELS)
