"""必下德州 must-bet Texas hold'em (the whole board dealt at once, one betting countdown).

Not registered in ``games.REGISTRY`` yet: its table page does not exist. To
list it, add ``"games.texas"`` to ``games._load`` and call
``games.register(GAME)`` here.
"""

from games.base import GameInfo
from games.texas.engine import DEFAULT_OPTIONS, TexasEngine

GAME = GameInfo(
    slug="texas",
    name_zh="必下德州",
    name_en="Must-bet Texas Hold'em",
    family="seated",
    min_seats=2,
    max_seats=9,
    engine=TexasEngine(),
    default_options=dict(DEFAULT_OPTIONS),
)
