"""Pure rules engines, one package per game, and the registry that names them.

Nothing in ``games/`` imports Django. Each game package exposes ``GAME``
(a :class:`games.base.GameInfo`) and registers it on import; ``REGISTRY`` maps
its slug to it. ``GAME.family`` says which protocol ``GAME.engine`` follows:
"seated" → :class:`games.base.Engine` (hands at a table of seats), "banker" →
:class:`games.base.BankerEngine` (house-banked rounds of bets on areas), "solo" →
:class:`games.base.SoloEngine` (one player's provably fair plays against the house).
"""

from games.base import GameInfo

REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    """Add a game to ``REGISTRY``; a slug may be registered once."""
    if info.slug in REGISTRY:
        raise ValueError(f"game {info.slug!r} registered twice")
    REGISTRY[info.slug] = info
    return info


# Each game package registers itself on import; add new games to this list.
import games.doudizhu  # noqa: E402, F401
import games.texas  # noqa: E402, F401
import games.zhajinhua  # noqa: E402, F401

# isort: split
# Registered after the older games so a fresh catalogue_sync, which numbers the
# lobby order in registry order, keeps them where they were.
import games.baccarat  # noqa: E402, F401
import games.chexuan  # noqa: E402, F401
import games.chuhan  # noqa: E402, F401
import games.chuhan_insured  # noqa: E402, F401
import games.erbagang  # noqa: E402, F401
import games.niuniu  # noqa: E402, F401
import games.niuniu_hundred  # noqa: E402, F401
import games.sangong  # noqa: E402, F401
import games.shengji  # noqa: E402, F401
import games.shisanshui  # noqa: E402, F401
import games.suoha  # noqa: E402, F401
import games.tiandakeng  # noqa: E402, F401
import games.tongbi_niuniu  # noqa: E402, F401
import games.tuidaohu  # noqa: E402, F401
import games.tuitongzi  # noqa: E402, F401
import games.xuezhan  # noqa: E402, F401
import games.yaoyaole  # noqa: E402, F401

# isort: split
# Registered last (the lobby's order follows the registry's): the one-player games.
import games.duocaiduofu  # noqa: E402, F401
