"""二八杠 Two-Eight Bar (40 mahjong tiles, 抢庄 banker against each player); its page is rooms/game_pages/erbagang.py."""

from games import register
from games.base import GameInfo
from games.erbagang import present
from games.erbagang.engine import DEFAULT_OPTIONS, ErbagangEngine

ENGINE = ErbagangEngine()

GAME = register(
    GameInfo(
        slug="erbagang",
        name_zh="二八杠",
        name_en="Two-Eight Bar",
        family="seated",
        min_seats=2,
        max_seats=4,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.ErbagangPresentation(ENGINE),
    )
)
