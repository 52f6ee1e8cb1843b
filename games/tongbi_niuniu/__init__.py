"""通比牛牛 Bull showdown (no bank: the best hand takes from every other); page: rooms/game_pages/tongbi_niuniu.py.

Its own game in the lobby (seed INDEX slug ``tongbi_niuniu``), played by the 牛牛
engine without the bank (``NiuniuEngine("tongbi")``) and the same hand rules,
with 通比牛牛's own multiplier table (001:596-611) by default.
"""

from games import register
from games.base import GameInfo
from games.niuniu import present
from games.niuniu.engine import DEFAULT_OPTIONS, NiuniuEngine

ENGINE = NiuniuEngine("tongbi")

# The best hand collects 底分 × 6 (小牛牛) × 5 × 5 = 150 底分 from each other seat; a loser owes
# at most 150 底分, the minimum to enter.
DEMO_TIERS = present.demo_tiers(150, {"bet_multiples": [1, 2, 3, 4, 5]})

GAME = register(
    GameInfo(
        slug="tongbi_niuniu",
        name_zh="通比牛牛",
        name_en="Bull Showdown",
        family="seated",
        min_seats=2,
        max_seats=6,
        engine=ENGINE,
        default_options={**DEFAULT_OPTIONS, "multiplier_table": "tongbi"},
        demo_tiers=DEMO_TIERS,
        terms=("通比牛牛", "通比", *present.TERMS),
        presentation=present.NiuniuPresentation(ENGINE),
    )
)
