"""必下德州 must-bet Texas hold'em (the whole board dealt at once, one betting countdown).

Its table page is rooms/game_pages/texas.py (templates/tables/texas.html, static/js/texas.js).
"""

from games import register
from games.base import GameInfo
from games.texas import present
from games.texas.engine import DEFAULT_OPTIONS, TexasEngine

ENGINE = TexasEngine()

GAME = register(
    GameInfo(
        slug="texas",
        name_zh="必下德州",
        name_en="Must-bet Texas Hold'em",
        family="seated",
        min_seats=2,
        max_seats=9,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.TexasPresentation(ENGINE),
    )
)
