"""百人三公 Hundred-player San Gong: a banker-family game of three-card hands, banked by the house or a player.

The rules (category, points, compare, multiplier) are in ``rules.py``; the
engine the round runtime drives is ``engine.py``. See docs/rules/sangong.md.
"""

from games import register
from games.base import GameInfo
from games.sangong import present
from games.sangong.engine import DEFAULT_OPTIONS, SangongEngine

GAME = register(
    GameInfo(
        slug="sangong_hundred",
        name_zh="百人三公",
        name_en="Hundred-player San Gong",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=SangongEngine(),
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
