"""百家乐 Baccarat: a house-banked (family "banker") game, two variants of one engine chosen per room tier.

The rules (shoe, drawing tables, payouts, roads) are in ``rules.py``; the
engine that the round runtime drives is ``engine.py``. See docs/rules/baccarat.md.
"""

from games import register
from games.baccarat import present
from games.baccarat.engine import DEFAULT_OPTIONS, BaccaratEngine
from games.base import GameInfo

ENGINE = BaccaratEngine()

GAME = register(
    GameInfo(
        slug="baccarat",
        name_zh="百家乐",
        name_en="Baccarat",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=ENGINE,
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        variants=dict(present.VARIANT_LABELS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
