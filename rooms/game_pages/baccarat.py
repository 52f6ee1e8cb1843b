"""百家乐's table page: templates/rounds/baccarat.html with static/js/baccarat.js, and the words it adds.

The round page itself (rooms/rounds/pages.py) is the same for every house-banked
game; these are the betting areas, the roads' marks and the result lines of this one.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({player}) are filled in by the client.
LABELS = {
    # The betting areas (庄 闲 和 庄对 闲对 大 小 超级6).
    "area_banker": pgettext_lazy("baccarat", "Banker"),
    "area_player": pgettext_lazy("baccarat", "Player"),
    "area_tie": pgettext_lazy("baccarat", "Tie"),
    "area_banker_pair": pgettext_lazy("baccarat", "Banker pair"),
    "area_player_pair": pgettext_lazy("baccarat", "Player pair"),
    "area_big": pgettext_lazy("baccarat", "Big"),
    "area_small": pgettext_lazy("baccarat", "Small"),
    "area_super6": pgettext_lazy("baccarat", "Super 6"),
    # One-letter marks on the roads: 庄 banker, 闲 player, 和 tie.
    "road_banker": pgettext_lazy("baccarat road", "B"),
    "road_player": pgettext_lazy("baccarat road", "P"),
    "road_tie": pgettext_lazy("baccarat road", "T"),
    # The roads derived from 大路, as the 问路 marks name them.
    "road_big_eye_boy": _("Big eye boy"),
    "road_small_road": _("Small road"),
    "road_cockroach_pig": _("Cockroach road"),
    # The result of a coup: who won, and the two hands' totals.
    "winner_banker": _("Banker wins"),
    "winner_player": _("Player wins"),
    "winner_tie": _("Tie"),
    "totals_line": _("Player {player} · Banker {banker}"),
}

PAGE = GamePage(template="rounds/baccarat.html", labels=LABELS)
