"""保险楚汉德州 Insured Chu-Han Hold'em: one 楚汉德州 coup bet on in three streets whose odds move.

``rules.py`` holds the pure rules (each street's exact chances over the unseen
cards, the odds less the tier's margin, skipped streets, payouts); ``engine.py``
the engine the round runtime drives, with its later betting windows and 咪牌
pauses. See docs/rules/chuhan_insured.md.
"""

from games import register
from games.base import GameInfo
from games.chuhan_insured import present
from games.chuhan_insured.engine import DEFAULT_OPTIONS, InsuredChuhanEngine

GAME = register(
    GameInfo(
        slug="chuhan_insured",
        name_zh="保险楚汉德州",
        name_en="Insured Chu-Han Hold'em",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=InsuredChuhanEngine(),
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
