"""保险楚汉德州's table page: 楚汉德州's page (templates/rounds/chuhan.html, static/js/chuhan.js) with its streets."""

from django.utils.translation import gettext_lazy as _

from rooms.game_pages import GamePage
from rooms.game_pages.chuhan import LABELS as CHUHAN_LABELS

LABELS = {
    **CHUHAN_LABELS,
    # A later street's areas are named "楚 · 第2轮"; the status line names the street being bet on.
    "street": _("Street {n}"),
    # Under the areas, an earlier street's bets stay shown (read-only) with the coup's sum.
    "coup_staked": _("Your bets on this coup: {amount}"),
}

PAGE = GamePage(template="rounds/chuhan_insured.html", labels=LABELS)
