"""开心摇摇乐 Happy Dice: a banker-family game where red and blue shake three dice each, banked by the house.

The rules (points, pairs, straights, triples, payouts, the exact odds) are in
``rules.py``; the engine the round runtime drives is ``engine.py``. See
docs/rules/yaoyaole.md.
"""

from games import register
from games.base import GameInfo
from games.yaoyaole import present
from games.yaoyaole.engine import DEFAULT_OPTIONS, YaoyaoleEngine

GAME = register(
    GameInfo(
        slug="yaoyaole",
        name_zh="开心摇摇乐",
        name_en="Happy Dice",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=YaoyaoleEngine(),
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
