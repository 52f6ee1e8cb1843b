"""十三水 Thirteen Cards: every player arranges 13 cards into three piles at once, then 比牌.

Its table page is rooms/game_pages/shisanshui.py (templates/tables/shisanshui.html,
static/js/shisanshui.js); docs/rules/shisanshui.md gives every rule its seed line.
"""

from games import register
from games.base import GameInfo
from games.shisanshui import present
from games.shisanshui.engine import DEFAULT_OPTIONS, ShisanshuiEngine

ENGINE = ShisanshuiEngine()

GAME = register(
    GameInfo(
        slug="shisanshui",
        name_zh="十三水",
        name_en="Thirteen Cards",
        family="seated",
        min_seats=2,
        max_seats=4,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.ShisanshuiPresentation(ENGINE),
    )
)
