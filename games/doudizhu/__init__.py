"""斗地主 (Dou Dizhu, "fight the landlord"): three variants of one engine, chosen per room tier."""

from games import register
from games.base import GameInfo
from games.doudizhu import present
from games.doudizhu.engine import DEFAULT_OPTIONS, DoudizhuEngine

ENGINE = DoudizhuEngine()

GAME = register(
    GameInfo(
        slug="doudizhu",
        name_zh="斗地主",
        name_en="Fight the Landlord",
        family="seated",
        min_seats=3,
        max_seats=3,
        engine=ENGINE,
        default_options=dict(DEFAULT_OPTIONS),
        variants=dict(present.VARIANT_LABELS),
        demo_tiers=present.DEMO_TIERS,
        terms=present.TERMS,
        presentation=present.DoudizhuPresentation(ENGINE),
    )
)
