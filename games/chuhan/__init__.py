"""楚汉德州 Chu-Han Hold'em: a banker-family game of two Texas hands, 楚 against 汉, banked by the house.

The rules (who wins, the hand-type areas, the odds) are in ``rules.py``, over
the 必下德州 evaluator of ``games.texas.rules``; the engine the round runtime
drives is ``engine.py``. See docs/rules/chuhan.md.
"""

from games import register
from games.base import GameInfo
from games.chuhan import present
from games.chuhan.engine import DEFAULT_OPTIONS, ChuhanEngine

GAME = register(
    GameInfo(
        slug="chuhan",
        name_zh="楚汉德州",
        name_en="Chu-Han Hold'em",
        family="banker",
        # Seats mean nothing in a banker game: any number of players bet on the areas.
        min_seats=1,
        max_seats=1,
        engine=ChuhanEngine(),
        default_options={**DEFAULT_OPTIONS, "area_limits": dict(DEFAULT_OPTIONS["area_limits"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
