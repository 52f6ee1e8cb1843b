"""楚汉德州's table page: templates/rounds/chuhan.html with static/js/chuhan.js, and the words it adds.

The round page itself (rooms/rounds/pages.py) is the same for every banker game; these are the
areas 楚 汉 平 and the hand-type areas, the hands' categories, the 咪牌 (reveal) and the result lines.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({name}) are filled in by the client.
LABELS = {
    # The two sides 楚 and 汉, 平 (a tie), and the community cards.
    "area_chu": pgettext_lazy("chuhan", "Chu"),
    "area_han": pgettext_lazy("chuhan", "Han"),
    "area_tie": pgettext_lazy("chuhan", "Tie"),
    "hand_board": _("Community cards"),
    # The winning hand-type areas.
    "area_high_pair": _("High card / one pair"),
    "area_two_pair": _("Two pair"),
    "area_trips_straight_flush": _("Trips / straight / flush"),
    "area_full_house": _("Full house"),
    "area_quads_plus": _("Four of a kind / straight flush"),
    # The hands' categories (the 必下德州 evaluator's).
    "cat_high_card": _("High card"),
    "cat_pair": _("One pair"),
    "cat_two_pair": _("Two pair"),
    "cat_three_of_a_kind": _("Three of a kind"),
    "cat_straight": _("Straight"),
    "cat_flush": _("Flush"),
    "cat_full_house": _("Full house"),
    "cat_four_of_a_kind": _("Four of a kind"),
    "cat_straight_flush": _("Straight flush"),
    # 咪牌: the top bettor on 楚 or 汉 turns the hands for everybody.
    "phase_reveal": _("Reveal"),
    "reveal_button": _("Turn the cards"),
    "reveal_you": _("You bet the most on {area}: turn the cards for everybody."),
    "reveal_other": _("{name} bet the most on {area} and turns the cards."),
    "reveal_done": _("Turned by {name}"),
    # The result.
    "winner_chu": _("Chu wins"),
    "winner_han": _("Han wins"),
    "winner_tie": _("Tie: half of each Chu and Han stake comes back"),
    "winning_type": _("Winning hand: {category}"),
    "road_chu": pgettext_lazy("chuhan road", "C"),
    "road_han": pgettext_lazy("chuhan road", "H"),
    "road_tie": pgettext_lazy("chuhan road", "T"),
}

PAGE = GamePage(template="rounds/chuhan.html", labels=LABELS)
