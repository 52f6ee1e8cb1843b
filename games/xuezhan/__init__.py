"""血战到底 Sichuan "bloody battle" mahjong (001, 003): the mahjong core's 108-tile variant.

Its page is rooms/game_pages/xuezhan.py (the mahjong page both variants share).
"""

from games import register
from games.base import GameInfo
from games.mahjong import present
from games.mahjong.engine import MahjongEngine

DEFAULT_OPTIONS = {
    "fan_table": "001",  # or "003": 003's table, 3 番 cap, 自摸 0 番
    "exchange": True,  # 换三张 (001:671)
    "pass_blocks_win": False,  # 003:42 过手: True makes a passed 胡 wait for the seat's own draw
    "refund_kongs_not_ready": False,  # 003:37: True returns a not-ready seat's kong money at a drawn end
    "kong_feeder_pays": False,  # 003:40: True makes 杠上花 on a 直杠 paid whole by the kong's feeder
    "pair_cap_units": None,  # 003:9: 24 caps what one player collects from another in a hand, in 底分
    "turn_seconds": 15,
    "claim_seconds": 8,
}
VARIANTS = {
    "001": {},
    "003": {
        "fan_table": "003",
        "pass_blocks_win": True,
        "refund_kongs_not_ready": True,
        "kong_feeder_pays": True,
        "pair_cap_units": 24,
    },
}

ENGINE = MahjongEngine("xuezhan", DEFAULT_OPTIONS)

GAME = register(
    GameInfo(
        slug="xuezhan",
        name_zh="血战到底",
        name_en="Bloody Battle Mahjong",
        family="seated",
        min_seats=4,
        max_seats=4,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS["xuezhan"],
        terms=present.TERMS["xuezhan"],
        presentation=present.MahjongPresentation(ENGINE),
    )
)
