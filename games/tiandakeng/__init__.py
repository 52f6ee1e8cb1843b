"""填大坑 Fill the Big Pit (九洲游 and 东北 rules), seed 000; its table page is rooms/game_pages/tiandakeng.py.

A 烂锅 carries its pot into the next hand (``Outcome.details["carry"]`` → the
next hand's ``config["carry"]``), which the table runtime does for every game
(rooms/tables/carry.py).
"""

from games import register
from games.base import GameInfo, gettext_noop
from games.tiandakeng import present
from games.tiandakeng.engine import DEFAULT_OPTIONS, TiandakengEngine

ENGINE = TiandakengEngine()

GAME = register(
    GameInfo(
        slug="tiandakeng",
        name_zh="填大坑",
        name_en="Fill the Big Pit",
        family="seated",
        min_seats=2,
        max_seats=5,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        variants={
            "jiuzhou": gettext_noop("Jiuzhouyou rules"),
            "dongbei": gettext_noop("Northeast rules (20 cards, shared cards)"),
        },
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.TiandakengPresentation(ENGINE),
    )
)
