"""多财多福 Fortune Lines: a one-player line game (family "solo") with a 童男/童女 double-up.

The rules (reels, lines, pay table, exact return, provably fair draws) are in
``rules.py``; the engine the solo runtime (rooms/solo) drives is ``engine.py``.
See docs/rules/duocaiduofu.md.
"""

from games import register
from games.base import GameInfo
from games.duocaiduofu import present
from games.duocaiduofu.engine import DEFAULT_OPTIONS, LineEngine

ENGINE = LineEngine()

GAME = register(
    GameInfo(
        slug="duocaiduofu",
        name_zh="多财多福",
        name_en="Fortune Lines",
        family="solo",
        # One player, alone against the house.
        min_seats=1,
        max_seats=1,
        engine=ENGINE,
        default_options={"stake_steps": list(DEFAULT_OPTIONS["stake_steps"])},
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
    )
)
