"""推筒子 Push the Tubes (40 mahjong tiles, a 底注 pool and a 加注 pool); its page is rooms/game_pages/tuitongzi.py."""

from games import register
from games.base import GameInfo
from games.tuitongzi import present
from games.tuitongzi.engine import DEFAULT_OPTIONS, TuitongziEngine

ENGINE = TuitongziEngine()

GAME = register(
    GameInfo(
        slug="tuitongzi",
        name_zh="推筒子",
        name_en="Push the Tubes",
        family="seated",
        min_seats=2,
        max_seats=6,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.TuitongziPresentation(ENGINE),
    )
)
