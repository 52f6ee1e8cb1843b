"""炸金花 Golden Flower (a.k.a. 扎金花 / 詐金花, three-card brag); its table page is rooms/game_pages/zhajinhua.py."""

from games import register
from games.base import GameInfo
from games.zhajinhua import present
from games.zhajinhua.engine import DEFAULT_OPTIONS, ZhajinhuaEngine

ENGINE = ZhajinhuaEngine()

GAME = register(
    GameInfo(
        slug="zhajinhua",
        name_zh="炸金花",
        name_en="Golden Flower",
        family="seated",
        min_seats=2,
        max_seats=5,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.ZhajinhuaPresentation(ENGINE),
    )
)
