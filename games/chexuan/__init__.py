"""扯旋 Che Xuan (32 cards, head and tail); its table page is rooms/game_pages/chexuan.py."""

from games import register
from games.base import GameInfo
from games.chexuan import present
from games.chexuan.engine import DEFAULT_OPTIONS, ChexuanEngine

ENGINE = ChexuanEngine()

GAME = register(
    GameInfo(
        slug="chexuan",
        name_zh="扯旋",
        name_en="Che Xuan",
        family="seated",
        min_seats=2,
        max_seats=6,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.ChexuanPresentation(ENGINE),
    )
)
