"""升级 / 拖拉机 (Tractor): four players in two partnerships, two decks; its table page is rooms/game_pages/shengji.py."""

from games import register
from games.base import GameInfo
from games.shengji import present
from games.shengji.engine import DEFAULT_OPTIONS, ShengjiEngine

ENGINE = ShengjiEngine()

GAME = register(
    GameInfo(
        slug="shengji",
        name_zh="升级",
        name_en="Tractor",
        family="seated",
        min_seats=4,
        max_seats=4,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.ShengjiPresentation(ENGINE),
    )
)
