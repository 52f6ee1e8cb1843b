"""广东推倒胡 Guangdong "push down" mahjong (001): the mahjong core's 136-tile variant with the 鬼牌.

Its page is rooms/game_pages/tuidaohu.py (the mahjong page both variants share).
"""

from games import register
from games.base import GameInfo
from games.mahjong import present
from games.mahjong.engine import MahjongEngine

DEFAULT_OPTIONS = {"turn_seconds": 15, "claim_seconds": 8}

ENGINE = MahjongEngine("tuidaohu", DEFAULT_OPTIONS)

GAME = register(
    GameInfo(
        slug="tuidaohu",
        name_zh="广东推倒胡",
        name_en="Guangdong Push-Down Mahjong",
        family="seated",
        min_seats=4,
        max_seats=4,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS["tuidaohu"],
        terms=present.TERMS["tuidaohu"],
        presentation=present.MahjongPresentation(ENGINE),
    )
)
