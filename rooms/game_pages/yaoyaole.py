"""开心摇摇乐's table page: templates/rounds/yaoyaole.html with static/js/yaoyaole.js, and its words.

The round page itself (rooms/rounds/pages.py) is the same for every banker
game; these are the nine areas, the cups and who opens them, the result lines, 重复投, and the
rules panel's figures: every area's odds, chance of winning and house edge,
exact from ``games.yaoyaole.rules.odds_table`` (the figures docs/rules/yaoyaole.md
prints), formatted here once.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.yaoyaole import rules
from rooms.game_pages import GamePage


def _percent(value) -> str:
    return f"{float(value) * 100:.4f}%"


def _figures() -> dict[str, str]:
    """Each area's published figures, keyed ``pays_<area>``, ``win_<area>``, ``back_<area>``, ``edge_<area>``."""
    figures = {}
    for area, odds in rules.odds_table().items():
        figures[f"pays_{area}"] = rules.ODDS_TEXT[area]
        figures[f"win_{area}"] = _percent(odds.win)
        figures[f"back_{area}"] = _percent(odds.expected_return)
        figures[f"edge_{area}"] = _percent(odds.house_edge)
    return figures


# Placeholders in braces ({n}) are filled in by the client.
LABELS = {
    # The sides 红 and 蓝, and the nine areas (庄 of the seed is red, 闲 blue).
    "side_red": pgettext_lazy("yaoyaole", "Red"),
    "side_blue": pgettext_lazy("yaoyaole", "Blue"),
    "area_red": pgettext_lazy("yaoyaole", "Red"),
    "area_tie": pgettext_lazy("yaoyaole", "Tie"),
    "area_blue": pgettext_lazy("yaoyaole", "Blue"),
    "area_red_pair": pgettext_lazy("yaoyaole", "Red pair"),
    "area_red_straight": pgettext_lazy("yaoyaole", "Red straight"),
    "area_red_triple": pgettext_lazy("yaoyaole", "Red triple"),
    "area_blue_pair": pgettext_lazy("yaoyaole", "Blue pair"),
    "area_blue_straight": pgettext_lazy("yaoyaole", "Blue straight"),
    "area_blue_triple": pgettext_lazy("yaoyaole", "Blue triple"),
    # A cup once its three dice are out: its points and combination.
    "points": pgettext_lazy("yaoyaole", "{n} points"),
    "combo_pair": pgettext_lazy("yaoyaole", "Pair"),
    "combo_straight": pgettext_lazy("yaoyaole", "Straight"),
    "combo_triple": pgettext_lazy("yaoyaole", "Triple"),
    "die": pgettext_lazy("yaoyaole", "Die showing {n}"),
    "die_hidden": pgettext_lazy("yaoyaole", "Die under the cup"),
    # 开骰盅 (001:398): each side's top bettor opens its cup ({side} is the side's name).
    "phase_opening": pgettext_lazy("yaoyaole", "Opening the cups"),
    "open_button": pgettext_lazy("yaoyaole", "Open"),
    "opener_you": pgettext_lazy("yaoyaole", "You bet the most on {side}: open the cup for everybody."),
    "opener_other": pgettext_lazy("yaoyaole", "{name} bet the most on {side} and opens the cup."),
    "opener_next": pgettext_lazy("yaoyaole", "{name} opens this cup"),
    "opener_done": pgettext_lazy("yaoyaole", "Opened by {name}"),
    # The result of a coup.
    "winner_red": _("Red wins"),
    "winner_blue": _("Blue wins"),
    "winner_tie": _("Tie: stakes on Red and Blue come back"),
    "low_win": _("under 8 points: pays 1:1.5"),
    "area_push": pgettext_lazy("yaoyaole", "Stake returned"),
    # 重复投 ticked: the last round's bets go on again at the start of each round.
    "auto_repeat": _("Repeat every round"),
    # The recent coups (路单): one mark per coup.
    "road_red": pgettext_lazy("yaoyaole road", "R"),
    "road_blue": pgettext_lazy("yaoyaole road", "B"),
    "road_tie": pgettext_lazy("yaoyaole road", "T"),
    "road_title": _("Coup {coup}: Red {red} · Blue {blue}"),
    # The rules panel.
    "odds_area": pgettext_lazy("yaoyaole odds", "Area"),
    "odds_pays": pgettext_lazy("yaoyaole odds", "Pays"),
    "odds_win": pgettext_lazy("yaoyaole odds", "Chance to win"),
    "odds_return": pgettext_lazy("yaoyaole odds", "Return"),
    "odds_edge": pgettext_lazy("yaoyaole odds", "House edge"),
    **_figures(),
}

PAGE = GamePage(template="rounds/yaoyaole.html", labels=LABELS)
