"""填大坑 Fill the Big Pit (九洲游 and 东北 rules), seed 000.

Not registered yet (no line in ``games/__init__.py``): a 烂锅 carries its pot
into the next hand (``Outcome.details["carry"]`` → the next hand's
``config["carry"]``), which the table runtime cannot do yet, and the game has
no table page. ``GAME`` is what the registry line will register.
"""

from games.base import GameInfo, gettext_noop
from games.tiandakeng import present
from games.tiandakeng.engine import DEFAULT_OPTIONS, TiandakengEngine

ENGINE = TiandakengEngine()

GAME = GameInfo(
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
