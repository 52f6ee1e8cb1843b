"""百人牛牛 Hundred-player Bull (福禄寿禧): a banker-family game of 牛牛 hands, banked by the house or a player.

The hands are 牛牛's (``games/niuniu/rules.py``); the engine the round runtime
drives is ``engine.py``. See docs/rules/niuniu.md (百人牛牛).
"""

from games import register
from games.base import GameInfo
from games.niuniu_hundred import present
from games.niuniu_hundred.engine import DEFAULT_OPTIONS, NiuniuHundredEngine

GAME = register(
    GameInfo(
        slug="niuniu_hundred",
        name_zh="百人牛牛",
        name_en="Hundred-player Bull",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=NiuniuHundredEngine(),
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
