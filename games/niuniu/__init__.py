"""牛牛 Bull (抢庄: the bank goes to the highest bid); its table page is rooms/game_pages/niuniu.py.

The hand rules (rules.py) are shared with 通比牛牛 (games/tongbi_niuniu) and 百人牛牛.
"""

from games import register
from games.base import GameInfo
from games.niuniu import present
from games.niuniu.engine import DEFAULT_OPTIONS, NiuniuEngine

ENGINE = NiuniuEngine("banker")

GAME = register(
    GameInfo(
        slug="niuniu",
        name_zh="牛牛",
        name_en="Bull",
        family="seated",
        min_seats=2,
        max_seats=6,
        engine=ENGINE,
        default_options={**DEFAULT_OPTIONS, "multiplier_table": "niuniu"},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.NiuniuPresentation(ENGINE),
    )
)
