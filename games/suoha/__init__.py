"""梭哈 Five-card stud (易发梭哈 and 港式五张); its table page is rooms/game_pages/suoha.py."""

from games import register
from games.base import GameInfo, gettext_noop
from games.suoha import present
from games.suoha.engine import DEFAULT_OPTIONS, SuohaEngine

ENGINE = SuohaEngine()

GAME = register(
    GameInfo(
        slug="suoha",
        name_zh="梭哈",
        name_en="Five-card Stud",
        family="seated",
        min_seats=2,
        max_seats=5,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        variants={
            "yifa": gettext_noop("Yifa rules (swap, 2-4 players)"),
            "hk": gettext_noop("Hong Kong five-card (2-5 players)"),
        },
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.SuohaPresentation(ENGINE),
    )
)
